package main

import (
	"encoding/json"
	"github.com/seed53c283f5/robotstxt/tester"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

func TestDiffGolden(t *testing.T) {
	code, out, stderr := runCmd(t, "", "diff", "example.robots.txt", "testdata/diff_new.txt")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	golden(t, "diff_example.txt", out)
	for _, want := range []string{"\n/search\n  * (google)\n    - BLOCKED  line 5: Disallow: /search\n", "+ allowed  line 15: Allow: /private/docs/"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	code, out, _ = runCmd(t, "", "diff", "--json", "example.robots.txt", "testdata/diff_new.txt")
	if code != 1 {
		t.Fatalf("--json: exit %d", code)
	}
	golden(t, "diff_example.json", out)
	var rep diffReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Derived || len(rep.Changes) == 0 || rep.Crawlers[0] != "*" {
		t.Fatalf("report %+v", rep)
	}
	for _, c := range rep.Changes {
		if c.Old.Allowed == c.New.Allowed {
			t.Errorf("a change that changes nothing: %+v", c)
		}
	}
}

// TestDiffFindsEveryChangedRule changes one rule at a time and checks that
// the derived URLs catch each change.
func TestDiffFindsEveryChangedRule(t *testing.T) {
	base := "User-agent: *\nDisallow: /a/b\nAllow: /a/b/c$\nDisallow: /*.pdf$\nDisallow: /x*y\n"
	changes := []string{
		strings.Replace(base, "/a/b\n", "/a/bc\n", 1),
		strings.Replace(base, "/a/b\n", "/a/\n", 1),
		strings.Replace(base, "/a/b/c$", "/a/b/c", 1),
		strings.Replace(base, "/*.pdf$", "/*.pdf", 1),
		strings.Replace(base, "/x*y", "/x*yz", 1),
		strings.Replace(base, "Allow: /a/b/c$", "Disallow: /a/b/c$", 1),
		base + "Disallow: /new\n",
	}
	dir := t.TempDir()
	old := filepath.Join(dir, "old.txt")
	os.WriteFile(old, []byte(base), 0o644)
	for i, body := range changes {
		nf := filepath.Join(dir, "new.txt")
		os.WriteFile(nf, []byte(body), 0o644)
		code, out, stderr := runCmd(t, "", "diff", "-c", "*", old, nf)
		if code != 1 {
			t.Errorf("change %d not found: exit %d\n%s%s", i, code, out, stderr)
		}
	}
	if code, out, _ := runCmd(t, "", "diff", old, old); code != 0 || !strings.Contains(out, "No verdict changes.") {
		t.Errorf("same file: exit %d\n%s", code, out)
	}
}

func TestDiffURLs(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("User-agent: *\nDisallow: /x\n"), 0o644)
	os.WriteFile(b, []byte("User-agent: *\nDisallow: /y\n"), 0o644)
	code, out, stderr := runCmd(t, "# URLs\nhttps://example.com/x\n/z\n", "diff", "--json", "--urls", "-", "-c", "Googlebot", a, b)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep diffReport
	json.Unmarshal([]byte(out), &rep)
	if rep.Derived || rep.URLs != 2 || len(rep.Changes) != 1 || rep.Changes[0].URL != "https://example.com/x" ||
		rep.Changes[0].Old.Line != 2 || rep.Changes[0].New.Line != 0 {
		t.Errorf("report %+v", rep)
	}
	// The old file from standard input.
	code, _, _ = runCmd(t, "User-agent: *\nDisallow: /x\n", "diff", "-", a)
	if code != 0 {
		t.Errorf("stdin: exit %d", code)
	}
}

func TestDiffErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "robots.txt")
	os.WriteFile(good, []byte("User-agent: *\nDisallow: /\n"), 0o644)
	bin := filepath.Join(dir, "favicon.ico")
	os.WriteFile(bin, []byte("\x00\x00\x01\x00binary"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{good}, "want two files"},
		{[]string{good, filepath.Join(dir, "missing.txt")}, "missing.txt: no such file"},
		{[]string{dir, good}, "is a directory"},
		{[]string{good, bin}, "looks like a binary file"},
		{[]string{"-c", "NoSuchBot", good, good}, `unknown crawler "NoSuchBot"`},
		{[]string{"-d", "klingon", good, good}, `unknown dialect "klingon"`},
		{[]string{"-", "-"}, "only one of"},
		{[]string{"--urls", filepath.Join(dir, "nourls.txt"), good, good}, "nourls.txt: no such file"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"diff"}, tt.args...)...)
		if code != 2 || out != "" || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("diff %v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
	if code, _, stderr := runCmd(t, "", "diff", "--help"); code != 0 || !strings.Contains(stderr, "Examples:") {
		t.Errorf("--help: exit %d", code)
	}
}

// hostileBig returns a file of about n bytes of the lines line(i) makes.
func hostileBig(n int, line func(i int) string) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(line(i))
	}
	return b.String()
}

// letters names i with letters only, so that it is a product token.
func letters(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		i /= 26
		if i == 0 {
			return s
		}
	}
}

// The work of diff is bounded on any pair of files within the size limit:
// the rows the files add and the probe URLs are capped, and notes say what
// was left out. (Time and memory are measured by hand: see the README.)
func TestDiffBoundedOnHostileFiles(t *testing.T) {
	dir := t.TempDir()
	wild := hostileBig(250<<10, func(i int) string {
		if i == 0 {
			return "User-agent: *\n"
		}
		return "Disallow: /*" + letters(i*7919%456976) + ".\n"
	})
	edited := strings.Replace(wild, "Disallow: /*", "Disallow: /*zzzzz.\nDisallow: /*", 1)
	agents := hostileBig(250<<10, func(i int) string { return "User-agent: Bot" + letters(i) + "\nDisallow: /p" + letters(i) + "\n" })
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	old, new, many := write("wild.txt", wild), write("edited.txt", edited), write("agents.txt", agents)

	code, out, stderr := runCmd(t, "", "diff", "--json", old, new)
	var rep diffReport
	if code != 1 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rules := testRuleCount(robotstxt.Parse([]byte(wild))) + testRuleCount(robotstxt.Parse([]byte(edited)))
	if rep.URLs > tester.DiffQuestions(rules) || rep.URLs < 100 || rep.ProbesLeftOut == 0 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "probe URLs are asked about") {
		t.Errorf("%d probe URLs (at most %d), %d left out, notes %q", rep.URLs, tester.DiffQuestions(rules), rep.ProbesLeftOut, rep.Notes)
	}
	// The probes of the edit come first: the added rule is found.
	found := false
	for _, c := range rep.Changes {
		found = found || c.New.Line == 2 && c.URL == "/zzzzz." && !c.New.Allowed
	}
	if !found {
		t.Errorf("the added rule's change is not found among %d changes", len(rep.Changes))
	}

	code, out, stderr = runCmd(t, "", "diff", "--json", many, old)
	rep = diffReport{}
	if code != 1 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(rep.Crawlers) != 1+len(tester.DefaultCrawlers())+tester.MaxFileRows || len(rep.Notes) == 0 || !strings.Contains(rep.Notes[0], "more crawlers than are compared") {
		t.Errorf("%d crawlers, notes %q", len(rep.Crawlers), rep.Notes)
	}
	code, out, _ = runCmd(t, "", "diff", many, old)
	if code != 1 || !strings.Contains(out, "\nnote: the files name ") || !strings.Contains(out, "\nnote: ") {
		t.Errorf("text: exit %d:\n%.400s", code, out)
	}
}

func TestDiffAgents(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.txt")
	new := filepath.Join(dir, "new.txt")
	os.WriteFile(old, []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	os.WriteFile(new, []byte("User-agent: *\nDisallow: /private/\n\nUser-agent: MyBot\nDisallow: /\n"), 0o644)
	code, out, stderr := runCmd(t, "", "diff", "-a", "MyBot", old, new)
	if code != 1 || !strings.Contains(out, "x 1 crawler\n") || !strings.Contains(out, "\n/\n  MyBot (google)\n    - allowed  (no rule matches") {
		t.Errorf("-a: exit %d: %s\n%s", code, stderr, out)
	}
	code, out, _ = runCmd(t, "", "diff", "--agents", "OtherBot,mybot", "-c", "*", old, new)
	if code != 1 || !strings.Contains(out, "x 2 crawlers\n") || !strings.Contains(out, "OtherBot+mybot (google)") || strings.Contains(out, "  * (google)") {
		t.Errorf("--agents: exit %d:\n%s", code, out)
	}
	code, _, stderr = runCmd(t, "", "diff", "-c", "MyBot", old, new)
	if code != 2 || !strings.Contains(stderr, "-a") {
		t.Errorf("unknown crawler: exit %d, %q does not point to -a", code, stderr)
	}
}

// testRuleCount counts the allow and disallow rules of r as Google reads it.
func testRuleCount(r *robotstxt.Robots) int {
	n := 0
	for _, g := range r.GroupsFor(robotstxt.Google) {
		n += len(g.Rules)
	}
	return n
}

// TestDiffFailOn: --fail-on blocked exits 1 only when a listed URL becomes
// blocked for a chosen crawler (a deploy check), and its last line says
// which; allowed is the other way; change (the default) is any change.
func TestDiffFailOn(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old := write("old.txt", "User-agent: *\nDisallow: /private/\n")
	staging := write("staging.txt", "User-agent: *\nDisallow: /\n")
	opened := write("opened.txt", "User-agent: *\nDisallow:\n")
	gptOnly := write("gpt.txt", "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n")
	urls := write("urls.txt", "# the pages that matter\n/\n/products/a\n/private/x\n")
	for _, c := range []struct {
		name string
		args []string
		code int
		last string
	}{
		{"a staging file blocks search", []string{"--fail-on", "blocked", "--urls", urls, "--purpose", "search", old, staging}, 1,
			"FAIL: 2 URLs newly blocked for "},
		{"opening the site blocks nothing", []string{"--fail-on", "blocked", "--urls", urls, "-c", "Googlebot", old, opened}, 0,
			"ok: no URL newly blocked (--fail-on blocked)"},
		{"opening the site with --fail-on allowed", []string{"--fail-on", "allowed", "--urls", urls, "--crawler", "Googlebot", old, opened}, 1,
			"FAIL: 1 URL newly allowed for Googlebot (--fail-on allowed)"},
		{"blocking GPTBot does not fail a search check", []string{"--fail-on", "blocked", "--urls", urls, "--purpose", "search", old, gptOnly}, 0,
			"ok: no URL newly blocked (--fail-on blocked)"},
		{"blocking GPTBot fails an AI check", []string{"--fail-on", "blocked", "--urls", urls, "--purpose", "ai-training", old, gptOnly}, 1,
			"FAIL: 2 URLs newly blocked for GPTBot (--fail-on blocked)"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"diff"}, c.args...)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		last := lines[len(lines)-1]
		if strings.HasPrefix(c.last, "FAIL") {
			// The crawler list may wrap: the last line starts where it
			// says FAIL.
			for i := len(lines) - 1; i >= 0; i-- {
				if strings.HasPrefix(lines[i], "FAIL") {
					last = flat(strings.Join(lines[i:], " "))
					break
				}
			}
		}
		if code != c.code || stderr != "" || !strings.HasPrefix(last, c.last) {
			t.Errorf("%s: exit %d (want %d), last line %q (want %q)\n%s%s", c.name, code, c.code, last, c.last, out, stderr)
		}
	}
	// JSON: the same exit status, no verdict line.
	code, out, _ := runCmd(t, "", "diff", "--json", "--fail-on", "blocked", "--urls", urls, "-c", "Googlebot", old, opened)
	if code != 0 || strings.Contains(out, "ok:") {
		t.Errorf("--json --fail-on blocked: exit %d\n%s", code, out)
	}
	code, _, stderr := runCmd(t, "", "diff", "--fail-on", "blockd", old, opened)
	if code != 2 || !strings.Contains(stderr, "did you mean blocked?") {
		t.Errorf("--fail-on blockd: exit %d, %s", code, stderr)
	}
}
