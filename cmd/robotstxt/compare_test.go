package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt/tester"
)

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestCompareBundledExample(t *testing.T) {
	code, out, stderr := runCmd(t, "", "compare")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "compare_example.txt", out)
	// Baiduspider reads by the draft: first match blocks /private/press/.
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "[3] allowed by google, rfc9309, bing, yandex (line 24 \"Allow: /private/press\"); blocked by baidu (line 23") ||
		!strings.Contains(out, "      cells: Baiduspider 7, Baiduspider 10\n") {
		t.Errorf("the Baiduspider disagreement is not explained:\n%s", out)
	}
	// The original draft is not compared unless asked for: --original
	// brings back the cells only it reads otherwise (its wildcards).
	if strings.Contains(out, "original") {
		t.Errorf("the original dialect is compared by default:\n%s", out)
	}
	code, out, stderr = runCmd(t, "", "compare", "--original")
	flat = strings.Join(strings.Fields(out), " ")
	if code != 0 || !strings.Contains(flat, "allowed by original (no rule matches); blocked by google, rfc9309, bing, yandex, baidu (line 8 \"Disallow: /*.pdf$\")") ||
		!strings.Contains(flat, "blocked by baidu, original (line 23") {
		t.Errorf("compare --original: exit %d, %s\n%s", code, stderr, out)
	}
}

func TestCompareJSON(t *testing.T) {
	code, out, stderr := runCmd(t, "", "compare", "--json", "-c", "Googlebot", "-c", "Baiduspider", "/private/press/x", "/ツ")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "compare_example.json", out)
	var cmp comparison
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatal(err)
	}
	if len(cmp.Rows) != 2 || len(cmp.URLs) != 2 || cmp.URLs[1] != "/%E3%83%84" {
		t.Fatalf("rows %d, urls %v", len(cmp.Rows), cmp.URLs)
	}
	baidu := cmp.Rows[1].Cells[0]
	if baidu.Allowed || !baidu.Disagree || baidu.Line != 23 || !baidu.Dialects["google"].Allowed {
		t.Errorf("Baiduspider cell = %+v", baidu)
	}
	if len(cmp.Disagreements) != 2 || cmp.Disagreements[1].Note != baidu.Note {
		t.Errorf("disagreements = %+v", cmp.Disagreements)
	}
}

func TestCompareFileAndStdin(t *testing.T) {
	body := "User-agent: *\nDisallow: /a\nAllow: /a/b\n"
	code, out, _ := runCmd(t, body, "compare", "-f", "-", "-c", "Googlebot", "/a/b")
	if code != 0 || !strings.Contains(out, "allow:3") {
		t.Errorf("stdin: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	os.WriteFile(file, []byte(body), 0o644)
	code, out, _ = runCmd(t, "", "compare", "-f", file, "-c", "Baiduspider", "/a/b")
	if code != 0 || !strings.Contains(out, "BLOCK:2 [1]") {
		t.Errorf("file: exit %d\n%s", code, out)
	}
}

func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "favicon.ico")
	os.WriteFile(bin, []byte("\x00\x00\x01\x00binary"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-f", filepath.Join(dir, "missing.txt")}, "missing.txt: no such file"},
		{[]string{"-f", dir}, "is a directory"},
		{[]string{"-f", bin}, "looks like a binary file"},
		{[]string{"-c", "NoSuchBot"}, `unknown crawler "NoSuchBot"`},
		{[]string{"-nosuchflag"}, "unknown flag -nosuchflag (robotstxt compare -h lists the flags)"},
	}
	for _, tt := range tests {
		code, out, stderr := runCmd(t, "", append([]string{"compare"}, tt.args...)...)
		if code != 2 || out != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("compare %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, stderr, tt.want)
		}
		if strings.Count(stderr, "\n") != 1 {
			t.Errorf("compare %v: want a one-line error, got %q", tt.args, stderr)
		}
	}
}

// columnStarts returns the display column at which each cell of a table
// line starts: cells are separated by two spaces or more.
func columnStarts(line string) []int {
	var starts []int
	col, spaces := 0, 2
	for _, r := range splitDisplay(line) {
		if r == " " {
			spaces++
		} else {
			if spaces >= 2 {
				starts = append(starts, col)
			}
			spaces = 0
		}
		col += displayWidth(r)
	}
	return starts
}

// splitDisplay splits s into its runes, dropping ANSI escape sequences
// (no width: see TestDisplayWidth), so that each piece has a width.
func splitDisplay(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i += strings.IndexByte(s[i:], 'm') + 1
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		out = append(out, s[i:i+n])
		i += n
	}
	return out
}

func TestDisplayWidth(t *testing.T) {
	for _, tt := range []struct {
		s string
		w int
	}{
		{"", 0}, {"allow:14 [1]", 12}, {"BLOCK:23 [10]", 13}, {"ツ", 2}, {"caf\u00e9", 4}, {"cafe\u0301", 4},
		{"\x1b[31;1mBLOCK\x1b[0m", 5}, {"é†", 2},
	} {
		if got := displayWidth(tt.s); got != tt.w {
			t.Errorf("displayWidth(%q) = %d, want %d", tt.s, got, tt.w)
		}
	}
}

// The acceptance test of the table: every row's cells start at the
// header's columns, measured in display width, with and without colour,
// whatever the footnote markers and crawler names.
func TestCompareTableAligned(t *testing.T) {
	wide := "User-agent: *\nDisallow: /private\nAllow: /private/press\nDisallow: /*?s=\n\nUser-agent: ExampleBotWithALongName\nDisallow: /x\n"
	for _, tt := range []struct {
		name, stdin string
		args        []string
	}{
		{"bundled", "", []string{"compare"}},
		{"many notes", "", []string{"compare", "/private/press/", "/x?sessionid=", "/private/press", "/private/press/a", "/x?sessionid=1", "/a?sessionid=", "/private/pressa", "/private/press/b", "/b?sessionid=", "/private/press/c", "/c?sessionid="}},
		{"named rows", wide, []string{"compare", "-f", "-", "-a", "MyBot", "--agents", "googlebot,googlebot-news", "-c", "Baiduspider", "/private/press/a", "/x?s=1"}},
		{"file rows", wide, []string{"compare", "-f", "-"}},
	} {
		code, out, stderr := runCmd(t, tt.stdin, tt.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.name, code, stderr)
		}
		var cmp comparison
		if code, js, _ := runCmd(t, tt.stdin, append(tt.args, "--json")...); code != 0 || json.Unmarshal([]byte(js), &cmp) != nil {
			t.Fatalf("%s: --json: exit %d", tt.name, code)
		}
		for _, color := range []bool{false, true} {
			var b strings.Builder
			writeComparison(&b, &cmp, color)
			if !color && b.String() != out {
				t.Fatalf("%s: the JSON's table is not the text output", tt.name)
			}
			// The table is in blocks of URL columns, each with the
			// crawler and dialect columns, each within 80 columns.
			urls := 0
			for _, table := range tableBlocks(b.String()) {
				if len(table) != len(cmp.Rows)+1 {
					t.Fatalf("%s: %d table lines for %d rows:\n%s", tt.name, len(table), len(cmp.Rows), b.String())
				}
				head := columnStarts(table[0])
				if len(head) < 3 {
					t.Fatalf("%s: header %q has %d columns", tt.name, table[0], len(head))
				}
				urls += len(head) - 2
				for _, l := range table {
					if got := columnStarts(l); !slices.Equal(got, head) {
						t.Errorf("%s (colour %v): row %q starts its cells at %v, the header at %v", tt.name, color, l, got, head)
					}
					if strings.HasSuffix(l, " ") {
						t.Errorf("%s: trailing spaces in %q", tt.name, l)
					}
					if w := displayWidth(l); w > termWidth {
						t.Errorf("%s: a table line of %d columns: %q", tt.name, w, l)
					}
				}
			}
			if urls != len(cmp.URLs) {
				t.Errorf("%s: the blocks have %d URL columns for %d URLs:\n%s", tt.name, urls, len(cmp.URLs), b.String())
			}
		}
	}
}

// tableBlocks returns the blocks of compare's table, each its lines: from
// a header to the next blank line.
func tableBlocks(out string) [][]string {
	var blocks [][]string
	in := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "crawler "):
			blocks = append(blocks, []string{l})
			in = true
		case in && l == "":
			in = false
		case in:
			blocks[len(blocks)-1] = append(blocks[len(blocks)-1], l)
		}
	}
	return blocks
}

// compare on a file of thousands of user-agent lines: the rows the file
// adds are capped, and a note says how many were left out.
func TestCompareBoundedRows(t *testing.T) {
	agents := hostileBig(500<<10, func(i int) string { return "User-agent: Bot" + letters(i) + "\nDisallow: /p" + letters(i) + "\n" })
	code, out, stderr := runCmd(t, agents, "compare", "--json", "-f", "-")
	var cmp comparison
	if code != 0 || json.Unmarshal([]byte(out), &cmp) != nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(cmp.Rows) != 1+len(tester.DefaultCrawlers())+tester.MaxFileRows { // "*" first
		t.Errorf("%d rows", len(cmp.Rows))
	}
	found := false
	for _, n := range cmp.Notes {
		found = found || strings.HasPrefix(n, "the file names ") && strings.Contains(n, " more crawlers than the table shows")
	}
	if !found {
		t.Errorf("no note on the rows left out: %q", cmp.Notes)
	}
	last := cmp.Rows[len(cmp.Rows)-1]
	if last.Line != 2*tester.MaxFileRows-1 || last.Crawler != "Bot"+letters(tester.MaxFileRows-1) {
		t.Errorf("last row %s from line %d", last.Crawler, last.Line)
	}
}

func TestCompareAgents(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\n\nUser-agent: MyBot\nDisallow: /\n"
	code, out, stderr := runCmd(t, body, "compare", "-f", "-", "-a", "MyBot", "--agents", "OtherBot,googlebot", "/private/a", "/b")
	if code != 0 || !strings.Contains(out, "\nMyBot               google   BLOCK:5  BLOCK:5\n") || !strings.Contains(out, "\nOtherBot+googlebot  google   BLOCK:2  allow\n") {
		t.Errorf("exit %d: %s\n%s", code, stderr, out)
	}
	code, _, stderr = runCmd(t, "", "compare", "-c", "MyBot")
	if code != 2 || !strings.Contains(stderr, "; -a MyBot asks about any product token)") {
		t.Errorf("unknown crawler: exit %d, %q", code, stderr)
	}
}

// TestCompareProbe: on a file of 100 rules, the derived URLs say how many
// rules they probe and how to probe more (--probe N, or URLs); --probe
// derives as many as asked, within its bounds.
func TestCompareProbe(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 100 {
		fmt.Fprintf(&b, "Disallow: /p%d/\n", i)
	}
	b.WriteString("Disallow: /p0/\nDisallow:\n") // a pattern again, and a rule that matches nothing
	body := b.String()
	code, out, stderr := runCmd(t, body, "compare", "-f", "-", "-c", "Googlebot")
	if code != 0 || !strings.Contains(out, "\nnote: URLs derived from the file's rules (/ and one per pattern): 12 of 101\n"+
		"      rules probed, the first in file order\n"+
		"note: --probe N derives up to N URLs (12 now), or give the URLs to compare\n") || !strings.Contains(out, "  12  /p10/\n") {
		t.Errorf("exit %d: %s\n%s", code, stderr, out)
	}
	code, out, stderr = runCmd(t, body, "compare", "-f", "-", "-c", "Googlebot", "--probe", "200", "--json")
	var cmp comparison
	if code != 0 || json.Unmarshal([]byte(out), &cmp) != nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(cmp.URLs) != 101 || cmp.RulesProbed != 101 || cmp.Rules != 101 || !slices.Contains(cmp.Notes, "URLs derived from the file's rules (/ and one per pattern): all 101 rules probed") {
		t.Errorf("--probe 200: %d URLs, %d of %d rules probed, notes %q", len(cmp.URLs), cmp.RulesProbed, cmp.Rules, cmp.Notes)
	}
	_, out, _ = runCmd(t, body, "compare", "-f", "-", "-c", "Googlebot", "--probe", "200")
	if strings.Contains(out, "--probe N") {
		t.Errorf("every rule probed, and still a hint to probe more:\n%s", out)
	}
	// Given URLs, nothing is derived: no count, no hint.
	_, out, _ = runCmd(t, body, "compare", "-f", "-", "-c", "Googlebot", "--json", "/p99/x")
	cmp = comparison{}
	if json.Unmarshal([]byte(out), &cmp) != nil || cmp.Rules != 0 || strings.Contains(out, "rules_probed") {
		t.Errorf("with URLs: %s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--probe", "0"}, "robotstxt compare: --probe 0: give a number of URLs from 1 to 1000\n"},
		{[]string{"--probe", "1001"}, "robotstxt compare: --probe 1001: give a number of URLs from 1 to 1000\n"},
		{[]string{"--probe", "20", "/x"}, "robotstxt compare: --probe applies only without URLs (it is how many URLs to derive from the file's rules)\n"},
	} {
		code, out, stderr := runCmd(t, body, append([]string{"compare", "-f", "-"}, tc.args...)...)
		if code != 2 || out != "" || stderr != tc.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, stderr, tc.want)
		}
	}
}

// TestCompareStarRow: the default rows start with "*", any crawler no
// group names (as diff's do), -c '*' asks for it, and its cells speak of
// "the crawler", not of the token that stands for it.
func TestCompareStarRow(t *testing.T) {
	body := "User-agent: *\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /g\n"
	_, out, _ := runCmd(t, body, "compare", "-f", "-", "/a", "/g")
	if !strings.Contains(out, "\ncrawler          dialect  1        2\n*                google   BLOCK:2  allow\nGooglebot        google   allow    BLOCK:5\n") ||
		!strings.Contains(out, "\n*: any crawler no group names, in the google dialect.\n") {
		t.Errorf("default rows:\n%s", out)
	}
	code, out, stderr := runCmd(t, body, "compare", "-f", "-", "--json", "-c", "Bingbot", "-c", "*", "/a")
	var cmp comparison
	if code != 0 || json.Unmarshal([]byte(out), &cmp) != nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(cmp.Rows) != 2 || cmp.Rows[0].Crawler != "*" || cmp.Rows[0].Token != "*" || cmp.Rows[1].Crawler != "Bingbot" {
		t.Fatalf("rows %+v", cmp.Rows)
	}
	star := cmp.Rows[0].Cells[0]
	if star.Allowed || star.Line != 2 || strings.Contains(out, "robotstxt-lint-probe") || !strings.Contains(star.Group, "the crawler") {
		t.Errorf("the * row's cell: %+v", star)
	}
	_, out, _ = runCmd(t, body, "compare", "-f", "-", "-c", "Bingbot", "/a")
	if strings.Contains(out, "\n* ") || strings.Contains(out, "*: any crawler") {
		t.Errorf("a * row not asked for:\n%s", out)
	}
}

// TestCompareCSVMarkdown: --csv and --markdown write one row a URL and
// crawler, with each dialect's verdict.
func TestCompareCSVMarkdown(t *testing.T) {
	robots := "User-agent: *\nDisallow: /p\nAllow: /p/*.html$\n"
	code, out, errs := runCmd(t, robots, "compare", "-f", "-", "-c", "Googlebot", "--csv", "/p/x.html")
	want := "url,crawler,dialect,verdict,line,rule,disagree,google,rfc9309,bing,yandex,baidu\r\n" +
		"/p/x.html,Googlebot,google,allowed,3,Allow: /p/*.html$,yes,allowed,allowed,allowed,allowed,blocked\r\n"
	if code != 0 || out != want {
		t.Errorf("--csv: %d\n%q, want\n%q (%s)", code, out, want, errs)
	}
	// The default dialect set, as text and JSON: original only with
	// --original (it was always a column of --markdown and --csv).
	code, out, _ = runCmd(t, robots, "compare", "-f", "-", "-c", "Googlebot", "--markdown", "/p/x.html")
	want = "| url | crawler | dialect | verdict | line | rule | disagree | google | rfc9309 | bing | yandex | baidu |\n" +
		"|---|---|---|---|---|---|---|---|---|---|---|---|\n" +
		"| /p/x.html | Googlebot | google | allowed | 3 | Allow: /p/\\*.html$ | yes | allowed | allowed | allowed | allowed | blocked |\n"
	if code != 0 || out != want {
		t.Errorf("--markdown: %d\n%q, want\n%q", code, out, want)
	}
	code, out, _ = runCmd(t, robots, "compare", "-f", "-", "-c", "Googlebot", "--markdown", "--original", "/p/x.html")
	want = "| url | crawler | dialect | verdict | line | rule | disagree | google | rfc9309 | bing | yandex | baidu | original |\n" +
		"|---|---|---|---|---|---|---|---|---|---|---|---|---|\n" +
		"| /p/x.html | Googlebot | google | allowed | 3 | Allow: /p/\\*.html$ | yes | allowed | allowed | allowed | allowed | blocked | blocked |\n"
	if code != 0 || out != want {
		t.Errorf("--markdown --original: %d\n%q, want\n%q", code, out, want)
	}
	if code, _, errs := runCmd(t, robots, "compare", "-f", "-", "--markdown", "--json"); code != 2 || !strings.Contains(errs, "give one of") {
		t.Errorf("--markdown --json: %d %q", code, errs)
	}
}
