package audit_test

import (
	"fmt"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/audit"
)

func Example() {
	robots := robotstxt.ParseString("User-agent: *\nDisallow: /private/\n")
	a, err := audit.New(&audit.Options{Versions: []audit.Version{{Source: "robots.txt", Robots: robots}}})
	if err != nil {
		panic(err)
	}
	defer a.Close()
	for _, line := range []string{
		`66.249.66.1 - - [10/Nov/2026:12:00:00 +0000] "GET /private/a HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
		`66.249.66.1 - - [10/Nov/2026:12:00:05 +0000] "GET /robots.txt HTTP/1.1" 200 40 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
		`203.0.113.5 - - [10/Nov/2026:12:00:09 +0000] "GET /private/a HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0"`,
	} {
		a.AddLine([]byte(line))
	}
	r := a.Report()
	for _, c := range r.Crawlers {
		fmt.Printf("%s: %d requests, %d disallowed\n", c.Crawler, c.Requests, c.Disallowed)
		for _, p := range c.TopDisallowed {
			fmt.Printf("  %s by line %d %q\n", p.Path, p.Line, p.Rule)
		}
	}
	// Output:
	// Googlebot: 2 requests, 1 disallowed
	//   /private/a by line 2 "Disallow: /private/"
}
