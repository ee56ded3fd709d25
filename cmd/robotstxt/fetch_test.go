package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixedClock makes robotstxt fetch's dates deterministic for the test.
func fixedClock(t *testing.T) {
	t.Helper()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	fetchClock = func() time.Time { return at }
	t.Cleanup(func() { fetchClock = nil })
}

// robotsServer serves /robots.txt through one redirect, with cache headers.
func robotsServer(t *testing.T) *httptest.Server {
	t.Helper()
	useTempCache(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/live/robots.txt", http.StatusMovedPermanently)
		case "/live/robots.txt":
			w.Header().Set("Cache-Control", "public, max-age=3600")
			w.Header().Set("ETag", `"r42"`)
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
		case "/down/robots.txt":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// normalise replaces the server's port, which changes from run to run.
func normalise(out, srvURL string) string {
	host := strings.TrimPrefix(srvURL, "http://")
	_, port, _ := net.SplitHostPort(host)
	return strings.ReplaceAll(out, ":"+port, ":PORT")
}

func TestFetchReport(t *testing.T) {
	fixedClock(t)
	srv := robotsServer(t)
	code, out, stderr := runCmd(t, "", "fetch", "--store", "memory", srv.URL+"/some/page")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "fetch_redirect.txt", normalise(out, srv.URL))
	for _, want := range []string{"301 Moved Permanently -> ", "200 OK, 34 bytes", "cache-control: public, max-age=3600", "policy:   the file's rules", "source:   network", "expires:  2026-03-01T13:00:00Z"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestFetchJSON(t *testing.T) {
	fixedClock(t)
	srv := robotsServer(t)
	code, out, stderr := runCmd(t, "", "fetch", "--json", "--store", "memory", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "fetch_redirect.json", normalise(out, srv.URL))
	var info map[string]any
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"origin", "policy", "source", "reason", "status", "trace", "fetched_at", "expires_at"} {
		if _, ok := info[k]; !ok {
			t.Errorf("no %q in %s", k, out)
		}
	}
	if info["policy"] != "rules" || info["source"] != "network" || info["expires_at"] != "2026-03-01T13:00:00Z" {
		t.Errorf("%v", info)
	}
	trace := info["trace"].([]any)
	first := trace[0].(map[string]any)
	for _, k := range []string{"url", "status", "bytes", "truncated", "location"} {
		if _, ok := first[k]; !ok {
			t.Errorf("trace entry without %q: %v", k, first)
		}
	}
	if len(trace) != 2 || first["status"] != float64(301) {
		t.Errorf("trace %v", trace)
	}
}

func TestFetchUnreachableStillDecides(t *testing.T) {
	fixedClock(t)
	useTempCache(t)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	code, out, stderr := runCmd(t, "", "fetch", "--json", "--timeout", "2s", "http://"+addr+"/")
	var info fetchInfo
	if err := json.Unmarshal([]byte(out), &info); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	if info.Policy != "disallow-all" || info.Source != "network" || info.Error == "" || info.ExpiresAt != "2026-03-01T12:01:00Z" || info.Trace[0].Err == "" {
		t.Errorf("%+v", info)
	}
	code, out, _ = runCmd(t, "", "fetch", "--timeout", "2s", "http://"+addr+"/")
	if code != 0 || !strings.Contains(out, "policy:   disallow all") || !strings.Contains(out, "dial:") || !strings.Contains(out, "retry at: 2026-03-01T12:01:00Z") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	// The second run's answer is the failure the cache keeps until its
	// retry: not a "fresh cache" copy of a file.
	if strings.Contains(out, "fresh cache") || !strings.Contains(out, "source:   cache: a failed fetch, kept until its retry (store: bbolt ") ||
		!strings.Contains(out, "; --refresh retries now\n") {
		t.Errorf("a cached failure's source:\n%s", out)
	}
}

// TestFetchTexts: a count of one in the singular, and a TLS error that
// names its step once ("tls: failed to verify ...", not "tls: tls: ...").
func TestFetchTexts(t *testing.T) {
	fixedClock(t)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x")) })
	plain := httptest.NewServer(h)
	defer plain.Close()
	_, out, _ := runCmd(t, "", "fetch", "--store", "memory", plain.URL)
	if !strings.Contains(out, "    200 OK, 1 byte\n") || !strings.Contains(out, "why:      200 OK: 1 byte of rules\n") {
		t.Errorf("one byte:\n%s", out)
	}
	tlsSrv := httptest.NewTLSServer(h)
	defer tlsSrv.Close()
	for _, args := range [][]string{{"fetch", "--store", "memory", tlsSrv.URL}, {"fetch", "--json", "--store", "memory", tlsSrv.URL}, {"check", "-u", tlsSrv.URL, "--store", "memory", "/"}} {
		_, out, stderr := runCmd(t, "", args...)
		if strings.Contains(out+stderr, "tls: tls:") || !strings.Contains(out, "tls: failed to verify certificate") {
			t.Errorf("%s: the step named twice, or not at all:\n%s%s", args, out, stderr)
		}
	}
}

func TestFetchDialectAndBody(t *testing.T) {
	useTempCache(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ua := r.Header.Get("User-Agent"); ua != "TestBot/1.0" {
			t.Errorf("User-Agent %q", ua)
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	code, out, _ := runCmd(t, "", "fetch", "--json", "-d", "yandex", "-A", "TestBot/1.0", srv.URL)
	var info fetchInfo
	json.Unmarshal([]byte(out), &info)
	if code != 0 || info.Policy != "allow-all" || info.Dialect != "yandex" || info.Status != 503 {
		t.Errorf("yandex: exit %d %+v", code, info)
	}
	live := robotsServer(t)
	code, out, _ = runCmd(t, "", "fetch", "--body", live.URL)
	if code != 0 || out != "User-agent: *\nDisallow: /private/\n" {
		t.Errorf("--body: exit %d %q", code, out)
	}
}

func TestFetchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"fetch"},
		{"fetch", "a", "b"},
		{"fetch", "-d", "klingon", "https://example.com"},
		{"fetch", "--store", "ftp://x", "https://example.com"},
		{"fetch", "--timeout", "0s", "https://example.com"},
		{"fetch", "mailto:a@example.com"},
		{"fetch", "--nope", "https://example.com"},
	} {
		code, out, stderr := runCmd(t, "", args...)
		if code != 2 || out != "" || stderr == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	if code, _, stderr := runCmd(t, "", "fetch", "-h"); code != 0 || !strings.Contains(stderr, "Usage: robotstxt fetch") {
		t.Errorf("-h: exit %d", code)
	}
}

func TestFetchRobotsForOtherCommands(t *testing.T) {
	srv := robotsServer(t)
	var stderr strings.Builder
	body, info, err := fetchRobots(context.Background(), srv.URL+"/x", "memory", &stderr)
	if err != nil || info.Policy != "rules" || !strings.Contains(string(body), "Disallow: /private/") || info.Bytes != len(body) {
		t.Errorf("%q %+v %v", body, info, err)
	}
	if _, _, err := fetchRobots(context.Background(), srv.URL, "bolt://nowhere", &stderr); err == nil || !strings.Contains(err.Error(), "unknown store") {
		t.Errorf("unknown store: %v", err)
	}
}

func TestFetchFromCacheSaysSo(t *testing.T) {
	fixedClock(t)
	srv := robotsServer(t)
	store := filepath.Join(t.TempDir(), "cache.db")
	code, first, stderr := runCmd(t, "", "fetch", "--store", store, srv.URL)
	if code != 0 || strings.Contains(first, "no request now") {
		t.Fatalf("first: exit %d: %s\n%s", code, stderr, first)
	}
	code, again, stderr := runCmd(t, "", "fetch", "--store", store, srv.URL)
	if code != 0 || !strings.Contains(again, "  no request now: the answer came from the cache; the fetch of 2026-03-01T12:00:00Z made these:\n\n  GET ") ||
		!strings.Contains(again, "source:   fresh cache") {
		t.Errorf("second: exit %d: %s\n%s", code, stderr, again)
	}
}

func TestFetchBodyDisallowAllSaysWhy(t *testing.T) {
	fixedClock(t)
	srv := newSite(t, 503, "")
	code, out, stderr := runCmd(t, "", "fetch", "--body", "--store", "memory", srv.URL)
	if code != 0 || out != "" || !strings.HasPrefix(stderr, "robotstxt fetch: nothing printed: no robots.txt body applies, the policy is disallow all: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// TestFetchRefresh: fetch answers from the cache for a day, as a crawler
// would use the file; --refresh fetches now, and the copy it gets is the
// cache's from then on.
func TestFetchRefresh(t *testing.T) {
	fixedClock(t)
	s := newSite(t, 200, siteRules)
	store := filepath.Join(t.TempDir(), "cache.db")
	for i, c := range []struct {
		flags  []string
		source string
		hits   int32
	}{{nil, "network", 1}, {nil, "cache", 1}, {[]string{"--refresh"}, "network", 2}, {nil, "cache", 2}} {
		args := append([]string{"fetch", "--json", "--store", store}, c.flags...)
		code, out, stderr := runCmd(t, "", append(args, s.URL)...)
		var info fetchInfo
		if err := json.Unmarshal([]byte(out), &info); err != nil || code != 0 {
			t.Fatalf("run %d: exit %d, %v: %s", i+1, code, err, stderr)
		}
		if info.Source != c.source || s.hits.Load() != c.hits || info.Policy != "rules" {
			t.Errorf("run %d %q: source %s, %d requests; want %s, %d", i+1, c.flags, info.Source, s.hits.Load(), c.source, c.hits)
		}
	}
}
