package usagejson_test

import (
	"fmt"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/usagejson"
)

func ExampleEncode() {
	r := robotstxt.Parse([]byte("User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: search=yes\nAllow: /\n"))
	q := robotstxt.Query{Agents: []string{"mybot"}, URL: "https://example.com/a"}
	usage, signals := usagejson.Encode(r.Usage(q), true)
	fmt.Printf("%s\n%s\n", usage, signals)
	usage, _ = usagejson.Encode(r.Usage(q), false)
	fmt.Printf("%s\n", usage)
	// Output:
	// {"lines":[2],"search":"unknown","train-ai":"n"}
	// {"ai-input":null,"ai-train":null,"line":3,"search":"yes"}
	// null
}
