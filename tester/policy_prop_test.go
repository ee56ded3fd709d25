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
