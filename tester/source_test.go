package tester

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
)

func TestNeedsScheme(t *testing.T) {
	for in, want := range map[string]bool{
		"example.com": true, "example.com/a:b": true, "localhost:8080": true, "[::1]:8080": true,
		"https://example.com": false, "mailto:a@example.com": false, "ftp://h/": false,
	} {
		if NeedsScheme(in) != want {
			t.Errorf("NeedsScheme(%q) = %v", in, !want)
		}
	}
}

// TestNewSourceCut: a body over the limit is cut as crawlers cut it, and
// the source keeps its whole size and the lines past the cut, so that the
// notes and lint say how much is not read.
func TestNewSourceCut(t *testing.T) {
	line := "Disallow: /" + strings.Repeat("x", 88) + "\n" // 100 bytes
	body := "User-agent: *\n" + strings.Repeat(line, 6000)
	src := NewSource("big", []byte(body))
	if len(src.Body) != robotstxt.DefaultMaxBytes+1 || src.Size != int64(len(body)) || !src.Truncated() {
		t.Fatalf("body %d bytes, size %d, truncated %v", len(src.Body), src.Size, src.Truncated())
	}
	if want := strings.Count(body[robotstxt.DefaultMaxBytes+1:], "\n"); src.CutLines != want {
		t.Errorf("cut lines %d, want %d", src.CutLines, want)
	}
	rep, _ := Lint(src, nil)
	found := false
	for _, f := range rep.Findings {
		found = found || f.Code == "file-truncated" && strings.Contains(f.Message, "the file is 600,014 bytes")
	}
	if !found {
		t.Errorf("no file-truncated finding with the whole size (%d findings)", len(rep.Findings))
	}
}

// liveSite serves a robots.txt that the test changes, and counts requests.
type liveSite struct {
	*httptest.Server
	body atomic.Value
	hits atomic.Int32
}

func newLiveSite(t *testing.T, body string) *liveSite {
	s := &liveSite{}
	s.body.Store(body)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		io.WriteString(w, s.body.Load().(string))
	}))
	t.Cleanup(s.Close)
	return s
}

// TestFetchInfoOfFetchesNow: a site owner sees the file as it is now, not
// the copy the cache keeps for a day; with Cached, the cache's copy, and
// the notes say when it was fetched.
func TestFetchInfoOfFetchesNow(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	c := cache.New(&cache.Options{Now: clock, Fetcher: &fetch.Fetcher{Now: clock}})
	site := newLiveSite(t, "User-agent: *\nDisallow: /old/\n")
	ctx := context.Background()
	if _, _, err := FetchInfoOf(ctx, c, site.URL, nil); err != nil {
		t.Fatal(err)
	}
	site.body.Store("User-agent: *\nDisallow: /new/\n")
	now = now.Add(time.Hour)
	body, info, err := FetchInfoOf(ctx, c, site.URL, &FetchOptions{})
	if err != nil || info.Source != "network" || !strings.Contains(string(body), "/new/") || site.hits.Load() != 2 {
		t.Fatalf("%v, source %s, body %q, %d requests: want the new file, fetched now", err, info.Source, body, site.hits.Load())
	}
	rep, _ := Check(&CheckRequest{Source: FetchedSource(body, info, robotstxt.DefaultDialect), URLs: []string{"/new/a"}})
	if len(rep.Notes) == 0 || !strings.HasPrefix(rep.Notes[0], "fetched now with the google fetch policy") {
		t.Errorf("notes %q", rep.Notes)
	}

	// Cached: the copy just fetched, saying when.
	now = now.Add(time.Hour)
	src, err := Fetch(ctx, c, site.URL, robotstxt.DefaultDialect, &FetchOptions{Cached: true})
	if err != nil || src.Fetched.Source != "cache" || site.hits.Load() != 2 {
		t.Fatalf("%v, %+v, %d requests", err, src.Fetched, site.hits.Load())
	}
	rep, _ = Check(&CheckRequest{Source: src, URLs: []string{"/new/a"}})
	if want := "from the cache (fetched at 2026-03-01T13:00:00Z) with the google fetch policy"; len(rep.Notes) == 0 || !strings.HasPrefix(rep.Notes[0], want) {
		t.Errorf("notes %q, want %q first", rep.Notes, want)
	}
}

// refusal is the error of an address guard that does not connect to
// loopback.
type refusal struct{ addr string }

func (r *refusal) Error() string   { return "guard: refused: " + r.Refusal() }
func (r *refusal) Refusal() string { return r.addr + " is a loopback address" }

// TestFetchRefused: a fetch this side refused is reported as refused,
// with the guard's reason, not as the site's "disallow all".
func TestFetchRefused(t *testing.T) {
	site := newLiveSite(t, "User-agent: *\nAllow: /\n")
	c := cache.New(&cache.Options{Fetcher: &fetch.Fetcher{DialContext: func(_ context.Context, _, addr string) (net.Conn, error) {
		return nil, &refusal{addr: addr}
	}}})
	_, info, err := FetchInfoOf(context.Background(), c, site.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(site.URL, "http://")
	if info.Refused != host+" is a loopback address" || info.Reason != "refused by this server: "+info.Refused || info.Policy != "disallow-all" || site.hits.Load() != 0 {
		t.Errorf("info %+v, %d requests", info, site.hits.Load())
	}
	rep, err := Check(&CheckRequest{Source: FetchedSource(nil, info, robotstxt.DefaultDialect), URLs: []string{"/a"}})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(rep.Notes, "\n")
	if !strings.Contains(notes, "not fetched: refused by this server: "+host+" is a loopback address") || strings.Contains(notes, "fetched now") {
		t.Errorf("notes %q", rep.Notes)
	}
	if r := rep.Results[0]; r.Allowed || !strings.Contains(r.Reason, "refused by this server") {
		t.Errorf("result %+v", r)
	}
}
