package cache_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/seed53c283f5/robotstxt/cache"
)

func Example() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=3600")
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()

	c := cache.New(nil) // in memory, Google's fetch policy
	ctx := context.Background()
	for _, path := range []string{"/private/a", "/public/b"} {
		ok, err := c.Allowed(ctx, "ExampleBot", site.URL+path)
		if err != nil {
			panic(err)
		}
		fmt.Println(path, ok)
	}
	a, _ := c.Get(ctx, site.URL+"/anything")
	fmt.Println(a.Policy, a.Source, a.ExpiresAt.Sub(a.FetchedAt))
	fmt.Printf("%+v\n", c.Stats().Fetches)
	// Output:
	// /private/a false
	// /public/b true
	// rules cache 1h0m0s
	// 1
}
