package fetch

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

func TestParsePrice(t *testing.T) {
	for _, tc := range []struct {
		in   string
		cur  string
		amt  Amount
		text string
	}{
		{"USD 0.01", "USD", 10_000_000, "USD 0.01"},
		{"usd 0.01", "USD", 10_000_000, "USD 0.01"},
		{"EUR 5", "EUR", 5 * AmountScale, "EUR 5.00"},
		{"USD 0.50", "USD", AmountScale / 2, "USD 0.50"},
		{"USD 0.5", "USD", AmountScale / 2, "USD 0.50"},
		{"  USD \t 1.25  ", "USD", 1_250_000_000, "USD 1.25"},
		{"USD 0.005", "USD", 5_000_000, "USD 0.005"},
		{"USD 0.000000001", "USD", 1, "USD 0.000000001"},
		{"USD 0.0100000000000", "USD", 10_000_000, "USD 0.01"},
		{"USD 000012.30", "USD", 12_300_000_000, "USD 12.30"},
		{"USD 0", "USD", 0, "USD 0.00"},
		{"JPY 999999999.999999999", "JPY", 999_999_999_999_999_999, "JPY 999999999.999999999"},
	} {
		p, err := ParsePrice(tc.in)
		if err != nil {
			t.Errorf("ParsePrice(%q): %v", tc.in, err)
			continue
		}
		if p.Currency != tc.cur || p.Amount != tc.amt || p.String() != tc.text {
			t.Errorf("ParsePrice(%q) = %+v (%q), want %s %d (%q)", tc.in, p, p, tc.cur, tc.amt, tc.text)
		}
		// What String writes reads back to the same price.
		if again, err := ParsePrice(p.String()); err != nil || again != p {
			t.Errorf("ParsePrice(%q) = %+v, %v; want %+v", p.String(), again, err, p)
		}
	}
}

func TestParsePriceErrors(t *testing.T) {
	for _, tc := range []struct{ in, why string }{
		{"", "empty"},
		{"   ", "empty"},
		{"0.01", "three letters"},
		{"US 0.01", "three letters"},
		{"U$D 0.01", "three letters"},
		{"USD", "no amount"},
		{"USD ", "no amount"},
		{"USD0.01", "followed by a space"},
		{"USDX 0.01", "followed by a space"},
		{"0.01 USD", "three letters"},
		{"USD -0.01", "sign"},
		{"USD +0.01", "sign"},
		{"USD .5", "before the decimal point"},
		{"USD 5.", "after the decimal point"},
		{"USD 1e3", "not a decimal"},
		{"USD 0x10", "not a decimal"},
		{"USD 1.2.3", "not a decimal"},
		{"USD 1,000.00", "more than one value"},
		{"USD 0.01, USD 0.02", "more than one value"},
		{"USD 0.01 extra", "not a decimal"},
		{"USD 1000000000", "too large"},
		{"USD 0.0000000001", "too precise"},
		{"USD 0,01", "more than one value"},
		{"USD ٣", "not a decimal"},
		{"USD " + strings.Repeat("1", 80), "longer than 64"},
	} {
		p, err := ParsePrice(tc.in)
		if err == nil {
			t.Errorf("ParsePrice(%q) = %+v, want an error", tc.in, p)
			continue
		}
		if !errors.Is(err, ErrInvalidPrice) || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("ParsePrice(%q): %v, want ErrInvalidPrice saying %q", tc.in, err, tc.why)
		}
		if !p.IsZero() {
			t.Errorf("ParsePrice(%q) = %+v with its error, want no price", tc.in, p)
		}
	}
}

func TestPaymentOf(t *testing.T) {
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			out.Add(kv[i], kv[i+1])
		}
		return out
	}
	usd1 := Price{Currency: "USD", Amount: 10_000_000}
	for _, tc := range []struct {
		name   string
		status int
		h      http.Header
		want   PaymentStatus
		price  Price
		err    bool
		code   string
		text   string
	}{
		{"402 with a price", 402, h("Crawler-Price", "USD 0.01"), PaymentRequired, usd1, false, "", "payment required: USD 0.01"},
		{"402 without", 402, nil, PaymentRequired, Price{}, false, "", "payment required (no crawler-price)"},
		{"402 malformed", 402, h("crawler-price", "one cent"), PaymentRequired, Price{}, true, "", "payment required (crawler-price unreadable: invalid price \"one cent\": the amount is not a decimal number (digits, a point, digits))"},
		{"402 two values", 402, h("crawler-price", "USD 0.01", "crawler-price", "USD 0.02"), PaymentRequired, Price{}, true, "", ""},
		{"402 with an error code", 402, h("crawler-price", "USD 0.01", "crawler-error", "InvalidCrawlerMaxPrice"), PaymentRequired, usd1, false, "InvalidCrawlerMaxPrice", "payment required: USD 0.01 (crawler-error: InvalidCrawlerMaxPrice)"},
		{"200 charged", 200, h("crawler-charged", "USD 0.01"), PaymentCharged, usd1, false, "", "charged USD 0.01"},
		{"200 charged malformed", 200, h("crawler-charged", "USD"), PaymentCharged, Price{}, true, "", ""},
		{"200 plain", 200, h("Content-Type", "text/plain"), NoPayment, Price{}, false, "", ""},
		{"403 forbidden with a code", 403, h("crawler-error", "CrawlerForbidden\x1b[31m"), NoPayment, Price{}, false, "CrawlerForbidden[31m", "(crawler-error: CrawlerForbidden[31m)"},
		{"404 with a price ignored", 404, h("crawler-price", "USD 0.01"), NoPayment, Price{}, false, "", ""},
		{"500 charged ignored", 500, h("crawler-charged", "USD 0.01"), NoPayment, Price{}, false, "", ""},
	} {
		p := PaymentOf(tc.status, tc.h)
		if p.Status != tc.want || p.Price != tc.price || (p.Err != nil) != tc.err || p.Code != tc.code {
			t.Errorf("%s: PaymentOf = %+v, want %v %v err=%v code %q", tc.name, p, tc.want, tc.price, tc.err, tc.code)
		}
		if tc.text != "" && p.String() != tc.text {
			t.Errorf("%s: String() = %q, want %q", tc.name, p, tc.text)
		}
		// The trace's copy of the headers says the same.
		r := Request{Status: tc.status}
		if tc.h != nil {
			r.CrawlerPrice = traceHeader(tc.h, HeaderCrawlerPrice)
			r.CrawlerCharged = traceHeader(tc.h, HeaderCrawlerCharged)
			r.CrawlerError = traceHeader(tc.h, HeaderCrawlerError)
		}
		if got := r.Payment(); got.Status != p.Status || got.Price != p.Price || got.Code != p.Code || (got.Err == nil) != (p.Err == nil) {
			t.Errorf("%s: Request.Payment = %+v, PaymentOf = %+v", tc.name, got, p)
		}
		if got := PaymentOf(tc.status, r.AnswerHeader()); got.Status != p.Status || got.Price != p.Price {
			t.Errorf("%s: PaymentOf(AnswerHeader) = %+v, PaymentOf = %+v", tc.name, got, p)
		}
	}
}

func TestPaymentOfTrace(t *testing.T) {
	tr := []Request{{Status: 301}, {Status: 402, CrawlerPrice: "USD 0.02"}}
	if p := PaymentOfTrace(402, tr); p.Status != PaymentRequired || p.Price.String() != "USD 0.02" {
		t.Errorf("PaymentOfTrace(402, ...) = %+v, want required USD 0.02", p)
	}
	// A copy's status beside another fetch's trace: the status alone.
	if p := PaymentOfTrace(402, []Request{{Status: 503}}); p.Status != PaymentRequired || !p.Price.IsZero() {
		t.Errorf("PaymentOfTrace(402, [503]) = %+v, want required, no price", p)
	}
	if p := PaymentOfTrace(200, tr); !p.IsZero() {
		t.Errorf("PaymentOfTrace(200, ...) = %+v, want nothing", p)
	}
}

func TestPaymentJSON(t *testing.T) {
	b, _ := json.Marshal(PaymentOf(402, http.Header{"Crawler-Price": {"USD 0.01"}}).JSON())
	if string(b) != `{"status":"required","price":"USD 0.01"}` {
		t.Errorf("JSON = %s", b)
	}
	b, _ = json.Marshal(PaymentOf(402, http.Header{"Crawler-Price": {"USD"}}).JSON())
	if !strings.Contains(string(b), `"status":"required","price_error":"invalid price \"USD\": no amount`) {
		t.Errorf("JSON = %s", b)
	}
	var p Price
	if err := json.Unmarshal([]byte(`"eur 1.5"`), &p); err != nil || p.String() != "EUR 1.50" {
		t.Errorf("UnmarshalText: %v, %v", p, err)
	}
	if err := json.Unmarshal([]byte(`"1.5"`), &p); !errors.Is(err, ErrInvalidPrice) {
		t.Errorf("UnmarshalText(1.5): %v", err)
	}
}

// TestFetch402 is a robots.txt answered 402 Payment Required: a 4xx,
// everything allowed, in every dialect; the Result names the outcome and
// the price, and the reason says it.
func TestFetch402(t *testing.T) {
	for _, tc := range []struct {
		name, price string
		want        string // in the reason
		pay         string // Payment.String()
	}{
		{"priced", "USD 0.01", "402 Payment Required (crawler-price: USD 0.01): robots.txt offered at a price (pay per crawl) is no valid robots.txt: everything is allowed", "payment required: USD 0.01"},
		{"no price", "", "402 Payment Required: robots.txt offered at a price (pay per crawl) is no valid robots.txt: everything is allowed", "payment required (no crawler-price)"},
		{"malformed", "0.01", `402 Payment Required (crawler-price unreadable: invalid price "0.01": the currency must be three letters (ISO 4217), as in "USD 0.01"): robots.txt offered`, `payment required (crawler-price unreadable: invalid price "0.01"`},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if tc.price != "" {
				w.Header().Set("crawler-price", tc.price)
			}
			w.WriteHeader(http.StatusPaymentRequired)
			w.Write([]byte("pay first"))
		}))
		o, _ := OriginOf(srv.URL)
		for _, d := range []robotstxt.Dialect{robotstxt.Google, robotstxt.RFC9309, robotstxt.Bing, robotstxt.Yandex, robotstxt.Baidu, robotstxt.Original} {
			res, err := (&Fetcher{Dialect: d}).Fetch(context.Background(), o, Validators{})
			if err != nil {
				t.Fatalf("%s, %v: %v", tc.name, d, err)
			}
			if res.Policy != AllowAll || res.Unreachable || res.Status != 402 {
				t.Errorf("%s, %v: policy %v unreachable %v status %d, want allow-all, an answer, 402", tc.name, d, res.Policy, res.Unreachable, res.Status)
			}
			if res.Payment.Status != PaymentRequired || !strings.HasPrefix(res.Payment.String(), tc.pay) {
				t.Errorf("%s, %v: Payment %q, want %q", tc.name, d, res.Payment, tc.pay)
			}
			if d == robotstxt.Google && !strings.HasPrefix(res.Reason, tc.want) {
				t.Errorf("%s: reason %q, want %q", tc.name, res.Reason, tc.want)
			}
			if !strings.Contains(res.Reason, "402 Payment Required") {
				t.Errorf("%s, %v: reason %q names no 402", tc.name, d, res.Reason)
			}
			if n := len(res.Trace); n != 1 || res.Trace[0].CrawlerPrice != tc.price {
				t.Errorf("%s, %v: trace %+v, want one request with crawler-price %q", tc.name, d, res.Trace, tc.price)
			}
			// Interpret, given the same answer, says the same.
			a := Interpret(402, http.Header{"Crawler-Price": {tc.price}}, nil, d)
			if a.Policy != res.Policy || a.Reason != res.Reason {
				t.Errorf("%s, %v: Interpret %v %q, Fetch %v %q", tc.name, d, a.Policy, a.Reason, res.Policy, res.Reason)
			}
		}
		srv.Close()
	}
}

// TestFetchOtherStatusesUnchanged: a 404 or 403 says nothing of payment,
// and its reason is as before.
func TestFetchOtherStatusesUnchanged(t *testing.T) {
	for code, want := range map[int]string{
		404: "404 Not Found: no valid robots.txt, everything is allowed",
		403: "403 Forbidden: no valid robots.txt, everything is allowed",
	} {
		a := Interpret(code, http.Header{"Crawler-Price": {"USD 0.01"}}, nil, robotstxt.Google)
		if a.Reason != want {
			t.Errorf("%d: reason %q, want %q", code, a.Reason, want)
		}
	}
}

func FuzzParsePrice(f *testing.F) {
	for _, s := range []string{"USD 0.01", "usd 1", "EUR 0.50", "USD .5", "USD -1", "USD 1e3", "", "USD 999999999.999999999", "USD 0.0000000001", "X 1", "USD 1, USD 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePrice(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidPrice) || !p.IsZero() {
				t.Fatalf("ParsePrice(%q) = %+v, %v: an error must wrap ErrInvalidPrice and give no price", s, p, err)
			}
			return
		}
		if len(p.Currency) != 3 || strings.ToUpper(p.Currency) != p.Currency || p.Amount < 0 || p.Amount > maxAmountUnits*AmountScale+AmountScale-1 {
			t.Fatalf("ParsePrice(%q) = %+v: out of range", s, p)
		}
		again, err := ParsePrice(p.String())
		if err != nil || again != p {
			t.Fatalf("ParsePrice(%q) = %+v; its String %q reads as %+v, %v", s, p, p.String(), again, err)
		}
		// The header's reading through a trace is the same.
		pay := PaymentOf(402, http.Header{"Crawler-Price": {s}})
		if pay.Price != p || pay.Err != nil {
			t.Fatalf("PaymentOf(402, %q) = %+v, want %+v", s, pay, p)
		}
	})
}
