// Package polite makes any http.Client obey robots.txt and keep the site's
// pace: its Transport asks the robots.txt cache before every request and
// refuses what the site's robots.txt disallows before anything is sent;
// it spaces requests to each origin by the site's Crawl-delay and
// Request-rate (for every crawler but Google's, which ignore them; the
// crawler's group, else '*'), within MinDelay and MaxDelay; a 429 or 503
// pauses the origin for its Retry-After, or an exponential back-off with
// jitter, up to MaxPause; and at most MaxPerOrigin requests (default 1) are
// in flight to one origin. WaitedFrom tells how long a request waited and
// why; Stats counts the waits. A page answered 402 Payment Required (pay
// per crawl) is a *PriceError carrying its price; a crawler may offer to
// pay (Options.MaxPrice, WithOffer), and Stats adds up what it was
// charged.
//
//	t, err := polite.New(&polite.Options{Crawler: "bingbot", UserAgent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"})
//	client := &http.Client{Transport: t}
//	resp, err := client.Get("https://example.com/page")
//	if errors.Is(err, polite.ErrDisallowed) { ... }
//
// The crawler's identity is configured once: the User-Agent header sent with
// every request, robots.txt fetches included (also through a Cache whose
// fetcher has another), and the product token (or known crawler) that
// robots.txt groups are matched against. The robots.txt fetches themselves
// go through the wrapped transport (or the cache's fetcher) directly,
// unpaced.
package polite

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"golang.org/x/net/http/httpguts"
)

// ErrDisallowed is what every *DisallowedError is: errors.Is(err,
// ErrDisallowed) tells a request refused by robots.txt.
var ErrDisallowed = errors.New("polite: disallowed by robots.txt")

// DisallowedError is the error of a request that robots.txt disallows. The
// request was not sent.
type DisallowedError struct {
	URL    string
	Origin string
	Agent  string       // the crawler or product token asked about
	Policy fetch.Policy // Rules: a rule decided; DisallowAll: the site's robots.txt could not be had
	Line   int          // the deciding rule's line, 0 when none
	Rule   string       // the deciding rule as written
	Reason string       // why, in words
	// Form is the form of the URL that was disallowed when it is not the
	// URL as sent: hex upper-cased, or normalised as a server reads it
	// (unreserved characters decoded, dot-segments removed, "//" merged).
	Form string
}

func (e *DisallowedError) Error() string {
	s := "polite: " + e.URL + " is disallowed for " + e.Agent + " by " + e.Origin + "/robots.txt"
	if e.Form != "" {
		s += " as " + e.Form
	}
	if e.Line > 0 {
		return s + fmt.Sprintf(" (line %d: %s)", e.Line, e.Rule)
	}
	return s + " (" + e.Reason + ")"
}

// Is reports whether target is ErrDisallowed.
func (e *DisallowedError) Is(target error) bool { return target == ErrDisallowed }

// Options configure a Transport. Only the identity is required: UserAgent,
// and Crawler or Token (or neither, to be matched as the token UserAgent
// names).
type Options struct {
	// Base sends the requests, and fetches robots.txt files when Cache is
	// nil; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Cache answers robots.txt questions; nil means a new cache on an
	// in-memory store, fetching through Base with UserAgent and the
	// crawler's dialect. A cache's own fetcher decides how it fetches,
	// except the User-Agent: robots.txt is fetched with UserAgent whatever
	// the fetcher's (see fetch.WithUserAgent). A cache shared by several
	// crawlers fetches each origin once, as the first that asks.
	Cache *cache.Cache
	// UserAgent is the User-Agent header of every request and robots.txt
	// fetch; "" means fetch.DefaultUserAgent.
	UserAgent string
	// Crawler names a known crawler (robotstxt.LookupCrawler): its
	// token, fallback tokens, whether it obeys the '*' group and its
	// dialect apply.
	Crawler string
	// Token is the product token robots.txt groups are matched against,
	// when Crawler is "". "" means robotstxt.ProductToken(UserAgent): the
	// header's first product, or the one after "compatible;" in
	// "Mozilla/5.0 (compatible; ExampleBot/1.0; ...)". New refuses a
	// token that would be Mozilla (a browser's header): set Token then.
	Token string
	// Dialect overrides the crawler's dialect (default: the crawler's,
	// else Google's).
	Dialect robotstxt.Dialect
	// MinDelay is the least time between the starts of two requests to
	// one origin (default 0: only the site's pace counts).
	MinDelay time.Duration
	// MaxDelay caps the crawl-delay (or request-rate interval) a site
	// asks for (default 60 s).
	MaxDelay time.Duration
	// IgnoreCrawlDelay turns off pacing by the site's Crawl-delay and
	// Request-rate lines (MinDelay still applies). By default every
	// crawler honours them except those whose engine ignores them
	// (robotstxt.Query.HonoursCrawlDelay: Google's, Yandex's and
	// Baidu's), whatever the dialect.
	IgnoreCrawlDelay bool
	// MaxPerOrigin is how many requests may be in flight to one origin at
	// once (default 1); a request holds its place until its response
	// body is closed or read to its end. Negative means no limit.
	MaxPerOrigin int
	// MaxPause caps how long a 429 or 503 answer pauses its origin: its
	// Retry-After (seconds or a date), or without one an exponential
	// back-off with jitter (default 5 minutes). Negative turns pauses off.
	MaxPause time.Duration
	// MaxPrice, when not zero, is offered on every request as
	// crawler-max-price: the most the crawler pays for a page (pay per
	// crawl; see PriceError). ExactPrice offers exactly a price, as
	// crawler-exact-price. At most one of them (a site answers both with
	// 400). WithOffer replaces them for one request.
	MaxPrice   fetch.Price
	ExactPrice fetch.Price
	// Now and Sleep are the clock; nil means time.Now and a sleep that
	// returns early with the context's error when it is done.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// The defaults of Options.
const (
	DefaultMaxDelay = time.Minute     // the cap on crawl-delay
	DefaultMaxPause = 5 * time.Minute // the cap on a pause after 429 or 503
)

// Transport is an http.RoundTripper that obeys robots.txt. It is safe for
// concurrent use.
type Transport struct {
	base    http.RoundTripper
	cache   *cache.Cache
	ua      string
	agent   string // for messages
	token   string
	crawler *robotstxt.Crawler
	dialect robotstxt.Dialect
	min     time.Duration
	max     time.Duration
	noPace  bool          // IgnoreCrawlDelay
	limit   int           // MaxPerOrigin; <= 0: none
	pause   time.Duration // MaxPause; <= 0: no pauses
	now     func() time.Time
	sleep   func(ctx context.Context, d time.Duration) error
	jitter  func() float64 // in [0, 1)
	offer   Offer          // MaxPrice or ExactPrice
	charged charges

	mu      sync.Mutex
	origins map[string]*originState
	stats   counters
}

// New returns a Transport; nil options mean the defaults. It fails for an
// unknown crawler name or an invalid token.
func New(opts *Options) (*Transport, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	t := &Transport{base: o.Base, ua: o.UserAgent, min: o.MinDelay, max: o.MaxDelay, now: o.Now, sleep: o.Sleep,
		noPace: o.IgnoreCrawlDelay, limit: o.MaxPerOrigin, pause: o.MaxPause, jitter: rand.Float64, origins: map[string]*originState{}}
	if t.limit == 0 {
		t.limit = 1
	}
	if t.pause == 0 {
		t.pause = DefaultMaxPause
	}
	if t.base == nil {
		t.base = http.DefaultTransport
	}
	if t.ua == "" {
		t.ua = fetch.DefaultUserAgent
	}
	if !httpguts.ValidHeaderFieldValue(t.ua) {
		return nil, fmt.Errorf("polite: User-Agent %q cannot be sent as a header (control characters)", t.ua)
	}
	if t.max <= 0 {
		t.max = DefaultMaxDelay
	}
	if t.now == nil {
		t.now = time.Now
	}
	if t.sleep == nil {
		t.sleep = sleepContext
	}
	t.dialect = o.Dialect
	switch {
	case o.Crawler != "":
		c, ok := robotstxt.LookupCrawler(o.Crawler)
		if !ok {
			return nil, fmt.Errorf("polite: unknown crawler %q (see robotstxt.Crawlers)", o.Crawler)
		}
		t.crawler, t.agent = &c, c.Name
		if t.dialect == robotstxt.DefaultDialect {
			t.dialect = c.Dialect
		}
	default:
		t.token = o.Token
		from := "Options.Token"
		if t.token == "" {
			t.token, from = robotstxt.ProductToken(t.ua), "the product token of User-Agent "+strconv.Quote(t.ua)
		}
		if !robotstxt.ValidToken(t.token) {
			return nil, fmt.Errorf("polite: %s, %q, is not a product token (letters, '-' and '_'): set Options.Token or Options.Crawler", from, t.token)
		}
		if strings.EqualFold(t.token, "Mozilla") {
			return nil, fmt.Errorf("polite: %s is Mozilla, which every browser claims and no crawler's group names: set Options.Token (or Options.Crawler) to the crawler's product token, or send the form \"Mozilla/5.0 (compatible; ExampleBot/1.0; +https://...)\"", from)
		}
		t.agent = t.token
	}
	if t.dialect == robotstxt.DefaultDialect {
		t.dialect = robotstxt.Google
	}
	switch {
	case !o.MaxPrice.IsZero() && !o.ExactPrice.IsZero():
		return nil, errors.New("polite: Options.MaxPrice and Options.ExactPrice both set: a request offers one (a site answers both with 400 ConflictingPriceHeaders)")
	case !o.ExactPrice.IsZero():
		t.offer = Offer{Price: o.ExactPrice, Exact: true}
	case !o.MaxPrice.IsZero():
		t.offer = Offer{Price: o.MaxPrice}
	}
	if !t.offer.IsZero() {
		// A Price made by hand, not by fetch.ParsePrice: it must read
		// back, or the site answers 400.
		if _, err := fetch.ParsePrice(t.offer.Price.String()); err != nil || t.offer.Price.Amount < 0 {
			return nil, fmt.Errorf("polite: the price offered, %+v, cannot be sent: %v", t.offer.Price, err)
		}
	}
	t.cache = o.Cache
	if t.cache == nil {
		// With no Base, robots.txt files come through the fetcher's own
		// transport, whose small HTTP/2 window keeps an endless body from
		// downloading much past the size limit.
		t.cache = cache.New(&cache.Options{
			Now:     o.Now,
			Fetcher: &fetch.Fetcher{Transport: o.Base, UserAgent: t.ua, Dialect: t.dialect, Now: o.Now},
		})
	}
	return t, nil
}

// Cache returns the cache the transport asks.
func (t *Transport) Cache() *cache.Cache { return t.cache }

func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RoundTrip asks robots.txt about the request's URL; a disallowed request
// fails with a *DisallowedError and is not sent. The URL asked about is the
// one net/http will send (the escaped path and query of the request line),
// and it is refused when it, its form with %xx hex upper-cased, or its
// normalised form (unreserved characters decoded, dot-segments removed,
// runs of '/' merged) is disallowed: "/a%2fb", "/%7euser",
// "/public/../private" and "//private" are refused by the rules that
// refuse "/a%2Fb", "/~user" and "/private". An allowed one waits for its
// place among the requests in flight to its origin and for its turn
// (crawl-delay, request-rate, MinDelay, a pause after 429 or 503), then
// goes to the base transport with the configured User-Agent (and the
// price offered, if any). A 429 or 503 answer is returned as is, and
// pauses the origin for the next requests. A 402 Payment Required answer
// is a *PriceError carrying the price (see Offer): the page is offered at
// a price.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	fail := func(err error) (*http.Response, error) {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	ctx := req.Context()
	// The cache's fetcher sends the crawler's User-Agent, whatever its own.
	a, err := t.cache.Get(fetch.WithUserAgent(ctx, t.ua), req.URL.String())
	if err != nil {
		return fail(fmt.Errorf("polite: robots.txt for %s: %w", req.URL, err))
	}
	q := robotstxt.Query{Dialect: t.dialect}
	if t.crawler != nil {
		q.Crawler = t.crawler
	} else {
		q.Agents = []string{t.token}
	}
	// The question is asked about what goes on the wire, as sent and as
	// the server will likely read it: any form disallowed refuses.
	for i, form := range wireForms(req.URL) {
		q.URL = form
		fd := a.Decide(q)
		if !fd.Allowed {
			e := &DisallowedError{URL: req.URL.String(), Origin: a.Origin.String(), Agent: t.agent, Policy: a.Policy, Reason: fd.Reason}
			if i > 0 {
				e.Form = form
			}
			if fd.HasRule() {
				e.Line, e.Rule = fd.Rule.Line, fd.Rule.Text
			}
			t.stats.refused.Add(1)
			return fail(e)
		}
	}
	q.URL = req.URL.String()
	return t.send(req.WithContext(withUsage(ctx, a, q)), a, q, fail)
}
