package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt"
)

// DefaultUserAgent is the User-Agent header a Fetcher sends when none is
// configured: it names the toolkit, its version and where to read about it.
var DefaultUserAgent = "robotstxt/" + Version + " (+https://github.com/seed53c283f5/robotstxt)"

// DefaultTimeout is how long one fetch (every request of it, redirects and
// body included) may take.
const DefaultTimeout = 15 * time.Second

// DefaultMaxBytes is how much of a body is read: 500 KiB, what Google reads
// and at least what RFC 9309 requires.
const DefaultMaxBytes = robotstxt.DefaultMaxBytes

// MaxRedirects is how many redirects a fetch follows (the first request plus
// five more; docs/protocol.md, Fetching).
const MaxRedirects = 5

// Fetcher fetches robots.txt files with the policy of one dialect. Its zero
// value is ready to use: Google's policy, a 15 s timeout, a 500 KiB cut, the
// default User-Agent, proxies from the environment and the system's CA
// roots. A Fetcher is safe for concurrent use; do not change its fields or
// copy it after its first use.
type Fetcher struct {
	// Transport makes the HTTP requests. nil means a transport like
	// http.DefaultTransport (proxies from the environment, the system's
	// roots, keep-alive) that dials with DialContext when it is set.
	// Redirects are followed by the fetcher, not the transport.
	Transport http.RoundTripper
	// DialContext opens connections for the default transport and for
	// FTP; nil means a net.Dialer. Tests inject resolvers here; a service
	// refuses private addresses here.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// UserAgent is the User-Agent header; "" means DefaultUserAgent.
	UserAgent string
	// Timeout bounds one fetch: every request, redirect and byte of the
	// body. Zero means DefaultTimeout.
	Timeout time.Duration
	// Dialect chooses the fetch policy (docs/protocol.md, Dialects): Google's (the default),
	// RFC 9309's (429 is a 4xx), Bing's (Google's), Yandex's (anything but
	// 200 OK, or a body over MaxBytes, means no restrictions) or the
	// original draft's (401 and 403 disallow everything).
	Dialect robotstxt.Dialect
	// MaxBytes is how much of the body is read; the rest is never
	// downloaded (one byte past the limit is read, to know that there was
	// more). It bounds the decompressed body too. Zero means
	// DefaultMaxBytes.
	MaxBytes int
	// CheckRedirect, when set, is offered every redirect target before it
	// is requested; an error refuses it, and the fetch fails as
	// unreachable (Step "redirect").
	CheckRedirect func(ctx context.Context, from, to *url.URL) error
	// Now is the clock; nil means time.Now. It dates results and reads
	// Retry-After dates.
	Now func() time.Time

	once      sync.Once
	transport http.RoundTripper
}

var (
	sharedOnce      sync.Once
	sharedTransport *http.Transport
)

// newTransport returns a transport like http.DefaultTransport that leaves
// bodies compressed (the fetcher decodes them under its size limit).
func newTransport(dial func(ctx context.Context, network, addr string) (net.Conn, error)) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DisableCompression = true
	t.MaxResponseHeaderBytes = 64 << 10
	t.ResponseHeaderTimeout = 0 // the fetch's own deadline bounds it
	// HTTP/2 lets a server send as much as the stream's flow-control
	// window before the client reads it (4 MiB by default in Go): a body
	// cut at MaxBytes would still cost that much. A small window keeps an
	// endless body's cost near the limit.
	t.HTTP2 = &http.HTTP2Config{MaxReceiveBufferPerStream: h2StreamWindow}
	if dial != nil {
		t.DialContext = dial
	}
	return t
}

// h2StreamWindow is the HTTP/2 flow-control window of a robots.txt
// request: what a server may send past what the fetcher has read.
const h2StreamWindow = 64 << 10

func (f *Fetcher) roundTripper() http.RoundTripper {
	f.once.Do(func() {
		switch {
		case f.Transport != nil:
			f.transport = f.Transport
		case f.DialContext != nil:
			f.transport = newTransport(f.DialContext)
		default:
			sharedOnce.Do(func() { sharedTransport = newTransport(nil) })
			f.transport = sharedTransport
		}
	})
	return f.transport
}

func (f *Fetcher) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

// ErrInvalidUserAgent is wrapped by the error for a User-Agent that cannot
// be sent as an HTTP header: control characters (a line break would add
// headers of its own), or only white space.
var ErrInvalidUserAgent = errors.New("invalid User-Agent")

// CheckUserAgent returns an error wrapping ErrInvalidUserAgent when ua
// cannot be sent as the User-Agent header, and nil otherwise ("" is valid:
// it means DefaultUserAgent). Fetch refuses such a ua before any request,
// and a program should refuse it before anything else.
func CheckUserAgent(ua string) error {
	if ua == "" {
		return nil
	}
	if strings.TrimSpace(ua) == "" {
		return fmt.Errorf("fetch: %w: %q is only white space", ErrInvalidUserAgent, ua)
	}
	for i := 0; i < len(ua); i++ {
		if c := ua[i]; c < ' ' && c != '\t' || c == 0x7f {
			return fmt.Errorf("fetch: %w: %q has a control character at byte %d", ErrInvalidUserAgent, ua, i)
		}
	}
	return nil
}

func (f *Fetcher) userAgent() string {
	if f.UserAgent != "" {
		return f.UserAgent
	}
	return DefaultUserAgent
}

func (f *Fetcher) maxBytes() int {
	if f.MaxBytes > 0 {
		return f.MaxBytes
	}
	return DefaultMaxBytes
}

func (f *Fetcher) dialect() robotstxt.Dialect {
	if f.Dialect == robotstxt.DefaultDialect {
		return robotstxt.Google
	}
	return f.Dialect
}

// timeoutError is the cause of a fetch that ran out of time: errors.Is
// matches it with context.DeadlineExceeded.
type timeoutError struct{ d time.Duration }

func (e *timeoutError) Error() string   { return "timed out after " + e.d.String() }
func (e *timeoutError) Timeout() bool   { return true }
func (e *timeoutError) Is(t error) bool { return t == context.DeadlineExceeded }

// Fetch fetches the robots.txt of origin o and says what it means. A
// non-zero v makes the request conditional, as a refresh of a cached copy
// is: a 304 answer sets Result.NotModified.
//
// The Result is never nil. When no answer came (the origin is unreachable)
// the error is an *Error and the Result says what that means (disallow all,
// to be retried). A 5xx or 429 is an answer, not an error: the Result is
// Unreachable and the error nil. Only the Result's Policy and Unreachable
// decide anything; errors are for reporting.
func (f *Fetcher) Fetch(ctx context.Context, o Origin, v Validators) (*Result, error) {
	res := &Result{Origin: o, FetchedAt: f.now()}
	if _, ok := defaultPorts[o.Scheme]; !ok || o.Host == "" || o.Port == 0 {
		err := &Error{Origin: o, Step: StepURL, Err: fmt.Errorf("not an origin: %+v (use OriginOf)", o)}
		f.unreachable(res, err)
		return res, err
	}
	if err := ctx.Err(); err != nil {
		e := &Error{Origin: o, URL: o.RobotsURL(), Step: StepContext, Err: err}
		f.unreachable(res, e)
		return res, e
	}
	if err := CheckUserAgent(f.UserAgent); err != nil {
		e := &Error{Origin: o, URL: o.RobotsURL(), Step: StepURL, Err: err}
		f.unreachable(res, e)
		return res, e
	}
	timeout := f.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, &timeoutError{timeout})
	defer cancel()
	var err *Error
	if o.Scheme == "ftp" {
		err = f.fetchFTP(ctx, res, o)
	} else {
		err = f.fetchHTTP(ctx, res, o, v)
	}
	if err != nil {
		if ctx.Err() != nil {
			err.Err = context.Cause(ctx)
		}
		if len(res.Trace) > 0 && res.Trace[len(res.Trace)-1].Err == "" {
			res.Trace[len(res.Trace)-1].Err = err.cause()
		}
		f.unreachable(res, err)
		return res, err
	}
	return res, nil
}

// unreachable fills in the policy for a fetch that got no answer.
func (f *Fetcher) unreachable(res *Result, err *Error) {
	res.Policy, res.Unreachable, res.Body = DisallowAll, true, nil
	where := ""
	if err.URL != "" && err.URL != err.Origin.RobotsURL() {
		where = err.URL + ": "
	}
	res.Reason = "unreachable (" + where + err.cause() + "): everything is disallowed until a retry gets an answer"
}

// stage records how far a request got, for the step an error names.
type stage struct{ v atomic.Value }

func (s *stage) set(step string) { s.v.Store(step) }
func (s *stage) get() string {
	if v, ok := s.v.Load().(string); ok {
		return v
	}
	return ""
}

func (s *stage) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		DNSStart:          func(httptrace.DNSStartInfo) { s.set(StepDNS) },
		ConnectStart:      func(string, string) { s.set(StepDial) },
		TLSHandshakeStart: func() { s.set(StepTLS) },
		GotConn:           func(httptrace.GotConnInfo) { s.set(StepRequest) },
	}
}

func (f *Fetcher) fetchHTTP(ctx context.Context, res *Result, o Origin, v Validators) *Error {
	d := f.dialect()
	cur, err := url.Parse(o.RobotsURL())
	if err != nil {
		return &Error{Origin: o, URL: o.RobotsURL(), Step: StepURL, Err: err}
	}
	seen := map[string]bool{cur.String(): true}
	rt := f.roundTripper()
	for redirects := 0; ; {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cur.String(), nil)
		if err != nil {
			return &Error{Origin: o, URL: redacted(cur), Step: StepURL, Err: err}
		}
		req.Header.Set("User-Agent", f.userAgentFor(ctx))
		req.Header.Set("Accept", "text/plain, */*;q=0.8")
		req.Header.Set("Accept-Encoding", "gzip, deflate, br")
		if v.ETag != "" {
			req.Header.Set("If-None-Match", v.ETag)
		}
		if v.LastModified != "" {
			req.Header.Set("If-Modified-Since", v.LastModified)
		}
		var st stage
		req = req.WithContext(httptrace.WithClientTrace(ctx, st.trace()))
		tr := Request{URL: redacted(cur)}
		resp, err := rt.RoundTrip(req)
		if err != nil {
			res.Trace = append(res.Trace, tr)
			step := stepOf(err, "")
			if step == "" {
				step = st.get()
			}
			if step == "" {
				step = StepRequest
			}
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			return &Error{Origin: o, URL: redacted(cur), Step: step, Err: err}
		}
		code := resp.StatusCode
		h := resp.Header
		tr.Status = code
		tr.ContentType = h.Get("Content-Type")
		tr.ContentEncoding = h.Get("Content-Encoding")
		tr.CacheControl = h.Get("Cache-Control")
		tr.ETag = h.Get("ETag")
		tr.LastModified = h.Get("Last-Modified")
		tr.RetryAfter = h.Get("Retry-After")
		tr.CrawlerPrice = traceHeader(h, HeaderCrawlerPrice)
		tr.CrawlerCharged = traceHeader(h, HeaderCrawlerCharged)
		tr.CrawlerError = traceHeader(h, HeaderCrawlerError)
		res.Status = code
		res.Payment = tr.Payment()
		res.CacheControl = parseCacheControl(h.Values("Cache-Control"))
		res.RetryAfter, res.HasRetryAfter = parseRetryAfter(tr.RetryAfter, res.FetchedAt)
		sl := statusLine(code)

		if code >= 300 && code < 400 {
			resp.Body.Close()
			if code == http.StatusNotModified && !v.IsZero() {
				res.Trace = append(res.Trace, tr)
				res.Policy, res.NotModified = Rules, true
				// The answer's own validators replace the ones sent,
				// judged as a 200's are.
				etag, lm := v.ETag, v.LastModified
				if tr.ETag != "" {
					etag = tr.ETag
				}
				if tr.LastModified != "" {
					lm = tr.LastModified
				}
				res.Validators = validatorsOf(etag, lm, h.Get("Date"), res.FetchedAt)
				res.Reason = sl + ": the cached copy is still valid"
				return nil
			}
			if code == http.StatusNotModified {
				// Nothing was cached to be still valid: a broken answer.
				res.Trace = append(res.Trace, tr)
				res.Policy, res.Unreachable = DisallowAll, true
				res.Reason = sl + " to a request that was not conditional: an error answer, everything is disallowed until a retry gets an answer"
				return nil
			}
			loc := h.Get("Location")
			if loc == "" {
				res.Trace = append(res.Trace, tr)
				f.notFound(res, sl+" with no Location to follow")
				return nil
			}
			next, err := cur.Parse(loc)
			if err != nil || (next.Scheme != "http" && next.Scheme != "https") || next.Host == "" {
				if err == nil {
					loc = redacted(next)
				} else if strings.Contains(loc, "@") {
					loc = "(a malformed URL with an @)"
				}
				tr.Location = loc
				res.Trace = append(res.Trace, tr)
				f.notFound(res, sl+" to "+strconv.Quote(loc)+", which is not an http or https URL")
				return nil
			}
			next.Fragment, next.RawFragment = "", ""
			tr.Location = redacted(next)
			res.Trace = append(res.Trace, tr)
			if redirects == MaxRedirects {
				f.notFound(res, fmt.Sprintf("%s: a redirect after %d redirects (at most %d are followed)", sl, MaxRedirects, MaxRedirects))
				return nil
			}
			if seen[next.String()] {
				f.notFound(res, sl+": a redirect loop back to "+redacted(next))
				return nil
			}
			if f.CheckRedirect != nil {
				if err := f.CheckRedirect(ctx, cur, next); err != nil {
					// The target, not requested, is in the trace with
					// the refusal.
					res.Trace = append(res.Trace, Request{URL: redacted(next)})
					return &Error{Origin: o, URL: redacted(next), Step: StepRedirect, Err: fmt.Errorf("redirect from %s refused: %w", redacted(cur), err)}
				}
			}
			seen[next.String()] = true
			redirects++
			cur = next
			continue
		}

		if code < 200 || code >= 300 {
			resp.Body.Close()
			res.Trace = append(res.Trace, tr)
			f.decideStatus(res, code, res.Payment)
			return nil
		}

		limit := f.maxBytes()
		body, truncated, step, err := readBody(resp.Body, tr.ContentEncoding, limit)
		resp.Body.Close()
		tr.Bytes, tr.Truncated = int64(len(body)), truncated
		res.Trace = append(res.Trace, tr)
		if err != nil {
			return &Error{Origin: o, URL: redacted(cur), Step: step, Err: err}
		}
		res.Truncated = truncated
		res.Validators = validatorsOf(tr.ETag, tr.LastModified, h.Get("Date"), res.FetchedAt)
		size := len(body)
		if truncated {
			size = limit + 1 // at least: one byte past the limit was read
		}
		v := decide(d, code, tr.ContentType, len(body), size, limit, res.Payment)
		res.Policy, res.Reason, res.Unreachable = v.policy, v.reason, v.unreachable
		if v.policy != Rules {
			return nil
		}
		res.Body = body
		if redirects > 0 {
			res.Reason += fmt.Sprintf(", after %d redirect(s); they apply to %s", redirects, o)
		}
		return nil
	}
}

// redacted is u as shown in traces, reasons and errors, which are stored
// and printed: with any userinfo (user name, password: credentials a
// redirect may carry) replaced by "xxxxx".
func redacted(u *url.URL) string {
	if u.User == nil {
		return u.String()
	}
	c := *u
	c.User = url.User("xxxxx")
	return c.String()
}

// notFound is the policy of "no valid robots.txt" reached through
// redirects that lead nowhere (docs/protocol.md, Fetching: treated as 404).
func (f *Fetcher) notFound(res *Result, why string) {
	res.Policy = AllowAll
	res.Reason = why + ": treated as 404, everything is allowed"
}

// decideStatus sets the policy of a final answer that has no body to parse:
// a 4xx, 5xx or another status that is neither 2xx nor a redirect.
func (f *Fetcher) decideStatus(res *Result, code int, pay Payment) {
	v := decide(f.dialect(), code, "", 0, 0, f.maxBytes(), pay)
	res.Policy, res.Reason, res.Unreachable = v.policy, v.reason, v.unreachable
}

// statusLine is "404 Not Found".
func statusLine(code int) string {
	if t := http.StatusText(code); t != "" {
		return strconv.Itoa(code) + " " + t
	}
	return strconv.Itoa(code)
}
