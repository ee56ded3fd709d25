package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/testdata"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/usagejson"
	"github.com/seed53c283f5/robotstxt/tester"
)

// usageFiles are files whose AI usage lines cover what a check's usage
// members say: paths, ties of one length combined, a statement that does
// not parse, other keys (one named "lines"), a group's signals with
// values unset, the * group's lines that named groups do not read, and
// dialects that choose groups otherwise.
var usageFiles = []string{
	`# Example Co.: search engines welcome, no AI training
User-agent: *
Disallow: /admin/
Content-Usage: train-ai=n
Content-Usage: /blog/ train-ai=y
Content-Signal: search=yes, ai-train=no

User-agent: Googlebot
User-agent: GPTBot
Disallow: /

User-agent: ClaudeBot
Allow: /

User-agent: Google-Extended
Disallow: /drafts/
`,
	"User-agent: *\nContent-Usage: /a/ train-ai=n\nContent-Usage: /a/ search=y, train-ai=y\nContent-Usage: /b* bots=n, lines=y, zz=n\nContent-Usage: /c/ ===\nContent-Signal: ai-input=yes, search=maybe\nDisallow: /x\n",
	"User-agent: Bingbot\nContent-Usage: search=n\nContent-Signal: search=no\nAllow: /\n\nUser-agent: YandexBot\nUser-agent: Baiduspider\nContent-Usage: /$ train-ai=y\nDisallow: /p\n\nUser-agent: mybot\nContent-Usage: train-ai=n\nContent-Signal: ai-train=yes, ai-input=no\n",
	"Content-Usage: train-ai=n\nUser-agent: *\nDisallow:\n",
	"",
}

// evalUsage is what "robotstxt eval" answers for a question with "usage":
// true (cmd/robotstxt's usageJSON, which writes through usagejson.Encode):
// the preferences of the file's Content-Usage rules (none when a fetch
// policy decided, rules false) for a URL that may be crawled.
func evalUsage(r *robotstxt.Robots, q robotstxt.Query, allowed, rules bool) (usage, signals string) {
	var ua robotstxt.UsageAnswer
	if rules {
		ua = r.Usage(q)
	}
	u, s := usagejson.Encode(ua, allowed)
	return string(u), string(s)
}

// usageResult is a result of a check answer, with its usage members raw.
type usageResult struct {
	URL     string          `json:"url"`
	Who     string          `json:"who"`
	Allowed bool            `json:"allowed"`
	Line    int             `json:"line"`
	Usage   json.RawMessage `json:"usage"`
	Signals json.RawMessage `json:"signals"`
}

// TestCheckUsageEqualsEval: each result of a check asked with usage carries
// the usage and signals that eval answers for the same question, byte for
// byte: for crawlers of every dialect, tokens, the request's dialect or
// theirs, inline files and fetched ones (rules, or a status each crawler's
// fetch policy reads). Without the usage members, the answer is the one
// written without the option.
func TestCheckUsageEqualsEval(t *testing.T) {
	shared := testdata.MustRoot(t)
	files := slices.Clone(usageFiles)
	names, _ := filepath.Glob(filepath.Join(shared, "corpus", "real", "*.txt"))
	slices.Sort(names)
	for i := 0; i < len(names); i += 500 {
		// A file of the corpus with usage lines in its first group.
		b, err := os.ReadFile(names[i])
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if j := strings.Index(strings.ToLower(s), "\ndisallow:"); j >= 0 {
			s = s[:j] + "\nContent-Usage: train-ai=n\nContent-Usage: /wp-admin/ search=n\nContent-Signal: search=yes" + s[j:]
		}
		files = append(files, s)
	}
	urls := []string{"/", "/blog/post", "/a/x", "/b/y", "/c/", "/admin/x", "/drafts/a", "/p", "/x", "/robots.txt", "/wp-admin/", "https://example.com/a/ b"}
	crawlers := []string{"Googlebot", "GPTBot", "ClaudeBot", "Google-Extended", "Bingbot", "YandexBot", "Baiduspider", "CCBot"}
	agents := []string{"MyBot", "Other"}
	type source struct {
		name string
		src  *tester.Source
		// status is the fetch's, for eval's fetch policy; 0 for bytes.
		status int
	}
	n := 0
	for fi, body := range files {
		srcs := []source{{"inline", tester.NewSource("robots", []byte(body)), 0}}
		for _, status := range []int{200, 403, 503} {
			info := &tester.FetchInfo{Origin: "https://example.com", RobotsURL: "https://example.com/robots.txt", Dialect: "google", Source: "network",
				Status: status, Policy: map[int]string{200: "rules", 403: "allow-all", 503: "disallow-all"}[status]}
			var b []byte
			if status == 200 {
				b = []byte(body)
			}
			srcs = append(srcs, source{fmt.Sprint("fetched ", status), tester.FetchedSource(b, info, robotstxt.DefaultDialect), status})
		}
		for _, sc := range srcs {
			for _, d := range []robotstxt.Dialect{robotstxt.DefaultDialect, robotstxt.Bing, robotstxt.Original} {
				if sc.status != 0 && d != robotstxt.DefaultDialect {
					continue // a fetch with a dialect reads one policy for all: as inline
				}
				req := &tester.CheckRequest{Source: sc.src, URLs: urls, Subjects: tester.Subjects{Crawlers: crawlers, Agents: agents}, Dialect: d}
				var plain, with bytes.Buffer
				w := httptest.NewRecorder()
				if _, err := writeCheck(w, &checkStream{req: req}, nil, 1<<40, func() bool { return false }); err != nil {
					t.Fatal(err)
				}
				plain.Write(w.Body.Bytes())
				w = httptest.NewRecorder()
				if _, err := writeCheck(w, &checkStream{req: req, usage: newCheckUsage(sc.src, d)}, nil, 1<<40, func() bool { return false }); err != nil {
					t.Fatal(err)
				}
				with.Write(w.Body.Bytes())
				var rep struct{ Results []usageResult }
				if err := json.Unmarshal(with.Bytes(), &rep); err != nil {
					t.Fatal(err)
				}
				what := fmt.Sprintf("file %d, %s, dialect %v", fi, sc.name, d)
				if len(rep.Results) != len(urls)*(len(crawlers)+len(agents)) {
					t.Fatalf("%s: %d results", what, len(rep.Results))
				}
				for i, res := range rep.Results {
					// The question eval is asked: the subject of this
					// column, as given.
					var q robotstxt.Query
					if k := i % (len(crawlers) + len(agents)); k < len(crawlers) {
						c, _ := robotstxt.LookupCrawler(crawlers[k])
						q = robotstxt.Query{Crawler: &c, Dialect: d}
					} else {
						q = robotstxt.Query{Agents: []string{agents[k-len(crawlers)]}, Dialect: d}
					}
					q.URL = res.URL
					r := sc.src.Robots
					var dec robotstxt.Decision
					rules := true
					if sc.status != 0 {
						rd := d
						if rd == robotstxt.DefaultDialect && q.Crawler != nil {
							rd = q.Crawler.Dialect
						}
						ans := fetch.Response{Status: sc.status, Size: r.Size()}.Interpret(rd)
						if ans.Policy == fetch.Rules {
							ans.Robots = r
						} else {
							rules = false
						}
						dec = ans.Decide(q)
					} else {
						dec = r.Decide(q)
					}
					wantU, wantS := evalUsage(r, q, dec.Allowed, rules)
					if dec.Allowed != res.Allowed || string(res.Usage) != wantU || string(res.Signals) != wantS {
						t.Fatalf("%s, %s %s: allowed %v, usage %s, signals %s\neval: allowed %v, usage %s, signals %s",
							what, res.Who, res.URL, res.Allowed, res.Usage, res.Signals, dec.Allowed, wantU, wantS)
					}
					n++
				}
				// Without its members, each result is as written without
				// the option.
				stripped := with.String()
				for _, res := range rep.Results {
					stripped = strings.Replace(stripped, `,"usage":`+string(res.Usage)+`,"signals":`+string(res.Signals)+`}`, `}`, 1)
				}
				if stripped != plain.String() {
					t.Fatalf("%s: the answer with usage differs otherwise from the one without", what)
				}
			}
		}
	}
	t.Logf("%d results compared with eval's answers", n)
}

// TestCheckUsageRoute: POST /v1/check with "usage": true answers the
// members, and without it none; its estimate grows with them.
func TestCheckUsageRoute(t *testing.T) {
	ts := newTestServer(t, nil)
	body := `{"robots": ` + quote(usageFiles[0]) + `, "urls": ["/blog/a", "/admin/"], "crawlers": ["Bingbot", "GPTBot"]%s}`
	var rep struct{ Results []map[string]json.RawMessage }
	r := post(t, ts.URL+"/v1/check", fmt.Sprintf(body, `, "usage": true`))
	if err := json.Unmarshal(r.body, &rep); r.status != 200 || err != nil {
		t.Fatalf("%d %s", r.status, r.body)
	}
	want := []struct{ usage, signals string }{
		{`{"lines":[5],"search":"unknown","train-ai":"y"}`, `{"ai-input":null,"ai-train":"no","line":6,"search":"yes"}`}, // Bingbot /blog/a
		{`null`, `null`}, // GPTBot, blocked by its own group, which states nothing
		{`null`, `{"ai-input":null,"ai-train":"no","line":6,"search":"yes"}`},
		{`null`, `null`},
	}
	for i, w := range want {
		if got := rep.Results[i]; string(got["usage"]) != w.usage || string(got["signals"]) != w.signals {
			t.Errorf("result %d: usage %s, signals %s; want %s, %s", i, got["usage"], got["signals"], w.usage, w.signals)
		}
	}
	for _, opt := range []string{"", `, "usage": false`} {
		r := post(t, ts.URL+"/v1/check", fmt.Sprintf(body, opt))
		if r.status != 200 || bytes.Contains(r.body, []byte(`"usage"`)) || bytes.Contains(r.body, []byte(`"signals"`)) {
			t.Errorf("%q: %d %s", opt, r.status, r.body)
		}
	}
	post(t, ts.URL+"/v1/check", fmt.Sprintf(body, `, "usage": "yes"`)).wantError(t, 400, "usage")
	in := &CheckInput{URLs: []string{"/a", "/b"}, Crawlers: nil}
	plain := checkCost(in)
	in.Usage = true
	if with := checkCost(in); with.answer <= plain.answer || with.questions != plain.questions {
		t.Errorf("usage costs %+v, without %+v", with, plain)
	}
}
