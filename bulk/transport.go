package bulk

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// A bulk run fetches many origins at once, at most perHost requests at
// once to one host name. When many origins redirect to one slow host, their
// requests queue for its slots; the fetcher's timeout, which runs from the
// start of the fetch, counted that queue, and the origins at its end timed
// out without a request made: "unreachable", disallow all, cached. So the
// budget of a fetch (Options.Timeout) is kept by a slotClock instead, which
// runs only while one of the fetch's requests or connections is under way:
// from the moment a request gets its slot until its body is closed. The
// fetcher's own timeout becomes a backstop (Backstop) that a fetch
// reaches only if the slots are never given.

// NewTransport returns a transport for the fetcher of a run's cache (as
// fetch builds its own: bodies left compressed, a small HTTP/2 window) with
// idle connections kept for a run's concurrency, and at most perHost
// requests at once to one host name. proxy chooses the proxy of a request;
// nil means none (http.ProxyFromEnvironment honours HTTP_PROXY, HTTPS_PROXY
// and NO_PROXY). The limit is counted per target host, not per connection:
// through an HTTP proxy every request shares the proxy's connections.
//
// A run whose Options.Timeout is set gives each origin's fetch that budget,
// counted by this transport only while the fetch's requests hold their
// slots: give the fetcher a timeout of Backstop, and DialContext as its
// dialer (for FTP).
func NewTransport(concurrency, perHost int, proxy func(*http.Request) (*url.URL, error)) http.RoundTripper {
	perHost = max(1, perHost)
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = proxy
	t.DisableCompression = true
	t.MaxResponseHeaderBytes = 64 << 10
	t.MaxIdleConns = max(100, concurrency)
	t.MaxIdleConnsPerHost = max(2, concurrency)
	t.HTTP2 = &http.HTTP2Config{MaxReceiveBufferPerStream: 64 << 10}
	return &hostLimit{rt: t, n: perHost, busy: map[string]chan struct{}{}, refs: map[string]int{}}
}

// hostLimit lets at most n requests at once go to one host. A request whose
// context carries a slotClock runs on it once it has its slot.
type hostLimit struct {
	rt   http.RoundTripper
	n    int
	mu   sync.Mutex
	busy map[string]chan struct{}
	refs map[string]int
}

func (h *hostLimit) RoundTrip(req *http.Request) (*http.Response, error) {
	host := req.URL.Hostname()
	h.mu.Lock()
	sem, ok := h.busy[host]
	if !ok {
		sem = make(chan struct{}, h.n)
		h.busy[host] = sem
	}
	h.refs[host]++
	h.mu.Unlock()
	done := func() {
		h.mu.Lock()
		if h.refs[host]--; h.refs[host] == 0 {
			delete(h.refs, host)
			delete(h.busy, host)
		}
		h.mu.Unlock()
	}
	select {
	case sem <- struct{}{}:
	case <-req.Context().Done():
		done()
		return nil, req.Context().Err()
	}
	stop := func() {}
	if c := slotClockOf(req.Context()); c != nil {
		ctx, cstop, err := c.start(req.Context())
		if err != nil {
			<-sem
			done()
			return nil, err
		}
		req, stop = req.WithContext(ctx), cstop
	}
	release := func() { stop(); <-sem; done() }
	resp, err := h.rt.RoundTrip(req)
	if err != nil {
		release()
		return nil, err
	}
	// The slot is held, and the clock runs, until the body is closed: the
	// request is under way until then.
	resp.Body = &releaseBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

type releaseBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releaseBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}

// slotClock is the time budget of one origin's fetch. It runs while at
// least one of the fetch's requests (or, for FTP, connections) is under
// way; a request started with the budget spent fails at once, and one under
// way when it runs out is cancelled.
type slotClock struct {
	budget time.Duration
	now    func() time.Time // time.Now; tests replace it

	mu     sync.Mutex
	used   time.Duration // before the current run
	active int           // requests and connections under way
	since  time.Time     // when active last went from 0 to 1
}

type slotClockKey struct{}

// withSlotClock returns ctx carrying a new clock of budget d. The value
// survives the cache's context.WithoutCancel around its fetches.
func withSlotClock(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, slotClockKey{}, &slotClock{budget: d, now: time.Now})
}

func slotClockOf(ctx context.Context) *slotClock {
	c, _ := ctx.Value(slotClockKey{}).(*slotClock)
	return c
}

// start starts a request or connection on the clock: its context ends when
// the budget is spent, and stop (call it when the request is over; later
// calls do nothing) takes it off the clock.
func (c *slotClock) start(parent context.Context) (context.Context, func(), error) {
	c.mu.Lock()
	now := c.now()
	left := c.budget - c.used
	if c.active > 0 {
		left -= now.Sub(c.since)
	}
	if left <= 0 {
		c.mu.Unlock()
		return nil, nil, &bulkTimeout{c.budget}
	}
	if c.active == 0 {
		c.since = now
	}
	c.active++
	c.mu.Unlock()
	ctx, cancel := context.WithTimeoutCause(parent, left, &bulkTimeout{c.budget})
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			c.mu.Lock()
			if c.active--; c.active == 0 {
				c.used += c.now().Sub(c.since)
			}
			c.mu.Unlock()
			cancel()
		})
	}, nil
}

// bulkTimeout is the cause of a fetch that spent its budget: errors.Is
// matches it with context.DeadlineExceeded, as the fetcher's own.
type bulkTimeout struct{ d time.Duration }

func (e *bulkTimeout) Error() string {
	return "timed out after " + e.d.String() + " (waits for a --per-host slot not counted)"
}
func (e *bulkTimeout) Timeout() bool   { return true }
func (e *bulkTimeout) Is(t error) bool { return t == context.DeadlineExceeded }

// DialContext is the dialer of a run's fetcher, which only FTP uses (HTTP
// goes through the transport): each connection runs on the fetch's clock
// (Options.Timeout) while it is open, and is cut when the budget is spent.
func DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c := slotClockOf(ctx)
	if c == nil {
		return d.DialContext(ctx, network, addr)
	}
	cctx, stop, err := c.start(ctx)
	if err != nil {
		return nil, err
	}
	conn, err := d.DialContext(cctx, network, addr)
	if err != nil {
		stop()
		return nil, err
	}
	// The fetcher sets the connection's deadline to its own (the
	// backstop): the clock's, when it runs out, comes after and wins.
	cut := context.AfterFunc(cctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	return &clockConn{Conn: conn, stop: func() { cut(); stop() }}, nil
}

// clockConn takes its connection off the clock when it is closed.
type clockConn struct {
	net.Conn
	once sync.Once
	stop func()
}

func (c *clockConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.stop)
	return err
}

// Backstop is the fetcher's own timeout in a run of the given budget
// (Options.Timeout), concurrency and requests per host: longer than a
// fetch can take when every slot it waits for is given. A request waits at
// most for the others that hold its host's slots, each within its budget:
// at most concurrency/perHost budgets, rounded up; a fetch makes at most
// fetch.MaxRedirects+1 requests.
func Backstop(budget time.Duration, concurrency, perHost int) time.Duration {
	waits := (concurrency+perHost-1)/perHost + 1
	return time.Duration(fetch.MaxRedirects+1) * time.Duration(waits) * budget
}
