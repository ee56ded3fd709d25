package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

func ExampleOriginOf() {
	for _, u := range []string{"HTTPS://Example.COM:443/a/b?c", "http://www.exämple.com/", "http://[::1]:8080/x"} {
		o, err := fetch.OriginOf(u)
		if err != nil {
			panic(err)
		}
		fmt.Println(o, o.RobotsURL())
	}
	// Output:
	// https://example.com https://example.com/robots.txt
	// http://www.xn--exmple-cua.com http://www.xn--exmple-cua.com/robots.txt
	// http://[::1]:8080 http://[::1]:8080/robots.txt
}

func ExampleFetcher_Fetch() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/new-robots.txt", http.StatusMovedPermanently)
			return
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer site.Close()
	o, _ := fetch.OriginOf(site.URL)

	var f fetch.Fetcher // Google's policy
	res, err := f.Fetch(context.Background(), o, fetch.Validators{})
	fmt.Println(res.Policy, res.Unreachable, res.Status, len(res.Trace), err)

	f = fetch.Fetcher{Dialect: robotstxt.Yandex} // anything but 200 OK means no restrictions: anything but 200 OK means no restrictions
	res, _ = f.Fetch(context.Background(), o, fetch.Validators{})
	fmt.Println(res.Policy, res.Unreachable)
	// Output:
	// disallow-all true 503 2 <nil>
	// allow-all true
}

func ExampleError() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	o, _ := fetch.OriginOf("http://" + ln.Addr().String())
	ln.Close() // nothing listens there now

	var f fetch.Fetcher
	res, err := f.Fetch(context.Background(), o, fetch.Validators{})
	var fe *fetch.Error
	if errors.As(err, &fe) {
		fmt.Println(res.Policy, fe.Step)
	}
	// Output:
	// disallow-all dial
}

// A crawler with its own HTTP client (colly, net/http) gets the same answers
// as the Fetcher: fetch /robots.txt as usual, then Interpret the status,
// header and body for each crawler's dialect.
func ExampleInterpret() {
	// What a client got: 403 Forbidden.
	status, header, body := http.StatusForbidden, http.Header{}, []byte(nil)
	for _, name := range []string{"Googlebot", "Baiduspider", "YandexBot"} {
		c, _ := robotstxt.LookupCrawler(name)
		a := fetch.Interpret(status, header, body, c.Dialect)
		d := a.Decide(robotstxt.Query{URL: "https://example.com/page", Crawler: &c})
		fmt.Println(name, a.Policy, d.Allowed)
	}

	// 200 OK with rules: the answer holds the parsed file.
	body = []byte("User-agent: *\nDisallow: /*.pdf$\n")
	a := fetch.Interpret(http.StatusOK, http.Header{"Content-Type": {"text/plain"}}, body, robotstxt.Google)
	fmt.Println(a.Policy, a.Allowed("MyBot", "/doc.pdf"), a.Allowed("MyBot", "/doc.html"))
	// Output:
	// Googlebot allow-all true
	// Baiduspider disallow-all false
	// YandexBot allow-all true
	// rules false true
}
