package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

// TestAIRoute: POST /v1/ai answers with the JSON of tester.AI on the same
// file and options, byte for byte ("robotstxt ai --json", the file named
// by its field).
func TestAIRoute(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, c := range []struct {
		body string
		opts tester.AIOptions
	}{
		{``, tester.AIOptions{}},
		{`, "urls": ["/blog/a", "/admin/x", "https://example.com/drafts/"]`, tester.AIOptions{URLs: []string{"/blog/a", "/admin/x", "https://example.com/drafts/"}}},
		{`, "crawlers": ["GPTBot", "googlebot", "Google-Extended"]`, tester.AIOptions{Crawlers: []string{"GPTBot", "googlebot", "Google-Extended"}}},
		{`, "all": true, "urls": ["/"]`, tester.AIOptions{All: true, URLs: []string{"/"}}},
		{`, "all": false, "crawlers": null, "urls": null`, tester.AIOptions{}},
	} {
		for _, file := range usageFiles {
			r := post(t, ts.URL+"/v1/ai", `{"robots": `+quote(file)+c.body+`}`)
			rep, err := tester.AI(tester.NewSource(inlineName, []byte(file)), &c.opts)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(rep)
			if r.status != 200 || string(r.body) != string(want)+"\n" {
				t.Fatalf("%s:\n got %d %s\nwant %s", c.body, r.status, r.body, want)
			}
		}
	}
	// The sample: its findings come with the answer.
	r := post(t, ts.URL+"/v1/ai", `{"robots": `+quote(usageFiles[0])+`}`)
	var rep tester.AIReport
	if err := json.Unmarshal(r.body, &rep); err != nil || rep.Errors == 0 || len(rep.Sections) < 4 || rep.Others.Name != "*" {
		t.Errorf("%v: %s", err, r.body)
	}
}

// TestAIValidation: the body is checked before any work, and the
// tester's own refusals name the field and the item.
func TestAIValidation(t *testing.T) {
	e := &fakeEngine{}
	ts := newTestServer(t, &Options{Engine: e})
	for _, c := range []struct {
		name, body string
		status     int
		field      string
	}{
		{"unknown field", `{"robots": "", "colour": 1}`, 400, "colour"},
		{"no file", `{}`, 400, "robots"},
		{"both", `{"robots": "", "origin": "example.com"}`, 400, "origin"},
		{"bad origin", `{"origin": "ftp://"}`, 400, "origin"},
		{"bad url", `{"robots": "", "urls": ["nope"]}`, 400, "urls[0]"},
		{"empty crawler", `{"robots": "", "crawlers": ["GPTBot", " "]}`, 400, "crawlers[1]"},
		{"all not a boolean", `{"robots": "", "all": "yes"}`, 400, "all"},
		{"too many crawlers", `{"robots": "", "crawlers": [` + strings.TrimSuffix(strings.Repeat(`"a",`, MaxNames+1), ",") + `]}`, 400, "crawlers"},
	} {
		post(t, ts.URL+"/v1/ai", c.body).wantError(t, c.status, c.field)
	}
	if e.ai != nil {
		t.Errorf("the engine was asked: %+v", e.ai)
	}
	post(t, ts.URL+"/v1/ai", `{"robots": "User-agent: x", "urls": ["/a"], "crawlers": ["GPTBot"], "all": true}`)
	if in := e.ai; in == nil || string(in.Robots) != "User-agent: x" || !in.All || in.Crawlers[0] != "GPTBot" || in.URLs[0] != "/a" {
		t.Errorf("input %+v", in)
	}
	// A name neither the catalogue nor the file knows: the tester says so.
	real := newTestServer(t, nil)
	r := post(t, real.URL+"/v1/ai", `{"robots": "User-agent: FooBot\nDisallow: /", "crawlers": ["FooBot", "NoSuchBot"]}`)
	r.wantError(t, 400, "crawlers[1]")
}

// TestAILimits: an AI report asks URLs x crawlers questions; past the
// limit, 413 before any work. A live file is held to its limits once
// read: one that names more crawlers than its request allowed for is
// refused.
func TestAILimits(t *testing.T) {
	ts := newTestServer(t, &Options{MaxQuestions: 1000, AllowPrivate: true})
	urls := quoteAll(strings.Split(strings.Repeat("/a ", 100), " ")[:100])
	post(t, ts.URL+"/v1/ai", `{"robots": "", "urls": `+urls+`, "all": true}`).wantError(t, 413, "urls")
	if r := post(t, ts.URL+"/v1/ai", `{"robots": "", "urls": `+urls+`, "crawlers": ["GPTBot"]}`); r.status != 200 {
		t.Errorf("100 URLs for one crawler: %d %s", r.status, r.body)
	}
	var many strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&many, "User-agent: bot%d\n", i)
	}
	many.WriteString("Disallow: /\n")
	site := robotsSite(t, many.String())
	post(t, ts.URL+"/v1/ai", `{"origin": "`+site.URL+`", "all": true}`).wantError(t, 413, "urls")
	big := newTestServer(t, &Options{AllowPrivate: true})
	r := post(t, big.URL+"/v1/ai", `{"origin": "`+site.URL+`", "all": true}`)
	r.wantError(t, 413, "origin")
	if msg := r.json(t)["error"].(string); !strings.Contains(msg, "2000 user-agent lines") {
		t.Errorf("error %q", msg)
	}
	// Without all, the file's crawlers are bounded by the tester.
	if r := post(t, big.URL+"/v1/ai", `{"origin": "`+site.URL+`"}`); r.status != 200 {
		t.Errorf("%d %s", r.status, r.body)
	}
}

// TestAICostBounds: the estimate of an AI report is at least its answer,
// on the sample files and on files that name many crawlers.
func TestAICostBounds(t *testing.T) {
	s, _ := New(nil)
	var many strings.Builder
	for i := range 300 {
		fmt.Fprintf(&many, "User-agent: Google-Extended\nUser-agent: bot%d\nDisallow: /%d\nContent-Usage: train-ai=y\n\n", i, i)
	}
	many.WriteString("User-agent: *\nDisallow: /x\nContent-Usage: train-ai=n\nContent-Signal: ai-train=no\n")
	for _, file := range append(slices.Clone(usageFiles), many.String()) {
		for _, in := range []*AIInput{
			{},
			{URLs: []string{"/", "/blog/a", "/x"}},
			{All: true, URLs: []string{"/a/b/c/d/e/f", "/x"}},
			{Crawlers: []string{"GPTBot", "bot1"}},
		} {
			in.Subject = inline(file)
			c := s.aiCost(in)
			rep, err := tester.AI(tester.NewSource(inlineName, []byte(file)), &tester.AIOptions{URLs: in.URLs, Crawlers: in.Crawlers, All: in.All})
			if err != nil {
				continue // a crawler the file does not name
			}
			b, _ := json.Marshal(rep)
			if int64(len(b)) > c.answer {
				t.Errorf("%d crawlers, %d URLs: answer %d bytes, estimated %d", len(rep.Crawlers), len(rep.URLs), len(b), c.answer)
			}
		}
	}
}

// TestPolicyRoute: POST /v1/policy answers with the JSON of tester.Policy
// on the same file and stances, byte for byte ("robotstxt policy
// --json").
func TestPolicyRoute(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, c := range []struct {
		body string
		req  tester.PolicyRequest
	}{
		{`"deny": ["ai-training"], "allow": ["search"]`, tester.PolicyRequest{Deny: robotstxt.PurposeAITraining, Allow: robotstxt.PurposeSearch}},
		{`"deny": ["ai-training,ai-search"], "allow_crawlers": ["ClaudeBot"]`, tester.PolicyRequest{Deny: robotstxt.PurposeAITraining | robotstxt.PurposeAISearch, AllowCrawlers: []string{"ClaudeBot"}}},
		{`"deny_crawlers": ["GPTBot", "MyOwnBot"], "allow": ["user-fetch"]`, tester.PolicyRequest{DenyCrawlers: []string{"GPTBot", "MyOwnBot"}, Allow: robotstxt.PurposeUserFetch}},
		{`"deny_crawlers": ["Datenbank Crawler"], "deny": null, "allow": []`, tester.PolicyRequest{DenyCrawlers: []string{"Datenbank Crawler"}}},
	} {
		for _, file := range usageFiles {
			r := post(t, ts.URL+"/v1/policy", `{"robots": `+quote(file)+`, `+c.body+`}`)
			req := c.req
			req.Source = tester.NewSource(inlineName, []byte(file))
			rep, err := tester.Policy(&req)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(rep)
			if r.status != 200 || string(r.body) != string(want)+"\n" {
				t.Fatalf("%s:\n got %d %s\nwant %s", c.body, r.status, r.body, want)
			}
		}
	}
	// The sample, denying AI training: GPTBot keeps its Disallow: /, the
	// other training crawlers join it, and verdicts change.
	r := post(t, ts.URL+"/v1/policy", `{"robots": `+quote(usageFiles[0])+`, "deny": ["ai-training"]}`)
	var rep tester.PolicyReport
	if err := json.Unmarshal(r.body, &rep); err != nil || !rep.Changed || !strings.Contains(rep.Body, "User-agent: CCBot\n") ||
		!strings.HasPrefix(rep.Diff, "--- robots\n+++ robots\n") || rep.Verdicts == nil || len(rep.Verdicts.Changes) == 0 {
		t.Errorf("%v: %s", err, r.body)
	}
}

// TestPolicyValidation: stances are checked before any work, naming the
// list and the item at fault.
func TestPolicyValidation(t *testing.T) {
	e := &fakeEngine{}
	ts := newTestServer(t, &Options{Engine: e})
	for _, c := range []struct {
		name, body, field string
	}{
		{"no stance", `{"robots": ""}`, "deny"},
		{"empty lists", `{"robots": "", "deny": [], "allow_crawlers": []}`, "deny"},
		{"no file", `{"deny": ["search"]}`, "robots"},
		{"unknown purpose", `{"robots": "", "deny": ["search", "nope"]}`, "deny[1]"},
		{"empty purpose", `{"robots": "", "allow": [" "]}`, "allow[0]"},
		{"purpose both ways", `{"robots": "", "deny": ["ai-training"], "allow": ["search,ai-training"]}`, "allow"},
		{"crawler both ways", `{"robots": "", "deny_crawlers": ["GPTBot"], "allow_crawlers": ["MyBot", "gptbot"]}`, "allow_crawlers[1]"},
		{"token both ways", `{"robots": "", "deny_crawlers": ["mybot"], "allow_crawlers": ["MyBot"]}`, "allow_crawlers[0]"},
		{"not a token", `{"robots": "", "deny_crawlers": ["My Bot/1.0"]}`, "deny_crawlers[0]"},
		{"control character", `{"robots": "", "allow_crawlers": ["a\u0001"]}`, "allow_crawlers[0]"},
		{"unknown field", `{"robots": "", "deny": ["search"], "stance": 1}`, "stance"},
		{"wrong type", `{"robots": "", "deny": "search"}`, "deny"},
	} {
		t.Run(c.name, func(t *testing.T) { post(t, ts.URL+"/v1/policy", c.body).wantError(t, 400, c.field) })
	}
	if e.policy != nil {
		t.Errorf("the engine was asked: %+v", e.policy)
	}
	post(t, ts.URL+"/v1/policy", `{"robots": "x", "deny": ["ai-training", "ai-search"], "allow": ["search"], "deny_crawlers": ["MyBot", "MyBot"], "allow_crawlers": [" ClaudeBot "]}`)
	want := PolicyInput{Deny: robotstxt.PurposeAITraining | robotstxt.PurposeAISearch, Allow: robotstxt.PurposeSearch,
		DenyCrawlers: []string{"MyBot", "MyBot"}, AllowCrawlers: []string{"ClaudeBot"}}
	if in := e.policy; in == nil || in.Deny != want.Deny || in.Allow != want.Allow || fmt.Sprint(in.DenyCrawlers) != fmt.Sprint(want.DenyCrawlers) || fmt.Sprint(in.AllowCrawlers) != fmt.Sprint(want.AllowCrawlers) {
		t.Errorf("input %+v", e.policy)
	}
	// A file past the size limit cannot be rewritten whole.
	real := newTestServer(t, nil)
	huge := strings.Repeat("Disallow: /x\n", robotstxt.DefaultMaxBytes/13+10)
	post(t, real.URL+"/v1/policy", `{"robots": `+quote(huge)+`, "deny": ["ai-training"]}`).wantError(t, 400, "robots")
}

// TestAIPolicyLive: both routes fetch an origin through the server's
// cache, once; a site with no file starts the policy from an empty one.
func TestAIPolicyLive(t *testing.T) {
	site := robotsSite(t, usageFiles[0])
	ts := newTestServer(t, &Options{AllowPrivate: true})
	r := post(t, ts.URL+"/v1/ai", `{"origin": "`+site.URL+`", "urls": ["/blog/x"]}`)
	var ai tester.AIReport
	if err := json.Unmarshal(r.body, &ai); r.status != 200 || err != nil || ai.Fetch == nil || ai.Fetch.Status != 200 || ai.File != site.URL+"/robots.txt" || ai.Errors == 0 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	r = post(t, ts.URL+"/v1/policy", `{"origin": "`+site.URL+`", "deny_crawlers": ["CCBot"]}`)
	var pol tester.PolicyReport
	if err := json.Unmarshal(r.body, &pol); r.status != 200 || err != nil || pol.Fetch == nil || !strings.Contains(pol.Body, "User-agent: CCBot\nDisallow: /") || !strings.Contains(pol.Body, "# Example Co.") {
		t.Fatalf("%d %s", r.status, r.body)
	}
	none := robotsSite(t, "")
	none.Config.Handler = nil // every path a 404
	r = post(t, ts.URL+"/v1/policy", `{"origin": "`+none.URL+`", "deny": ["ai-training"]}`)
	if err := json.Unmarshal(r.body, &pol); r.status != 200 || err != nil || !strings.HasPrefix(pol.Body, "User-agent: ") || len(pol.Notes) == 0 {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

// TestPolicyCost: a policy holds at least the memory of its answer built
// whole, and at most the work's share; its verdicts grow with the
// crawlers of its stances.
func TestPolicyCost(t *testing.T) {
	s, _ := New(nil)
	small := &PolicyInput{Subject: inline(usageFiles[0]), DenyCrawlers: []string{"GPTBot"}}
	wide := &PolicyInput{Subject: inline(usageFiles[0]), Deny: robotstxt.PurposeAITraining | robotstxt.PurposeSearch}
	cs, cw := s.policyCost(small), s.policyCost(wide)
	if cs.memory >= cw.memory || cw.memory > s.admit.work.capacity || cs.subjects != 2 {
		t.Errorf("one crawler %+v, two purposes %+v (work: %d)", cs, cw, s.admit.work.capacity)
	}
	for _, in := range []*PolicyInput{small, wide} {
		rep, err := tester.Policy(&tester.PolicyRequest{Source: tester.NewSource(inlineName, []byte(usageFiles[0])), Deny: in.Deny, DenyCrawlers: in.DenyCrawlers})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(rep)
		if c := s.policyCost(in); c.memory < builtFactor*int64(len(b)) {
			t.Errorf("answer of %d bytes, held %d", len(b), c.memory)
		}
	}
}

// TestAISummaryMember: POST /v1/ai answers with the tester's summary, a
// line a purpose, the same as robotstxt ai prints (issue 35 item 9).
func TestAISummaryMember(t *testing.T) {
	ts := newTestServer(t, nil)
	body := "User-agent: *\nDisallow: /admin/\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nDisallow: /\n"
	r := post(t, ts.URL+"/v1/ai", `{"robots":`+strconv.Quote(body)+`}`)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var got tester.AIReport
	if err := json.Unmarshal(r.body, &got); err != nil {
		t.Fatal(err)
	}
	src := &tester.Source{Name: "robots.txt", Body: []byte(body), Robots: robotstxt.Parse([]byte(body))}
	want, err := tester.AI(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Summary) == 0 || !reflect.DeepEqual(got.Summary, want.Summary) {
		t.Errorf("summary\n%+v\nwant\n%+v", got.Summary, want.Summary)
	}
	if got.Summary[0].Purpose != "ai-training" || !strings.HasPrefix(got.Summary[0].Text, "AI training: blocked for 1 of ") {
		t.Errorf("first line %+v", got.Summary[0])
	}
}
