package cache

// The fault table of issue 3: one test per row, each against a local server
// that misbehaves on purpose, asserting the policy answered and what the
// cache holds afterwards.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

// acceptLoop accepts TCP connections on a loopback port and hands each to
// handle until the test ends. It returns the listener's address.
func acceptLoop(t *testing.T, handle func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			handle(c)
		}
	}()
	return ln.Addr().String()
}

// rawServer accepts TCP connections on a loopback port, reads each request's
// header and hands the connection to serve. It returns the base URL.
func rawServer(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	return "http://" + acceptLoop(t, func(c net.Conn) {
		go func() {
			defer c.Close()
			r := bufio.NewReader(c)
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if line == "\r\n" {
					break
				}
			}
			serve(c)
		}()
	})
}

// wantCopy checks the stored entry holds a good copy with the policy, and no
// failure streak.
func wantCopy(t *testing.T, e *entry, policy fetch.Policy, ttl time.Duration) {
	t.Helper()
	if e == nil {
		t.Fatal("nothing stored")
	}
	if !e.HasCopy || e.Policy != policy || e.failing() {
		t.Fatalf("stored: copy %v policy %v failures %d, want a %v copy", e.HasCopy, e.Policy, e.Failures, policy)
	}
	if ttl > 0 && !e.ExpiresAt.Equal(e.ValidatedAt.Add(ttl)) {
		t.Errorf("stored copy fresh for %v, want %v", e.ExpiresAt.Sub(e.ValidatedAt), ttl)
	}
}

// wantFailure checks the stored entry records a failure streak with no copy
// and the next retry after delay.
func wantFailure(t *testing.T, e *entry, failures int, delay time.Duration) {
	t.Helper()
	if e == nil {
		t.Fatal("nothing stored")
	}
	if e.HasCopy || e.Failures != failures || e.FailPolicy != fetch.DisallowAll {
		t.Fatalf("stored: copy %v failures %d fail policy %v, want %d failures and no copy", e.HasCopy, e.Failures, e.FailPolicy, failures)
	}
	if got := e.NextRetry.Sub(e.LastAttempt); got != delay {
		t.Errorf("next retry after %v, want %v", got, delay)
	}
}

func wantPolicy(t *testing.T, a *Answer, policy fetch.Policy, source Source) {
	t.Helper()
	if a.Policy != policy || a.Source != source {
		t.Fatalf("answer: %v from %v, want %v from %v (%s)", a.Policy, a.Source, policy, source, a.Reason)
	}
}

func TestFault200(t *testing.T) {
	h := newHarness(t, nil)
	srv := newServer(t, reply(200, rules, "ETag", `"a1"`))
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.Rules, Network)
	if a.Allowed("bot", srv.URL+"/private/x") || !a.Allowed("bot", srv.URL+"/open") {
		t.Error("rules not applied")
	}
	e := h.entry(srv.URL)
	wantCopy(t, e, fetch.Rules, 24*time.Hour)
	if string(e.Body) != rules || e.Validators.ETag != `"a1"` || e.Status != 200 {
		t.Errorf("stored %+v", e)
	}
}

func TestFault200HTML(t *testing.T) {
	h := newHarness(t, nil)
	page := "<!DOCTYPE html>\n<html><body><h1>Welcome</h1>\n<p>Disallow: /not-a-rule</p>\n<pre>\nUser-agent: *\nDisallow: /private\n</pre></body></html>\n"
	srv := newServer(t, reply(200, page, "Content-Type", "text/html; charset=utf-8"))
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.Rules, Network)
	if !a.Allowed("bot", srv.URL+"/not-a-rule") || a.Allowed("bot", srv.URL+"/private") || !strings.Contains(a.Reason, "HTML") {
		t.Errorf("HTML body: %q", a.Reason)
	}
	wantCopy(t, h.entry(srv.URL), fetch.Rules, 24*time.Hour)
}

func TestFault200Over500KiB(t *testing.T) {
	h := newHarness(t, nil)
	body := "User-agent: *\nDisallow: /first\n" + strings.Repeat("# padding padding padding\n", 25_000) + "Disallow: /beyond\n"
	srv := newServer(t, reply(200, body))
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.Rules, Network)
	if !a.Truncated || a.Allowed("bot", srv.URL+"/first") || !a.Allowed("bot", srv.URL+"/beyond") {
		t.Errorf("truncated %v", a.Truncated)
	}
	e := h.entry(srv.URL)
	wantCopy(t, e, fetch.Rules, 24*time.Hour)
	if len(e.Body) != fetch.DefaultMaxBytes || !e.Truncated || !e.Trace[0].Truncated {
		t.Errorf("stored %d bytes, truncated %v", len(e.Body), e.Truncated)
	}
}

func TestFaultEndlessBody(t *testing.T) {
	var read atomic.Int64
	h := newHarness(t, &fetch.Fetcher{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return countingConn{c, &read}, nil
	}})
	var sent atomic.Int64
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /tmp\n"))
		line := []byte("Allow: /forever/and/ever\n")
		for r.Context().Err() == nil {
			n, err := w.Write(line)
			sent.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.Rules, Network)
	if !a.Truncated || a.Allowed("bot", srv.URL+"/tmp") {
		t.Error("endless body not cut")
	}
	e := h.entry(srv.URL)
	wantCopy(t, e, fetch.Rules, 24*time.Hour)
	if len(e.Body) != fetch.DefaultMaxBytes {
		t.Errorf("stored %d bytes", len(e.Body))
	}
	// Never downloaded: what the client read from the network is the
	// limit, plus headers, chunk framing and one read buffer.
	if n := read.Load(); n > fetch.DefaultMaxBytes+64<<10 {
		t.Errorf("read %d bytes from the network for a %d-byte limit (the server sent %d)", n, fetch.DefaultMaxBytes, sent.Load())
	}
}

// countingConn counts the bytes a client reads from the network.
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func TestFaultSlowBody(t *testing.T) {
	h := newHarness(t, &fetch.Fetcher{Timeout: 200 * time.Millisecond})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		w.WriteHeader(200)
		for i := 0; i < 100; i++ {
			w.Write([]byte("#"))
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Second): // one byte a second
			}
		}
	})
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.DisallowAll, Network)
	var fe *fetch.Error
	if !errors.Is(a.Err, context.DeadlineExceeded) || !errors.As(a.Err, &fe) || fe.Step != fetch.StepReadBody {
		t.Errorf("error %v", a.Err)
	}
	wantFailure(t, h.entry(srv.URL), 1, time.Minute)
}

func TestFaultRedirectChains(t *testing.T) {
	for _, tc := range []struct {
		hops   int
		policy fetch.Policy
	}{{1, fetch.Rules}, {5, fetch.Rules}, {6, fetch.AllowAll}} {
		t.Run(fmt.Sprint(tc.hops), func(t *testing.T) {
			h := newHarness(t, nil)
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				i := 0
				if r.URL.Path != "/robots.txt" {
					fmt.Sscanf(r.URL.Path, "/hop%d", &i)
				}
				if i < tc.hops {
					http.Redirect(w, r, fmt.Sprintf("/hop%d", i+1), http.StatusMovedPermanently)
					return
				}
				w.Write([]byte(rules))
			})
			a := h.get(srv.URL)
			wantPolicy(t, a, tc.policy, Network)
			if len(a.Trace) != min(tc.hops+1, 6) {
				t.Errorf("%d requests", len(a.Trace))
			}
			wantCopy(t, h.entry(srv.URL), tc.policy, 24*time.Hour)
		})
	}
}

func TestFaultRedirectLoop(t *testing.T) {
	h := newHarness(t, nil)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		} else {
			http.Redirect(w, r, "/robots.txt", http.StatusFound)
		}
	})
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.AllowAll, Network)
	if !strings.Contains(a.Reason, "loop") {
		t.Errorf("reason %q", a.Reason)
	}
	wantCopy(t, h.entry(srv.URL), fetch.AllowAll, 24*time.Hour)
}

func TestFaultCrossHostRedirect(t *testing.T) {
	h := newHarness(t, nil)
	target := newServer(t, reply(200, rules))
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	a := h.get(srv.URL + "/private/page")
	wantPolicy(t, a, fetch.Rules, Network)
	if a.Allowed("bot", srv.URL+"/private/page") || a.Origin.String() != srv.URL {
		t.Error("the target's rules do not apply to the origin")
	}
	wantCopy(t, h.entry(srv.URL), fetch.Rules, 24*time.Hour)
	if h.entry(target.URL) != nil {
		t.Error("the redirect target was cached as an origin of its own")
	}
}

func TestFault304OnRefresh(t *testing.T) {
	h := newHarness(t, nil)
	var conditional atomic.Int64
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			conditional.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte(rules))
	})
	first := h.get(srv.URL)
	before := h.entry(srv.URL)
	h.clk.Advance(25 * time.Hour)
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.Rules, Network)
	if conditional.Load() != 1 || a.Robots != first.Robots || a.Allowed("bot", srv.URL+"/private") || !strings.Contains(a.Reason, "304") {
		t.Errorf("conditional %d, same parse %v, %q", conditional.Load(), a.Robots == first.Robots, a.Reason)
	}
	e := h.entry(srv.URL)
	wantCopy(t, e, fetch.Rules, 24*time.Hour)
	if e.ID != before.ID || !e.FetchedAt.Equal(epoch) || !e.ExpiresAt.Equal(epoch.Add(49*time.Hour)) || string(e.Body) != rules {
		t.Errorf("stored after 304: %+v", e)
	}
	if st := h.c.Stats(); st.NotModified != 1 || st.Parses != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestFault4xx(t *testing.T) {
	for _, code := range []int{401, 403, 404, 410} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			h := newHarness(t, nil)
			srv := newServer(t, reply(code, "User-agent: *\nDisallow: /\n"))
			a := h.get(srv.URL + "/x")
			wantPolicy(t, a, fetch.AllowAll, Network)
			if !a.Allowed("bot", srv.URL+"/x") || a.Status != code {
				t.Error("not allowed")
			}
			wantCopy(t, h.entry(srv.URL), fetch.AllowAll, 24*time.Hour)
			h.clk.Advance(23 * time.Hour)
			wantPolicy(t, h.get(srv.URL), fetch.AllowAll, Cached)
			if srv.hits.Load() != 1 {
				t.Errorf("%d fetches", srv.hits.Load())
			}
		})
	}
}

func TestFault429(t *testing.T) {
	h := newHarness(t, nil)
	srv := newServer(t, reply(429, "slow down"))
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.DisallowAll, Network)
	wantFailure(t, h.entry(srv.URL), 1, time.Minute)
	// Within the retry delay the failure is answered from the cache.
	h.clk.Advance(30 * time.Second)
	wantPolicy(t, h.get(srv.URL), fetch.DisallowAll, Cached)
	if srv.hits.Load() != 1 {
		t.Errorf("%d fetches", srv.hits.Load())
	}
}

func TestFault500Backoff(t *testing.T) {
	h := newHarness(t, nil)
	srv := newServer(t, reply(500, "oops"))
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	for i, d := range want {
		a := h.get(srv.URL)
		wantPolicy(t, a, fetch.DisallowAll, Network)
		if !a.ExpiresAt.Equal(h.clk.Now().Add(d)) {
			t.Errorf("failure %d: retry at %v, want in %v", i+1, a.ExpiresAt, d)
		}
		wantFailure(t, h.entry(srv.URL), i+1, d)
		h.clk.Advance(d - time.Second)
		wantPolicy(t, h.get(srv.URL), fetch.DisallowAll, Cached)
		h.clk.Advance(time.Second)
	}
	if srv.hits.Load() != int64(len(want)) {
		t.Errorf("%d fetches", srv.hits.Load())
	}
	if e := h.entry(srv.URL); !e.FailingSince.Equal(epoch) {
		t.Errorf("streak start %v", e.FailingSince)
	}
}

func TestFault503Then200(t *testing.T) {
	h := newHarness(t, nil)
	var n atomic.Int64
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(503)
		case 2:
			w.WriteHeader(503) // no Retry-After: one minute
		default:
			w.Write([]byte(rules))
		}
	})
	wantPolicy(t, h.get(srv.URL), fetch.DisallowAll, Network)
	wantFailure(t, h.entry(srv.URL), 1, 2*time.Minute)
	h.clk.Advance(time.Minute)
	wantPolicy(t, h.get(srv.URL), fetch.DisallowAll, Cached)
	h.clk.Advance(time.Minute)
	wantPolicy(t, h.get(srv.URL), fetch.DisallowAll, Network)
	wantFailure(t, h.entry(srv.URL), 2, time.Minute)
	h.clk.Advance(time.Minute)
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.Rules, Network)
	if !a.FailingSince.IsZero() || n.Load() != 3 {
		t.Errorf("failing since %v, %d fetches", a.FailingSince, n.Load())
	}
	wantCopy(t, h.entry(srv.URL), fetch.Rules, 24*time.Hour)
}

func TestFault5xxFor31DaysNoCopy(t *testing.T) {
	h := newHarness(t, nil)
	srv := newServer(t, reply(502, "bad gateway"))
	for day := 0; day <= 31; day++ {
		a := h.get(srv.URL)
		want := fetch.DisallowAll
		if day >= 30 {
			want = fetch.AllowAll
		}
		wantPolicy(t, a, want, Network)
		if day >= 30 && !strings.Contains(a.Reason, "30 days") {
			t.Errorf("day %d: reason %q", day, a.Reason)
		}
		e := h.entry(srv.URL)
		if e.HasCopy || e.Failures != day+1 || !e.FailingSince.Equal(epoch) {
			t.Fatalf("day %d: stored copy %v failures %d since %v", day, e.HasCopy, e.Failures, e.FailingSince)
		}
		h.clk.Advance(24 * time.Hour)
	}
	if srv.hits.Load() != 32 {
		t.Errorf("%d fetches", srv.hits.Load())
	}
}

func TestFault5xxFor31DaysWithCopy(t *testing.T) {
	h := newHarness(t, nil)
	var down atomic.Bool
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			w.WriteHeader(500)
			return
		}
		w.Write([]byte(rules))
	})
	wantPolicy(t, h.get(srv.URL), fetch.Rules, Network)
	down.Store(true)
	h.clk.Advance(24 * time.Hour)
	prev := 0
	for day := 1; day <= 31; day++ {
		a := h.get(srv.URL)
		wantPolicy(t, a, fetch.Rules, StaleCache)
		if a.Allowed("bot", srv.URL+"/private") || !a.FetchedAt.Equal(epoch) {
			t.Fatalf("day %d: the copy is not what answers", day)
		}
		e := h.entry(srv.URL)
		if !e.HasCopy || string(e.Body) != rules || e.Failures <= prev || !e.FailingSince.Equal(epoch.Add(24*time.Hour)) {
			t.Fatalf("day %d: stored copy %v failures %d", day, e.HasCopy, e.Failures)
		}
		prev = e.Failures
		h.clk.Advance(30 * time.Minute)
		wantPolicy(t, h.get(srv.URL), fetch.Rules, StaleCache)
		h.clk.Advance(23*time.Hour + 30*time.Minute)
	}
	if st := h.c.Stats(); st.Stale != 62 || int64(st.Unreachable) != srv.hits.Load()-1 || st.Rules != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestFaultConnectionReset(t *testing.T) {
	h := newHarness(t, nil)
	base := rawServer(t, func(c net.Conn) {
		c.(*net.TCPConn).SetLinger(0) // close with RST
	})
	a := h.get(base)
	wantPolicy(t, a, fetch.DisallowAll, Network)
	var fe *fetch.Error
	if !errors.As(a.Err, &fe) || fe.Step != fetch.StepRequest {
		t.Errorf("error %v", a.Err)
	}
	wantFailure(t, h.entry(base), 1, time.Minute)
}

func TestFaultConnectionRefused(t *testing.T) {
	h := newHarness(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ln.Close()
	a := h.get(base)
	wantPolicy(t, a, fetch.DisallowAll, Network)
	var fe *fetch.Error
	if !errors.As(a.Err, &fe) || fe.Step != fetch.StepDial {
		t.Errorf("error %v", a.Err)
	}
	wantFailure(t, h.entry(base), 1, time.Minute)
}

func TestFaultUnresolvableHost(t *testing.T) {
	f := &fetch.Fetcher{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
	}}
	h := newHarness(t, f)
	a := h.get("https://no-such-host.invalid/page")
	wantPolicy(t, a, fetch.DisallowAll, Network)
	var dnsErr *net.DNSError
	var fe *fetch.Error
	if !errors.As(a.Err, &dnsErr) || !errors.As(a.Err, &fe) || fe.Step != fetch.StepDNS {
		t.Errorf("error %v", a.Err)
	}
	wantFailure(t, h.entry("https://no-such-host.invalid/"), 1, time.Minute)
}

func TestFaultTLSHandshake(t *testing.T) {
	h := newHarness(t, nil)
	srv := httptest.NewUnstartedServer(reply(200, rules))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS() // a certificate the client does not trust
	defer srv.Close()
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.DisallowAll, Network)
	var fe *fetch.Error
	if !errors.As(a.Err, &fe) || fe.Step != fetch.StepTLS {
		t.Errorf("error %v", a.Err)
	}
	wantFailure(t, h.entry(srv.URL), 1, time.Minute)

	// A plain TCP server answering garbage to the handshake.
	garbage := rawServerNoRequest(t, func(c net.Conn) { c.Write([]byte("220 this is not TLS\r\n")) })
	a = h.get(garbage)
	wantPolicy(t, a, fetch.DisallowAll, Network)
	if !errors.As(a.Err, &fe) || fe.Step != fetch.StepTLS {
		t.Errorf("garbage: error %v", a.Err)
	}
}

// rawServerNoRequest accepts connections and hands them to serve at once;
// it returns an https URL for it.
func rawServerNoRequest(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	return "https://" + acceptLoop(t, func(c net.Conn) {
		serve(c)
		c.Close()
	})
}

func TestFaultGzipBomb(t *testing.T) {
	h := newHarness(t, nil)
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write([]byte(rules))
	zero := make([]byte, 1<<20)
	for range 16 {
		zw.Write(zero)
	}
	zw.Close()
	bomb := b.Bytes()
	srv := newServer(t, reply(200, string(bomb), "Content-Encoding", "gzip"))
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.Rules, Network)
	if !a.Truncated || a.Allowed("bot", srv.URL+"/private") {
		t.Error("bomb not cut, or its rules lost")
	}
	e := h.entry(srv.URL)
	wantCopy(t, e, fetch.Rules, 24*time.Hour)
	if len(e.Body) != fetch.DefaultMaxBytes {
		t.Errorf("stored %d bytes", len(e.Body))
	}
}

func TestFaultMalformedChunked(t *testing.T) {
	h := newHarness(t, nil)
	base := rawServer(t, func(c net.Conn) {
		fmt.Fprint(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"+
			"e\r\nUser-agent: *\n\r\nzz-not-hex\r\nDisallow: /\r\n0\r\n\r\n")
	})
	a := h.get(base)
	wantPolicy(t, a, fetch.DisallowAll, Network)
	var fe *fetch.Error
	if !errors.As(a.Err, &fe) || fe.Step != fetch.StepReadBody {
		t.Errorf("error %v", a.Err)
	}
	wantFailure(t, h.entry(base), 1, time.Minute)
}

func TestFaultBodyCutShort(t *testing.T) {
	h := newHarness(t, nil)
	base := rawServer(t, func(c net.Conn) {
		fmt.Fprint(c, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\nDisallow: /a\n")
	})
	a := h.get(base)
	wantPolicy(t, a, fetch.DisallowAll, Network)
	if !errors.Is(a.Err, errUnexpectedEOF) {
		t.Errorf("error %v", a.Err)
	}
	wantFailure(t, h.entry(base), 1, time.Minute)
}

func TestFaultMaxAge(t *testing.T) {
	for _, tc := range []struct {
		header string
		ttl    time.Duration
	}{
		{"max-age=60", time.Minute},
		{"max-age=604800", 24 * time.Hour}, // clamped
		{"max-age=5", time.Minute},         // clamped
		{"max-age=7200", 2 * time.Hour},
		{"no-store", time.Minute},
		{"no-cache", time.Minute},
	} {
		t.Run(tc.header, func(t *testing.T) {
			h := newHarness(t, nil)
			srv := newServer(t, reply(200, rules, "Cache-Control", tc.header))
			a := h.get(srv.URL)
			wantPolicy(t, a, fetch.Rules, Network)
			if !a.ExpiresAt.Equal(epoch.Add(tc.ttl)) {
				t.Errorf("expires %v, want %v", a.ExpiresAt.Sub(epoch), tc.ttl)
			}
			wantCopy(t, h.entry(srv.URL), fetch.Rules, tc.ttl)
			h.clk.Advance(tc.ttl - time.Second)
			wantPolicy(t, h.get(srv.URL), fetch.Rules, Cached)
			h.clk.Advance(time.Second)
			wantPolicy(t, h.get(srv.URL), fetch.Rules, Network)
			if srv.hits.Load() != 2 {
				t.Errorf("%d fetches", srv.hits.Load())
			}
		})
	}
}

func TestFaultMaxAgeConfigurable(t *testing.T) {
	clk := storetest.NewClock(epoch)
	c := New(&Options{Now: clk.Now, MaxTTL: 7 * 24 * time.Hour, Fetcher: &fetch.Fetcher{Now: clk.Now}})
	srv := newServer(t, reply(200, rules, "Cache-Control", "max-age=604800"))
	a, err := c.Get(context.Background(), srv.URL)
	if err != nil || !a.ExpiresAt.Equal(epoch.Add(7*24*time.Hour)) {
		t.Errorf("%v %v", a.ExpiresAt, err)
	}
}
