package server

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
	"github.com/seed53c283f5/robotstxt/store/storetest"
	"github.com/seed53c283f5/robotstxt/watch"
)

// TestWatchHangingHook: 20 watches whose webhook accepts and never
// answers, and one whose webhook answers: its alert comes within 4 s.
// Before, the hanging posts held the 4 shared workers 30 s a try, and
// the good alert waited behind them.
func TestWatchHangingHook(t *testing.T) {
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hang.Close()
	defer close(release)
	clk := storetest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	ts := watchServer(t, clk, nil)
	var sites []*watchSite
	for i := range 20 {
		s := newWatchSite(t, "User-agent: *\nAllow: /\n")
		sites = append(sites, s)
		if r := post(t, ts.URL+"/v1/watches", fmt.Sprintf(`{"origin": %q, "urls": ["/"], "webhook": "%s/%d"}`, s.URL, hang.URL, i)); r.status != 201 {
			t.Fatalf("%d %s", r.status, r.body)
		}
	}
	good := newWatchSite(t, "User-agent: *\nAllow: /\n")
	h := newHook(t)
	if r := post(t, ts.URL+"/v1/watches", fmt.Sprintf(`{"origin": %q, "urls": ["/"], "webhook": %q}`, good.URL, h.URL)); r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	watchTick(t, ts, 21)
	for _, s := range append(sites, good) {
		s.set("User-agent: *\nDisallow: /\n")
	}
	clk.Advance(time.Hour)
	watchTick(t, ts, 21)
	select {
	case <-h.got:
	case <-time.After(4 * time.Second):
		t.Fatal("the good webhook's alert did not come within 4 s of the check")
	}
}

// TestWatchAlertSurvivesRestart: an alert found by a server that does
// not deliver it (stopped right after the check) is kept in the bbolt
// file and sent by the next server on it. Before, it lived in memory.
func TestWatchAlertSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	clk := storetest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	site := newWatchSite(t, "User-agent: *\nAllow: /\n")
	h := newHook(t)
	st, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := newTestServer(t, &Options{Store: st, AllowPrivate: true, Now: clk.Now,
		Watch: WatchOptions{Key: serverTestKey, Jitter: func(d time.Duration) time.Duration { return d }}})
	if r := post(t, first.URL+"/v1/watches", fmt.Sprintf(`{"origin": %q, "urls": ["/"], "webhook": %q}`, site.URL, h.URL)); r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	watchTick(t, first, 1)
	site.set("User-agent: *\nDisallow: /\n")
	clk.Advance(time.Hour)
	watchTick(t, first, 1)
	st.Close()
	st2, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	watchServer(t, clk, &Options{Store: st2, AllowPrivate: true})
	_, body := h.next(t)
	if !strings.Contains(string(body), `"severity":"critical"`) {
		t.Errorf("alert %s", body)
	}
}

// TestWatchDeliveryIDFleet: two servers that each find the same change
// (a fleet cut apart by a store's stall: here each on its own store, from
// the same watch file) send it with the same delivery id, so that the
// receiver drops the copy. Before, each made a random id.
func TestWatchDeliveryIDFleet(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	site := newWatchSite(t, "User-agent: *\nAllow: /\n")
	h := newHook(t)
	specs := []watch.Spec{{Origin: site.URL, URLs: []string{"/a"}, Webhook: h.URL, Secret: "k"}}
	var servers []*testServer
	for range 2 {
		servers = append(servers, watchServer(t, clk, &Options{Store: store.NewMemory(nil), AllowPrivate: true, Watch: WatchOptions{Specs: specs}}))
	}
	for _, s := range servers {
		watchTick(t, s, 1)
	}
	site.set("User-agent: *\nDisallow: /a\n")
	clk.Advance(time.Hour)
	for _, s := range servers {
		watchTick(t, s, 1)
	}
	a, ba := h.next(t)
	b, _ := h.next(t)
	if ia, ib := a.Get(watch.DeliveryHeader), b.Get(watch.DeliveryHeader); ia != ib || ia == "" {
		t.Errorf("delivery ids %q and %q, want one", ia, ib)
	}
	// The signature covers the time and the delivery id:
	// t=<unix>,v1=HMAC-SHA256(secret, "<unix>.<id>.<body>").
	sig := a.Get(watch.SignatureHeader)
	ts, v1, ok := strings.Cut(sig, ",v1=")
	ts, ok2 := strings.CutPrefix(ts, "t=")
	if !ok || !ok2 {
		t.Fatalf("signature %q, want t=...,v1=...", sig)
	}
	m := hmac.New(sha256.New, []byte("k"))
	fmt.Fprintf(m, "%s.%s.%s", ts, a.Get(watch.DeliveryHeader), ba)
	if v1 != hex.EncodeToString(m.Sum(nil)) {
		t.Errorf("v1=%s is not the HMAC of time.id.body", v1)
	}
}

// TestWatchSlowOrigin: one origin whose robots.txt never answers, and
// another checked again and again meanwhile (Serve, a real clock). Before,
// a round of checks waited for the slow origin's fetch timeout.
func TestWatchSlowOrigin(t *testing.T) {
	hold := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(hold)
	var fast atomic.Int64
	quick := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fast.Add(1)
		io.WriteString(w, "User-agent: *\nAllow: /\n")
	}))
	defer quick.Close()
	s, err := New(&Options{AllowPrivate: true, Watch: WatchOptions{MinInterval: 20 * time.Millisecond, PollInterval: 5 * time.Millisecond,
		Jitter: func(d time.Duration) time.Duration { return d }}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	defer func() {
		cancel()
		<-done
	}()
	base := "http://" + ln.Addr().String()
	for _, o := range []string{slow.URL, quick.URL} {
		if r := post(t, base+"/v1/watches", fmt.Sprintf(`{"origin": %q, "urls": ["/"], "every": "1ms"}`, o)); r.status != 201 {
			t.Fatalf("%d %s", r.status, r.body)
		}
	}
	deadline := time.Now().Add(10 * time.Second) // under the 15 s fetch timeout
	for fast.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := fast.Load(); n < 3 {
		t.Errorf("the quick origin was fetched %d times in 10 s while the slow one hung, want 3 or more", n)
	}
}

// TestWatchSitemapWarnings: the <loc>s a watch leaves out of its sitemap
// (past the 100 URLs, not on the origin, past the 10 MiB read) are said
// in its status, not dropped without a word.
func TestWatchSitemapWarnings(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<?xml version="1.0"?><urlset>`)
		switch r.URL.Path {
		case "/many.xml":
			for i := range 120 {
				fmt.Fprintf(w, "<url><loc>%s/p%d</loc></url>\n", srv.URL, i)
			}
			io.WriteString(w, "<url><loc>https://elsewhere.example/x</loc></url>")
		case "/huge.xml":
			fmt.Fprintf(w, "<url><loc>%s/first</loc></url>\n", srv.URL)
			pad := strings.Repeat(" ", 1<<20)
			for range 11 {
				io.WriteString(w, "<!--"+pad+"-->\n")
			}
			fmt.Fprintf(w, "<url><loc>%s/late</loc></url>\n", srv.URL)
		}
		io.WriteString(w, `</urlset>`)
	}))
	defer srv.Close()
	ts := newTestServer(t, &Options{AllowPrivate: true})
	for _, c := range []struct{ path, want string }{
		{"/many.xml", "22 <loc> URLs left out, past the 100 URLs a watch asks about"},
		{"/huge.xml", "over 10 MiB"},
	} {
		r := post(t, ts.URL+"/v1/watches", fmt.Sprintf(`{"origin": %q, "urls": ["/"], "sitemap": "%s%s"}`, srv.URL, srv.URL, c.path))
		if r.status != 201 {
			t.Fatalf("%s: %d %s", c.path, r.status, r.body)
		}
		ws, _ := r.json(t)["warnings"].([]any)
		if !strings.Contains(fmt.Sprint(ws), c.want) {
			t.Errorf("%s: warnings %q, want %q", c.path, ws, c.want)
		}

	}
}
