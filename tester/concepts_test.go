package tester_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

// The concepts every face decides by one function (issue 35, item 10):
// each test asks every face of the tester package and fails when one
// drifts from the core's answer.

// TestConceptAgentLine: which crawler a user-agent line names is
// robotstxt.CrawlerNamed's answer in the AI report, compare's rows and the
// policy writer, as Decide reads the line.
func TestConceptAgentLine(t *testing.T) {
	body := "User-agent: Yahoo!  Slurp/3.0\nDisallow: /\n"
	want, ok := robotstxt.CrawlerNamed("Yahoo!  Slurp/3.0")
	if !ok || want.Name != "Slurp" {
		t.Fatalf("CrawlerNamed = %q, %v; want Slurp", want.Name, ok)
	}
	if d := robotstxt.ParseString(body).Decide(want.Query("/")); d.Allowed {
		t.Fatalf("Decide lets Slurp in: the core itself drifted")
	}
	// The AI report: Slurp, from line 1, known; no token "Yahoo".
	rep := aiReport(t, body, &tester.AIOptions{})
	found := false
	for _, c := range rep.Crawlers {
		if strings.EqualFold(c.Name, "Yahoo") {
			t.Errorf("ai lists an unknown crawler %q for line 1", c.Name)
		}
		if c.Name == "Slurp" {
			found = true
			if !c.Known || c.Line != 1 || c.Answers[0].Allowed {
				t.Errorf("ai: Slurp known=%v line=%d allowed=%v; want known, line 1, blocked", c.Known, c.Line, c.Answers[0].Allowed)
			}
		}
	}
	if !found {
		t.Errorf("ai does not list Slurp, which line 1 names")
	}
	// compare: a row for Slurp, none for "Yahoo".
	cmp, err := tester.Compare(&tester.CompareRequest{Source: tester.NewSource("robots.txt", []byte(body))})
	if err != nil {
		t.Fatal(err)
	}
	found = false
	for _, row := range cmp.Rows {
		if strings.EqualFold(row.Crawler, "Yahoo") {
			t.Errorf("compare has a row for an unknown crawler %q", row.Crawler)
		}
		if row.Crawler == "Slurp" && row.Line == 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("compare has no row for Slurp from line 1")
	}
	// The policy writer: allowing Slurp takes it out of its group.
	pol, err := tester.Policy(&tester.PolicyRequest{Source: tester.NewSource("robots.txt", []byte(body)), AllowCrawlers: []string{"Slurp"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := robotstxt.ParseString(pol.Body).Decide(want.Query("/")); !d.Allowed {
		t.Errorf("policy --allow-crawler Slurp leaves Slurp blocked:\n%s", pol.Body)
	}
}

// TestConceptCrawlDelay: check shows a crawl-delay for a crawler exactly
// when robotstxt.Query.HonoursCrawlDelay says it waits by it (the polite
// client and lint ask the same function), for every crawler of the
// catalogue and for tokens.
func TestConceptCrawlDelay(t *testing.T) {
	src := tester.NewSource("robots.txt", []byte("User-agent: *\nCrawl-delay: 7\nDisallow: /x\n"))
	var names []string
	for _, c := range robotstxt.Crawlers() {
		names = append(names, c.Name)
	}
	rep, err := tester.Check(&tester.CheckRequest{Source: src, URLs: []string{"/a"}, Subjects: tester.Subjects{Crawlers: names, Agents: []string{"Baiduspider", "Yandex", "MyOwnBot"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range rep.Results {
		var q robotstxt.Query
		if c, ok := robotstxt.LookupCrawler(res.Crawler); ok && res.Crawler != "" {
			q.Crawler = &c
		} else {
			q.Agents = res.Agents
		}
		shown := res.CrawlDelay != nil && *res.CrawlDelay == 7
		if want := q.HonoursCrawlDelay(); shown != want {
			t.Errorf("check %s %v: crawl-delay shown %v, HonoursCrawlDelay %v", res.Crawler, res.Agents, shown, want)
		}
	}
}

// TestConceptStarRulesDropped: the AI report's star-rules-dropped and
// lint's are one decision (lint.StarRulesDropped): the same crawlers, the
// same severity, for files where Google's reading is each crawler's.
func TestConceptStarRulesDropped(t *testing.T) {
	for _, body := range []string{
		"User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nAllow: /\n",
		"User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nAllow: /private\n",
		"User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow:\n",
		"User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /x\n",
		"User-agent: *\nDisallow: /a\nDisallow: /b/*.pdf$\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /c\n",
		"User-agent: *\nDisallow: /a\n\nUser-agent: CCBot\nAllow: /a/\nDisallow: /z\n",
	} {
		rep := aiReport(t, body, &tester.AIOptions{Crawlers: []string{"GPTBot", "ClaudeBot", "CCBot"}})
		var ai []string
		aiSev := ""
		for _, f := range rep.Findings {
			if f.Code == tester.AIStarRulesDropped {
				ai = append(ai, f.Crawlers...)
				aiSev = f.Severity
			}
		}
		lr, err := tester.Lint(tester.NewSource("robots.txt", []byte(body)), nil)
		if err != nil {
			t.Fatal(err)
		}
		var ln []string
		lintSev := ""
		for _, f := range lr.Findings {
			if f.Code == "star-rules-dropped" {
				ln = append(ln, strings.Fields(f.Message)[0])
				lintSev = f.Severity
			}
		}
		if strings.Join(ai, ",") != strings.Join(ln, ",") || aiSev != lintSev {
			t.Errorf("star-rules-dropped: ai %v (%s), lint %v (%s)\n%s", ai, aiSev, ln, lintSev, body)
		}
	}
}

// TestConceptStarPreferences: what the * group states is the core's one
// answer (Decider.Preferences and Usage) in the policy writer's report and
// the AI report's "any other crawler" row, path-scoped lines whose path
// every URL has included.
func TestConceptStarPreferences(t *testing.T) {
	for _, body := range []string{
		"User-agent: *\nDisallow: /x\nContent-Usage: train-ai=y\nContent-Usage: / train-ai=n\n",
		"User-agent: *\nContent-Usage: search=y\n\nUser-agent: *\nContent-Usage: train-ai=n\nDisallow: /x\n",
		"User-agent: *\nDisallow: /x\nContent-Usage: train-ai=n, search=y\nContent-Signal: search=yes\n",
	} {
		r := robotstxt.ParseString(body)
		core, _ := r.Decider(robotstxt.Query{Agents: []string{"robotstxt-probe"}}).Preferences("/")
		ai := aiReport(t, body, &tester.AIOptions{Crawlers: []string{"GPTBot"}})
		u := ai.Others.Answers[0].Usage
		if u == nil || u.TrainAI != core.TrainAI().String() || u.Search != core.Search().String() {
			t.Errorf("ai's * row %+v, the core's train-ai=%s search=%s\n%s", u, core.TrainAI(), core.Search(), body)
		}
		pol := policyOf(t, body, tester.PolicyRequest{Allow: robotstxt.PurposeSearch | robotstxt.PurposeAITraining})
		want := "train-ai=" + core.TrainAI().String() + ", search=" + core.Search().String()
		after, _ := robotstxt.ParseString(pol.Body).Decider(robotstxt.Query{Agents: []string{"robotstxt-probe"}}).Preferences("/")
		if got := "train-ai=" + after.TrainAI().String() + ", search=" + after.Search().String(); pol.ContentUsage != got {
			t.Errorf("policy reports %q, the core reads the new file as %q (before: %q)\n%s", pol.ContentUsage, got, want, pol.Body)
		}
	}
}

// TestConceptMembership: which groups a crawler reads is the core's one
// answer (Decide's GroupChoice, its lines found in groups by
// Robots.GroupOf) in check, the AI report and the policy writer, each
// crawler in its own reading; the files hold what makes readings differ
// (a blank line inside a group, a name held by a longer one, a
// Content-Usage line between user-agent lines).
func TestConceptMembership(t *testing.T) {
	files := []string{
		"User-agent: Baiduspider-image\nDisallow: /img/\n\nUser-agent: *\nDisallow: /x\n",
		"User-agent: *\nDisallow: /a\nContent-Usage: train-ai=n\n\nUser-agent: Googlebot\nDisallow: /b\n",
		"User-agent: GPTBot\n\nUser-agent: Baiduspider\nDisallow: /c\n\nUser-agent: *\nContent-Usage: train-ai=n\nUser-agent: Bingbot\nDisallow: /d\n",
		"User-agent: Yahoo!  Slurp/3.0\nDisallow: /\n\nUser-agent: Yandex\nDisallow: /y\n",
	}
	names := []string{"Baiduspider", "Baiduspider-image", "Googlebot", "GPTBot", "Bingbot", "Slurp", "YandexBot"}
	for _, body := range files {
		src := tester.NewSource("robots.txt", []byte(body))
		r := robotstxt.ParseString(body)
		chk, err := tester.Check(&tester.CheckRequest{Source: src, URLs: []string{"/"}, Subjects: tester.Subjects{Crawlers: names}})
		if err != nil {
			t.Fatal(err)
		}
		ai := aiReport(t, body, &tester.AIOptions{Crawlers: names})
		for _, n := range names {
			c, _ := robotstxt.LookupCrawler(n)
			want := r.Decide(c.Query("/")).Group
			for _, res := range chk.Results {
				if res.Crawler == n && !slices.Equal(res.Group.Lines, nonNil(want.Lines)) {
					t.Errorf("check: %s reads lines %v, the core %v\n%s", n, res.Group.Lines, want.Lines, body)
				}
			}
			for _, a := range ai.Crawlers {
				if a.Name == n && !slices.Equal(a.Group.Lines, nonNil(want.Lines)) {
					t.Errorf("ai: %s reads lines %v, the core %v\n%s", n, a.Group.Lines, want.Lines, body)
				}
			}
			// Each line the core names is in a group of the crawler's
			// reading, the one GroupOf gives.
			for _, l := range want.Lines {
				gi, ok := r.GroupOf(c.Dialect, l)
				if !ok || !slices.Contains(want.Groups, gi) {
					t.Errorf("%s: line %d in group %d (%v), the core's groups %v", n, l, gi, ok, want.Groups)
				}
			}
		}
		// The policy: allowing each with a preference gives each the
		// preference, in its own reading, where it may fetch.
		pol, err := tester.Policy(&tester.PolicyRequest{Source: src, AllowCrawlers: names, Deny: robotstxt.PurposeAITraining})
		if err != nil {
			t.Fatal(err)
		}
		nr := robotstxt.ParseString(pol.Body)
		for _, n := range names {
			c, _ := robotstxt.LookupCrawler(n)
			if u := nr.Usage(c.Query("/")); !u.Allowed || u.Usage.TrainAI() != robotstxt.PrefDisallow {
				t.Errorf("policy: %s allowed %v, train-ai %s; want allowed, n\n%s", n, u.Allowed, u.Usage.TrainAI(), pol.Body)
			}
		}
	}
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
