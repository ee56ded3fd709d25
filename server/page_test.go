package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

// TestCrawlersRoute: GET /v1/crawlers lists the whole table, in order, with
// each crawler's dialect, and refuses parameters; it is an API route (the
// token applies).
func TestCrawlersRoute(t *testing.T) {
	ts := newTestServer(t, nil)
	r := get(t, ts.URL+"/v1/crawlers")
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	var ans CrawlersAnswer
	if err := json.Unmarshal(r.body, &ans); err != nil {
		t.Fatal(err)
	}
	table := robotstxt.Crawlers()
	if len(ans.Crawlers) != len(table) {
		t.Fatalf("%d crawlers, the table has %d", len(ans.Crawlers), len(table))
	}
	for i, c := range table {
		got := ans.Crawlers[i]
		if got.Name != c.Name || got.Token != c.Token || got.Dialect != c.Dialect.String() || got.IgnoresGlobal != c.IgnoresGlobal {
			t.Errorf("crawler %d: %+v, want %+v", i, got, c)
		}
		if got.Fallbacks == nil || got.Aliases == nil {
			t.Errorf("crawler %s: nil lists encode as null", c.Name)
		}
	}
	if len(ans.Defaults) == 0 || len(ans.Dialects) != len(robotstxt.Dialects()) {
		t.Errorf("defaults %v, dialects %v", ans.Defaults, ans.Dialects)
	}
	for _, d := range ans.Defaults {
		if _, ok := robotstxt.LookupCrawler(d); !ok {
			t.Errorf("default %q is not in the table", d)
		}
	}
	get(t, ts.URL+"/v1/crawlers?x=1").wantError(t, 400, "x")

	auth := newTestServer(t, &Options{Token: "s3cret"})
	get(t, auth.URL+"/v1/crawlers").wantError(t, 401, "")
	if r := get(t, auth.URL+"/v1/crawlers", "Authorization", "Bearer s3cret"); r.status != 200 {
		t.Errorf("with the token: %d", r.status)
	}
}

// TestPageFiles: the page's script and style sheet are served from the
// binary with their types and the page's headers; the page loads only
// them (no inline script or style, no other origin).
func TestPageFiles(t *testing.T) {
	ts := newTestServer(t, nil)
	for name, ct := range pageFiles {
		r := get(t, ts.URL+"/"+name)
		if r.status != 200 || r.header.Get("Content-Type") != ct || len(r.body) == 0 {
			t.Errorf("/%s: %d %q, %d bytes", name, r.status, r.header.Get("Content-Type"), len(r.body))
		}
		if r.header.Get("Content-Security-Policy") == "" || r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("/%s: headers %v", name, r.header)
		}
	}
	page := get(t, ts.URL+"/").body
	for _, m := range regexp.MustCompile(`<script[^>]*>`).FindAll(page, -1) {
		if !bytes.Contains(m, []byte(`src="/app.js"`)) {
			t.Errorf("script element %s", m)
		}
	}
	if bytes.Contains(page, []byte("</script>\n<script>")) || bytes.Contains(page, []byte("<style")) || bytes.Contains(page, []byte(" style=")) {
		t.Error("the page holds inline script or style")
	}
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllSubmatch(page, -1) {
		ref := string(m[1])
		if strings.Contains(ref, "//") {
			t.Errorf("the page refers to another origin: %s", ref)
		}
	}
	if r := get(t, ts.URL+"/index.html"); r.status != 404 {
		t.Errorf("/index.html: %d (the page is served at / only)", r.status)
	}
}

// TestFetchRefreshParam: GET /v1/fetch answers from the cache, as a
// crawler uses the file; with refresh=true (the page's live fetch) it
// fetches the file as it is now. Anything but a boolean is refused.
func TestFetchRefreshParam(t *testing.T) {
	const before, after = "User-agent: *\nDisallow: /a/\n", "User-agent: *\nDisallow: /newer/\n"
	var body atomic.Value
	body.Store(before)
	var hits atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, body.Load().(string))
	}))
	t.Cleanup(site.Close)
	ts := newTestServer(t, &Options{AllowPrivate: true})
	fetchURL := ts.URL + "/v1/fetch?url=" + url.QueryEscape(site.URL)
	var info tester.FetchInfo
	for i, c := range []struct {
		query, source string
		bytes         int
		hits          int32
	}{
		{"", "network", len(before), 1},
		{"", "cache", len(before), 1},
		{"&refresh=false", "cache", len(before), 1},
		{"&refresh=true", "network", len(after), 2},
		{"", "cache", len(after), 2},
	} {
		if i == 2 {
			body.Store(after)
		}
		r := get(t, fetchURL+c.query)
		if err := json.Unmarshal(r.body, &info); err != nil || r.status != 200 {
			t.Fatalf("%d %q: %d %v: %s", i, c.query, r.status, err, r.body)
		}
		if info.Source != c.source || info.Bytes != c.bytes || hits.Load() != c.hits {
			t.Errorf("%d %q: source %s, %d bytes, %d requests; want %s, %d, %d", i, c.query, info.Source, info.Bytes, hits.Load(), c.source, c.bytes, c.hits)
		}
	}
	get(t, fetchURL+"&refresh=soon").wantError(t, 400, "refresh")
}

// TestFetchRefusedReport: a fetch the address guard refused is reported as
// refused, with the guard's reason, not as the site's answer.
func TestFetchRefusedReport(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the site was asked")
	}))
	t.Cleanup(site.Close)
	ts := newTestServer(t, nil)
	for _, q := range []string{"", "&refresh=true"} {
		var info tester.FetchInfo
		r := get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(site.URL)+q)
		if err := json.Unmarshal(r.body, &info); err != nil || r.status != 200 {
			t.Fatalf("%d %v: %s", r.status, err, r.body)
		}
		if !strings.HasPrefix(info.Refused, "127.0.0.1 is a loopback address") || info.Reason != "refused by this server: "+info.Refused || info.Policy != "disallow-all" || info.Source != "network" {
			t.Errorf("%q: %+v", q, info)
		}
	}
}
