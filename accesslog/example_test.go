package accesslog_test

import (
	"fmt"
	"strings"

	"github.com/seed53c283f5/robotstxt/accesslog"
)

func Example() {
	log := `66.249.66.1 - - [10/Nov/2026:13:55:36 +0100] "GET /private/a HTTP/1.1" 200 2326 "-" "Googlebot/2.1 (+http://www.google.com/bot.html)"
not a log line
`
	s := accesslog.NewScanner(strings.NewReader(log), 0)
	p, _ := accesslog.NewParser(accesslog.Detect(s.Peek(10)), nil)
	var e accesslog.Entry
	for s.Scan() {
		if err := p.Parse(s.Bytes(), &e); err != nil {
			fmt.Println("skipped:", err)
			continue
		}
		fmt.Println(p.Format(), string(e.IP), e.Time.Format("2006-01-02T15:04:05Z"), string(e.Target), string(e.UserAgent))
	}
	// Output:
	// combined 66.249.66.1 2026-11-10T12:55:36Z /private/a Googlebot/2.1 (+http://www.google.com/bot.html)
	// skipped: accesslog: malformed line: no [time]
}

func ExampleParseFieldMap() {
	fields, _ := accesslog.ParseFieldMap("ip=client,ua=agent")
	p, _ := accesslog.NewParser(accesslog.JSON, fields)
	var e accesslog.Entry
	_ = p.Parse([]byte(`{"client":"192.0.2.7","agent":"GPTBot/1.2","uri":"/a?b=1","ts":1794315336}`), &e)
	fmt.Println(string(e.IP), string(e.UserAgent), string(e.Target), e.Time.UTC())
	// Output: 192.0.2.7 GPTBot/1.2 /a?b=1 2026-11-10 12:55:36 +0000 UTC
}
