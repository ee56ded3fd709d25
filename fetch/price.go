package fetch

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
)

// Pay per crawl (Cloudflare's; docs/protocol.md, Pay per crawl): a site
// answers a crawler 402 Payment Required with a crawler-price header
// naming the price of the page; a crawler willing to pay sends
// crawler-exact-price (that price) or crawler-max-price (the most it
// pays), and a paid answer carries crawler-charged, what was charged. A
// price is written as a currency code, a space and a decimal amount:
// "USD 0.01".

// The header names of pay per crawl (HTTP header names are not case
// sensitive; these are the forms Cloudflare writes).
const (
	HeaderCrawlerPrice      = "crawler-price"       // 402: the price of the page
	HeaderCrawlerExactPrice = "crawler-exact-price" // request: pay exactly this
	HeaderCrawlerMaxPrice   = "crawler-max-price"   // request: pay at most this
	HeaderCrawlerCharged    = "crawler-charged"     // 2xx: what was charged
	HeaderCrawlerError      = "crawler-error"       // an error answer's code
)

// ErrInvalidPrice is wrapped by every error of ParsePrice: errors.Is
// tells a malformed price.
var ErrInvalidPrice = errors.New("invalid price")

// MaxPriceLen bounds the length of a price header value ParsePrice reads.
const MaxPriceLen = 64

// AmountScale is the number of Amount units in one unit of a currency:
// an Amount counts billionths, so every decimal with at most nine places
// is exact.
const AmountScale = 1_000_000_000

// maxAmountUnits bounds the whole units of an amount: at most nine
// digits, so that an Amount never overflows.
const maxAmountUnits = 999_999_999

// Amount is an exact decimal amount of money, in billionths of its
// currency's unit (AmountScale to the unit): 0.01 is 10,000,000. It is
// never negative once parsed.
type Amount int64

// String writes the amount as a decimal with at least two places and no
// trailing zeros past them: "0.01", "1.00", "0.005".
func (a Amount) String() string {
	neg := a < 0
	if neg {
		a = -a
	}
	units, frac := int64(a)/AmountScale, int64(a)%AmountScale
	f := strconv.FormatInt(frac+AmountScale, 10)[1:] // nine digits
	f = strings.TrimRight(f, "0")
	for len(f) < 2 {
		f += "0"
	}
	s := strconv.FormatInt(units, 10) + "." + f
	if neg {
		s = "-" + s
	}
	return s
}

// Price is an amount in a currency, as pay per crawl writes it ("USD
// 0.01"). The zero Price (no currency) is no price.
type Price struct {
	// Currency is the currency's code: three letters, upper-cased (ISO
	// 4217's form, "USD").
	Currency string
	// Amount is exact (see Amount).
	Amount Amount
}

// IsZero reports whether p is no price (its currency is "").
func (p Price) IsZero() bool { return p.Currency == "" }

// String writes p as a header carries it: "USD 0.01"; "" for no price.
func (p Price) String() string {
	if p.IsZero() {
		return ""
	}
	return p.Currency + " " + p.Amount.String()
}

// MarshalText writes p as String does.
func (p Price) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads p as ParsePrice does; "" is no price.
func (p *Price) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*p = Price{}
		return nil
	}
	v, err := ParsePrice(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// priceError is an error of ParsePrice.
func priceError(v, why string) error {
	if len(v) > MaxPriceLen {
		v = v[:MaxPriceLen] + "..."
	}
	return &invalidPrice{value: v, why: why}
}

type invalidPrice struct{ value, why string }

func (e *invalidPrice) Error() string {
	return "fetch: " + ErrInvalidPrice.Error() + " " + strconv.Quote(e.value) + ": " + e.why
}
func (e *invalidPrice) Unwrap() error { return ErrInvalidPrice }

// ParsePrice reads a pay per crawl price: a currency code of three ASCII
// letters (in any case; upper-cased), one or more spaces or tabs, and a
// decimal amount (digits, then optionally a point and digits: "0.01",
// "5", "0.50"), with spaces or tabs around the whole allowed. The amount
// is exact: at most nine digits before the point and nine after it
// (trailing zeros past them are allowed). Anything else is an error
// wrapping ErrInvalidPrice that says what is wrong: a sign, an exponent,
// a thousands separator, a missing digit on either side of the point
// (".5", "5."), a list of prices ("USD 0.01, USD 0.02"), a value longer
// than MaxPriceLen.
func ParsePrice(s string) (Price, error) {
	if len(s) > MaxPriceLen {
		return Price{}, priceError(s, "longer than "+strconv.Itoa(MaxPriceLen)+" bytes")
	}
	v := strings.Trim(s, " \t")
	if v == "" {
		return Price{}, priceError(s, "empty")
	}
	if strings.Contains(v, ",") {
		return Price{}, priceError(s, "more than one value, or a thousands separator (write one price, as \"USD 1000.00\")")
	}
	if len(v) < 3 || !isLetter(v[0]) || !isLetter(v[1]) || !isLetter(v[2]) {
		return Price{}, priceError(s, "the currency must be three letters (ISO 4217), as in \"USD 0.01\"")
	}
	cur := strings.ToUpper(v[:3])
	rest := v[3:]
	amt := strings.TrimLeft(rest, " \t")
	if len(amt) == len(rest) {
		if rest == "" {
			return Price{}, priceError(s, "no amount after the currency, as in \"USD 0.01\"")
		}
		return Price{}, priceError(s, "the currency must be three letters followed by a space, as in \"USD 0.01\"")
	}
	whole, frac, hasPoint := strings.Cut(amt, ".")
	switch {
	case whole == "" && hasPoint:
		return Price{}, priceError(s, "no digit before the decimal point")
	case whole == "":
		return Price{}, priceError(s, "no amount after the currency, as in \"USD 0.01\"")
	case !allDigits(whole):
		if whole[0] == '-' || whole[0] == '+' {
			return Price{}, priceError(s, "a sign before the amount (a price is a plain decimal)")
		}
		return Price{}, priceError(s, "the amount is not a decimal number (digits, a point, digits)")
	case hasPoint && frac == "":
		return Price{}, priceError(s, "no digit after the decimal point")
	case hasPoint && !allDigits(frac):
		return Price{}, priceError(s, "the amount is not a decimal number (digits, a point, digits)")
	}
	whole = strings.TrimLeft(whole, "0")
	frac = strings.TrimRight(frac, "0")
	if len(whole) > 9 {
		return Price{}, priceError(s, "the amount is too large (at most 9 digits before the point)")
	}
	if len(frac) > 9 {
		return Price{}, priceError(s, "the amount is too precise (at most 9 digits after the point)")
	}
	var units, nanos int64
	if whole != "" {
		units, _ = strconv.ParseInt(whole, 10, 64)
	}
	if frac != "" {
		nanos, _ = strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
	}
	if units > maxAmountUnits {
		return Price{}, priceError(s, "the amount is too large")
	}
	return Price{Currency: cur, Amount: Amount(units*AmountScale + nanos)}, nil
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// PaymentStatus is what an answer says about payment.
type PaymentStatus uint8

// The payment statuses.
const (
	// NoPayment: the answer neither asks a price nor says one was
	// charged.
	NoPayment PaymentStatus = iota
	// PaymentRequired: the answer is 402 Payment Required. The content is
	// offered at a price (Payment.Price, from crawler-price, when the
	// answer names it), not refused.
	PaymentRequired
	// PaymentCharged: a 2xx answer with crawler-charged: the content was
	// served, at Payment.Price.
	PaymentCharged
)

// String returns "none", "required" or "charged".
func (s PaymentStatus) String() string {
	switch s {
	case NoPayment:
		return "none"
	case PaymentRequired:
		return "required"
	case PaymentCharged:
		return "charged"
	}
	return "payment(" + strconv.Itoa(int(s)) + ")"
}

// Payment is what one HTTP answer says about pay per crawl. PaymentOf
// decides it; every face of the toolkit (fetch, polite, bulk, the audit,
// the CLI) reads answers with it.
type Payment struct {
	Status PaymentStatus
	// Price is the price asked (a 402's crawler-price) or charged (a
	// 2xx's crawler-charged); the zero Price when the answer names none,
	// or when Err says why it could not be read.
	Price Price
	// Err is the price header's error, when it was there but could not
	// be read (it wraps ErrInvalidPrice).
	Err error
	// Code is the answer's crawler-error header ("InvalidCrawlerMaxPrice",
	// ...), cut at 64 bytes, with anything but printable ASCII dropped;
	// "" when none.
	Code string
}

// IsZero reports whether p says nothing (NoPayment, and no crawler-error).
func (p Payment) IsZero() bool { return p.Status == NoPayment && p.Code == "" }

// String says p in words: "payment required: USD 0.01", "payment required
// (no crawler-price)", "payment required (crawler-price unreadable:
// ...)", "charged USD 0.01"; "" when p says nothing. A crawler-error code
// follows in parentheses.
func (p Payment) String() string {
	var s string
	switch p.Status {
	case PaymentRequired:
		switch {
		case p.Err != nil:
			s = "payment required (crawler-price unreadable: " + strings.TrimPrefix(p.Err.Error(), "fetch: ") + ")"
		case p.Price.IsZero():
			s = "payment required (no crawler-price)"
		default:
			s = "payment required: " + p.Price.String()
		}
	case PaymentCharged:
		switch {
		case p.Err != nil:
			s = "charged (crawler-charged unreadable: " + strings.TrimPrefix(p.Err.Error(), "fetch: ") + ")"
		default:
			s = "charged " + p.Price.String()
		}
	}
	if p.Code != "" {
		if s != "" {
			s += " "
		}
		s += "(crawler-error: " + p.Code + ")"
	}
	return s
}

// PaymentJSON is Payment's JSON form: "status" ("required" or
// "charged"), "price" ("USD 0.01", when named and readable),
// "price_error" (why it could not be read), "crawler_error".
type PaymentJSON struct {
	Status       string `json:"status"`
	Price        string `json:"price,omitempty"`
	PriceError   string `json:"price_error,omitempty"`
	CrawlerError string `json:"crawler_error,omitempty"`
}

// JSON returns p's JSON form.
func (p Payment) JSON() PaymentJSON {
	j := PaymentJSON{Status: p.Status.String(), Price: p.Price.String(), CrawlerError: p.Code}
	if p.Err != nil {
		j.PriceError = strings.TrimPrefix(p.Err.Error(), "fetch: ")
	}
	return j
}

// PaymentOf says what an answer with this HTTP status and header says
// about pay per crawl: PaymentRequired for a 402 (with the crawler-price
// it names, if any), PaymentCharged for a 2xx with crawler-charged,
// NoPayment otherwise (crawler-price on another status, and
// crawler-charged on an answer that is not 2xx, are ignored: Cloudflare
// charges successful answers only). h may be nil. Several values of one
// header are one list, which is not a price: Err says so.
func PaymentOf(status int, h http.Header) Payment {
	var price, charged, code string
	if h != nil {
		price = traceHeader(h, HeaderCrawlerPrice)
		charged = traceHeader(h, HeaderCrawlerCharged)
		code = traceHeader(h, HeaderCrawlerError)
	}
	return paymentOf(status, price, charged, code)
}

// paymentOf is PaymentOf on the headers' values, as a trace keeps them.
func paymentOf(status int, price, charged, code string) Payment {
	p := Payment{Code: cleanCode(code)}
	read := func(v string) {
		if v == "" {
			return
		}
		p.Price, p.Err = ParsePrice(v)
	}
	switch {
	case status == http.StatusPaymentRequired:
		p.Status = PaymentRequired
		read(price)
	case status >= 200 && status < 300 && charged != "":
		p.Status = PaymentCharged
		read(charged)
	}
	return p
}

// cleanCode is a crawler-error value as Payment keeps it.
func cleanCode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < 64; i++ {
		if c := s[i]; c > ' ' && c < 0x7f {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Payment is what the request's answer said about pay per crawl, read
// from its status and the headers the trace keeps (PaymentOf).
func (r Request) Payment() Payment {
	return paymentOf(r.Status, r.CrawlerPrice, r.CrawlerCharged, r.CrawlerError)
}

// PaymentOfTrace is what a final answer with this status says about pay
// per crawl, read from trace: its last request's headers when that
// request got the answer (a cache may keep an older copy's status beside
// a later fetch's trace; then only the status is read).
func PaymentOfTrace(status int, trace []Request) Payment {
	if n := len(trace); n > 0 && trace[n-1].Status == status {
		return trace[n-1].Payment()
	}
	return paymentOf(status, "", "", "")
}

// AnswerHeader is the header of the request's answer as the trace keeps
// it: Content-Type and the pay per crawl headers. A cache re-reads a
// stored answer with another dialect's policy (Response.Verdict) with it.
func (r Request) AnswerHeader() http.Header {
	h := http.Header{}
	for _, kv := range [...][2]string{{"Content-Type", r.ContentType}, {HeaderCrawlerPrice, r.CrawlerPrice},
		{HeaderCrawlerCharged, r.CrawlerCharged}, {HeaderCrawlerError, r.CrawlerError}} {
		if kv[1] != "" {
			h.Set(kv[0], kv[1])
		}
	}
	return h
}

// maxTraceHeader bounds a pay per crawl header's value kept in a trace.
const maxTraceHeader = 2 * MaxPriceLen

// traceHeader is the value of header name as a trace keeps it: the
// values joined, cut at maxTraceHeader bytes.
func traceHeader(h http.Header, name string) string {
	v := strings.Join(h.Values(name), ", ")
	if len(v) > maxTraceHeader {
		v = v[:maxTraceHeader]
	}
	return v
}
