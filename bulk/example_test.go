package bulk_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/seed53c283f5/robotstxt/bulk"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
)

// site answers every robots.txt request with the same file, in memory; a
// real run gives its fetcher bulk.NewTransport (or none: the fetcher's
// own).
type site struct{}

func (site) RoundTrip(r *http.Request) (*http.Response, error) {
	body := "User-agent: *\nDisallow: /private\n\nUser-agent: Bingbot\nDisallow: /\n"
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/plain"}},
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// A run over three URLs of one origin for two crawlers, written as JSON
// Lines: the origin's robots.txt is fetched once.
func Example() {
	c := cache.New(&cache.Options{Store: store.NewMemory(nil), Fetcher: &fetch.Fetcher{Transport: site{}}})
	subjects, err := bulk.Subjects([]string{"Googlebot", "Bingbot"}, nil)
	if err != nil {
		panic(err)
	}
	checker, err := bulk.New(&bulk.Options{Cache: c, Subjects: subjects})
	if err != nil {
		panic(err)
	}
	in := strings.NewReader("https://example.com/\nhttps://example.com/private/a\n{\"url\":\"https://example.com/b\",\"id\":3}\n")
	sum, err := checker.Run(context.Background(), in, os.Stdout)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d URLs, %d results, %d fetch\n", sum.URLs, sum.Results, sum.Fetches.Made)
	// Output:
	// {"url":"https://example.com/","crawler":"Googlebot","allowed":true,"line":0,"rule":"","origin":"https://example.com","policy":"rules","reason":"no rule matches: allowed","source":"network"}
	// {"url":"https://example.com/","crawler":"Bingbot","allowed":false,"line":5,"rule":"Disallow: /","origin":"https://example.com","policy":"rules","reason":"the longest matching rule, line 5, disallows","source":"network"}
	// {"url":"https://example.com/private/a","crawler":"Googlebot","allowed":false,"line":2,"rule":"Disallow: /private","origin":"https://example.com","policy":"rules","reason":"the longest matching rule, line 2, disallows","source":"cache"}
	// {"url":"https://example.com/private/a","crawler":"Bingbot","allowed":false,"line":5,"rule":"Disallow: /","origin":"https://example.com","policy":"rules","reason":"the longest matching rule, line 5, disallows","source":"cache"}
	// {"url":"https://example.com/b","id":3,"crawler":"Googlebot","allowed":true,"line":0,"rule":"","origin":"https://example.com","policy":"rules","reason":"no rule matches: allowed","source":"cache"}
	// {"url":"https://example.com/b","id":3,"crawler":"Bingbot","allowed":false,"line":5,"rule":"Disallow: /","origin":"https://example.com","policy":"rules","reason":"the longest matching rule, line 5, disallows","source":"cache"}
	// 3 URLs, 6 results, 1 fetch
}

// Results as values: RunFunc gives each to a function, in input order.
func ExampleChecker_RunFunc() {
	c := cache.New(&cache.Options{Store: store.NewMemory(nil), Fetcher: &fetch.Fetcher{Transport: site{}}})
	checker, err := bulk.New(&bulk.Options{Cache: c}) // Googlebot
	if err != nil {
		panic(err)
	}
	in := strings.NewReader("https://example.com/private/a\nhttps://example.com/public\nexample.com/x\n")
	_, err = checker.RunFunc(context.Background(), in, func(r bulk.Result) error {
		switch {
		case r.Error != "":
			fmt.Printf("%s: %s\n", r.URL, r.Error)
		case *r.Allowed:
			fmt.Printf("%s: allowed\n", r.URL)
		default:
			fmt.Printf("%s: disallowed by line %d, %s\n", r.URL, r.Line, r.Rule)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// https://example.com/private/a: disallowed by line 2, Disallow: /private
	// https://example.com/public: allowed
	// example.com/x: line 3: fetch: "example.com/x" is not an absolute URL (no scheme such as https://)
}
