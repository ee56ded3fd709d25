package lint_test

import (
	"fmt"

	"github.com/seed53c283f5/robotstxt/lint"
)

func ExampleCheck() {
	body := []byte("User-agent: *\nDisalow: /private/\nDisallow: .gif$\n")
	for _, f := range lint.Check(&lint.File{Name: "robots.txt", Body: body}) {
		fmt.Printf("%s:%d:%d: %s[%s]\n", f.File, f.Line, f.Column, f.Severity, f.Code)
	}
	// Output:
	// robots.txt:2:1: warning[accepted-typo]
	// robots.txt:3:11: warning[pattern-cannot-match]
}

func ExampleLookupCode() {
	c, _ := lint.LookupCode("shadowed-rule")
	fmt.Println(c.Severity, c.Dialects)
	// Output: warning [google rfc9309 bing yandex]
}
