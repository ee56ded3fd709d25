package polite_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/seed53c283f5/robotstxt/fetch"
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

// A page sold by pay per crawl: the first request, which offers nothing,
// is a *PriceError naming the price; the crawler accepts it and asks
// again offering exactly that price, and Stats adds up what it paid.
func ExamplePriceError() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		case r.Header.Get("crawler-exact-price") == "USD 0.01":
			w.Header().Set("crawler-charged", "USD 0.01")
			io.WriteString(w, "the article")
		default:
			w.Header().Set("crawler-price", "USD 0.01")
			w.WriteHeader(http.StatusPaymentRequired)
		}
	}))
	defer site.Close()

	t, err := polite.New(&polite.Options{UserAgent: "ExampleBot/1.0 (+https://example.com/bot)"})
	if err != nil {
		panic(err)
	}
	client := &http.Client{Transport: t}

	_, err = client.Get(site.URL + "/article")
	var pe *polite.PriceError
	if !errors.As(err, &pe) {
		panic(err)
	}
	fmt.Println("offered at", pe.Payment.Price)

	ctx := polite.WithOffer(context.Background(), polite.Offer{Price: pe.Payment.Price, Exact: true})
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, site.URL+"/article", nil)
	resp, err := client.Do(req)
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(string(body), "-", fetch.PaymentOf(resp.StatusCode, resp.Header))
	fmt.Println("spent", t.Stats().ChargedTotal["USD"])
	// Output:
	// offered at USD 0.01
	// the article - charged USD 0.01
	// spent USD 0.01
}
