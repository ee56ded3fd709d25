package fetch

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Policy is what a fetch means for a crawler: obey the rules of the body,
// or, when there is no usable body, allow or disallow everything.
type Policy uint8

// The policies. The zero value is not a policy: a Result always holds one
// of these.
const (
	Rules       Policy = iota + 1 // parse the body and obey its rules
	AllowAll                      // no valid robots.txt: everything is allowed
	DisallowAll                   // everything is disallowed (for now, when Result.Unreachable)
)

// String returns "rules", "allow-all" or "disallow-all".
func (p Policy) String() string {
	switch p {
	case Rules:
		return "rules"
	case AllowAll:
		return "allow-all"
	case DisallowAll:
		return "disallow-all"
	}
	return "policy(" + strconv.Itoa(int(p)) + ")"
}

// ParsePolicy reads a policy's String form.
func ParsePolicy(s string) (Policy, bool) {
	switch s {
	case "rules":
		return Rules, true
	case "allow-all":
		return AllowAll, true
	case "disallow-all":
		return DisallowAll, true
	}
	return 0, false
}

// Validators are what a cached copy is revalidated with: a refresh that
// sends them may get 304 Not Modified, which keeps the copy.
type Validators struct {
	ETag         string // the ETag header, sent back as If-None-Match
	LastModified string // the Last-Modified header, sent back as If-Modified-Since
}

// IsZero reports whether there is nothing to revalidate with.
func (v Validators) IsZero() bool { return v.ETag == "" && v.LastModified == "" }

// CacheControl is what the answer's Cache-Control header says about how long
// the copy may be kept (docs/protocol.md, Caching). The cache applies it; the fetcher only
// reads it.
type CacheControl struct {
	MaxAge    time.Duration // when HasMaxAge
	HasMaxAge bool
	NoStore   bool // keep the copy as briefly as the cache allows
	NoCache   bool // revalidate before each use (the cache keeps it the least time)
}

// parseCacheControl reads the directives of Cache-Control headers that matter
// to a robots.txt cache: max-age, no-store and no-cache. An unreadable max-age
// is ignored; the first readable one counts.
func parseCacheControl(values []string) CacheControl {
	var cc CacheControl
	for _, v := range values {
		for _, d := range strings.Split(v, ",") {
			name, arg, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "max-age":
				if cc.HasMaxAge {
					continue
				}
				// The first max-age counts (RFC 9111 §4.2.1); one that is
				// not a delta-seconds (negative, empty, garbage) makes the
				// answer stale: a max-age of 0.
				cc.HasMaxAge = true
				arg = strings.Trim(strings.TrimSpace(arg), `"`)
				if arg == "" || strings.TrimLeft(arg, "0123456789") != "" {
					continue
				}
				n, err := strconv.ParseInt(arg, 10, 64)
				if err != nil || n > 1<<31 {
					n = 1 << 31 // RFC 9111 §1.2.2: a delta past 2^31 (or past int64) means 2^31
				}
				cc.MaxAge = time.Duration(n) * time.Second
			case "no-store":
				cc.NoStore = true
			case "no-cache":
				cc.NoCache = true
			}
		}
	}
	return cc
}

// parseRetryAfter reads a Retry-After header: seconds, or an HTTP date taken
// relative to now. A date in the past means "now" (0, true).
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		return time.Duration(min(n, 1<<31)) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// Request is one request of a fetch, as the trace records it.
type Request struct {
	URL       string `json:"url"`
	Status    int    `json:"status"`    // HTTP status or FTP reply code; 0 when none came
	Bytes     int64  `json:"bytes"`     // body bytes kept (after decompression)
	Truncated bool   `json:"truncated"` // the body was longer than the limit and cut
	Location  string `json:"location"`  // a redirect's target, resolved
	// The answer's headers that matter to a cache and to a reader.
	ContentType     string `json:"content_type,omitempty"`
	ContentEncoding string `json:"content_encoding,omitempty"`
	CacheControl    string `json:"cache_control,omitempty"`
	ETag            string `json:"etag,omitempty"`
	LastModified    string `json:"last_modified,omitempty"`
	RetryAfter      string `json:"retry_after,omitempty"`
	// The pay per crawl headers (docs/protocol.md, Pay per crawl), as
	// given (several values joined by ", ", cut at 128 bytes): Payment
	// reads them.
	CrawlerPrice   string `json:"crawler_price,omitempty"`
	CrawlerCharged string `json:"crawler_charged,omitempty"`
	CrawlerError   string `json:"crawler_error,omitempty"`
	Err            string `json:"error,omitempty"` // what went wrong, when something did
}

// Result is the outcome of one fetch of an origin's robots.txt.
type Result struct {
	Origin Origin
	Policy Policy
	// Reason says in words what the answer was and why it means Policy.
	Reason string
	// Status is the final HTTP status (or FTP reply code); 0 when no
	// answer came.
	Status int
	// Body is the robots.txt body (decompressed, at most the fetcher's
	// MaxBytes) when Policy is Rules.
	Body []byte
	// Truncated is set when the body was longer than MaxBytes: only its
	// first MaxBytes were read, and the rest never downloaded.
	Truncated bool
	// NotModified is set when a conditional refresh got 304: the caller's
	// copy is still good, and Body is empty.
	NotModified bool
	// Unreachable is set for the answers that say nothing about the file
	// and must be retried: 5xx, 429 (except in the rfc9309 dialect) and
	// network failures. A cached copy takes precedence over them.
	Unreachable bool
	// Payment is what the final answer said about pay per crawl
	// (PaymentOf): PaymentRequired for a 402, with the price when the
	// answer names one. A 402 is a 4xx all the same: Policy is AllowAll
	// (docs/protocol.md, Pay per crawl); Payment names the outcome.
	Payment Payment
	// Validators of the body, for the next conditional refresh.
	Validators Validators
	// CacheControl of the final answer.
	CacheControl CacheControl
	// RetryAfter is the final answer's Retry-After, when HasRetryAfter.
	RetryAfter    time.Duration
	HasRetryAfter bool
	// FetchedAt is when the fetch started (the fetcher's clock).
	FetchedAt time.Time
	// Trace lists every request made, the first one first.
	Trace []Request
}
