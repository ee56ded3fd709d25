package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

const engineSample = "User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n\nUser-agent: Baiduspider\nDisallow: /\n"

// TestEngineCheckEqualsTester: the check route answers with the JSON of
// tester.Check on the same file, URLs and crawlers, byte for byte.
func TestEngineCheckEqualsTester(t *testing.T) {
	ts := newTestServer(t, nil)
	urls := []string{"/private/a", "https://example.com/x y", "/"}
	r := post(t, ts.URL+"/v1/check", `{"robots": `+quote(engineSample)+`, "urls": `+quoteAll(urls)+`, "crawlers": ["Googlebot", "Baiduspider", "YandexBot"], "agents": ["MyBot"]}`)
	rep, err := tester.Check(&tester.CheckRequest{Source: tester.NewSource(inlineName, []byte(engineSample)), URLs: urls,
		Subjects: tester.Subjects{Crawlers: []string{"Googlebot", "Baiduspider", "YandexBot"}, Agents: []string{"MyBot"}}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(rep)
	if r.status != 200 || string(r.body) != string(want)+"\n" {
		t.Errorf("%d\n got %s\nwant %s", r.status, r.body, want)
	}
	// Asked again, the parsed file is the one kept: the same answer.
	if r2 := post(t, ts.URL+"/v1/check", `{"robots": `+quote(engineSample)+`, "urls": `+quoteAll(urls)+`, "crawlers": ["Googlebot", "Baiduspider", "YandexBot"], "agents": ["MyBot"]}`); string(r2.body) != string(r.body) {
		t.Errorf("second answer differs:\n%s\n%s", r2.body, r.body)
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func quoteAll(s []string) string { b, _ := json.Marshal(s); return string(b) }

// TestEngineErrorsNameTheField: bad input that only the tester knows to be
// bad is a 400 naming the field and its place in the list.
func TestEngineErrorsNameTheField(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, c := range []struct{ route, body, field, msg string }{
		{"check", `{"robots": "", "urls": ["/"], "agents": ["MyBot", "Googlebot/2.1"]}`, "agents[1]", "did you mean Googlebot?"},
		{"check", `{"robots": "", "urls": ["/"], "agents": ["a b"]}`, "agents[0]", "not a product token"},
		{"compare", `{"robots": "", "agents": ["x/1"]}`, "agents[0]", "not a product token"},
		{"diff", `{"old": "", "new": "", "agents": ["x y"]}`, "agents[0]", "not a product token"},
		{"lint", `{"robots": "", "disable": ["bom", "nope"]}`, "disable[1]", `unknown code "nope"`},
	} {
		r := post(t, ts.URL+"/v1/"+c.route, c.body)
		r.wantError(t, 400, c.field)
		if msg, _ := r.json(t)["error"].(string); !strings.HasPrefix(msg, c.field+": ") || !strings.Contains(msg, c.msg) {
			t.Errorf("%s %s: error %q, want %q", c.route, c.body, msg, c.msg)
		}
	}
}

// TestEngineLive: an origin is fetched through the server's cache, once,
// and each crawler reads the answer with its own fetch policy, as check -u
// does; an origin that cannot be read has nothing to lint.
func TestEngineLive(t *testing.T) {
	hits := 0
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.WriteHeader(http.StatusForbidden)
	}))
	defer site.Close()
	ts := newTestServer(t, &Options{AllowPrivate: true})
	r := post(t, ts.URL+"/v1/check", `{"origin": "`+site.URL+`", "urls": ["/a"], "crawlers": ["Googlebot", "Baiduspider"]}`)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var rep tester.CheckReport
	json.Unmarshal(r.body, &rep)
	if len(rep.Results) != 2 || !rep.Results[0].Allowed || rep.Results[0].FetchPolicy != "google" ||
		rep.Results[1].Allowed || rep.Results[1].Policy != "disallow-all" || rep.Fetch == nil || rep.Fetch.Status != 403 {
		t.Errorf("%s", r.body)
	}
	// With a dialect, its fetch policy for all (Baidu's: 403 blocks).
	r = post(t, ts.URL+"/v1/check", `{"origin": "`+site.URL+`", "urls": ["/a"], "crawlers": ["Googlebot"], "dialect": "baidu"}`)
	json.Unmarshal(r.body, &rep)
	if r.status != 200 || len(rep.Results) != 1 || rep.Results[0].Allowed || rep.Fetch.Dialect != "baidu" {
		t.Errorf("%d %s", r.status, r.body)
	}
	if hits != 2 {
		t.Errorf("%d fetches at the origin, want 2 (Google's policy, then Baidu's)", hits)
	}
	// Lint reads the answer with Google's policy: a 403 is a missing
	// file, nothing to lint and no error.
	r = post(t, ts.URL+"/v1/lint", `{"origin": "`+site.URL+`"}`)
	if r.status != 200 || hits != 2 {
		t.Errorf("lint: %d %s (%d fetches)", r.status, r.body, hits)
	}

	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) }))
	defer down.Close()
	r = post(t, ts.URL+"/v1/lint", `{"origin": "`+down.URL+`"}`)
	r.wantError(t, 400, "origin")
	if msg, _ := r.json(t)["error"].(string); !strings.Contains(msg, "cannot be read") {
		t.Errorf("lint of an unreachable origin: %s", r.body)
	}
}

// TestEngineRefusesPrivate: by default no live fetch reaches a private
// address; the answer says so (every crawler's fetch failed: unreachable).
func TestEngineRefusesPrivate(t *testing.T) {
	hits := 0
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer site.Close()
	ts := newTestServer(t, nil)
	r := post(t, ts.URL+"/v1/check", `{"origin": "`+site.URL+`", "urls": ["/a"]}`)
	if r.status != 200 || hits != 0 || !strings.Contains(string(r.body), "loopback") {
		t.Errorf("%d %s (%d fetches)", r.status, r.body, hits)
	}
}

// TestEngineTruncated: a file past 500 KiB is cut as crawlers cut it, and
// the answer says so twice: the tester's note and size_notes.
func TestEngineTruncated(t *testing.T) {
	ts := newTestServer(t, nil)
	big := "User-agent: *\nDisallow: /a\n" + strings.Repeat("# filler\n", 600<<10/9) + "Disallow: /b\n"
	r := post(t, ts.URL+"/v1/check", `{"robots": `+quote(big)+`, "urls": ["/a", "/b"]}`)
	var rep struct {
		tester.CheckReport
		SizeNotes []string `json:"size_notes"`
	}
	if err := json.Unmarshal(r.body, &rep); err != nil || r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if len(rep.SizeNotes) != 1 || len(rep.Results) != 2 || rep.Results[0].Allowed || !rep.Results[1].Allowed {
		t.Errorf("%+v", rep)
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "only the first 512000 are read") {
		t.Errorf("notes %q", rep.Notes)
	}
}

// TestEngineDiffURLs: no urls derives them from the rules; an empty list
// asks about none.
func TestEngineDiffURLs(t *testing.T) {
	ts := newTestServer(t, nil)
	var rep tester.DiffReport
	r := post(t, ts.URL+"/v1/diff", `{"old": "User-agent: *\nDisallow: /a", "new": "User-agent: *\nDisallow: /b", "crawlers": ["Googlebot"]}`)
	json.Unmarshal(r.body, &rep)
	if r.status != 200 || !rep.Derived || len(rep.Changes) == 0 || rep.Old != "old" || rep.New != "new" {
		t.Errorf("derived: %d %s", r.status, r.body)
	}
	rep = tester.DiffReport{}
	r = post(t, ts.URL+"/v1/diff", `{"old": "User-agent: *\nDisallow: /a", "new": "User-agent: *\nDisallow: /b", "crawlers": ["Googlebot"], "urls": []}`)
	json.Unmarshal(r.body, &rep)
	if r.status != 200 || rep.Derived || len(rep.Changes) != 0 || rep.URLs != 0 {
		t.Errorf("none: %d %s", r.status, r.body)
	}
}

// TestDiffGroupless: rules before any user-agent line change nothing,
// and the answer says why.
func TestDiffGroupless(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, c := range []struct {
		name, body string
		notes      []string
	}{
		{"README's example", `{"old": "Disallow: /a", "new": "Disallow: /"}`, []string{
			`old: "Disallow: /a" (line 1) comes before any user-agent line: it belongs to no group and every crawler ignores it; put a User-agent line above it`,
			`new: "Disallow: /" (line 1) comes before any user-agent line: it belongs to no group and every crawler ignores it; put a User-agent line above it`,
		}},
		{"several", `{"old": "# hi\nallow: /x # c\nDisallow: /a\nUser-agent: *\nDisallow: /b", "new": "User-agent: *\nDisallow: /"}`, []string{
			`old: 2 allow and disallow lines, the first "allow: /x" (line 2), come before any user-agent line: they belong to no group and every crawler ignores them; put a User-agent line above them`,
		}},
		{"none", `{"old": "User-agent: *\nDisallow: /a", "new": "User-agent: *\nDisallow: /"}`, nil},
	} {
		var rep tester.DiffReport
		r := post(t, ts.URL+"/v1/diff", c.body)
		json.Unmarshal(r.body, &rep)
		if r.status != 200 || !slices.Equal(rep.Notes, c.notes) {
			t.Errorf("%s: %d notes %q, want %q", c.name, r.status, rep.Notes, c.notes)
		}
	}
	r := post(t, ts.URL+"/v1/diff", `{"old": "User-agent: *\nDisallow: /a", "new": "User-agent: *\nDisallow: /"}`)
	var rep tester.DiffReport
	json.Unmarshal(r.body, &rep)
	if len(rep.Changes) == 0 {
		t.Errorf("README's fixed example: no changes: %s", r.body)
	}
}

// TestSourceLRU: a file is parsed once and kept while the budget allows;
// the same bytes under another name, or other bytes, are another file;
// the least recently used go first.
func TestSourceLRU(t *testing.T) {
	a, b := []byte("User-agent: *\nDisallow: /a\n"), []byte("User-agent: *\nDisallow: /b\n")
	p := newSourceLRU(1 << 20)
	s1 := p.source("robots", a)
	if s2 := p.source("robots", append([]byte{}, a...)); s2 != s1 {
		t.Error("the same bytes parsed twice")
	}
	if p.source("old", a) == s1 || p.source("robots", b) == s1 {
		t.Error("another name or other bytes got the kept file")
	}
	if n, w := p.usage(); n != 3 || w <= 0 {
		t.Errorf("%d files, %d bytes", n, w)
	}
	// A budget of one file keeps the newest.
	_, w := p.usage()
	small := newSourceLRU(w/3 + 1)
	small.source("robots", a)
	small.source("robots", b)
	if n, _ := small.usage(); n != 1 {
		t.Errorf("%d files kept, want 1", n)
	}
	if small.source("robots", b) == small.source("robots", a) {
		t.Error("evicted file returned")
	}
	// Past the size limit: parsed each time, not kept.
	big := make([]byte, robotstxt.DefaultMaxBytes+10)
	if first := p.source("robots", big); p.source("robots", big) == first {
		t.Error("a cut file was kept")
	}
	if newSourceLRU(-1).source("robots", a) == nil {
		t.Error("no source without a budget")
	}
}
