package polite_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/seed53c283f5/robotstxt/polite"
)

func Example() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		io.WriteString(w, "hello from "+r.URL.Path)
	}))
	defer site.Close()

	t, err := polite.New(&polite.Options{UserAgent: "ExampleBot/1.0 (+https://example.com/bot)"})
	if err != nil {
		panic(err)
	}
	client := &http.Client{Transport: t}

	resp, err := client.Get(site.URL + "/public/page")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(string(body))

	_, err = client.Get(site.URL + "/private/page")
	var d *polite.DisallowedError
	if errors.As(err, &d) {
		fmt.Printf("refused, line %d: %s\n", d.Line, d.Rule)
	}
	// Output:
	// hello from /public/page
	// refused, line 2: Disallow: /private/
}
