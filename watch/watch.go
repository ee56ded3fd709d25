package watch

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/tester"
)

// The bounds and defaults of Options.
const (
	DefaultMinInterval  = 5 * time.Minute
	DefaultEvery        = 15 * time.Minute
	DefaultMaxWatches   = 1000 // watches a server keeps
	DefaultMaxPerClient = 50   // watches one client (an IP address) creates
	DefaultMaxURLs      = 100  // URLs a watch asks about
	DefaultMaxCrawlers  = 64   // crawlers a watch asks about, purposes expanded
	DefaultMaxHistory   = 20   // events a watch's history keeps
	// MaxQuestions bounds the URLs times the crawlers of a watch: the
	// verdicts a check asks for and keeps.
	MaxQuestions = 2000
	// MaxFlipsKept bounds the verdict flips an event of the history keeps
	// (the alert carries them all).
	MaxFlipsKept = 50
	// MaxSummaryLines bounds the lines of the change summary an event of
	// the history keeps (the alert carries the whole summary).
	MaxSummaryLines = 100
	maxWebhookLen   = 2048
	maxSecretLen    = 256
)

// DefaultCrawlers are the crawlers a watch that names none asks about.
var DefaultCrawlers = []string{"Googlebot", "Bingbot"}

// Spec is a watch as a client asks for it: the body of POST /v1/watches,
// and an element of the file serve --watch reads.
type Spec struct {
	// Origin is the site: "https://example.com" (a bare host means
	// https).
	Origin string `json:"origin"`
	// URLs are the URLs that matter: paths ("/products/") or absolute
	// URLs on the origin.
	URLs []string `json:"urls,omitempty"`
	// Sitemap, when set, is the URL of a sitemap on the origin whose
	// <loc> URLs are added to URLs (read once, when the watch is made,
	// up to MaxURLs in all).
	Sitemap string `json:"sitemap,omitempty"`
	// Crawlers are crawler names (robotstxt.LookupCrawler) or purposes
	// (robotstxt.ParsePurpose: "search", "ai-training", ...); none means
	// DefaultCrawlers.
	Crawlers []string `json:"crawlers,omitempty"`
	// Every is how often to check, as a Go duration ("15m"); "" means
	// DefaultEvery. Below the engine's MinInterval it is raised to it.
	Every string `json:"every,omitempty"`
	// Webhook, when set, is the http or https URL alerts are POSTed to.
	Webhook string `json:"webhook,omitempty"`
	// Secret, when set, signs each alert (see Signature).
	Secret string `json:"secret,omitempty"`
}

// Watch is a watch as the engine keeps it.
type Watch struct {
	ID     string `json:"id"`
	Origin string `json:"origin"`
	// URLs are the URLs asked about, as given (and from the sitemap).
	URLs    []string `json:"urls"`
	Sitemap string   `json:"sitemap,omitempty"`
	// Crawlers are the crawlers asked about, by their names in the
	// table, purposes expanded.
	Crawlers []string `json:"crawlers"`
	// Asked are the crawlers and purposes as the spec named them.
	Asked []string      `json:"asked,omitempty"`
	Every time.Duration `json:"every_ns"`
	// Webhook and Secret are kept in the store sealed (Sealed), never in
	// clear; a watch of an older store, kept in clear, still loads.
	Webhook string `json:"webhook,omitempty"`
	Secret  string `json:"secret,omitempty"`
	// Sealed is the webhook and secret, sealed with the engine's key.
	Sealed string `json:"sealed,omitempty"`
	// Client is who made it (a client key: an IPv4 address, an IPv6
	// /64, a token's name), for the per-client bound.
	Client string `json:"client,omitempty"`
	// OwnerHash is the SHA-256 of its owner secret ("" for none).
	OwnerHash string `json:"owner,omitempty"`
	// Warnings are what the watch lost when it was made: sitemap <loc>s
	// left out.
	Warnings []string  `json:"warnings,omitempty"`
	Created  time.Time `json:"created"`
	// OwnerSecret is the owner secret, set only on the watch Create
	// returns: the store keeps its hash.
	OwnerSecret string `json:"-"`
	// unreadable says why the sealed webhook could not be read.
	unreadable string
}

// Error is a spec the engine refuses, or a bound reached. Field names the
// spec's field at fault ("" for a bound).
type Error struct {
	Field string
	Msg   string
	// Limit is set when a bound is reached (the server answers 429).
	Limit bool
	// NotFound is set for an id no watch has (the server answers 404).
	NotFound bool
}

// ErrNotDurable is matched (errors.Is) by the error of Create and Delete
// when Options.Durable says the store would not keep the change (it fell
// back to memory): the service answers 503.
var ErrNotDurable = errors.New("watch: the store would not keep it")

func (e *Error) Error() string {
	if e.Field != "" {
		return "watch: " + e.Field + ": " + e.Msg
	}
	return "watch: " + e.Msg
}

func badField(field, format string, args ...any) *Error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// ParseSpecs reads the watches of a file: a JSON array of specs, or an
// object {"watches": [...]}. Fields it does not know are errors.
func ParseSpecs(b []byte) ([]Spec, error) {
	trimmed := strings.TrimSpace(string(b))
	var specs []Spec
	if strings.HasPrefix(trimmed, "{") {
		var doc struct {
			Watches []Spec `json:"watches"`
		}
		if err := strictJSON(b, &doc); err != nil {
			return nil, err
		}
		specs = doc.Watches
	} else if err := strictJSON(b, &specs); err != nil {
		return nil, err
	}
	return specs, nil
}

func strictJSON(b []byte, v any) error {
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("watch: reading the watches: %w", err)
	}
	return nil
}

// validate turns a spec into a watch (without its sitemap URLs, its id and
// its client), or says what is wrong with it.
func (e *Engine) validate(ctx context.Context, sp *Spec) (*Watch, error) {
	o := &e.opts
	raw := strings.TrimSpace(sp.Origin)
	if raw == "" {
		return nil, badField("origin", "give the site's origin (https://example.com)")
	}
	if tester.NeedsScheme(raw) {
		raw = "https://" + raw
	}
	origin, err := fetch.OriginOf(raw)
	if err != nil {
		return nil, badField("origin", "%s", strings.TrimPrefix(err.Error(), "fetch: "))
	}
	w := &Watch{Origin: origin.String(), Sitemap: sp.Sitemap, Asked: sp.Crawlers}
	seen := map[string]bool{}
	for i, u := range sp.URLs {
		if err := w.addURL(u, seen); err != nil {
			return nil, badField("urls", "[%d]: %s", i, err)
		}
	}
	if len(w.URLs) > o.MaxURLs {
		return nil, badField("urls", "%d URLs, more than the %d a watch asks about", len(w.URLs), o.MaxURLs)
	}
	if sp.Sitemap != "" {
		sm, err := e.sitemapURLs(ctx, w.Origin, sp.Sitemap)
		if err != nil {
			return nil, badField("sitemap", "%s", err)
		}
		over, off := sm.more, 0
		for _, u := range sm.locs {
			if len(w.URLs) >= o.MaxURLs {
				over++
				continue
			}
			if w.addURL(u, seen) != nil {
				off++ // not on the origin, or too long: left out
			}
		}
		w.Warnings = sm.warnings(over, off, o.MaxURLs)
	}
	if len(w.URLs) == 0 {
		return nil, badField("urls", "give the URLs to watch (paths or URLs on %s), or a sitemap", w.Origin)
	}
	names := sp.Crawlers
	if len(names) == 0 {
		names = DefaultCrawlers
	}
	crawlers, err := resolveCrawlers(names, o.MaxCrawlers)
	if err != nil {
		return nil, err
	}
	w.Crawlers = crawlers
	if n := len(w.URLs) * len(crawlers); n > MaxQuestions {
		return nil, badField("urls", "%d URLs for %d crawlers ask %d questions a check, more than %d: watch fewer URLs or crawlers", len(w.URLs), len(crawlers), n, MaxQuestions)
	}
	w.Every = DefaultEvery
	if sp.Every != "" {
		d, err := time.ParseDuration(sp.Every)
		if err != nil || d <= 0 {
			return nil, badField("every", "%q: give a duration such as 15m or 1h", sp.Every)
		}
		w.Every = d
	}
	w.Every = max(w.Every, o.MinInterval)
	if sp.Webhook != "" {
		if err := e.checkWebhook(ctx, sp.Webhook); err != nil {
			return nil, err
		}
		w.Webhook = sp.Webhook
	}
	if len(sp.Secret) > maxSecretLen {
		return nil, badField("secret", "%d bytes, more than %d", len(sp.Secret), maxSecretLen)
	}
	if sp.Secret != "" && sp.Webhook == "" {
		return nil, badField("secret", "a secret signs the webhook's alerts: give a webhook too")
	}
	w.Secret = sp.Secret
	return w, nil
}

// addURL adds u, a path or a URL on the watch's origin, unless seen.
func (w *Watch) addURL(u string, seen map[string]bool) error {
	u = strings.TrimSpace(u)
	if err := tester.CheckURL(u); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "tester: "))
	}
	if strings.Contains(u, "://") {
		o, err := fetch.OriginOf(u)
		if err != nil {
			return fmt.Errorf("%q: %s", u, strings.TrimPrefix(err.Error(), "fetch: "))
		}
		if o.String() != w.Origin {
			return fmt.Errorf("%q is not on %s: its robots.txt does not govern it", u, w.Origin)
		}
	}
	if len(u) > 2048 {
		return fmt.Errorf("a URL of %d bytes, more than 2048", len(u))
	}
	if !seen[u] {
		seen[u] = true
		w.URLs = append(w.URLs, u)
	}
	return nil
}

// resolveCrawlers turns names and purposes into crawler names.
func resolveCrawlers(names []string, limit int) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(c robotstxt.Crawler) {
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c.Name)
		}
	}
	for i, n := range names {
		if c, ok := robotstxt.LookupCrawler(n); ok {
			add(c)
			continue
		}
		p, err := robotstxt.ParsePurpose(n)
		if err != nil || p == 0 {
			return nil, badField("crawlers", "[%d]: %q is neither a known crawler (GET /v1/crawlers) nor a purpose (search, ai-training, ai-search, ...)", i, n)
		}
		for _, c := range robotstxt.CrawlersByPurpose(p) {
			if !c.Control {
				add(c)
			}
		}
	}
	if len(out) > limit {
		return nil, badField("crawlers", "%d crawlers, more than the %d a watch asks about: name fewer, or crawlers rather than purposes", len(out), limit)
	}
	return out, nil
}

// checkWebhook refuses a webhook that is not an http or https URL, or
// that Options.CheckWebhook refuses.
func (e *Engine) checkWebhook(ctx context.Context, raw string) error {
	if len(raw) > maxWebhookLen {
		return badField("webhook", "%d bytes, more than %d", len(raw), maxWebhookLen)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return badField("webhook", "%q: give an http or https URL", raw)
	}
	if u.User != nil {
		return badField("webhook", "a URL with credentials: give a secret instead")
	}
	if e.opts.CheckWebhook != nil {
		if err := e.opts.CheckWebhook(ctx, u); err != nil {
			return badField("webhook", "%s", err)
		}
	}
	return nil
}

// newID returns a new watch id: 16 random hexadecimal digits.
func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// specID is the id of a watch read from a file: the same spec gets the
// same id at every start, so a restart keeps its state.
func specID(sp *Spec) string {
	b, _ := json.Marshal(sp)
	h := sha256.Sum256(b)
	return "f" + hex.EncodeToString(h[:])[:15]
}
