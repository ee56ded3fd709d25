package termesc_test

import (
	"fmt"

	"github.com/seed53c283f5/robotstxt/internal/termesc"
)

func ExampleString() {
	fmt.Println(termesc.String("Disallow: /a\x1b]0;pwned\x07\u009b"))
	// Output: Disallow: /a\x1b]0;pwned\x07\u009b
}

func ExampleJSON() {
	fmt.Printf("%s\n", termesc.JSON([]byte("{\"rule\":\"/a\u0085\x7f\"}")))
	// Output: {"rule":"/a\u0085\u007f"}
}
