package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/lint"
	"strconv"
)

func TestLintGolden(t *testing.T) {
	file := "testdata/lint_sample.txt"
	code, out, stderr := runCmd(t, "", "lint", file)
	if code != 0 {
		t.Fatalf("exit %d (no error-level finding): %s", code, stderr)
	}
	golden(t, "lint_sample.out.txt", out)
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "lint_sample.txt:8:10: warning[pattern-cannot-match]: the pattern \".gif$\"") {
		t.Errorf("Disallow .gif$ not reported at its value")
	}
	// The original dialect's codes only when asked for (--original).
	if strings.Contains(out, "wildcards-in-original") || strings.Contains(out, "original)") {
		t.Errorf("the original dialect is reported by default:\n%s", out)
	}
	if code, out, _ := runCmd(t, "", "lint", "--json", file); code != 0 || strings.Contains(out, "wildcards-in-original") {
		t.Errorf("lint --json reports wildcards-in-original by default: exit %d", code)
	}

	code, out, _ = runCmd(t, "", "lint", "--json", "--original", file)
	if code != 0 {
		t.Fatalf("--json: exit %d", code)
	}
	golden(t, "lint_sample.json", out)
	var rep lintReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		c, _ := lint.LookupCode(f.Code)
		if f.File != file || f.Line < 1 || f.Column < 1 || f.Severity != c.Severity || f.Message == "" || f.Dialects == nil {
			t.Errorf("finding %+v", f)
		}
	}
	want := []string{"rule-before-user-agent", "disallow-all", "shadowed-rule", "accepted-typo", "missing-colon",
		"pattern-cannot-match", "unsupported-field", "bad-crawl-delay", "unknown-field", "bad-sitemap-url",
		"star-rules-dropped", "blank-line-in-group", "dialects-disagree", "empty-group", "wildcards-in-original"}
	for _, c := range want {
		if !slices.ContainsFunc(rep.Findings, func(f finding) bool { return f.Code == c }) {
			t.Errorf("no %s finding", c)
		}
	}

	code, out, _ = runCmd(t, "", "lint", "--sarif", "--original", file)
	if code != 0 {
		t.Fatalf("--sarif: exit %d", code)
	}
	golden(t, "lint_sample.sarif", out)
}

// TestLintSARIF checks what code-scanning tools require of SARIF 2.1.0.
func TestLintSARIF(t *testing.T) {
	code, out, _ := runCmd(t, "User-agent: *\nDisallow: x\n", "lint", "--sarif", "-")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var log map[string]any
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log["version"] != "2.1.0" || !strings.Contains(log["$schema"].(string), "sarif") {
		t.Fatalf("version %v, $schema %v", log["version"], log["$schema"])
	}
	runs := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("%d runs", len(runs))
	}
	run := runs[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	if driver["name"] == "" || driver["version"] != version || driver["informationUri"] == "" {
		t.Errorf("driver %v", driver)
	}
	rules := driver["rules"].([]any)
	if len(rules) != len(lint.Codes()) {
		t.Fatalf("%d rules, want %d", len(rules), len(lint.Codes()))
	}
	for i, r := range rules {
		r := r.(map[string]any)
		level := r["defaultConfiguration"].(map[string]any)["level"]
		if r["id"] != lint.Codes()[i].Code || r["shortDescription"].(map[string]any)["text"] == "" ||
			r["help"].(map[string]any)["text"] == "" || (level != "error" && level != "warning" && level != "note") {
			t.Errorf("rule %d: %v", i, r)
		}
	}
	results := run["results"].([]any)
	if len(results) != 1 {
		t.Fatalf("%d results, want 1", len(results))
	}
	for _, r := range results {
		r := r.(map[string]any)
		idx := int(r["ruleIndex"].(float64))
		if r["ruleId"] != "pattern-cannot-match" || rules[idx].(map[string]any)["id"] != r["ruleId"] || r["level"] != "warning" ||
			r["message"].(map[string]any)["text"] == "" {
			t.Errorf("result %v", r)
		}
		loc := r["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		region := loc["region"].(map[string]any)
		if loc["artifactLocation"].(map[string]any)["uri"] != "stdin" || region["startLine"] != 2.0 || region["startColumn"] != 11.0 {
			t.Errorf("location %v", loc)
		}
	}
}

func TestLintUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "robots.txt")
	os.WriteFile(bad, []byte("\xFF\xFEU\x00"), 0o644)
	bin := filepath.Join(dir, "favicon.ico")
	os.WriteFile(bin, []byte("\x00\x00\x01\x00binary"), 0o644)
	if code, out, _ := runCmd(t, "", "lint", bad); code != 1 || !strings.Contains(out, "error[utf16]") {
		t.Errorf("an error-level finding: exit %d, want 1\n%s", code, out)
	}
	if code, out, _ := runCmd(t, "", "lint", "--disable", "utf16", bad); code != 0 || strings.Contains(out, "utf16") {
		t.Errorf("--disable: exit %d\n%s", code, out)
	}
	if code, out, _ := runCmd(t, "", "lint", "--codes"); code != 0 || !strings.Contains(out, "shadowed-rule") {
		t.Errorf("--codes: exit %d", code)
	}
	if code, _, stderr := runCmd(t, "", "lint", "-h"); code != 0 || !strings.Contains(stderr, "Examples:") {
		t.Errorf("-h: exit %d", code)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(dir, "missing.txt")}, "missing.txt: no such file"},
		{[]string{dir}, "is a directory"},
		{[]string{bin}, "looks like a binary file"},
		{[]string{}, "no file to lint"},
		{[]string{"--disable", "nope", bad}, `unknown code "nope"`},
		{[]string{"--json", "--sarif", bad}, "exclusive"},
	} {
		code, _, stderr := runCmd(t, "", append([]string{"lint"}, tt.args...)...)
		if code != 2 || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("lint %v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// TestLintAggregate: text output shows the first few findings of a code in
// a file and counts the rest; JSON keeps every finding.
func TestLintAggregate(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 12 {
		b.WriteString("Disallow: page" + itoa(i) + ".html\n")
	}
	b.WriteString("Foo: bar\n")
	body := b.String()
	code, out, _ := runCmd(t, body, "lint", "-")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if n := strings.Count(out, "warning[pattern-cannot-match]: the pattern"); n != 3 {
		t.Errorf("%d pattern-cannot-match lines shown, want 3:\n%s", n, out)
	}
	if !strings.Contains(out, "standard input: warning[pattern-cannot-match]: ... and 9 more lines (lines 5, 6,\n    7, 8, 9, 10, 11, 12, 13)\n") {
		t.Errorf("no aggregate line:\n%s", out)
	}
	if !strings.Contains(out, "standard input: 13 findings: 12 pattern-cannot-match, 1 unknown-field\n") {
		t.Errorf("no summary line for the file:\n%s", out)
	}
	if !strings.Contains(out, "standard input:14:1: warning[unknown-field]") {
		t.Errorf("the other code is not shown:\n%s", out)
	}
	// Wrapped at 80 columns: three lines for each pattern-cannot-match
	// finding, two for the aggregate line and the unknown field.
	lines := strings.Count(out, "\n")
	if lines != 3*3+2+2+1+1 {
		t.Errorf("%d lines, want 15:\n%s", lines, out)
	}
	code, out, _ = runCmd(t, body, "lint", "--all", "-")
	if code != 0 || strings.Count(out, "warning[pattern-cannot-match]: the pattern") != 12 || strings.Contains(out, "more lines") {
		t.Errorf("--all: exit %d\n%s", code, out)
	}
	for format, key := range map[string]string{"--json": `"code": "pattern-cannot-match"`, "--sarif": `"ruleId": "pattern-cannot-match"`} {
		_, out, _ = runCmd(t, body, "lint", format, "-")
		if n := strings.Count(out, key); n != 12 {
			t.Errorf("%s: %d pattern-cannot-match findings, want every one of 12", format, n)
		}
	}
	// Many lines: the list of line numbers is bounded.
	b.Reset()
	b.WriteString("User-agent: *\n")
	for i := range 40 {
		b.WriteString("Disallow: page" + itoa(i) + ".html\n")
	}
	_, out, _ = runCmd(t, b.String(), "lint", "-")
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "... and 37 more lines (lines 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, ...) ") {
		t.Errorf("long aggregate line:\n%s", out)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestLintTextCountsPastKept checks the text report of a file with more
// findings of one code than a text report keeps in full: the first few are
// shown, the rest counted with their lines, and the totals include them.
func TestLintTextCountsPastKept(t *testing.T) {
	body := strings.Repeat("a\n", keptPerCode*3)
	code, out, _ := runCmd(t, body, "lint", "-")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	n := keptPerCode * 3
	for _, want := range []string{
		fmt.Sprintf("... and %d more lines (lines 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, ...)", n-3),
		fmt.Sprintf("%d findings: %d unreadable-line", n, n),
		fmt.Sprintf("1 file: 0 errors, %d warnings, 0 info", n),
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if got := strings.Count(out, "warning[unreadable-line]: \"a\""); got != shownPerCode {
		t.Errorf("%d findings shown in full, want %d", got, shownPerCode)
	}
}

// TestLintWebBotAuth: --webbotauth reads Signature-Agent and Max-Crawl-Rate
// lines and checks them; without it they are unknown fields, as before.
func TestLintWebBotAuth(t *testing.T) {
	body := "User-agent: *\nSignature-Agent: example.com\nMax-Crawl-Rate: fast\nDisallow: /private\n"
	code, out, _ := runCmd(t, body, "lint", "-")
	if code != 0 || strings.Count(out, "[unknown-field]") != 2 {
		t.Errorf("without --webbotauth: exit %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, body, "lint", "--webbotauth", "-")
	if code != 0 || strings.Contains(out, "unknown-field") || !strings.Contains(out, ":3:17: warning[bad-max-crawl-rate]") {
		t.Errorf("with --webbotauth: exit %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, body, "lint", "--webbotauth", "--json", "-")
	if code != 0 || !strings.Contains(out, `"bad-max-crawl-rate"`) || strings.Contains(out, "unknown-field") {
		t.Errorf("--webbotauth --json: exit %d\n%s", code, out)
	}
}
