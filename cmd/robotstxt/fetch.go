package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
	"github.com/seed53c283f5/robotstxt/tester"
)

const fetchHelp = `Usage: robotstxt fetch [--json] [--body] [--refresh] [--store STORE]
                       [-d DIALECT] [-A USER-AGENT] [--timeout 15s] URL

Fetches the robots.txt of URL's origin as a crawler must (RFC 9309, and the
fetch policy of the dialect), through the cache, and shows what happened:
every request (status, redirect target, bytes, whether the body was cut at
500 KiB, cache headers), the policy that applies (the file's rules, allow all
or disallow all) and why, where the answer came from (network, fresh cache,
stale cache) and when it expires.

  URL           any URL of the site; "example.com" means https://example.com
  --json        one JSON object (origin, policy, source, reason, status,
                trace, fetched_at, expires_at, payment for a 402, ...)
  --body        print the robots.txt body that applies instead of the report
                (as it is; on a terminal, control characters escaped)
  --store STORE
                the cache's store: memory (this run only), a bbolt file path,
                or a redis:// URL (default: robotstxt/cache.db in the user's
                cache directory, so that a second run within the copy's
                lifetime is answered from it: "source: fresh cache")
  --refresh     fetch now, even when the cache holds a fresh copy (or a
                failure whose retry is not due); the request is conditional
                when the copy has an ETag or Last-Modified, and a 304 makes
                it fresh again. The result is cached
  -d DIALECT    fetch policy: google (default), rfc9309, bing, yandex, baidu,
                original
  -A UA         the User-Agent header (default: robotstxt/VERSION (+URL))
  --timeout D   time allowed for the whole fetch (default 15s)

Exit status: 0 whenever a policy was decided (disallow all included: an
unreachable site is an answer, not a failure), 2 on bad usage or when the
store cannot be opened.

Examples:
  robotstxt fetch https://www.google.com/
  robotstxt fetch --json -d yandex yandex.ru
  robotstxt fetch --store redis://localhost:6379/0 example.com
`

// fetchOptions are the settings of one fetch through the cache.
type fetchOptions struct {
	store     string
	dialect   robotstxt.Dialect
	userAgent string
	timeout   time.Duration
	fresh     bool             // fetch now, whatever the cache holds (cache.Cache.RefreshOrigin)
	now       func() time.Time // nil: time.Now
	fetcher   *fetch.Fetcher   // nil: one built from the fields above
	cache     *cache.Cache     // nil: a cache on the store above
}

// fetchInfo is what robotstxt fetch reports, also its JSON form.
type fetchInfo = tester.FetchInfo

// fetchRobots fetches the robots.txt of rawURL's origin through a cache on
// the store that storeSpec names, with Google's fetch policy and the default
// User-Agent and timeout. body is the robots.txt to obey when info.Policy is
// "rules", else nil (allow all or disallow all: info.Reason says why).
// Warnings about the store go to stderr. The error is for bad input (a URL
// with no origin, an unknown store); an unreachable site is not an error.
func fetchRobots(ctx context.Context, rawURL, storeSpec string, stderr io.Writer) (body []byte, info fetchInfo, err error) {
	return fetchRobotsWith(ctx, rawURL, fetchOptions{store: storeSpec}, stderr)
}

func fetchRobotsWith(ctx context.Context, rawURL string, o fetchOptions, stderr io.Writer) ([]byte, fetchInfo, error) {
	if tester.NeedsScheme(rawURL) {
		rawURL = "https://" + rawURL
	}
	if _, err := fetch.OriginOf(rawURL); err != nil {
		return nil, fetchInfo{}, err
	}
	c := o.cache
	degradedAtOpen := false
	if c == nil {
		st, err := openStore(o.store, stderr)
		if err != nil {
			return nil, fetchInfo{}, err
		}
		defer st.Close()
		degradedAtOpen = storeopen.Health(st).Degraded
		f := o.fetcher
		if f == nil {
			f = &fetch.Fetcher{Dialect: o.dialect, UserAgent: o.userAgent, Timeout: o.timeout, Now: o.now}
		}
		c = cache.New(&cache.Options{Store: st, Fetcher: f, Now: o.now, KeyPrefix: tester.CacheKeyPrefix(f.Dialect)})
	}
	body, info, err := tester.FetchInfoOf(ctx, c, rawURL, &tester.FetchOptions{Cached: !o.fresh})
	if err != nil {
		return nil, fetchInfo{}, err
	}
	if h := storeopen.Health(c.Store()); h.Degraded && !degradedAtOpen && o.cache == nil {
		// The store answers from memory (Redis down, a locked file): the
		// report says so, as the note on stderr does, once.
		fmt.Fprintf(stderr, "robotstxt: %s\n", esc(h.Message))
	}
	return body, *info, nil
}

// fetchClock is the clock of robotstxt fetch; tests replace it.
var fetchClock func() time.Time

func runFetch(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("fetch")
	jsonOut := fs.Bool("json", false, "JSON output")
	bodyOut := fs.Bool("body", false, "print the body")
	refresh := fs.Bool("refresh", false, "fetch now, whatever the cache holds")
	storeSpec := fs.String("store", defaultStoreSpec, "the cache's store")
	dialectName := fs.String("d", "google", "fetch policy")
	ua := fs.String("A", "", "User-Agent header")
	timeout := fs.Duration("timeout", fetch.DefaultTimeout, "time allowed for the fetch")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "fetch", fetchHelp, args, err)
	}
	if len(pos) != 1 {
		complain(stderr, "fetch", "give one URL (robotstxt fetch -h for help)")
		return 2
	}
	d, err := parseDialectFlag(*dialectName)
	if err != nil {
		complain(stderr, "fetch", "-d: %v", err)
		return 2
	}
	if *timeout <= 0 {
		complain(stderr, "fetch", "--timeout must be positive")
		return 2
	}
	if err := fetch.CheckUserAgent(*ua); err != nil {
		complain(stderr, "fetch", "-A: %v", err)
		return 2
	}
	body, info, err := fetchRobotsWith(context.Background(), pos[0], fetchOptions{
		store: *storeSpec, dialect: d, userAgent: *ua, timeout: *timeout, now: fetchClock, fresh: *refresh,
	}, stderr)
	if err != nil {
		complain(stderr, "fetch", "%v", err)
		return 2
	}
	switch {
	case *bodyOut:
		writeBody(stdout, body, isTerminal(stdout))
		if info.Policy != "rules" {
			complain(stderr, "fetch", "nothing printed: no robots.txt body applies, the policy is %s: %s", strings.ReplaceAll(info.Policy, "-", " "), info.Reason)
		}
	case *jsonOut:
		if err := writeJSON(stdout, info); err != nil {
			complain(stderr, "fetch", "%v", err)
			return 2
		}
	default:
		writeFetchReport(stdout, info)
	}
	return 0
}

// writeFetchReport prints the trace and the verdict for people.
func writeFetchReport(w io.Writer, info fetchInfo) {
	var b strings.Builder
	fmt.Fprintf(&b, "robots.txt of %s (%s fetch policy)\n\n", esc(info.Origin), info.Dialect)
	switch {
	case len(info.Trace) == 0:
		b.WriteString("  no request: the answer came from the cache\n")
	case info.Source == "cache":
		// The trace is the stored one, of the fetch that filled the
		// cache: say so, lest it read as requests made now.
		fmt.Fprintf(&b, "  no request now: the answer came from the cache; the fetch of %s made these:\n\n", info.FetchedAt)
	}
	for _, r := range info.Trace {
		fmt.Fprintf(&b, "  GET %s\n", esc(r.URL))
		var parts []string
		switch {
		case r.Status != 0:
			parts = append(parts, statusText(r.URL, r.Status))
		default:
			parts = append(parts, "no answer")
		}
		if r.Location != "" {
			parts[0] += " -> " + esc(r.Location)
		}
		if r.Bytes > 0 || r.Status/100 == 2 {
			parts = append(parts, fmt.Sprintf("%d %s", r.Bytes, plural(int(r.Bytes), "byte")))
		}
		if r.Truncated {
			parts = append(parts, fmt.Sprintf("cut at %d bytes (500 KiB), the rest not downloaded", fetch.DefaultMaxBytes))
		}
		if r.ContentEncoding != "" {
			parts = append(parts, "content-encoding: "+esc(r.ContentEncoding))
		}
		fmt.Fprintf(&b, "    %s\n", strings.Join(parts, ", "))
		var cacheHeaders []string
		for _, h := range [][2]string{{"cache-control", r.CacheControl}, {"etag", r.ETag}, {"last-modified", r.LastModified}, {"retry-after", r.RetryAfter}} {
			if h[1] != "" {
				cacheHeaders = append(cacheHeaders, h[0]+": "+esc(h[1]))
			}
		}
		if len(cacheHeaders) > 0 {
			fmt.Fprintf(&b, "    %s\n", strings.Join(cacheHeaders, "; "))
		}
		var payHeaders []string
		for _, h := range [][2]string{{fetch.HeaderCrawlerPrice, r.CrawlerPrice}, {fetch.HeaderCrawlerCharged, r.CrawlerCharged}, {fetch.HeaderCrawlerError, r.CrawlerError}} {
			if h[1] != "" {
				payHeaders = append(payHeaders, h[0]+": "+esc(h[1]))
			}
		}
		if len(payHeaders) > 0 {
			b.WriteString(fitLine(strings.Join(payHeaders, "; "), "    ", "      "))
		}
		if r.Err != "" {
			fmt.Fprintf(&b, "    error: %s\n", esc(r.Err))
		}
	}
	b.WriteString("\n")
	policy := map[string]string{"rules": "the file's rules", "allow-all": "allow all", "disallow-all": "disallow all"}[info.Policy]
	fmt.Fprintf(&b, "policy:   %s\n", policy)
	fmt.Fprintf(&b, "why:      %s\n", esc(info.Reason))
	if info.Payment != nil {
		b.WriteString(fitLine(esc(paymentText(info.Payment)), "payment:  ", "          "))
	}
	source := map[string]string{"network": "network", "cache": "fresh cache", "stale-cache": "stale cache (the refresh failed)"}[info.Source]
	retry := ""
	if info.Source == "cache" && info.FailingSince != "" {
		// Not a copy of the file: the answer to a failed fetch, kept
		// until its retry is due.
		source, retry = "cache: a failed fetch, kept until its retry", "; --refresh retries now"
	}
	fmt.Fprintf(&b, "source:   %s (store: %s)%s\n", source, esc(info.Store), retry)
	if info.FetchedAt != "" {
		fmt.Fprintf(&b, "fetched:  %s\n", info.FetchedAt)
	}
	expiry := "expires:"
	if info.Policy != "rules" && info.FailingSince != "" || info.Source == "stale-cache" {
		expiry = "retry at:"
	}
	fmt.Fprintf(&b, "%-9s %s\n", expiry, info.ExpiresAt)
	if info.FailingSince != "" {
		fmt.Fprintf(&b, "failing:  since %s\n", info.FailingSince)
	}
	io.WriteString(w, b.String())
}

// statusText is "404 Not Found", or "FTP 550" for an FTP reply.
func statusText(url string, code int) string {
	if strings.HasPrefix(url, "ftp:") {
		return fmt.Sprintf("FTP %d", code)
	}
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("%d %s", code, t)
	}
	return fmt.Sprint(code)
}

// paymentText says a fetch's pay per crawl outcome for people: "required,
// crawler-price USD 0.01", "required, no crawler-price", "required,
// crawler-price unreadable: ...", "charged USD 0.01"; a crawler-error
// follows.
func paymentText(p *fetch.PaymentJSON) string {
	var s string
	switch p.Status {
	case "required":
		switch {
		case p.PriceError != "":
			s = "required (402: offered at a price), crawler-price unreadable: " + p.PriceError
		case p.Price != "":
			s = "required (402: offered at a price), crawler-price " + p.Price
		default:
			s = "required (402: offered at a price), no crawler-price"
		}
	case "charged":
		switch {
		case p.PriceError != "":
			s = "charged, crawler-charged unreadable: " + p.PriceError
		default:
			s = "charged " + p.Price
		}
	default:
		s = p.Status
	}
	if p.CrawlerError != "" {
		s += "; crawler-error: " + p.CrawlerError
	}
	return s
}
