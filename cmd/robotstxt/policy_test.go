package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// A site whose /robots.txt answers with status, body and content type.
func newPolicySite(t *testing.T, status int, body, contentType string) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(s.Close)
	return s
}

const policyRules = "User-agent: *\nDisallow: /private\nAllow: /private/press\nDisallow: /*.gif$\n"

// policyAnswers are the answers a live site gives in the multi-crawler tests.
var policyAnswers = []struct {
	name        string
	status      int
	body        string
	contentType string
}{
	{"200", 200, policyRules, "text/plain"},
	{"600 KB", 200, policyRules + strings.Repeat("# padding\n", 60_000), "text/plain"},
	{"HTML", 200, "<html><body><pre>\n" + policyRules + "</pre></body></html>\n", "text/html; charset=utf-8"},
	{"401", 401, "", ""},
	{"403", 403, "", ""},
	{"404", 404, "", ""},
	{"429", 429, "", ""},
	{"500", 500, "", ""},
	{"503", 503, "", ""},
}

var policyURLs = []string{"/private/press/a", "/a.gif", "/public"}

// check -u with several crawlers fetches once and reads the answer with
// each crawler's own fetch policy, row by row (issue 8.3).
func TestCheckURLEachCrawlersPolicy(t *testing.T) {
	type row struct{ google, bing, yandex, baidu bool } // allowed for /public
	want := map[string]row{
		"200": {true, true, true, true}, "600 KB": {true, true, true, true}, "HTML": {true, true, true, true},
		"401": {true, true, true, false}, "403": {true, true, true, false}, "404": {true, true, true, true},
		"429": {false, false, true, false}, "500": {false, false, true, false}, "503": {false, false, true, false},
	}
	for _, a := range policyAnswers {
		s := newPolicySite(t, a.status, a.body, a.contentType)
		code, out, stderr := runCmd(t, "", "check", "-u", s.URL, "--store", "memory", "--json",
			"-c", "Googlebot", "-c", "Bingbot", "-c", "YandexBot", "-c", "Baiduspider", "/public")
		var rep checkReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%s: %v: %s %s", a.name, err, out, stderr)
		}
		w := want[a.name]
		got := map[string]bool{}
		for _, r := range rep.Results {
			got[r.Who] = r.Allowed
			c, _ := robotstxt.LookupCrawler(r.Who)
			if r.FetchPolicy != c.Dialect.String() {
				t.Errorf("%s %s: fetch_policy %q, want %q", a.name, r.Who, r.FetchPolicy, c.Dialect)
			}
		}
		if g := (row{got["Googlebot"], got["Bingbot"], got["YandexBot"], got["Baiduspider"]}); g != w {
			t.Errorf("%s: allowed google/bing/yandex/baidu = %v, want %v", a.name, g, w)
		}
		wantCode := 0
		if !w.google || !w.bing || !w.yandex || !w.baidu {
			wantCode = 1
		}
		if code != wantCode {
			t.Errorf("%s: exit %d, want %d", a.name, code, wantCode)
		}
	}

	// The text says which policy each row used.
	s := newPolicySite(t, 403, "", "")
	_, out, _ := runCmd(t, "", "check", "-u", s.URL, "--store", "memory", "-c", "Googlebot", "-c", "Baiduspider", "/x")
	for _, w := range []string{
		"allow all (google fetch policy): 403 Forbidden: no valid robots.txt",
		"disallow all (baidu fetch policy): 403 Forbidden: Baidu",
		"each crawler's own engine reads this answer",
	} {
		if !strings.Contains(flat(out), flat(w)) { // lines wrap at 80 columns
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	// -d still sets one policy for every row.
	code, out, _ := runCmd(t, "", "check", "-u", s.URL, "--store", "memory", "-d", "google", "-c", "Googlebot", "-c", "Baiduspider", "/x")
	if code != 0 || strings.Contains(out, "BLOCKED") {
		t.Errorf("-d google on a 403: exit %d\n%s", code, out)
	}
	// A Yandex crawler on a 600 KB file says why.
	s = newPolicySite(t, 200, policyAnswers[1].body, "")
	_, out, _ = runCmd(t, "", "check", "-u", s.URL, "--store", "memory", "-c", "YandexBot", "-c", "Googlebot", "/private/x")
	if !strings.Contains(flat(out), "Yandex ignores files over 500 KB") {
		t.Errorf("600 KB for YandexBot: no reason\n%s", out)
	}
}

// compare -u reads the answer with each crawler's policy too.
func TestCompareURLEachCrawlersPolicy(t *testing.T) {
	s := newPolicySite(t, 403, "", "")
	_, out, stderr := runCmd(t, "", "compare", "-u", s.URL, "--store", "memory", "--json", "-c", "Googlebot", "-c", "Baiduspider", "/x")
	var cmp comparison
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatalf("%v: %s %s", err, out, stderr)
	}
	got := map[string]bool{}
	for _, r := range cmp.Rows {
		got[r.Crawler] = r.Cells[0].Allowed
	}
	if !got["Googlebot"] || got["Baiduspider"] {
		t.Errorf("403: Googlebot allowed %v, Baiduspider allowed %v\n%s", got["Googlebot"], got["Baiduspider"], out)
	}
	if len(cmp.Disagreements) == 0 || !strings.Contains(cmp.Disagreements[0].Explanation, "fetch policy: disallow all") {
		t.Errorf("disagreements: %+v", cmp.Disagreements)
	}
}

// Acceptance of issue 8: for every crawler in the table, check -f, check -u,
// compare (-f and -u), Decide, fetch.Interpret and eval give the same answer
// for the same file and status, per that crawler's engine.
func TestEveryCrawlerAgreesEverywhere(t *testing.T) {
	crawlers := robotstxt.Crawlers()
	if step := shortStep(4); step > 1 {
		// Under -short (the race run), every fourth crawler and the first
		// of each dialect; every crawler runs without -short.
		var some []robotstxt.Crawler
		seen := map[robotstxt.Dialect]bool{}
		for i, c := range crawlers {
			if i%step == 0 || !seen[c.Dialect] {
				some = append(some, c)
			}
			seen[c.Dialect] = true
		}
		crawlers = some
	}
	var cflags []string
	for _, c := range crawlers {
		cflags = append(cflags, "-c", c.Name)
	}
	dir := t.TempDir()
	for _, a := range policyAnswers {
		// What the crawler's engine answers: its fetch policy on the
		// status and body, then its reading of the rules.
		want := map[string]bool{}
		key := func(who, u string) string { return who + " " + u }
		for i := range crawlers {
			c := &crawlers[i]
			ans := fetch.Interpret(a.status, http.Header{"Content-Type": {a.contentType}}, []byte(a.body), c.Dialect)
			for _, u := range policyURLs {
				want[key(c.Name, u)] = ans.Decide(robotstxt.Query{URL: u, Crawler: c}).Allowed
				if a.status == 200 && a.contentType != "text/html; charset=utf-8" {
					// A file given directly is a 200 answer.
					if d := robotstxt.Parse([]byte(a.body)).Decide(robotstxt.Query{URL: u, Crawler: c}); d.Allowed != want[key(c.Name, u)] {
						t.Errorf("%s %s %s: Decide %v, Interpret %v", a.name, c.Name, u, d.Allowed, want[key(c.Name, u)])
					}
				}
			}
		}
		checkRows := func(how string, out string) {
			t.Helper()
			var rep checkReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%s %s: %v", a.name, how, err)
			}
			if len(rep.Results) != len(crawlers)*len(policyURLs) {
				t.Fatalf("%s %s: %d results", a.name, how, len(rep.Results))
			}
			for _, r := range rep.Results {
				if w := want[key(r.Who, r.URL)]; r.Allowed != w {
					t.Errorf("%s %s: %s %s allowed %v, want %v (%s)", a.name, how, r.Who, r.URL, r.Allowed, w, r.Reason)
				}
			}
		}
		compareRows := func(how string, out string) {
			t.Helper()
			var cmp comparison
			if err := json.Unmarshal([]byte(out), &cmp); err != nil {
				t.Fatalf("%s %s: %v: %s", a.name, how, err, out)
			}
			if len(cmp.Rows) == 0 {
				// Nothing to compare: every engine reads the answer alike.
				for _, c := range crawlers {
					if want[key(c.Name, "/public")] != want[key("Googlebot", "/public")] {
						t.Errorf("%s %s: no table, but %s differs from Googlebot", a.name, how, c.Name)
					}
				}
				return
			}
			for _, r := range cmp.Rows {
				for _, cell := range r.Cells {
					if w := want[key(r.Crawler, cell.URL)]; cell.Allowed != w {
						t.Errorf("%s %s: %s %s allowed %v, want %v", a.name, how, r.Crawler, cell.URL, cell.Allowed, w)
					}
				}
			}
		}

		s := newPolicySite(t, a.status, a.body, a.contentType)
		args := append([]string{"check", "-u", s.URL, "--store", "memory", "--json"}, cflags...)
		_, out, _ := runCmd(t, "", append(args, policyURLs...)...)
		checkRows("check -u", out)
		args = append([]string{"compare", "-u", s.URL, "--store", "memory", "--json"}, cflags...)
		_, out, _ = runCmd(t, "", append(args, policyURLs...)...)
		compareRows("compare -u", out)

		if a.status == 200 {
			path := filepath.Join(dir, "robots.txt")
			if err := os.WriteFile(path, []byte(a.body), 0o644); err != nil {
				t.Fatal(err)
			}
			args = append([]string{"check", "-f", path, "--json"}, cflags...)
			_, out, _ = runCmd(t, "", append(args, policyURLs...)...)
			checkRows("check -f", out)
			args = append([]string{"compare", "-f", path, "--json"}, cflags...)
			_, out, _ = runCmd(t, "", append(args, policyURLs...)...)
			compareRows("compare -f", out)
		}

		// eval, with the status the file was served with.
		var in strings.Builder
		var keys []string
		for _, c := range crawlers {
			for _, u := range policyURLs {
				q := map[string]any{"robots": a.body, "crawler": c.Name, "url": u, "status": a.status}
				b, _ := json.Marshal(q)
				in.Write(append(b, '\n'))
				keys = append(keys, key(c.Name, u))
			}
		}
		_, out, stderr := runCmd(t, in.String(), "eval")
		got := lines(out)
		if len(got) != len(keys) {
			t.Fatalf("%s eval: %d answers for %d questions: %s", a.name, len(got), len(keys), stderr)
		}
		for i, l := range got {
			var ans struct {
				Allowed bool   `json:"allowed"`
				Error   string `json:"error"`
			}
			json.Unmarshal([]byte(l), &ans)
			if ans.Error != "" || ans.Allowed != want[keys[i]] {
				t.Errorf("%s eval: %s: %s, want allowed %v", a.name, keys[i], l, want[keys[i]])
			}
		}
	}
	_ = fmt.Sprint
}

// check says when the answers hide a problem with the file (issue 8.4).
func TestCheckNotesUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range "User-agent: *\nDisallow: /\n" {
		utf16 = append(utf16, byte(r), 0)
	}
	for _, c := range []struct {
		name, want string
		body       []byte
	}{
		{"utf16.txt", "the file is UTF-16", utf16},
		{"page.html", "no line of the file reads as a robots.txt field", []byte("<html><body>Not here</body></html>\n")},
	} {
		path := filepath.Join(dir, c.name)
		os.WriteFile(path, c.body, 0o644)
		_, out, stderr := runCmd(t, "", "check", "-f", path, "/x")
		if !strings.Contains(flat(out), "note: "+c.want) {
			t.Errorf("%s: output lacks %q:\n%s%s", c.name, c.want, out, stderr)
		}
	}
	path := filepath.Join(dir, "ok.txt")
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /x\n"), 0o644)
	if _, out, _ := runCmd(t, "", "check", "-f", path, "/x"); strings.Contains(out, "note:") {
		t.Errorf("a readable file gets a note:\n%s", out)
	}
}

// check -u with a URL of another origin says that the file does not
// govern it.
func TestCheckURLOtherOrigin(t *testing.T) {
	s := newPolicySite(t, 200, "User-agent: *\nDisallow: /x\n", "")
	_, out, _ := runCmd(t, "", "check", "-u", s.URL, "--store", "memory", "https://other.example/x", s.URL+"/x", "/x")
	want := "note: https://other.example/x is not on " + strings.TrimPrefix(s.URL, "") + ": this robots.txt does not govern it"
	if !strings.Contains(flat(out), want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	if strings.Count(out, "does not govern") != 1 {
		t.Errorf("want one note:\n%s", out)
	}
}

// lint -u says which engines read the answer otherwise than Google.
func TestLintURLEachCrawlersPolicy(t *testing.T) {
	s := newPolicySite(t, 403, "", "")
	code, out, stderr := runCmd(t, "", "lint", "-u", s.URL, "--store", "memory")
	if code != 0 || !strings.Contains(flat(out), "note: for baidu: disallow all: 403 Forbidden") {
		t.Errorf("403: exit %d:\n%s%s", code, out, stderr)
	}
	// The original dialect is reported on only when asked for.
	code, out, stderr = runCmd(t, "", "lint", "-u", s.URL, "--store", "memory", "--original")
	if code != 0 || !strings.Contains(flat(out), "note: for baidu, original: disallow all: 403 Forbidden") {
		t.Errorf("403 --original: exit %d:\n%s%s", code, out, stderr)
	}
	s = newPolicySite(t, 200, policyAnswers[1].body, "")
	_, out, _ = runCmd(t, "", "lint", "-u", s.URL, "--store", "memory")
	if !strings.Contains(flat(out), "note: for yandex: allow all: 200 OK: Yandex ignores files over 500 KB") {
		t.Errorf("600 KB:\n%s", out)
	}
}
