package polite

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// paySite is a loopback site that sells its pages as pay per crawl does:
// /paid/ costs USD 0.10 (402 with crawler-price, unless the request offers
// enough: then 200 with crawler-charged), /noprice answers 402 without a
// price, /badprice with one that does not read, /badcharge charges with
// an unreadable crawler-charged; the rest is free.
type paySite struct {
	*httptest.Server
	mu     sync.Mutex
	offers []string // the price headers of each request for a page
}

func newPaySite(t *testing.T) *paySite {
	s := &paySite{}
	price, _ := fetch.ParsePrice("USD 0.10")
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
			return
		}
		exact, maxp := r.Header.Get(fetch.HeaderCrawlerExactPrice), r.Header.Get(fetch.HeaderCrawlerMaxPrice)
		s.mu.Lock()
		s.offers = append(s.offers, "exact="+exact+" max="+maxp)
		s.mu.Unlock()
		switch r.URL.Path {
		case "/noprice":
			w.WriteHeader(http.StatusPaymentRequired)
			return
		case "/badprice":
			w.Header().Set("crawler-price", "ten cents")
			w.WriteHeader(http.StatusPaymentRequired)
			return
		case "/badcharge":
			w.Header().Set("crawler-charged", "USD")
			w.Write([]byte("paid, somehow"))
			return
		}
		if !strings.HasPrefix(r.URL.Path, "/paid/") {
			w.Write([]byte("free " + r.URL.Path))
			return
		}
		if exact != "" && maxp != "" {
			w.Header().Set("crawler-error", "ConflictingPriceHeaders")
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		ep, eerr := fetch.ParsePrice(exact)
		mp, merr := fetch.ParsePrice(maxp)
		pay := func() {
			w.Header().Set("crawler-charged", price.String())
			w.Write([]byte("paid " + r.URL.Path))
		}
		switch {
		case exact != "" && eerr == nil && ep == price:
			pay()
			return
		case maxp != "" && merr == nil && mp.Currency == price.Currency && mp.Amount >= price.Amount:
			pay()
			return
		case exact != "":
			w.Header().Set("crawler-error", "InvalidCrawlerExactPrice")
		case maxp != "":
			w.Header().Set("crawler-error", "InvalidCrawlerMaxPrice")
		}
		w.Header().Set("crawler-price", price.String())
		w.WriteHeader(http.StatusPaymentRequired)
		w.Write([]byte(`{"price":"USD 0.10"}`))
	}))
	t.Cleanup(s.Close)
	return s
}

func mustPrice(t *testing.T, s string) fetch.Price {
	t.Helper()
	p, err := fetch.ParsePrice(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPriceError: a page answered 402 is a *PriceError with its price,
// counted as priced; it does not pause the origin (no back-off) and is
// not retried.
func TestPriceError(t *testing.T) {
	s := newPaySite(t)
	clk := &fakeTime{}
	tr, err := New(&Options{UserAgent: "PayBot/1.0", Now: clk.Now, Sleep: clk.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: tr}
	_, err = c.Get(s.URL + "/paid/a")
	var pe *PriceError
	if !errors.As(err, &pe) || !errors.Is(err, ErrPaymentRequired) {
		t.Fatalf("402: err %v, want a *PriceError", err)
	}
	if pe.Payment.Status != fetch.PaymentRequired || pe.Payment.Price.String() != "USD 0.10" || !pe.Offered.IsZero() {
		t.Errorf("PriceError %+v", pe)
	}
	if string(pe.Body) != `{"price":"USD 0.10"}` || pe.Header.Get("crawler-price") != "USD 0.10" {
		t.Errorf("PriceError keeps body %q, header %v", pe.Body, pe.Header)
	}
	if want := "polite: " + s.URL + "/paid/a is offered at a price: USD 0.10"; pe.Error() != want {
		t.Errorf("Error() = %q, want %q", pe.Error(), want)
	}
	// No price, and a price that does not read: still priced, and said.
	for path, want := range map[string]string{"/noprice": "(402, no crawler-price)", "/badprice": `(402; crawler-price unreadable: invalid price "ten cents"`} {
		_, err := c.Get(s.URL + path)
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a *PriceError saying %q", path, err, want)
		}
		if path == "/badprice" && !errors.Is(pe.Payment.Err, fetch.ErrInvalidPrice) {
			t.Errorf("%s: Payment.Err %v", path, pe.Payment.Err)
		}
	}
	// A free page after them is sent at once: a 402 is no failure to back
	// off from.
	resp, err := c.Get(s.URL + "/free")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(clk.sleeps) != 0 {
		t.Errorf("slept %v after 402 answers", clk.sleeps)
	}
	st := tr.Stats()
	if st.Priced != 3 || st.Sent != 4 || st.Charged != 0 || len(st.Pauses) != 0 {
		t.Errorf("stats %+v, want 3 priced of 4 sent, nothing charged, no pauses", st)
	}
	// Each page was asked once: a 402 is not retried.
	if n := len(s.offers); n != 4 {
		t.Errorf("%d requests for pages, want 4: %v", n, s.offers)
	}
}

// TestOffer: a crawler-max-price on every request pays for the pages at
// or under it, and the charges add up exactly; one too low is a
// *PriceError naming the offer and the site's crawler-error; an exact
// price offered per request with WithOffer pays.
func TestOffer(t *testing.T) {
	s := newPaySite(t)
	// The base transport sees the price header: a Web Bot Auth signer
	// there signs it.
	var mu sync.Mutex
	var atBase []string
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		atBase = append(atBase, r.Header.Get(fetch.HeaderCrawlerMaxPrice))
		mu.Unlock()
		return http.DefaultTransport.RoundTrip(r)
	})
	tr, err := New(&Options{UserAgent: "PayBot/1.0", Base: base, MaxPrice: mustPrice(t, "USD 0.25")})
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: tr}
	for _, p := range []string{"/paid/a", "/paid/b", "/paid/c"} {
		resp, err := c.Get(s.URL + p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		pay := fetch.PaymentOf(resp.StatusCode, resp.Header)
		resp.Body.Close()
		if pay.Status != fetch.PaymentCharged || pay.Price.String() != "USD 0.10" {
			t.Errorf("%s: payment %+v", p, pay)
		}
	}
	st := tr.Stats()
	if st.Charged != 3 || st.ChargedTotal["USD"].String() != "USD 0.30" || st.Priced != 0 {
		t.Errorf("stats: charged %d, total %v, priced %d; want 3, USD 0.30 exactly, 0", st.Charged, st.ChargedTotal, st.Priced)
	}
	if len(atBase) == 0 || atBase[len(atBase)-1] != "USD 0.25" {
		t.Errorf("the base transport saw crawler-max-price %q", atBase)
	}
	// Too low, for one request.
	ctx := WithOffer(context.Background(), Offer{Price: mustPrice(t, "USD 0.05")})
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/paid/d", nil)
	_, err = c.Do(req)
	var pe *PriceError
	if !errors.As(err, &pe) || pe.Payment.Code != "InvalidCrawlerMaxPrice" || pe.Offered.String() != "crawler-max-price: USD 0.05" {
		t.Fatalf("too low: %v (%+v)", err, pe)
	}
	if !strings.HasSuffix(err.Error(), "offered at a price: USD 0.10; offered crawler-max-price: USD 0.05; crawler-error: InvalidCrawlerMaxPrice") {
		t.Errorf("Error() = %q", err)
	}
	// Pay the price named, exactly.
	ctx = WithOffer(context.Background(), Offer{Price: pe.Payment.Price, Exact: true})
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/paid/d", nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := s.offers[len(s.offers)-1]; got != "exact=USD 0.10 max=" {
		t.Errorf("the exact offer went as %q", got)
	}
	// No offer at all for one request.
	req, _ = http.NewRequestWithContext(WithOffer(context.Background(), Offer{}), http.MethodGet, s.URL+"/free", nil)
	req.Header.Set(fetch.HeaderCrawlerMaxPrice, "USD 9.99") // replaced by the request's offer: none
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := s.offers[len(s.offers)-1]; got != "exact= max=" {
		t.Errorf("the zero offer went as %q", got)
	}
	// A charge that does not read is counted, not added.
	resp, err = c.Get(s.URL + "/badcharge")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	st = tr.Stats()
	if st.Charged != 5 || st.ChargedUnreadable != 1 || st.ChargedTotal["USD"].String() != "USD 0.40" || st.Priced != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestOfferOptions(t *testing.T) {
	usd := mustPrice(t, "USD 0.10")
	if _, err := New(&Options{MaxPrice: usd, ExactPrice: usd}); err == nil || !strings.Contains(err.Error(), "ConflictingPriceHeaders") {
		t.Errorf("both prices: %v", err)
	}
	if _, err := New(&Options{MaxPrice: fetch.Price{Currency: "US", Amount: 1}}); err == nil {
		t.Error("a price that cannot be sent was accepted")
	}
	if _, err := New(&Options{MaxPrice: fetch.Price{Currency: "USD", Amount: -1}}); err == nil {
		t.Error("a negative price was accepted")
	}
	tr, err := New(&Options{ExactPrice: usd})
	if err != nil || tr.offer.String() != "crawler-exact-price: USD 0.10" {
		t.Errorf("ExactPrice: %v, %v", tr, err)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
