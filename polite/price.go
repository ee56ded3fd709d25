package polite

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// Pay per crawl (docs/protocol.md, Pay per crawl): a site may answer a
// page 402 Payment Required with its price in crawler-price. The
// Transport reports such an answer as a *PriceError, not as a response:
// the page is offered at a price, neither served nor refused, and it is
// not retried (asking again without offering to pay gets the same
// answer). A crawler willing to pay offers a price on its requests
// (Options.MaxPrice or Options.ExactPrice, or per request WithOffer),
// sent as crawler-max-price or crawler-exact-price; a paid answer's
// crawler-charged is counted (Stats.Charged). Read an answer's payment
// with fetch.PaymentOf(resp.StatusCode, resp.Header).
//
// Cloudflare charges only crawlers that sign their requests with Web Bot
// Auth, the price header among the signed components: the Transport sets
// the price header before the request reaches Options.Base, so a signing
// Base transport sees it and can sign it.

// ErrPaymentRequired is what every *PriceError is: errors.Is(err,
// ErrPaymentRequired) tells a page offered at a price.
var ErrPaymentRequired = errors.New("polite: payment required")

// Offer is what a request offers to pay for a page: at most Price
// (crawler-max-price), or, with Exact, exactly Price
// (crawler-exact-price: the price a 402 named). The zero Offer offers
// nothing.
type Offer struct {
	Price fetch.Price
	Exact bool
}

// IsZero reports whether o offers nothing.
func (o Offer) IsZero() bool { return o.Price.IsZero() }

// header is the request header that carries o.
func (o Offer) header() string {
	if o.Exact {
		return fetch.HeaderCrawlerExactPrice
	}
	return fetch.HeaderCrawlerMaxPrice
}

// String is the offer as its header carries it: "crawler-max-price: USD
// 0.01"; "" for none.
func (o Offer) String() string {
	if o.IsZero() {
		return ""
	}
	return o.header() + ": " + o.Price.String()
}

type offerKey struct{}

// WithOffer returns a context whose requests offer o in place of the
// Transport's Options.MaxPrice or ExactPrice: after a *PriceError, a
// crawler that accepts the price asks again with
// WithOffer(ctx, polite.Offer{Price: e.Payment.Price, Exact: true}). The
// zero Offer sends no price header.
func WithOffer(ctx context.Context, o Offer) context.Context {
	return context.WithValue(ctx, offerKey{}, o)
}

// offerOf is the offer of a request with context ctx: its WithOffer, else
// the Transport's.
func (t *Transport) offerOf(ctx context.Context) (Offer, bool) {
	if o, ok := ctx.Value(offerKey{}).(Offer); ok {
		return o, true
	}
	return t.offer, !t.offer.IsZero()
}

// setOffer puts the request's offer in its header (replacing any price
// header the caller set), when there is one to put.
func (t *Transport) setOffer(r *http.Request) {
	o, ok := t.offerOf(r.Context())
	if !ok {
		return
	}
	r.Header.Del(fetch.HeaderCrawlerMaxPrice)
	r.Header.Del(fetch.HeaderCrawlerExactPrice)
	if !o.IsZero() {
		r.Header.Set(o.header(), o.Price.String())
	}
}

// sentOffer is the offer a request's header carries, whoever set it.
func sentOffer(h http.Header) Offer {
	if v := h.Get(fetch.HeaderCrawlerExactPrice); v != "" {
		p, _ := fetch.ParsePrice(v)
		return Offer{Price: p, Exact: true}
	}
	p, _ := fetch.ParsePrice(h.Get(fetch.HeaderCrawlerMaxPrice))
	return Offer{Price: p}
}

// MaxPriceBody bounds the body a *PriceError keeps.
const MaxPriceBody = 64 << 10

// PriceError is the error of a request answered 402 Payment Required:
// the page is offered at a price (Payment.Price, when the answer names
// it), neither served nor refused. The answer's body is closed; its first
// MaxPriceBody bytes are kept (a site using x402 describes its terms
// there).
type PriceError struct {
	URL    string
	Origin string
	// Payment is the answer's pay per crawl reading (fetch.PaymentOf):
	// Status is fetch.PaymentRequired; Price the crawler-price, zero when
	// the answer names none or Payment.Err says why it did not read;
	// Code the crawler-error ("InvalidCrawlerMaxPrice": the offer was
	// too low).
	Payment fetch.Payment
	// Offered is what the request offered, zero when nothing.
	Offered Offer
	// Header and Body are the answer's.
	Header http.Header
	Body   []byte
}

func (e *PriceError) Error() string {
	s := "polite: " + e.URL + " is offered at a price"
	switch {
	case e.Payment.Err != nil:
		s += " (402; crawler-price unreadable: " + strings.TrimPrefix(e.Payment.Err.Error(), "fetch: ") + ")"
	case e.Payment.Price.IsZero():
		s += " (402, no crawler-price)"
	default:
		s += ": " + e.Payment.Price.String()
	}
	if !e.Offered.IsZero() {
		s += "; offered " + e.Offered.String()
	}
	if e.Payment.Code != "" {
		s += "; crawler-error: " + e.Payment.Code
	}
	return s
}

// Is reports whether target is ErrPaymentRequired.
func (e *PriceError) Is(target error) bool { return target == ErrPaymentRequired }

// priced turns a 402 answer into its *PriceError, closing its body.
func priced(req *http.Request, origin string, resp *http.Response) *PriceError {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, MaxPriceBody))
	resp.Body.Close()
	return &PriceError{URL: req.URL.String(), Origin: origin, Payment: fetch.PaymentOf(resp.StatusCode, resp.Header),
		Offered: sentOffer(req.Header), Header: resp.Header, Body: body}
}

// charges counts what paid answers charged, by currency.
type charges struct {
	mu     sync.Mutex
	total  map[string]fetch.Amount
	count  uint64 // answers with crawler-charged
	broken uint64 // of them, those whose value did not read
}

// add counts one answer's payment, when it says it was charged.
func (c *charges) add(p fetch.Payment) {
	if p.Status != fetch.PaymentCharged {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count++
	if p.Err != nil {
		c.broken++
		return
	}
	if c.total == nil {
		c.total = map[string]fetch.Amount{}
	}
	sum := c.total[p.Price.Currency] + p.Price.Amount
	if sum < c.total[p.Price.Currency] {
		sum = 1<<63 - 1 // saturates: billions of the currency's units
	}
	c.total[p.Price.Currency] = sum
}

// snapshot returns the totals as prices, and the counts.
func (c *charges) snapshot() (map[string]fetch.Price, uint64, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]fetch.Price, len(c.total))
	for cur, a := range c.total {
		out[cur] = fetch.Price{Currency: cur, Amount: a}
	}
	return out, c.count, c.broken
}
