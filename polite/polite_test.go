package polite

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// fakeTime is a clock whose sleeps move it.
type fakeTime struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
}

func (f *fakeTime) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeTime) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sleeps = append(f.sleeps, d)
	f.t = f.t.Add(d)
	return nil
}

type site struct {
	*httptest.Server
	mu       sync.Mutex
	paths    []string
	agents   []string
	robotsN  atomic.Int64
	robots   string
	redirect map[string]string
}

func newSite(t *testing.T, robots string) *site {
	s := &site{robots: robots, redirect: map[string]string{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.RequestURI) // as it came on the wire
		s.agents = append(s.agents, r.Header.Get("User-Agent"))
		to := s.redirect[r.URL.Path]
		s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			s.robotsN.Add(1)
			w.Write([]byte(s.robots))
			return
		}
		if to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		w.Write([]byte("page " + r.URL.Path))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

const robots = `User-agent: *
Disallow: /private/

User-agent: bingbot
Crawl-delay: 2
Disallow: /nobing/

User-agent: slowbot
Crawl-delay: 1000
`

func TestDisallowedBeforeSending(t *testing.T) {
	s := newSite(t, robots)
	tr, err := New(&Options{UserAgent: "ExampleBot/1.0 (+https://example.com/bot)"})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: tr}
	resp, err := client.Get(s.URL + "/public")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, err = client.Get(s.URL + "/private/x")
	var de *DisallowedError
	if !errors.Is(err, ErrDisallowed) || !errors.As(err, &de) {
		t.Fatalf("err = %v", err)
	}
	if de.Line != 2 || de.Rule != "Disallow: /private/" || de.Agent != "ExampleBot" || de.Policy != fetch.Rules || !strings.Contains(de.Error(), "line 2") {
		t.Errorf("%+v", de)
	}
	if got := strings.Join(s.requested(), " "); got != "/robots.txt /public" {
		t.Errorf("requests %s", got)
	}
	for _, ua := range s.agents {
		if ua != "ExampleBot/1.0 (+https://example.com/bot)" {
			t.Errorf("User-Agent %q", ua)
		}
	}
	if s.robotsN.Load() != 1 {
		t.Errorf("robots.txt fetched %d times", s.robotsN.Load())
	}
}

func TestRedirectToDisallowed(t *testing.T) {
	s := newSite(t, robots)
	s.redirect["/go"] = "/private/target"
	tr, _ := New(&Options{Token: "examplebot"})
	_, err := (&http.Client{Transport: tr}).Get(s.URL + "/go")
	if !errors.Is(err, ErrDisallowed) {
		t.Fatalf("err = %v", err)
	}
	if got := strings.Join(s.requested(), " "); got != "/robots.txt /go" {
		t.Errorf("requests %s", got)
	}
}

func TestCrawlDelayPacing(t *testing.T) {
	s := newSite(t, robots)
	clk := &fakeTime{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	tr, err := New(&Options{Crawler: "bingbot", Now: clk.Now, Sleep: clk.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: tr}
	for range 3 {
		resp, err := client.Get(s.URL + "/a")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	// The robots.txt fetch is not paced; the first request goes at once,
	// the next two wait the crawl-delay.
	if len(clk.sleeps) != 2 || clk.sleeps[0] != 2*time.Second || clk.sleeps[1] != 2*time.Second {
		t.Errorf("sleeps %v", clk.sleeps)
	}
	if _, err := client.Get(s.URL + "/nobing/x"); !errors.Is(err, ErrDisallowed) {
		t.Errorf("bingbot group: %v", err)
	}
}

func TestGoogleIgnoresCrawlDelayFloorAndCap(t *testing.T) {
	s := newSite(t, robots)
	for _, tc := range []struct {
		opts Options
		want []time.Duration
	}{
		{Options{Crawler: "Googlebot"}, nil},
		{Options{Crawler: "Googlebot", MinDelay: time.Second}, []time.Duration{time.Second, time.Second}},
		{Options{Token: "slowbot", Dialect: robotstxt.Bing}, []time.Duration{time.Minute, time.Minute}},
		{Options{Token: "slowbot", Dialect: robotstxt.Bing, MaxDelay: 5 * time.Second}, []time.Duration{5 * time.Second, 5 * time.Second}},
	} {
		clk := &fakeTime{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		tc.opts.Now, tc.opts.Sleep = clk.Now, clk.Sleep
		tr, err := New(&tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			resp, err := (&http.Client{Transport: tr}).Get(s.URL + "/a")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		if len(clk.sleeps) != len(tc.want) {
			t.Errorf("%+v: sleeps %v, want %v", tc.opts, clk.sleeps, tc.want)
			continue
		}
		for i := range tc.want {
			if clk.sleeps[i] != tc.want[i] {
				t.Errorf("%+v: sleeps %v, want %v", tc.opts, clk.sleeps, tc.want)
			}
		}
	}
}

func TestPacingRespectsContext(t *testing.T) {
	s := newSite(t, robots)
	tr, _ := New(&Options{Crawler: "bingbot"}) // real sleep: 2 s between requests
	client := &http.Client{Transport: tr}
	resp, err := client.Get(s.URL + "/a")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/b", nil)
	if _, err := client.Do(req); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if got := strings.Join(s.requested(), " "); got != "/robots.txt /a" {
		t.Errorf("requests %s", got)
	}
}

func TestUnreachableRobotsDisallows(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	tr, _ := New(nil)
	_, err := (&http.Client{Transport: tr}).Get("http://" + addr + "/page")
	var de *DisallowedError
	if !errors.As(err, &de) || de.Policy != fetch.DisallowAll || !strings.Contains(de.Reason, "unreachable") {
		t.Errorf("err = %v", err)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(&Options{Crawler: "NoSuchCrawlerAnywhere"}); err == nil {
		t.Error("unknown crawler accepted")
	}
	if _, err := New(&Options{Token: "not a token!"}); err == nil {
		t.Error("bad token accepted")
	}
	if _, err := New(&Options{UserAgent: "/bad"}); err == nil {
		t.Error("a User-Agent with no token accepted")
	}
}
