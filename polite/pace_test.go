package polite

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
)

// paceSite is a site whose pages answer what status says, recording the
// arrival time of each page request on a clock.
type paceSite struct {
	*httptest.Server
	mu       sync.Mutex
	arrivals []time.Time
	status   []int    // the statuses of the next page answers, then 200
	headers  []string // their Retry-After values
	inFlight atomic.Int64
	maxIn    atomic.Int64
	hold     time.Duration
}

func newPaceSite(t *testing.T, robots string, now func() time.Time) *paceSite {
	s := &paceSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte(robots))
			return
		}
		n := s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		for {
			m := s.maxIn.Load()
			if n <= m || s.maxIn.CompareAndSwap(m, n) {
				break
			}
		}
		s.mu.Lock()
		s.arrivals = append(s.arrivals, now())
		code, ra := 200, ""
		if len(s.status) > 0 {
			code, ra = s.status[0], s.headers[0]
			s.status, s.headers = s.status[1:], s.headers[1:]
		}
		s.mu.Unlock()
		if s.hold > 0 {
			time.Sleep(s.hold)
		}
		if ra != "" {
			w.Header().Set("Retry-After", ra)
		}
		w.WriteHeader(code)
		w.Write([]byte("page"))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *paceSite) answer(code int, retryAfter string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status = append(s.status, code)
	s.headers = append(s.headers, retryAfter)
}

// gaps returns the time between consecutive page requests.
func (s *paceSite) gaps() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return gapsOf(s.arrivals)
}

// gapsOf returns the durations between successive times.
func gapsOf(times []time.Time) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(times); i++ {
		out = append(out, times[i].Sub(times[i-1]))
	}
	return out
}

func get(t *testing.T, c *http.Client, url string) *http.Response {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCrawlDelayGaps(t *testing.T) {
	for _, tc := range []struct {
		name, robots string
		opts         Options
		want         time.Duration
	}{
		{"in '*'", "User-agent: *\nCrawl-delay: 2\nDisallow: /private\n", Options{Token: "ExampleBot"}, 2 * time.Second},
		{"in the bot's own group", "User-agent: examplebot\nCrawl-delay: 3\nDisallow: /private\n", Options{Token: "ExampleBot"}, 3 * time.Second},
		{"both: the group wins", "User-agent: *\nCrawl-delay: 5\nDisallow: /x\n\nUser-agent: ExampleBot\nCrawl-delay: 1\nDisallow: /y\n", Options{Token: "ExampleBot"}, time.Second},
		{"the group without one falls back to '*'", "User-agent: *\nCrawl-delay: 5\nDisallow: /x\n\nUser-agent: ExampleBot\nDisallow: /y\n", Options{Token: "ExampleBot"}, 5 * time.Second},
		{"absent", "User-agent: *\nDisallow: /private\n", Options{Token: "ExampleBot"}, 0},
		{"fractional", "User-agent: *\nCrawl-delay: 0.25\n", Options{Token: "ExampleBot"}, 250 * time.Millisecond},
		{"request-rate", "User-agent: *\nRequest-rate: 1/4s\n", Options{Token: "ExampleBot"}, 4 * time.Second},
		{"request-rate slower than crawl-delay", "User-agent: *\nCrawl-delay: 1\nRequest-rate: 2/10s\n", Options{Token: "ExampleBot"}, 5 * time.Second},
		{"crawl-delay slower than request-rate", "User-agent: *\nCrawl-delay: 7\nRequest-rate: 2/10s\n", Options{Token: "ExampleBot"}, 7 * time.Second},
		{"a crawler of another engine, google dialect", "User-agent: *\nCrawl-delay: 2\n", Options{Crawler: "AhrefsBot"}, 2 * time.Second},
		{"google's crawlers ignore it", "User-agent: *\nCrawl-delay: 2\n", Options{Crawler: "Googlebot"}, 0},
		{"even read in the bing dialect", "User-agent: *\nCrawl-delay: 2\n", Options{Crawler: "Googlebot", Dialect: robotstxt.Bing}, 0},
		{"turned off", "User-agent: *\nCrawl-delay: 2\n", Options{Token: "ExampleBot", IgnoreCrawlDelay: true}, 0},
		{"turned off, MinDelay stays", "User-agent: *\nCrawl-delay: 2\n", Options{Token: "ExampleBot", IgnoreCrawlDelay: true, MinDelay: time.Second}, time.Second},
		{"capped", "User-agent: *\nCrawl-delay: 30\n", Options{Token: "ExampleBot", MaxDelay: 10 * time.Second}, 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &fakeTime{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
			s := newPaceSite(t, tc.robots, clk.Now)
			tc.opts.Now, tc.opts.Sleep = clk.Now, clk.Sleep
			tr, err := New(&tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			c := &http.Client{Transport: tr}
			for range 3 {
				get(t, c, s.URL+"/a")
			}
			want := []time.Duration{tc.want, tc.want}
			if got := s.gaps(); !equalDurations(got, want) {
				t.Errorf("gaps %v, want %v", got, want)
			}
		})
	}
}

// The wait is visible to the caller: the context of the request sent says
// how long and why, and Stats counts it.
func TestWaitObservable(t *testing.T) {
	clk := &fakeTime{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	s := newPaceSite(t, "User-agent: *\nDisallow: /private\nCrawl-delay: 2\n", clk.Now)
	tr, _ := New(&Options{Token: "ExampleBot", Now: clk.Now, Sleep: clk.Sleep})
	c := &http.Client{Transport: tr}
	first := get(t, c, s.URL+"/a")
	if w, ok := WaitedFrom(first.Request.Context()); !ok || w.Total() != 0 || w.String() != "no wait" {
		t.Errorf("first: %+v %v", w, ok)
	}
	second := get(t, c, s.URL+"/b")
	w, ok := WaitedFrom(second.Request.Context())
	if !ok || w.Turn != 2*time.Second || w.Reason != ReasonCrawlDelay || w.Line != 3 || w.String() != "2s for crawl-delay (line 3)" {
		t.Errorf("second: %+v (%v) %v", w, w, ok)
	}
	if _, err := c.Get(s.URL + "/private"); !errors.Is(err, ErrDisallowed) {
		t.Fatal(err)
	}
	st := tr.Stats()
	if st.Sent != 2 || st.Refused != 1 || st.Waits[ReasonCrawlDelay] != 1 || st.WaitTime[ReasonCrawlDelay] != 2*time.Second {
		t.Errorf("stats %+v", st)
	}
}

func TestRetryAfterPausesOrigin(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        time.Duration
	}{
		{"seconds", "2", 2 * time.Second},
		{"a date", time.Date(2026, 1, 1, 12, 0, 3, 0, time.UTC).Format(http.TimeFormat), 3 * time.Second},
		{"a past date", time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC).Format(http.TimeFormat), 0},
		{"capped", "86400", DefaultMaxPause},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &fakeTime{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
			s := newPaceSite(t, "User-agent: *\nDisallow: /private\n", clk.Now)
			tr, _ := New(&Options{Token: "ExampleBot", Now: clk.Now, Sleep: clk.Sleep})
			c := &http.Client{Transport: tr}
			s.answer(429, tc.value)
			resp := get(t, c, s.URL+"/a")
			if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != tc.value {
				t.Errorf("the 429 is not returned as is: %d %q", resp.StatusCode, resp.Header.Get("Retry-After"))
			}
			resp = get(t, c, s.URL+"/b")
			if got := s.gaps(); !equalDurations(got, []time.Duration{tc.want}) {
				t.Errorf("gaps %v, want [%v]", got, tc.want)
			}
			if w, _ := WaitedFrom(resp.Request.Context()); tc.want > 0 && (w.Reason != ReasonRetryAfter || w.Turn != tc.want) {
				t.Errorf("waited %+v", w)
			}
			if st := tr.Stats(); st.Pauses[ReasonRetryAfter] != 1 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

// Repeated 503s without Retry-After back off exponentially (with jitter),
// and a success resets the back-off.
func TestBackoff(t *testing.T) {
	clk := &fakeTime{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	s := newPaceSite(t, "User-agent: *\nDisallow: /private\n", clk.Now)
	tr, _ := New(&Options{Token: "ExampleBot", Now: clk.Now, Sleep: clk.Sleep, MaxPause: 6 * time.Second})
	tr.jitter = func() float64 { return 0.5 }
	c := &http.Client{Transport: tr}
	for range 5 {
		s.answer(503, "")
	}
	s.answer(200, "")
	s.answer(503, "")
	for range 8 {
		get(t, c, s.URL+"/a")
	}
	// Back-off d = 1 s, 2 s, 4 s, 6 s (the cap), 6 s: each wait is
	// d/2 + jitter*d/2 = 0.75 d; the 200 resets; the next 503 starts
	// again at 1 s.
	ms := time.Millisecond
	want := []time.Duration{750 * ms, 1500 * ms, 3000 * ms, 4500 * ms, 4500 * ms, 0, 750 * ms}
	if got := s.gaps(); !equalDurations(got, want) {
		t.Errorf("gaps %v, want %v", got, want)
	}
	if st := tr.Stats(); st.Pauses[ReasonBackoff] != 6 || st.Waits[ReasonBackoff] != 6 {
		t.Errorf("stats %+v", st)
	}
}

// However many goroutines ask, at most MaxPerOrigin requests are in
// flight to one origin.
func TestPerOriginLimit(t *testing.T) {
	for _, limit := range []int{0, 3} {
		s := newPaceSite(t, "User-agent: *\nDisallow: /private\n", time.Now)
		s.hold = 2 * time.Millisecond
		tr, _ := New(&Options{Token: "ExampleBot", MaxPerOrigin: limit})
		c := &http.Client{Transport: tr}
		get(t, c, s.URL+"/warm")
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Go(func() {
				resp, err := c.Get(s.URL + "/p" + strconv.Itoa(i))
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
			})
		}
		wg.Wait()
		want := int64(max(limit, 1))
		if got := s.maxIn.Load(); got > want {
			t.Errorf("MaxPerOrigin %d: %d requests in flight at once", limit, got)
		}
		if limit == 0 && tr.Stats().Waits[ReasonLimit] == 0 {
			t.Errorf("no wait for the limit counted: %+v", tr.Stats())
		}
	}
}

// A request waiting for its place returns at once when its context ends,
// unsent; the place is given back when the body is closed.
func TestLimitWaitEndsWithContext(t *testing.T) {
	s := newPaceSite(t, "User-agent: *\nDisallow: /private\n", time.Now)
	tr, _ := New(&Options{Token: "ExampleBot"})
	c := &http.Client{Transport: tr}
	held, err := c.Get(s.URL + "/held") // its body stays open: it holds the place
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/b", nil)
	start := time.Now()
	if _, err := c.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v after its context ended", d)
	}
	held.Body.Close()
	get(t, c, s.URL+"/c")
	if got := len(s.gaps()); got != 1 { // /held and /c only
		t.Errorf("%d page requests", got+1)
	}
}

// The acceptance of issue 14, in real time: with the README's own
// configuration a custom bot leaves 1 s between requests to a site with
// "User-agent: *" / "Crawl-delay: 1", and a 429 with "Retry-After: 2" on a
// page holds the next request to that origin for 2 s. The spacing is
// checked where the requests leave the polite transport and where they
// reach the server. Both are stamped by other clock readings than the
// transport's own schedule (whose spacing the fake-clock tests above check
// exactly): the first request is stamped a few microseconds after it was
// scheduled, and the server stamps requests after its own variable work (a
// new connection is accepted before its first request is read). So a
// millisecond short of the delay at the transport, and a few at the
// server, are the clocks' noise, not a request sent early.
func TestAcceptanceRealTime(t *testing.T) {
	const sendNoise, serverNoise = time.Millisecond, 5 * time.Millisecond
	check := func(t *testing.T, robots string, answer func(s *paceSite), want time.Duration) {
		t.Parallel()
		s := newPaceSite(t, robots, time.Now)
		if answer != nil {
			answer(s)
		}
		st := &stampingTransport{base: http.DefaultTransport}
		tr, err := New(&Options{UserAgent: "ExampleBot/1.0 (+https://example.com/bot)", Cache: cache.New(nil), Base: st})
		if err != nil {
			t.Fatal(err)
		}
		c := &http.Client{Transport: tr}
		get(t, c, s.URL+"/a")
		get(t, c, s.URL+"/b")
		if g := st.gaps(); len(g) != 1 || g[0] < want-sendNoise {
			t.Errorf("requests sent %v apart, want one gap of at least %v", g, want)
		}
		if g := s.gaps(); len(g) != 1 || g[0] < want-serverNoise {
			t.Errorf("requests arrived %v apart, want one gap of at least %v", g, want)
		}
	}
	t.Run("crawl-delay", func(t *testing.T) {
		check(t, "User-agent: *\nCrawl-delay: 1\n", nil, time.Second)
	})
	t.Run("retry-after", func(t *testing.T) {
		check(t, "User-agent: *\nDisallow: /private\n", func(s *paceSite) { s.answer(429, "2") }, 2*time.Second)
	})
}

// stampingTransport notes when each page request (not robots.txt) leaves
// for the network.
type stampingTransport struct {
	base   http.RoundTripper
	mu     sync.Mutex
	starts []time.Time
}

func (s *stampingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path != "/robots.txt" {
		s.mu.Lock()
		s.starts = append(s.starts, time.Now())
		s.mu.Unlock()
	}
	return s.base.RoundTrip(r)
}

func (s *stampingTransport) gaps() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return gapsOf(s.starts)
}
