package polite

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// Reason says why a request waited, or why an origin was paused.
type Reason uint8

// The reasons of a wait.
const (
	ReasonCrawlDelay  Reason = iota + 1 // the site's Crawl-delay line (Waited.Line)
	ReasonRequestRate                   // the site's Request-rate line (Waited.Line)
	ReasonMinDelay                      // Options.MinDelay
	ReasonRetryAfter                    // a 429 or 503 with Retry-After paused the origin
	ReasonBackoff                       // repeated 429 or 503 without Retry-After: exponential back-off
	ReasonLimit                         // Options.MaxPerOrigin requests were in flight
	numReasons
)

var reasonNames = [...]string{"", "crawl-delay", "request-rate", "min-delay", "retry-after", "back-off", "per-origin limit"}

// String returns the reason in words: "crawl-delay", "request-rate",
// "min-delay", "retry-after", "back-off" or "per-origin limit".
func (r Reason) String() string {
	if r > 0 && r < numReasons {
		return reasonNames[r]
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}

// Waited is how long a request waited before it was sent, and why. The
// context of the request the base transport gets (resp.Request.Context()
// for the caller) carries it: see WaitedFrom.
type Waited struct {
	// Turn is the wait for the request's turn at the origin, and Reason
	// why the turn came that late: the pace of the request before it
	// (crawl-delay, request-rate, min-delay) or a pause (retry-after,
	// back-off). Line is the robots.txt line of a crawl-delay or
	// request-rate.
	Turn   time.Duration
	Reason Reason
	Line   int
	// Limit is the wait for a place among the requests in flight to the
	// origin (Options.MaxPerOrigin).
	Limit time.Duration
}

// Total is the whole wait.
func (w Waited) Total() time.Duration { return w.Turn + w.Limit }

// String says it in words, e.g. "2s for crawl-delay (line 4)".
func (w Waited) String() string {
	var parts []string
	if w.Limit > 0 {
		parts = append(parts, fmt.Sprintf("%v for the per-origin limit", w.Limit))
	}
	if w.Turn > 0 {
		s := fmt.Sprintf("%v for %v", w.Turn, w.Reason)
		if w.Line > 0 {
			s += fmt.Sprintf(" (line %d)", w.Line)
		}
		parts = append(parts, s)
	}
	if parts == nil {
		return "no wait"
	}
	return strings.Join(parts, ", ")
}

type waitedKey struct{}

// WaitedFrom returns what the request whose context ctx is waited before
// it was sent: pass resp.Request.Context() of a response the Transport
// gave. It reports false for a context the Transport did not make.
func WaitedFrom(ctx context.Context) (Waited, bool) {
	w, ok := ctx.Value(waitedKey{}).(Waited)
	return w, ok
}

// Stats are the Transport's counters since New.
type Stats struct {
	Sent    uint64 // requests handed to the base transport
	Refused uint64 // requests robots.txt disallowed (not sent)
	// Waits counts the requests that waited, by reason (a request that
	// waited for its place and its turn counts twice), and WaitTime the
	// time they waited.
	Waits    map[Reason]uint64
	WaitTime map[Reason]time.Duration
	// Pauses counts the 429 and 503 answers that paused their origin:
	// ReasonRetryAfter or ReasonBackoff.
	Pauses map[Reason]uint64
	// Priced counts the 402 Payment Required answers (each a
	// *PriceError): pages offered at a price.
	Priced uint64
	// Charged counts the answers that said they were paid for
	// (crawler-charged on a 2xx); ChargedTotal adds up what they charged,
	// by currency ("USD": USD 1.23), exactly; ChargedUnreadable counts
	// those whose crawler-charged did not read (not in the totals).
	Charged           uint64
	ChargedTotal      map[string]fetch.Price
	ChargedUnreadable uint64
}

type counters struct {
	sent, refused    atomic.Uint64
	priced           atomic.Uint64
	waits, waitNanos [numReasons]atomic.Uint64
	pauses           [numReasons]atomic.Uint64
}

// Stats returns a snapshot of the counters.
func (t *Transport) Stats() Stats {
	s := Stats{Sent: t.stats.sent.Load(), Refused: t.stats.refused.Load(),
		Waits: map[Reason]uint64{}, WaitTime: map[Reason]time.Duration{}, Pauses: map[Reason]uint64{},
		Priced: t.stats.priced.Load()}
	s.ChargedTotal, s.Charged, s.ChargedUnreadable = t.charged.snapshot()
	for r := Reason(1); r < numReasons; r++ {
		if n := t.stats.waits[r].Load(); n > 0 {
			s.Waits[r] = n
			s.WaitTime[r] = time.Duration(t.stats.waitNanos[r].Load())
		}
		if n := t.stats.pauses[r].Load(); n > 0 {
			s.Pauses[r] = n
		}
	}
	return s
}

func (t *Transport) countWait(r Reason, d time.Duration) {
	t.stats.waits[r].Add(1)
	t.stats.waitNanos[r].Add(uint64(d))
}

// originState is what the Transport keeps per origin.
type originState struct {
	slots    chan struct{} // the places in flight; nil: no limit
	users    int           // requests holding the state (under Transport.mu)
	next     time.Time     // when the next request may start
	why      Reason        // why next is that late
	line     int           // the robots.txt line of why
	failures int           // 429 and 503 answers in a row
}

// acquire returns the origin's state, held until release.
func (t *Transport) acquire(origin string) *originState {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.origins[origin]
	if st == nil {
		if len(t.origins) >= 10_000 {
			now := t.now()
			for o, s := range t.origins {
				if s.users == 0 && len(s.slots) == 0 && s.failures == 0 && !s.next.After(now) {
					delete(t.origins, o)
				}
			}
		}
		st = &originState{}
		if t.limit > 0 {
			st.slots = make(chan struct{}, t.limit)
		}
		t.origins[origin] = st
	}
	st.users++
	return st
}

func (t *Transport) release(st *originState) {
	t.mu.Lock()
	st.users--
	t.mu.Unlock()
}

// pace is the least time between two requests to the origin of a, and
// why: MinDelay, or the site's crawl-delay or request-rate (capped by
// MaxDelay) when the crawler honours them.
func (t *Transport) pace(a *cache.Answer, q robotstxt.Query) (time.Duration, Reason, int) {
	delay, why, line := t.min, ReasonMinDelay, 0
	if t.noPace || a.Policy != fetch.Rules || a.Robots == nil {
		return delay, why, line
	}
	p := a.Robots.CrawlDelay(q)
	if p.Ignored {
		return delay, why, line
	}
	now := t.now()
	cd := robotstxt.Pace{CrawlDelay: p.CrawlDelay, CrawlDelayLine: p.CrawlDelayLine}.Interval(now)
	if d := min(cd, t.max); d > delay {
		delay, why, line = d, ReasonCrawlDelay, p.CrawlDelayLine
	}
	if p.RequestRate != nil {
		rr := robotstxt.Pace{RequestRate: p.RequestRate}.Interval(now)
		if d := min(rr, t.max); d > delay {
			delay, why, line = d, ReasonRequestRate, p.RequestRate.Line
		}
	}
	return delay, why, line
}

// send waits for the request's place and turn at its origin, sends it,
// and pauses the origin when the answer asks for it.
func (t *Transport) send(req *http.Request, a *cache.Answer, q robotstxt.Query, fail func(error) (*http.Response, error)) (*http.Response, error) {
	ctx := req.Context()
	origin := a.Origin.String()
	delay, why, line := t.pace(a, q)
	st := t.acquire(origin)
	var w Waited
	done := func() {}
	if st.slots != nil {
		select {
		case st.slots <- struct{}{}:
		default:
			start := t.now()
			select {
			case st.slots <- struct{}{}:
			case <-ctx.Done():
				t.release(st)
				return fail(fmt.Errorf("polite: waiting for one of the %d requests in flight to %s: %w", t.limit, origin, ctx.Err()))
			}
			w.Limit = max(t.now().Sub(start), 0)
			t.countWait(ReasonLimit, w.Limit)
		}
		var once sync.Once
		done = func() { once.Do(func() { <-st.slots }) }
	}
	now := t.now()
	t.mu.Lock()
	start := now
	if st.next.After(now) {
		start = st.next
		w.Reason, w.Line = st.why, st.line
	}
	if delay > 0 {
		st.next, st.why, st.line = start.Add(delay), why, line
	}
	t.mu.Unlock()
	if w.Turn = start.Sub(now); w.Turn > 0 {
		t.countWait(w.Reason, w.Turn)
		if err := t.sleep(ctx, w.Turn); err != nil {
			done()
			t.release(st)
			return fail(fmt.Errorf("polite: waiting %v for %s (%s): %w", w.Turn, origin, w, err))
		}
	}
	r := req.Clone(context.WithValue(ctx, waitedKey{}, w))
	r.Header.Set("User-Agent", t.ua)
	t.setOffer(r)
	t.stats.sent.Add(1)
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		done()
		t.release(st)
		return nil, err
	}
	t.answered(st, resp, delay)
	t.release(st)
	if resp.StatusCode == http.StatusPaymentRequired {
		t.stats.priced.Add(1)
		e := priced(r, origin, resp)
		done()
		return nil, e
	}
	t.charged.add(fetch.PaymentOf(resp.StatusCode, resp.Header))
	if resp.Body == nil || resp.StatusCode == http.StatusSwitchingProtocols {
		done()
		return resp, nil
	}
	resp.Body = &releaseBody{ReadCloser: resp.Body, release: done}
	return resp, nil
}

// answered pauses the origin after a 429 or 503: until its Retry-After,
// or, without one, for an exponential back-off with jitter, capped by
// MaxPause. Any other answer resets the back-off.
func (t *Transport) answered(st *originState, resp *http.Response, delay time.Duration) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		t.mu.Lock()
		st.failures = 0
		t.mu.Unlock()
		return
	}
	if t.pause <= 0 {
		return
	}
	now := t.now()
	pause, why := retryAfter(resp.Header.Get("Retry-After"), now, t.pause)
	t.mu.Lock()
	defer t.mu.Unlock()
	st.failures++
	if why == 0 {
		// Back-off: from the origin's pace (at least 1 s), doubling with
		// each 429 or 503 in a row; a random half of it is jitter, so
		// that many clients do not come back at once.
		why = ReasonBackoff
		d := max(delay, time.Second)
		for i := 1; i < st.failures && d < t.pause; i++ {
			d *= 2
		}
		d = min(d, t.pause)
		pause = d/2 + time.Duration(t.jitter()*float64(d/2))
	}
	t.stats.pauses[why].Add(1)
	if until := now.Add(pause); until.After(st.next) {
		st.next, st.why, st.line = until, why, 0
	}
}

// retryAfter reads a Retry-After value, seconds or an HTTP date, as a
// pause from now capped by limit; why is 0 when the value is missing or
// unreadable.
func retryAfter(v string, now time.Time, limit time.Duration) (time.Duration, Reason) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, 0
	}
	if n, err := strconv.ParseUint(v, 10, 64); err == nil {
		if n > uint64(limit/time.Second) {
			return limit, ReasonRetryAfter
		}
		return min(time.Duration(n)*time.Second, limit), ReasonRetryAfter
	}
	if at, err := http.ParseTime(v); err == nil {
		return min(max(at.Sub(now), 0), limit), ReasonRetryAfter
	}
	return 0, 0
}

// releaseBody gives back the request's place at its origin when the body
// is closed or read to its end.
type releaseBody struct {
	io.ReadCloser
	release func()
}

func (b *releaseBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.release()
	}
	return n, err
}

func (b *releaseBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}
