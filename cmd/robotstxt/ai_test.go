package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/tester"
)

func TestAIGolden(t *testing.T) {
	code, out, stderr := runCmd(t, "", "ai", "testdata/ai_sample.txt")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the sample has errors): %s", code, stderr)
	}
	golden(t, "ai_sample.out.txt", out)
	for _, want := range []string{
		"any other crawler: what the * group says to a crawler no group names\n  *  ",
		"\nsearch: search engines' indexes\n  Googlebot ",
		"  ClaudeBot             own group, line 12  allowed  line 13: Allow: /\n      usage: none; signal: none\n",
		"error[search-blocked] lines 8, 9, 10\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	code, out, _ = runCmd(t, "", "ai", "--json", "--url", "/", "--url", "/blog/post", "--crawler", "Googlebot,GPTBot", "--crawler", "ClaudeBot", "testdata/ai_sample.txt")
	if code != 1 {
		t.Fatalf("--json: exit %d", code)
	}
	golden(t, "ai_sample.json", out)
	var rep tester.AIReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Crawlers) != 3 || len(rep.URLs) != 2 || rep.Errors == 0 {
		t.Fatalf("report %+v", rep)
	}
	if u := rep.Others.Answers[1].Usage; u == nil || u.TrainAI != "y" || u.Lines[0] != 5 {
		t.Errorf("* at /blog/post: %+v", u)
	}
}

// TestAIFitsEightyColumns: every line of the text is at most 80 columns,
// for the whole catalogue, several URLs and a file with long lines.
func TestAIFitsEightyColumns(t *testing.T) {
	long := filepath.Join(t.TempDir(), "long.txt")
	os.WriteFile(long, []byte("User-agent: *\nDisallow: /"+strings.Repeat("very-long-path/", 12)+"\nContent-Usage: train-ai=n, "+
		strings.Repeat("x", 90)+"=y\n\nUser-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /"+strings.Repeat("ツ", 60)+"\n"), 0o644)
	for _, args := range [][]string{
		{"ai", "--all", "example.robots.txt"},
		{"ai", "--url", "/", "--url", "/" + strings.Repeat("very-long-path/", 12) + "x", "--url", "/ツ", long},
		{"ai", long},
	} {
		_, out, stderr := runCmd(t, "", args...)
		if stderr != "" {
			t.Fatalf("%v: %s", args, stderr)
		}
		for i, l := range strings.Split(out, "\n") {
			if w := displayWidth(l); w > aiWidth {
				t.Errorf("%v: line %d is %d columns: %q", args, i+1, w, l)
			}
		}
	}
}

func TestAIInputs(t *testing.T) {
	body, _ := os.ReadFile("testdata/ai_sample.txt")
	code, fromStdin, _ := runCmd(t, string(body), "ai", "-")
	_, fromFile, _ := runCmd(t, "", "ai", "testdata/ai_sample.txt")
	if code != 1 || strings.Replace(fromStdin, "standard input", "testdata/ai_sample.txt", 1) != fromFile {
		t.Errorf("stdin: exit %d\n%s", code, fromStdin)
	}
	// Without a file, the bundled example; -c as check names crawlers.
	code, out, _ := runCmd(t, "", "ai", "-c", "GPTBot")
	if code != 0 || !strings.HasPrefix(out, "robots.txt: example.robots.txt (bundled)\n") || !strings.Contains(out, "GPTBot  own group, line 26  BLOCKED  line 28: Disallow: /\n") {
		t.Errorf("bundled: exit %d\n%s", code, out)
	}
	// A clean file: exit 0, and says so.
	code, out, _ = runCmd(t, "User-agent: *\nDisallow: /admin/\n", "ai", "--crawler", "GPTBot", "-")
	if code != 0 || !strings.Contains(out, "1 crawler: no contradiction found.\n") || !strings.Contains(out, "The file states no usage preference") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

func TestAIURL(t *testing.T) {
	useTempCache(t)
	s := newSite(t, 200, "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n")
	code, out, stderr := runCmd(t, "", "ai", "-u", s.URL, "--store", "memory", "--crawler", "GPTBot", "--url", "/private/a", "--url", "/a")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"robots.txt: " + s.URL + "/robots.txt\n", "note: fetched now", "/private/a  BLOCKED  line 2: Disallow: /private/\n", "usage: train-ai=n (line 3)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// No robots.txt: each crawler's fetch policy, and no preference.
	gone := newSite(t, 404, "")
	code, out, _ = runCmd(t, "", "ai", "--json", "-u", gone.URL, "--store", "memory", "--crawler", "GPTBot,Baiduspider")
	var rep tester.AIReport
	json.Unmarshal([]byte(out), &rep)
	if code != 0 || rep.Fetch == nil || rep.Crawlers[0].Answers[0].Policy != "allow-all" || rep.Crawlers[0].Answers[0].Usage != nil {
		t.Errorf("404: exit %d\n%s", code, out)
	}
}

func TestAIErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"a.txt", "b.txt"}, "one robots.txt at a time"},
		{[]string{"-u", "https://example.com/", "testdata/ai_sample.txt"}, "-u and a file argument are exclusive"},
		{[]string{"--crawler", "NoSuchBot", "testdata/ai_sample.txt"}, `unknown crawler "NoSuchBot"`},
		{[]string{"--url", "private", "testdata/ai_sample.txt"}, `--url: URL "private"`},
		{[]string{filepath.Join(dir, "missing.txt")}, "missing.txt: no such file"},
		{[]string{"--store", "memory", "testdata/ai_sample.txt"}, "--store applies only with -u"},
		{[]string{"--bogus", "testdata/ai_sample.txt"}, "unknown flag --bogus"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"ai"}, tt.args...)...)
		if code != 2 || out != "" || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("ai %v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
	if code, _, stderr := runCmd(t, "", "ai", "-h"); code != 0 || !strings.Contains(stderr, "Examples:") {
		t.Errorf("-h: exit %d\n%s", code, stderr)
	}
	if code, out, _ := runCmd(t, "", "help"); code != 0 || !strings.Contains(out, "\n  ai        ") || !strings.Contains(out, "\n  policy    ") {
		t.Errorf("help lists no ai or policy:\n%s", out)
	}
}

// readmeExample is a command of the README and what it prints.
type readmeExample struct {
	args []string
	out  string
	code int
}

// readmeExamples returns the examples of the README section under heading:
// each "$ robotstxt ..." line of a fenced block (with its continuation
// lines), the output after it, and the exit status a following
// "$ echo $?" shows (0 when none).
func readmeExamples(t *testing.T, heading string) []readmeExample {
	t.Helper()
	var all strings.Builder
	for _, d := range readDocs(t) {
		all.WriteString(d.text + "\n")
	}
	_, sec, ok := strings.Cut(all.String(), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("neither README.md nor docs/*.md has %q", heading)
	}
	if i := strings.Index(sec, "\n#"); i >= 0 {
		sec = sec[:i]
	}
	var out []readmeExample
	var cur *readmeExample
	inBlock, status := false, false
	lines := strings.Split(sec, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case l == "```":
			inBlock = !inBlock
			cur = nil
		case !inBlock:
		case status:
			cur.code, _ = strconv.Atoi(l)
			status = false
		case strings.HasPrefix(l, "$ echo $?"):
			status = true
		case strings.HasPrefix(l, "$ robotstxt "):
			cmd := strings.TrimPrefix(l, "$ robotstxt ")
			for strings.HasSuffix(cmd, `\`) && i+1 < len(lines) {
				i++
				cmd = strings.TrimSuffix(cmd, `\`) + " " + strings.TrimSpace(lines[i])
			}
			out = append(out, readmeExample{args: shellWords(cmd)})
			cur = &out[len(out)-1]
		case cur != nil:
			cur.out += l + "\n"
		}
	}
	if len(out) == 0 {
		t.Fatalf("README's %q has no example", heading)
	}
	return out
}

// shellWords splits a command line at spaces, with single quotes.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	quoted, in := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// TestREADMEExamples: the README's examples of ai and policy print what
// the README shows, with its exit status.
func TestREADMEExamples(t *testing.T) {
	for _, h := range []string{"### `robotstxt ai`", "### `robotstxt policy`"} {
		for _, ex := range readmeExamples(t, h) {
			code, out, stderr := runCmd(t, "", ex.args...)
			if code != ex.code || out != ex.out {
				t.Errorf("robotstxt %s: exit %d (README: %d), stderr %q\n--- got\n%s--- README\n%s", strings.Join(ex.args, " "), code, ex.code, stderr, out, ex.out)
			}
		}
	}
}

// TestAIVocab08AndUse: the text lists the preferences in the vocabulary's
// order (train-ai, ai-use, search, then other labels), and shows the
// Content-Signal line with its use= level.
func TestAIVocab08AndUse(t *testing.T) {
	body := "User-agent: *\nContent-Usage: zz=n, search=y, ai-use=n, train-ai=n\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n"
	code, out, stderr := runCmd(t, body, "ai", "--crawler", "GPTBot", "-")
	if code == 2 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"usage: train-ai=n, ai-use=n, search=y, zz=n (line 2)", "search=yes,ai-train=no,use=reference (line 3)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
	_, out, _ = runCmd(t, body, "ai", "--json", "--crawler", "GPTBot", "-")
	if !strings.Contains(out, `"use": "reference"`) {
		t.Errorf("JSON lacks the use level\n%s", out)
	}
}
