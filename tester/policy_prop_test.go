package tester_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/lint"
	"github.com/seed53c283f5/robotstxt/tester"
)

// The policy writer's promises, over generated files and stances (issue
// 35, item 5): applying the same stances twice gives byte-identical
// output, every stance holds in each crawler's own dialect, and lint finds
// nothing in the output that the policy wrote.

// policyTokens are the user-agent values the generated files use: crawlers
// of every reading, fallbacks, a name that is no product token, '*'.
var policyTokens = []string{"*", "*", "GPTBot", "Googlebot", "Googlebot-Image", "Baiduspider", "Baiduspider-image",
	"AdsBot-Google", "Bingbot", "CCBot", "ClaudeBot", "YandexBot", "Yandex", "OwnBot", "Yahoo! Slurp"}

// genPolicyFile makes a robots.txt of a few groups from rnd.
func genPolicyFile(rnd *rand.Rand) string {
	var b strings.Builder
	if rnd.Intn(4) == 0 {
		b.WriteString("# generated\n")
	}
	for g := rnd.Intn(4); g > 0; g-- {
		for a := 1 + rnd.Intn(2); a > 0; a-- {
			fmt.Fprintf(&b, "User-agent: %s\n", policyTokens[rnd.Intn(len(policyTokens))])
		}
		for l := rnd.Intn(4); l > 0; l-- {
			switch rnd.Intn(9) {
			case 0:
				b.WriteString("Disallow: /\n")
			case 1:
				b.WriteString("Allow: /\n")
			case 2:
				b.WriteString("Content-Usage: train-ai=y\n")
			case 3:
				b.WriteString("Content-Usage: / Train-AI=no\n")
			case 4:
				b.WriteString("Content-Signal: search=yes\n")
			case 5:
				b.WriteString("\n")
			case 6:
				b.WriteString("Crawl-delay: 2\n")
			default:
				fmt.Fprintf(&b, "Disallow: /p%d/\n", rnd.Intn(3))
			}
		}
		if rnd.Intn(3) > 0 {
			b.WriteString("\n")
		}
	}
	if rnd.Intn(3) == 0 {
		b.WriteString("Sitemap: https://example.com/s.xml\n")
	}
	return b.String()
}

// genStances makes a policy request from rnd.
func genStances(rnd *rand.Rand) tester.PolicyRequest {
	var req tester.PolicyRequest
	ps := []robotstxt.Purpose{robotstxt.PurposeAITraining, robotstxt.PurposeSearch, robotstxt.PurposeAISearch, robotstxt.PurposeAds, robotstxt.PurposeUserFetch}
	for _, p := range ps {
		switch rnd.Intn(4) {
		case 0:
			req.Deny |= p
		case 1:
			req.Allow |= p
		}
	}
	names := []string{"GPTBot", "Baiduspider", "Baiduspider-image", "Googlebot", "Googlebot-Image", "CCBot", "AdsBot-Google", "OwnBot", "Bingbot"}
	for i := rnd.Intn(3); i > 0; i-- {
		n := names[rnd.Intn(len(names))]
		if slices.Contains(req.DenyCrawlers, n) || slices.Contains(req.AllowCrawlers, n) {
			continue
		}
		if rnd.Intn(2) == 0 {
			req.DenyCrawlers = append(req.DenyCrawlers, n)
		} else {
			req.AllowCrawlers = append(req.AllowCrawlers, n)
		}
	}
	if req.Deny|req.Allow == 0 && len(req.DenyCrawlers)+len(req.AllowCrawlers) == 0 {
		req.Deny = robotstxt.PurposeAITraining
	}
	return req
}

// policyCase runs one generated case; it returns what failed, "" when
// nothing did.
func policyCase(body string, req tester.PolicyRequest) string {
	req.Source = tester.NewSource("robots.txt", []byte(body))
	one, err := tester.Policy(&req)
	if err != nil {
		return "" // refused input (a purpose both ways...): no promise
	}
	req.Source = tester.NewSource("robots.txt", []byte(one.Body))
	two, err := tester.Policy(&req)
	if err != nil {
		return "second run: " + err.Error()
	}
	if two.Body != one.Body {
		return fmt.Sprintf("not idempotent:\n--- once\n%s--- twice\n%s", one.Body, two.Body)
	}
	// The promised preferences: the * group's, and those of every
	// crawler allowed by purpose or that ignores the * group, where it
	// may fetch "/", in its own reading.
	r := robotstxt.ParseString(one.Body)
	want := map[string]string{}
	for _, k := range []struct {
		p   robotstxt.Purpose
		key string
	}{{robotstxt.PurposeAITraining, robotstxt.UsageTrainAI}, {robotstxt.PurposeSearch, robotstxt.UsageSearch}} {
		switch {
		case req.Deny.Has(k.p):
			want[k.key] = "n"
		case req.Allow.Has(k.p):
			want[k.key] = "y"
		}
	}
	subjects := []robotstxt.Crawler{{Name: "*", Token: "robotstxt-probe", Dialect: robotstxt.Google}}
	for _, c := range one.Crawlers {
		if cr, ok := robotstxt.LookupCrawler(c.Name); ok && c.Allow && c.By != "crawler" {
			subjects = append(subjects, cr)
		}
	}
	for _, c := range robotstxt.Crawlers() {
		if c.IgnoresGlobal && !slices.ContainsFunc(one.Crawlers, func(p tester.PolicyCrawler) bool { return p.Name == c.Name }) {
			subjects = append(subjects, c)
		}
	}
	// A file whose groups hold blank lines (lint's blank-line-in-group)
	// is two readings: the draft's records end at the blank line, and a
	// line added to every record would split the group in RFC 9309's
	// reading. The writer keeps Google's and RFC 9309's; Baidu's is
	// asked only of files without such lines.
	split := false
	for _, f := range lint.Check(&lint.File{Name: "a", Body: []byte(body)}) {
		split = split || f.Code == "blank-line-in-group"
	}
	for _, c := range subjects {
		if split && c.Dialect.DraftRecords() {
			continue
		}
		u := r.Usage(c.Query("/"))
		if !u.Allowed {
			continue
		}
		for k, v := range want {
			if got := u.Usage.Get(k).String(); got != v {
				return fmt.Sprintf("%s: %s=%s at /, promised %s\n%s", c.Name, k, got, v, one.Body)
			}
		}
	}
	// Lint: nothing the policy's lines caused (a code the input did not
	// have).
	before := map[string]bool{}
	for _, f := range lint.Check(&lint.File{Name: "a", Body: []byte(body)}) {
		before[f.Code] = true
	}
	for _, f := range lint.Check(&lint.File{Name: "a", Body: []byte(one.Body)}) {
		// unsupported-field: a crawl-delay left to crawlers that ignore
		// it once a denied crawler leaves its group is the user's line,
		// kept byte for byte; the policy writes none.
		if !before[f.Code] && f.Severity != lint.SeverityInfo && f.Code != "unsupported-field" {
			return fmt.Sprintf("lint %s at line %d: %s\n%s", f.Code, f.Line, f.Message, one.Body)
		}
	}
	return ""
}

func TestPolicyProperties(t *testing.T) {
	rnd := rand.New(rand.NewSource(35))
	failed := 0
	const runs = 220
	for i := 0; i < runs; i++ {
		body := genPolicyFile(rnd)
		req := genStances(rnd)
		if msg := policyCase(body, req); msg != "" {
			failed++
			if failed <= 3 {
				t.Errorf("run %d: deny %s %v, allow %s %v, file:\n%s%s", i, req.Deny, req.DenyCrawlers, req.Allow, req.AllowCrawlers, body, msg)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d runs failed", failed, runs)
	}
}

// policyOf runs the policy of req on body, failing the test on an error.
func policyOf(t *testing.T, body string, req tester.PolicyRequest) *tester.PolicyReport {
	t.Helper()
	req.Source = tester.NewSource("robots.txt", []byte(body))
	rep, err := tester.Policy(&req)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// trainAI is what the file says of AI training at path for crawler c, in
// its own dialect ("" when it may not fetch there).
func trainAI(body string, c robotstxt.Crawler, path string) string {
	u := robotstxt.ParseString(body).Usage(c.Query(path))
	if !u.Allowed {
		return ""
	}
	return u.Usage.TrainAI().String()
}

// TestPolicyPromises: the cases of item 5, each a promise the
// writer broke.
func TestPolicyPromises(t *testing.T) {
	// An empty file, deny ads, allow search: Baidu's search crawler
	// stays allowed (its reading takes the first record holding its name,
	// and Baiduspider-cpro, an ads crawler, holds it).
	rep := policyOf(t, "", tester.PolicyRequest{Deny: robotstxt.PurposeAds, Allow: robotstxt.PurposeSearch})
	for _, name := range []string{"Baiduspider", "Baiduspider-image", "Googlebot", "Bingbot"} {
		c, _ := robotstxt.LookupCrawler(name)
		if d := robotstxt.ParseString(rep.Body).Decide(c.Query("/")); !d.Allowed {
			t.Errorf("--deny ads --allow search blocks %s: %s\n%s", name, d.Reason, rep.Body)
		}
	}
	// A path-scoped "/" line whose statement does not parse says nothing
	// for every path: it must not silently beat the promised preference.
	star := robotstxt.Crawler{Name: "*", Token: "robotstxt-probe", Dialect: robotstxt.Google}
	rep = policyOf(t, "User-agent: *\nDisallow: /private/\nContent-Usage: / Train-AI=no\n", tester.PolicyRequest{Deny: robotstxt.PurposeAITraining})
	if got := trainAI(rep.Body, star, "/page"); got != "n" {
		t.Errorf("* at /page: train-ai %q after --deny ai-training, want n:\n%s", got, rep.Body)
	}
	// Crawlers that ignore the * group get the promised preferences in
	// groups of their own.
	rep = policyOf(t, "User-agent: *\nDisallow: /private/\n", tester.PolicyRequest{Deny: robotstxt.PurposeAITraining})
	for _, c := range robotstxt.Crawlers() {
		if !c.IgnoresGlobal {
			continue
		}
		if got := trainAI(rep.Body, c, "/page"); got != "n" {
			t.Errorf("%s, which ignores the * group: train-ai %q, want n:\n%s", c.Name, got, rep.Body)
		}
	}
	// Allowing Baiduspider where its only group is Baiduspider-image's
	// (Baidu's reading: the first record holding its name): that group
	// gets the lines.
	baidu, _ := robotstxt.LookupCrawler("Baiduspider")
	rep = policyOf(t, "User-agent: Baiduspider-image\nDisallow: /img/\n\nUser-agent: *\nDisallow: /x\n", tester.PolicyRequest{Deny: robotstxt.PurposeAITraining, AllowCrawlers: []string{"Baiduspider"}})
	if got := trainAI(rep.Body, baidu, "/page"); got != "n" {
		t.Errorf("Baiduspider (allowed): train-ai %q, want n:\n%s", got, rep.Body)
	}
	// "Deny AI training" writes no user-agent value with a space (Google
	// reads only its first word; a note says so) and no crawler that
	// trains no model.
	rep = policyOf(t, "", tester.PolicyRequest{Deny: robotstxt.PurposeAITraining})
	if !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "Kangaroo Bot") }) {
		t.Errorf("no note says why Kangaroo Bot is not written: %q", rep.Notes)
	}
	for _, l := range strings.Split(rep.Body, "\n") {
		v, ok := strings.CutPrefix(l, "User-agent: ")
		if !ok {
			continue
		}
		if strings.ContainsAny(v, " \t") {
			t.Errorf("a user-agent value with a space: %q", l)
		}
		if v == "Scrapy" || v == "Lightpanda" || v == "LCC" {
			t.Errorf("%s is denied as an AI trainer: it trains no model", v)
		}
	}
	for _, f := range lint.Check(&lint.File{Name: "robots.txt", Body: []byte(rep.Body)}) {
		if f.Severity != lint.SeverityInfo {
			t.Errorf("lint of the policy's file: %s at line %d: %s", f.Code, f.Line, f.Message)
		}
	}
}

// TestPolicyDenyKeepsSharedLines: the case of a run that was not
// idempotent: a Content-Usage line shared by a denied crawler's group and
// the crawlers it keeps stays theirs, and the second run changes nothing.
func TestPolicyDenyKeepsSharedLines(t *testing.T) {
	for _, body := range []string{
		"User-agent: GPTBot\nContent-Usage: train-ai=n\nUser-agent: Googlebot\nDisallow: /x\n",
		"User-agent: GPTBot\nUser-agent: Googlebot\nContent-Usage: search=y\n\nDisallow: /x\n",
		"User-agent: *\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nUser-agent: Bingbot\nDisallow: /y\n",
	} {
		if msg := policyCase(body, tester.PolicyRequest{DenyCrawlers: []string{"GPTBot"}}); msg != "" {
			t.Errorf("--deny-crawler GPTBot on\n%s%s", body, msg)
		}
		one := policyOf(t, body, tester.PolicyRequest{DenyCrawlers: []string{"GPTBot"}})
		if strings.Count(one.Body, "Content-Usage") != strings.Count(body, "Content-Usage") {
			t.Errorf("a Content-Usage line went:\n%s", one.Body)
		}
		gb, _ := robotstxt.LookupCrawler("Googlebot")
		if bb := robotstxt.ParseString(body).Usage(gb.Query("/a")); bb.Allowed {
			if got := robotstxt.ParseString(one.Body).Usage(gb.Query("/a")); len(got.Usage.Lines) != len(bb.Usage.Lines) {
				t.Errorf("Googlebot's preferences changed: %v -> %v\n%s", bb.Usage, got.Usage, one.Body)
			}
		}
	}
}
