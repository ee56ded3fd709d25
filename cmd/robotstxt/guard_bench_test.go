package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/clientip"
	"github.com/seed53c283f5/robotstxt/guard"
)

// BenchmarkGuardProxy measures a request through the proxy over loopback,
// client to upstream: "bare" is httputil.ReverseProxy alone with the same
// transport, "guard" the guard's proxy with its middleware (mode enforce,
// a GPTBot claim on an allowed path). bench/guard/wrk.sh measures the
// same with wrk and the command itself.
func BenchmarkGuardProxy(b *testing.B) {
	page := make([]byte, 1024)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, testRobots)
			return
		}
		w.Write(page)
	}))
	defer site.Close()
	up, _ := url.Parse(site.URL)
	rules := guard.NewRules([]byte(testRobots), "", time.Now())
	pol := guard.DefaultPolicy()
	pol.Mode = guard.ModeEnforce
	g, err := guard.Build(guard.Options{Robots: guard.SourceFunc(func(_ context.Context, _ string) (*guard.Rules, error) { return rules, nil }), Policy: pol})
	if err != nil {
		b.Fatal(err)
	}
	trusted, _ := clientip.Parse(defaultTrustedProxies)
	bare := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(up); pr.Out.Host = pr.In.Host; pr.SetXForwarded() },
		Transport: upstreamTransport(time.Minute)}
	guarded := newGuardProxy(up, trusted, 32<<20, time.Minute, slog.New(slog.DiscardHandler)).handler(g.Handler)
	for _, tc := range []struct {
		name string
		h    http.Handler
	}{{"bare", bare}, {"guard", guarded}} {
		b.Run(tc.name, func(b *testing.B) {
			srv := httptest.NewServer(tc.h)
			defer srv.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req, _ := http.NewRequest("GET", srv.URL+"/public/page.html", nil)
					req.Header.Set("User-Agent", gptbotUA)
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
				}
			})
		})
	}
}
