package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

// The tests of "robotstxt policy", the policy writer (policy_test.go tests
// the fetch policies of check -u and compare -u).

func TestPolicyGolden(t *testing.T) {
	code, out, stderr := runCmd(t, "", "policy", "example.robots.txt", "--deny", "ai-training", "--allow", "search", "--allow", "user-fetch")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the file changes): %s", code, stderr)
	}
	golden(t, "policy_example.out.txt", out)
	for _, want := range []string{
		"Policy: deny ai-training (41), allow search (36), allow user-fetch (26)\n",
		"The * group's Content-Usage: train-ai=n, search=y\n",
		"\n-User-agent: GPTBot\n-User-agent: CCBot\n-Disallow: /\n+User-agent: Google-Extended\n+User-agent: Bytespider\n",
		"1209 verdicts change\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	code, out, _ = runCmd(t, "", "policy", "--json", "testdata/policy_sample.txt", "--deny-crawler", "GPTBot,CCBot", "--allow", "search")
	if code != 1 {
		t.Fatalf("--json: exit %d", code)
	}
	golden(t, "policy_sample.json", out)
	var rep tester.PolicyReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Changed || rep.Verdicts == nil || len(rep.Verdicts.Changes) == 0 || rep.ContentUsage != "search=y" || rep.Allow[0] != "search" {
		t.Errorf("report %+v", rep)
	}
}

// TestPolicyWrite: --write writes the new file; the policy applied to it
// again changes nothing (exit 0); --write - prints the file alone.
func TestPolicyWrite(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	orig, _ := os.ReadFile("example.robots.txt")
	os.WriteFile(file, orig, 0o644)
	args := []string{"policy", file, "--deny", "ai-training,ai-search", "--allow", "search", "--allow-crawler", "Applebot"}
	code, out, stderr := runCmd(t, "", append(args, "--write", file)...)
	if code != 0 || !strings.HasSuffix(out, "Wrote "+file+".\n") {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	written, _ := os.ReadFile(file)
	code, out, _ = runCmd(t, "", args...)
	if code != 0 || !strings.Contains(out, "The file already follows the policy: nothing changes.\n") {
		t.Errorf("second run: exit %d\n%s", code, out)
	}
	r := robotstxt.Parse(written)
	for _, c := range robotstxt.Crawlers() {
		if strings.Contains(c.Token, " ") {
			continue // "Kangaroo Bot": no line names it (Google reads "Kangaroo"); not written
		}
		want := c.Name == "Applebot" || !c.Purposes.Any(robotstxt.PurposeAITraining|robotstxt.PurposeAISearch)
		if !c.Purposes.Any(robotstxt.PurposeAITraining|robotstxt.PurposeAISearch|robotstxt.PurposeSearch) && c.Name != "Applebot" {
			continue
		}
		if got := r.Decide(c.Query("/")).Allowed; got != want {
			t.Errorf("%s (%s): allowed %v at /, want %v", c.Name, c.Purposes, got, want)
		}
	}
	code, out, _ = runCmd(t, string(orig), "policy", "-", "--deny", "ai-training,ai-search", "--allow", "search", "--allow-crawler", "Applebot", "--write", "-")
	if code != 0 || out != string(written) {
		t.Errorf("--write -: exit %d\n%s", code, out)
	}
	// Without a file: a new one.
	code, out, _ = runCmd(t, "", "policy", "--deny-crawler", "GPTBot", "--write", "-")
	if code != 0 || out != "User-agent: GPTBot\nDisallow: /\n" {
		t.Errorf("new file: exit %d %q", code, out)
	}
}

func TestPolicyURL(t *testing.T) {
	useTempCache(t)
	s := newSite(t, 200, "User-agent: *\nDisallow: /private/\n")
	code, out, stderr := runCmd(t, "", "policy", "-u", s.URL, "--store", "memory", "--deny-crawler", "GPTBot", "--write", "-")
	if code != 0 || out != "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n" {
		t.Errorf("exit %d %q %s", code, out, stderr)
	}
	gone := newSite(t, 404, "")
	code, out, _ = runCmd(t, "", "policy", "-u", gone.URL, "--store", "memory", "--deny-crawler", "GPTBot")
	if code != 1 || !strings.Contains(out, "starts from an empty file") {
		t.Errorf("404: exit %d\n%s", code, out)
	}
}

func TestPolicyErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "no stance: give --deny, --allow, --deny-crawler or --allow-crawler"},
		{[]string{"--deny", "ai-trianing"}, `--deny: unknown purpose "ai-trianing"`},
		{[]string{"--deny", "search", "--allow", "search,agent"}, "search is both in --deny and in --allow"},
		{[]string{"--deny-crawler", "GPTBot", "--allow-crawler", "gptbot"}, "GPTBot is both denied and allowed"},
		{[]string{"--deny-crawler", "Googlebot/2.1"}, `unknown crawler "Googlebot/2.1"`},
		{[]string{"--deny", "search", "--write", "-", "--json"}, "--write - and --json"},
		{[]string{"--deny", "search", "a.txt", "b.txt"}, "one robots.txt at a time"},
		{[]string{"--deny", "search", "--write", "/nonexistent/dir/robots.txt"}, "--write:"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"policy"}, tt.args...)...)
		if code != 2 || out != "" || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("policy %v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
	if code, _, stderr := runCmd(t, "", "policy", "--help"); code != 0 || !strings.Contains(stderr, "Examples:") {
		t.Errorf("--help: exit %d\n%s", code, stderr)
	}
}
