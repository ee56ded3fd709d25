package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestFlagErrorsAreOneLine(t *testing.T) {
	for _, cmd := range []string{"check", "compare", "diff", "eval", "fetch", "lint", "version"} {
		for _, tt := range []struct{ arg, want string }{
			{"--nosuch", "unknown flag --nosuch ("},
			{"-nosuch=3", "unknown flag -nosuch ("},
		} {
			code, out, stderr := runCmd(t, "", cmd, tt.arg)
			want := "robotstxt " + cmd + ": " + tt.want + "robotstxt " + cmd + " -h lists the flags)\n"
			if code != 2 || out != "" || !strings.HasPrefix(stderr, "robotstxt "+cmd+": "+tt.want) || stderr != want {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", cmd, tt.arg, code, out, stderr, want)
			}
		}
	}
	code, _, stderr := runCmd(t, "", "check", "-f")
	if code != 2 || stderr != "robotstxt check: -f needs a value (robotstxt check -h lists the flags)\n" {
		t.Errorf("check -f: exit %d, %q", code, stderr)
	}
}

func TestVersionJSON(t *testing.T) {
	code, out, _ := runCmd(t, "", "version", "--json")
	var v struct{ Version string }
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || v.Version != version {
		t.Errorf("version --json: exit %d, %v, %q", code, err, out)
	}
}

func TestErrorsHaveNoDoubledPrefix(t *testing.T) {
	code, _, stderr := runCmd(t, "", "fetch", "--store", "memory", "http://")
	if code != 2 || !strings.HasPrefix(stderr, "robotstxt fetch: ") || strings.Contains(stderr, "fetch: fetch:") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

func TestCountsInPluralAgree(t *testing.T) {
	code, out, _ := runCmd(t, "User-agent: *\nDisallow: /a\n<html>\n", "lint", "-")
	if code == 2 || !strings.Contains(out, "1 line looks like HTML") {
		t.Errorf("lint: exit %d:\n%s", code, out)
	}
	dir := t.TempDir()
	old, new := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	os.WriteFile(old, []byte("User-agent: *\nDisallow: /a\n"), 0o644)
	os.WriteFile(new, []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	_, out, _ = runCmd(t, "", "diff", "-c", "Googlebot", "--urls", "-", old, new)
	if !strings.Contains(out, "0 URLs (from --urls) x 1 crawler\n") {
		t.Errorf("diff:\n%s", out)
	}
	_, out, _ = runCmd(t, "/a\n", "diff", "-c", "Googlebot", "--urls", "-", old, new)
	if !strings.Contains(out, "1 URL (from --urls) x 1 crawler\n") || !strings.Contains(out, "\n1 verdict changed\n") {
		t.Errorf("diff:\n%s", out)
	}
}

// TestDidYouMean: a mistyped command, flag, crawler, dialect or lint code
// is one line that names the one meant, with exit status 2; a name near
// nothing gets no guess.
func TestDidYouMean(t *testing.T) {
	file := filepath.Join(t.TempDir(), "robots.txt")
	os.WriteFile(file, []byte("User-agent: *\nDisallow: /a\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"chek"}, "robotstxt: unknown command \"chek\"; did you mean robotstxt check? (robotstxt help lists the commands)\n"},
		{[]string{"help", "lnit"}, "robotstxt: unknown command \"lnit\"; did you mean robotstxt lint? (robotstxt help lists the commands)\n"},
		{[]string{"check", "-f", file, "--jsn", "/a"}, "robotstxt check: unknown flag --jsn; did you mean --json? (robotstxt check -h lists the flags)\n"},
		{[]string{"check", "-f", file, "--crawler", "/a"}, "robotstxt check: unknown flag --crawler; did you mean --crawlers? (robotstxt check -h lists the flags)\n"},
		{[]string{"diff", "-url", "x", "a", "b"}, "robotstxt diff: unknown flag -url; did you mean -urls? (robotstxt diff -h lists the flags)\n"},
		{[]string{"compare", "-C", "Googlebot"}, "robotstxt compare: unknown flag -C; did you mean -c? (robotstxt compare -h lists the flags)\n"},
		{[]string{"fetch", "-x", "example.com"}, "robotstxt fetch: unknown flag -x (robotstxt fetch -h lists the flags)\n"},
		{[]string{"check", "-f", file, "-c", "Gooblebot", "/a"}, "robotstxt check: unknown crawler \"Gooblebot\"; did you mean -c Googlebot? (robotstxt check --crawlers lists the known ones; -a Gooblebot asks about any product token)\n"},
		{[]string{"compare", "-c", "bingbott"}, "robotstxt compare: unknown crawler \"bingbott\"; did you mean -c Bingbot? (robotstxt check --crawlers lists the known ones; -a bingbott asks about any product token)\n"},
		{[]string{"diff", "-c", "MyOwnBot", file, file}, "robotstxt diff: unknown crawler \"MyOwnBot\" (robotstxt check --crawlers lists the known ones; -a MyOwnBot asks about any product token)\n"},
		{[]string{"check", "-f", file, "-d", "gogle", "/a"}, "robotstxt check: unknown dialect \"gogle\" (google, rfc9309, bing, yandex, baidu, original); did you mean google?\n"},
		{[]string{"fetch", "-d", "yandx", "example.com"}, "robotstxt fetch: -d: unknown dialect \"yandx\" (google, rfc9309, bing, yandex, baidu, original); did you mean yandex?\n"},
		{[]string{"lint", "--disable", "shadowd-rule", file}, "robotstxt lint: --disable: unknown code \"shadowd-rule\"; did you mean shadowed-rule? (robotstxt lint --codes lists them)\n"},
	} {
		code, out, stderr := runCmd(t, "", tc.args...)
		if code != 2 || out != "" || stderr != tc.want {
			t.Errorf("%q: exit %d, stdout %q\nstderr %q\nwant   %q", tc.args, code, out, stderr, tc.want)
		}
	}
	// Near nothing: the list of commands, no guess.
	code, _, stderr := runCmd(t, "", "frobnicate")
	if code != 2 || !strings.HasPrefix(stderr, "robotstxt: unknown command \"frobnicate\"\nrobotstxt: the Robots Exclusion Protocol toolkit") {
		t.Errorf("frobnicate: exit %d, %q", code, stderr)
	}
	// eval says it in the answer.
	code, out, _ := runCmd(t, `{"robots":"","crawler":"Bingbott","url":"/"}`+"\n"+`{"robots":"","ua":"a","url":"/","dialect":"yandx"}`+"\n", "eval")
	if code != 1 || out != `{"error":"question 1: crawler: unknown crawler \"Bingbott\" (did you mean \"Bingbot\"?)"}`+"\n"+
		`{"error":"question 2: dialect: unknown dialect \"yandx\" (did you mean \"yandex\"?)"}`+"\n" {
		t.Errorf("eval: exit %d:\n%s", code, out)
	}
}

// TestExitStatusRule: robotstxt help states the one rule, and each
// command follows it: 0 done with nothing to flag, 1 done with something
// flagged, 2 not done.
func TestExitStatusRule(t *testing.T) {
	code, out, _ := runCmd(t, "", "help")
	if code != 0 || !strings.Contains(out, "\nExit status, the same rule for every command:\n  0    done, and nothing to flag\n  1    done, and the output flags") {
		t.Errorf("help: exit %d:\n%s", code, out)
	}
	dir := t.TempDir()
	clean, blocked, bad := filepath.Join(dir, "clean"), filepath.Join(dir, "blocked"), filepath.Join(dir, "bad")
	os.WriteFile(clean, []byte("User-agent: *\nDisallow: /a\n"), 0o644)
	os.WriteFile(blocked, []byte("User-agent: *\nDisallow: /\n"), 0o644)
	os.WriteFile(bad, []byte{0xff, 0xfe, 'U', 0}, 0o644) // UTF-16: an error finding
	good := `{"robots":"","ua":"a","url":"/"}` + "\n"
	for _, tc := range []struct {
		stdin string
		args  []string
		want  int
	}{
		{"", []string{"check", "-f", clean, "/b"}, 0},
		{"", []string{"check", "-f", clean, "/a"}, 1},
		{"", []string{"check", "-f", dir + "/none", "/a"}, 2},
		{"", []string{"lint", clean}, 0},
		{"", []string{"lint", bad}, 1},
		{"", []string{"lint", clean, dir + "/none"}, 2},
		{"", []string{"diff", clean, clean}, 0},
		{"", []string{"diff", clean, blocked}, 1},
		{"", []string{"diff", clean}, 2},
		{"", []string{"compare", "-f", clean}, 0},
		{"", []string{"compare", "-f", blocked, "-c", "Googlebot", "/x"}, 0}, // a report: nothing is flagged
		{"", []string{"compare", "-f", dir + "/none"}, 2},
		{good, []string{"eval"}, 0},
		{good + "{}\n", []string{"eval"}, 1},
		{good, []string{"eval", "extra"}, 2},
		{"", []string{"version"}, 0},
		{"", []string{"version", "x"}, 2},
		{"", []string{}, 2},
	} {
		code, _, stderr := runCmd(t, tc.stdin, tc.args...)
		if code != tc.want {
			t.Errorf("%q: exit %d, want %d (%s)", tc.args, code, tc.want, stderr)
		}
	}
	// Each command's help says how its statuses follow the rule.
	for _, cmd := range []string{"check", "compare", "diff", "eval", "fetch", "lint"} {
		_, _, help := runCmd(t, "", cmd, "-h")
		if !strings.Contains(help, "\nExit status") {
			t.Errorf("%s -h says nothing of its exit status", cmd)
		}
	}
}

// TestHelpFitsEightyColumns: the usage, "robotstxt help", every command's
// -h and "robotstxt help CMD" fit 80 columns.
func TestHelpFitsEightyColumns(t *testing.T) {
	runs := [][]string{{}, {"help"}}
	for _, c := range commands() {
		runs = append(runs, []string{c.name, "-h"}, []string{"help", c.name})
	}
	for _, args := range runs {
		_, out, stderr := runCmd(t, "", args...)
		text := out + stderr
		if !strings.Contains(text, "Usage") {
			t.Errorf("robotstxt %s prints no usage: %.200q", strings.Join(args, " "), text)
		}
		for i, l := range strings.Split(text, "\n") {
			if w := displayWidth(l); w > termWidth {
				t.Errorf("robotstxt %s: line %d is %d columns: %q", strings.Join(args, " "), i+1, w, l)
			}
		}
	}
}

// flat is s with every run of white space one space: text that wraps at
// 80 columns, compared by its words.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// containsWords reports whether s holds the words of sub in order, each
// run of white space in either as one space (a line wrapped at 80 columns
// still holds what it held on one line).
func containsWords(s, sub string) bool { return strings.Contains(flat(s), flat(sub)) }

// TestDefaultOutputsFitEightyColumns: the text outputs of compare, check,
// diff and lint fit 80 columns on the bundled example and on real files
// (one with a rule of hundreds of NUL bytes, one over 500 KiB, one served
// as HTML).
func TestDefaultOutputsFitEightyColumns(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "corpus", "real")
	files := []string{"example.robots.txt"}
	for _, f := range []string{"0003ac6bd6a72447.txt", "29f9b71cadc11c8f.txt", "1592b19683dc5047.txt", "15ce223d6369d0ec.txt", "00766c09380b905a.txt"} {
		files = append(files, filepath.Join(dir, f))
	}
	// And the outputs that read no file (not "crawlers NAME", whose
	// addresses are left whole, to be copied).
	for _, args := range [][]string{{"lint", "--codes"}, {"crawlers"}, {"ai"}, {"compare"}} {
		_, out, _ := runCmd(t, "", args...)
		for i, l := range strings.Split(out, "\n") {
			if w := displayWidth(l); w > termWidth {
				t.Errorf("robotstxt %s: line %d is %d columns: %.120q", strings.Join(args, " "), i+1, w, l)
			}
		}
	}
	for _, f := range files {
		for _, args := range [][]string{
			{"compare", "-f", f},
			{"compare", "-f", f, "--original", "--probe", "40"},
			{"check", "-f", f, "-c", "Googlebot", "-c", "Mediapartners-Google", "-c", "Baiduspider", "-a", "FooBot", "-v",
				"/", "/search?q=x", "https://www.example.com/cart/ツ", "/private/press/launch.html"},
			{"diff", "example.robots.txt", f},
			{"diff", f, "testdata/diff_new.txt"},
			{"lint", f},
			{"lint", "--all", "--original", f},
		} {
			code, out, stderr := runCmd(t, "", args...)
			if code == 2 || stderr != "" {
				t.Fatalf("robotstxt %s: exit %d, %s", strings.Join(args, " "), code, stderr)
			}
			for i, l := range strings.Split(out, "\n") {
				if w := displayWidth(l); w > termWidth {
					t.Errorf("robotstxt %s: line %d is %d columns: %.120q", strings.Join(args, " "), i+1, w, l)
				}
			}
		}
	}
}

// TestHelpColumnsAligned: in every command's help, the descriptions of
// the flags that share a line with their description start in one column
// (issue 35 item 8: --store STORE was one column off in every help).
func TestHelpColumnsAligned(t *testing.T) {
	flagLine := regexp.MustCompile(`^  (-[^ ]+(?: [A-Z0-9:,._|-]+)?)( {2,})[^ ]`)
	for _, c := range commands() {
		_, out, stderr := runCmd(t, "", c.name, "-h")
		cols := map[int][]string{}
		for _, l := range strings.Split(out+stderr, "\n") {
			if m := flagLine.FindStringSubmatch(l); m != nil {
				col := len(m[0]) - 1
				cols[col] = append(cols[col], m[1])
			}
		}
		if len(cols) > 1 {
			t.Errorf("robotstxt %s -h: descriptions start in %d columns: %v", c.name, len(cols), cols)
		}
	}
}
