package bulk

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
)

// TestPaymentRequired: origins whose robots.txt answers 402 are allow-all
// (a 4xx) with a payment of their own in JSON and CSV, counted in the
// summary as priced; the other origins' results are as before.
func TestPaymentRequired(t *testing.T) {
	serve := func(status int, price string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if price != "" {
				w.Header().Set("crawler-price", price)
			}
			w.WriteHeader(status)
			if status == 200 {
				w.Write([]byte("User-agent: *\nDisallow: /private\n"))
			}
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	priced, noPrice, badPrice, plain := serve(402, "USD 0.01"), serve(402, ""), serve(402, "0.01 USD"), serve(200, "")
	in := strings.Join([]string{priced + "/a", priced + "/b", noPrice + "/a", badPrice + "/a", plain + "/private/x"}, "\n") + "\n"
	run := func(f Format) (string, Summary) {
		c := cache.New(&cache.Options{Store: store.NewMemory(nil), Fetcher: &fetch.Fetcher{}})
		ch, err := New(&Options{Cache: c, Format: f})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		sum, err := ch.Run(context.Background(), strings.NewReader(in), &out)
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), sum
	}

	out, sum := run(JSONL)
	var got []Result
	if err := ReadResults(strings.NewReader(out), func(r Result) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Fatalf("%d results:\n%s", len(got), out)
	}
	want := []struct{ status, price, priceErr string }{
		{"required", "USD 0.01", ""}, {"required", "USD 0.01", ""}, {"required", "", ""}, {"required", "", "the currency must be three letters"}, {"", "", ""},
	}
	for i, w := range want {
		r := got[i]
		if w.status == "" {
			if r.Payment != nil || r.Policy != "rules" || *r.Allowed {
				t.Errorf("%s: %+v, want rules, disallowed, no payment", r.URL, r)
			}
			continue
		}
		if r.Policy != "allow-all" || !*r.Allowed || r.Payment == nil || r.Payment.Status != w.status || r.Payment.Price != w.price ||
			!strings.Contains(r.Payment.PriceError, w.priceErr) || (w.priceErr == "") != (r.Payment.PriceError == "") {
			t.Errorf("%s: %+v payment %+v, want allow-all, allowed, %+v", r.URL, r, r.Payment, w)
		}
	}
	if !strings.Contains(out, `"source":"network","payment":{"status":"required","price":"USD 0.01"}}`) {
		t.Errorf("JSON lines:\n%s", out)
	}
	if sum.Priced != 3 || sum.Policies["allow-all"] != 4 {
		t.Errorf("summary: %d priced origins, %v, want 3 and 4 allow-all", sum.Priced, sum.Policies)
	}

	out, sum = run(CSV)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 || recs[0][len(recs[0])-1] != "payment" {
		t.Fatalf("CSV:\n%s", out)
	}
	for i, w := range []string{"required: USD 0.01", "required: USD 0.01", "required", "required: crawler-price unreadable", ""} {
		if got := recs[i+1][len(recs[i+1])-1]; got != w {
			t.Errorf("CSV row %d: payment %q, want %q", i+1, got, w)
		}
	}
	if sum.Priced != 3 {
		t.Errorf("CSV summary: %d priced", sum.Priced)
	}
}
