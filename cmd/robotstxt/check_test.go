package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckGolden(t *testing.T) {
	args := []string{"check", "-f", "example.robots.txt", "-c", "Googlebot", "-c", "Baiduspider", "-c", "Mediapartners-Google",
		"-a", "FooBot", "--agents", "googlebot-news,googlebot", "-v",
		"/private/press/x", "https://www.example.com/cart/ツ", "/robots.txt"}
	code, out, stderr := runCmd(t, "", args...)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a URL is blocked): %s", code, stderr)
	}
	golden(t, "check_example.txt", out)
	for _, want := range []string{
		`BLOCKED  Baiduspider`,
		`also matched line 24 "Allow: /private/press", lost: line 23 matched first (the first match wins in the baidu dialect)`,
		`(normalised from https://www.example.com/cart/ツ)`,
		`it ignores the * group`,
		`group: no group names FooBot: the * group applies (line 4)`,
		`user-agent line 11 names googlebot-news, googlebot`,
	} {
		// Long lines wrap at 80 columns: compare the words.
		if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("output lacks %q", want)
		}
	}

	code, out, _ = runCmd(t, "", append([]string{"check", "--json"}, args[1:]...)...)
	if code != 1 {
		t.Fatalf("--json: exit %d", code)
	}
	golden(t, "check_example.json", out)
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 15 || rep.Allowed+rep.Blocked != 15 {
		t.Fatalf("%d results, %d allowed, %d blocked", len(rep.Results), rep.Allowed, rep.Blocked)
	}
	baidu := rep.Results[1]
	if baidu.Crawler != "Baiduspider" || baidu.Allowed || baidu.Line != 23 || baidu.Dialect != "baidu" ||
		len(baidu.Matches) != 2 || baidu.Matches[1].Line != 24 || baidu.Matches[1].Lost == "" {
		t.Errorf("Baiduspider result = %+v", baidu)
	}
	if r := rep.Results[5]; r.Input != "https://www.example.com/cart/ツ" || r.URL != "https://www.example.com/cart/%E3%83%84" {
		t.Errorf("normalised URL: %+v", r)
	}
}

func TestCheckExitStatus(t *testing.T) {
	body := "User-agent: *\nDisallow: /private\nCrawl-delay: 2\n"
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-f", "-", "/public"}, 0, "1 allowed, 0 blocked"},
		{[]string{"-f", "-", "/public", "/private/x"}, 1, "1 allowed, 1 blocked"},
		{[]string{"-f", "-", "-c", "Bingbot", "/x"}, 0, "crawl-delay: 2s (line 3)"},
		{[]string{"-f", "-", "-d", "original", "-a", "FooBot", "/private"}, 1, "original"},
		{[]string{"-f", "-", "/a", "-c", "Bingbot"}, 0, "Bingbot"}, // a flag after a URL
	}
	for _, tt := range tests {
		code, out, stderr := runCmd(t, body, append([]string{"check"}, tt.args...)...)
		if code != tt.code || !strings.Contains(out, tt.want) {
			t.Errorf("check %v: exit %d, want %d and %q:\n%s%s", tt.args, code, tt.code, tt.want, out, stderr)
		}
	}
}

// check shows the crawl-delay a -a token is paced by (its group's, else
// '*”s), in every dialect; Google's crawlers ignore it.
func TestCheckCrawlDelayForTokens(t *testing.T) {
	body := "User-agent: *\nDisallow: /private\nCrawl-delay: 2\n\nUser-agent: OwnBot\nCrawl-delay: 0.5\nDisallow: /own\n"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-a", "MyBot", "/x"}, "crawl-delay: 2s (line 3)"},
		{[]string{"-a", "OwnBot", "/x"}, "crawl-delay: 0.5s (line 6)"},
		{[]string{"-a", "MyBot", "-d", "rfc9309", "/x"}, "crawl-delay: 2s (line 3)"},
		{[]string{"-c", "Googlebot", "/x"}, ""},
		{[]string{"-a", "Googlebot", "/x"}, ""},
		{[]string{"--agents", "MyBot,OtherBot", "/x"}, ""},
	}
	for _, tt := range tests {
		code, out, stderr := runCmd(t, body, append([]string{"check", "-f", "-"}, tt.args...)...)
		if code != 0 || tt.want != "" && !strings.Contains(out, tt.want) || tt.want == "" && strings.Contains(out, "crawl-delay") {
			t.Errorf("check %v: exit %d, want %q:\n%s%s", tt.args, code, tt.want, out, stderr)
		}
	}
	_, out, _ := runCmd(t, body, "check", "-f", "-", "--json", "-a", "MyBot", "/x")
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0]; r.CrawlDelay == nil || *r.CrawlDelay != 2 || r.CrawlDelayLine != 3 {
		t.Errorf("JSON: %s", out)
	}
}

func TestCheckURLsFromStdin(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: *\nDisallow: /b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, "# paths\n/a\n\n/b\n", "check", "-f", file, "--json", "-")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 || !rep.Results[0].Allowed || rep.Results[1].Allowed || rep.Results[1].Line != 2 {
		t.Errorf("results = %+v", rep.Results)
	}
}

func TestCheckErrors(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "favicon.ico")
	os.WriteFile(bin, []byte("\x00\x00\x01\x00binary"), 0o644)
	good := filepath.Join(dir, "robots.txt")
	os.WriteFile(good, []byte("User-agent: *\nDisallow: /\n"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"/x"}, "-f FILE or -u URL is required"},
		{[]string{"-f", filepath.Join(dir, "missing.txt"), "/x"}, "missing.txt: no such file"},
		{[]string{"-f", dir, "/x"}, "is a directory"},
		{[]string{"-f", bin, "/x"}, "looks like a binary file"},
		{[]string{"-f", good, "-c", "NoSuchBot", "/x"}, `unknown crawler "NoSuchBot"`},
		{[]string{"-f", good, "-d", "klingon", "/x"}, `unknown dialect "klingon"`},
		{[]string{"-f", good, "-a", "Googlebot/2.1", "/x"}, `"Googlebot/2.1" is not a product token`},
		{[]string{"-f", good, "-a", "Googlebot/2.1", "/x"}, `did you mean -a Googlebot?`},
		{[]string{"-f", good, "-a", "Mozilla/5.0 (compatible; ExampleBot/1.0)", "/x"}, `did you mean -a ExampleBot?`},
		{[]string{"-f", good, "--agents", ",", "/x"}, `names no token`},
		{[]string{"-f", good}, "no URL to check"},
		{[]string{"-f", good, "example.com/x"}, "give an absolute URL"},
		{[]string{"-f", "-", "-"}, "both read standard input"},
	}
	for _, tt := range tests {
		code, out, stderr := runCmd(t, "", append([]string{"check"}, tt.args...)...)
		if code != 2 || out != "" || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("check %v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tt.args, code, out, stderr, tt.want)
		}
	}
}

func TestCheckHelpAndCrawlers(t *testing.T) {
	code, _, stderr := runCmd(t, "", "check", "--help")
	if code != 0 || !strings.Contains(stderr, "Examples:") {
		t.Errorf("--help: exit %d\n%s", code, stderr)
	}
	code, out, _ := runCmd(t, "", "check", "--crawlers")
	if code != 0 || !strings.Contains(out, "AdsBot-Google") || !strings.Contains(out, "ignores the * group") {
		t.Errorf("--crawlers: exit %d\n%s", code, out)
	}
	// The columns hold the longest names (cohere-training-data-crawler,
	// Allen Institute for AI): every row's token, dialect and operator
	// start where the heading's do.
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var starts []int
	for _, h := range []string{"token", "dialect", "operator", "notes"} {
		starts = append(starts, strings.Index(rows[0], "  "+h)+2)
	}
	long := 0
	for _, r := range rows[1:] {
		if strings.Contains(r, "cohere-training-data-crawler") || strings.Contains(r, "Allen Institute for AI") {
			long++
		}
		for _, at := range starts {
			if len(r) < at || r[at-2:at] != "  " || r[at] == ' ' {
				t.Errorf("--crawlers: a cell does not start at column %d:\n%s\n%s", at, rows[0], r)
				break
			}
		}
	}
	if long < 2 {
		t.Errorf("--crawlers: the long names are missing:\n%s", out)
	}
}

// TestCheckRepeatedURL checks that each URL given gets its own heading,
// with its note, when two of them are the same URL once normalised (or
// the same URL twice): their rows are not run together under one.
func TestCheckRepeatedURL(t *testing.T) {
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: *\nDisallow: /x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, out, stderr := runCmd(t, "", "check", "-f", file, "-c", "Googlebot", "-c", "Bingbot",
		"https://example.com/%E4%B8%AD/y", "https://example.com/中/y", "/x", "/x")
	want := `
https://example.com/%E4%B8%AD/y
  allowed  Googlebot  google  no rule matches
           group: no group names Googlebot: the * group applies (line 1)
  allowed  Bingbot    bing    no rule matches
           group: no group names bingbot, msnbot: the * group applies (line 1)

https://example.com/%E4%B8%AD/y  (normalised from https://example.com/中/y)
  allowed  Googlebot  google  no rule matches
           group: no group names Googlebot: the * group applies (line 1)
  allowed  Bingbot    bing    no rule matches
           group: no group names bingbot, msnbot: the * group applies (line 1)

/x
  BLOCKED  Googlebot  google  line 2: Disallow: /x
           group: no group names Googlebot: the * group applies (line 1)
  BLOCKED  Bingbot    bing    line 2: Disallow: /x
           group: no group names bingbot, msnbot: the * group applies (line 1)

/x
  BLOCKED  Googlebot  google  line 2: Disallow: /x
           group: no group names Googlebot: the * group applies (line 1)
  BLOCKED  Bingbot    bing    line 2: Disallow: /x
           group: no group names bingbot, msnbot: the * group applies (line 1)

4 allowed, 4 blocked
`
	if got := strings.TrimPrefix(out, "robots.txt: "+file+"\n"); got != want {
		t.Errorf("stderr %q; output:\n%s\nwant:\n%s", stderr, got, want)
	}
}

// TestCheckCSVMarkdown: --csv and --markdown write the rows the page
// exports; a field a spreadsheet would read as a formula is defused; one
// output format at a time.
func TestCheckCSVMarkdown(t *testing.T) {
	robots := "User-agent: *\nDisallow: /p\nDisallow: /=x|y\n"
	code, out, errs := runCmd(t, robots, "check", "-f", "-", "-c", "Googlebot", "--csv", "/p/a", "/=x|y", "/ok")
	want := "url,crawler,dialect,verdict,line,rule,policy\r\n" +
		"/p/a,Googlebot,google,blocked,2,Disallow: /p,\r\n" +
		"/=x|y,Googlebot,google,blocked,3,Disallow: /=x|y,\r\n" +
		"/ok,Googlebot,google,allowed,,,\r\n"
	if code != 1 || out != want {
		t.Errorf("--csv: %d\n%q, want\n%q (%s)", code, out, want, errs)
	}
	code, out, _ = runCmd(t, robots, "check", "-f", "-", "--markdown", "/=x|y")
	want = "| url | crawler | dialect | verdict | line | rule | policy |\n|---|---|---|---|---|---|---|\n" +
		"| /=x\\|y | Googlebot | google | blocked | 3 | Disallow: /=x\\|y |  |\n"
	if code != 1 || out != want {
		t.Errorf("--markdown: %d\n%q, want\n%q", code, out, want)
	}
	code, _, errs = runCmd(t, robots, "check", "-f", "-", "--json", "--csv", "/a")
	if code != 2 || !strings.Contains(errs, "give one of --json, --csv and --markdown") {
		t.Errorf("--json --csv: %d %q", code, errs)
	}
}

// TestLongURLKeptWhole: a URL longer than a line is printed whole on a
// line of its own, to be copied (the README's promise, issue 35 item 6);
// the note that follows it goes on the next line.
func TestLongURLKeptWhole(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(f, []byte("User-agent: *\nDisallow: /private\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	long := "https://www.example.com/" + strings.Repeat("section/", 12) + "page.html?q=1234567890"
	for _, u := range []string{long, long + "/ツ"} {
		code, out, stderr := runCmd(t, "", "check", "-f", f, u)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		lines := strings.Split(out, "\n")
		found := false
		for _, l := range lines {
			if l == strings.Replace(u, "ツ", "%E3%83%84", 1) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the URL is not whole on a line of its own:\n%s", u, out)
		}
		for i, l := range lines {
			if w := displayWidth(l); w > termWidth && !strings.HasPrefix(strings.TrimSpace(l), "https://") {
				t.Errorf("line %d is %d columns and not a URL: %q", i+1, w, l)
			}
		}
	}
}

// TestWrapKeepsURLs: wrapIndent keeps a word that is a URL whole, on a
// line of its own, and still cuts any other word longer than a line.
func TestWrapKeepsURLs(t *testing.T) {
	u := "http://example.com/" + strings.Repeat("a", 90)
	got := wrapIndent("redirected to "+u+" and back", 80, "why: ", "  ")
	want := "why: redirected to\n  " + u + "\n  and back\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	w := strings.Repeat("b", 100)
	if got := wrapIndent(w, 80, "", ""); got != strings.Repeat("b", 80)+"\n"+strings.Repeat("b", 20)+"\n" {
		t.Errorf("a long word that is not a URL: %q", got)
	}
}

// TestEmptyFileNote: an empty file gets a note that says what it means,
// everything allowed (issue 35 item 8), in check and in ai.
func TestEmptyFileNote(t *testing.T) {
	f := filepath.Join(t.TempDir(), "robots.txt")
	for _, body := range []string{"", "\n\n  \n"} {
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"check", "-f", f, "/x"}, {"ai", f}} {
			_, out, stderr := runCmd(t, "", args...)
			if !containsWords(out, "it gives no rule, so every crawler may fetch every URL") {
				t.Errorf("%q, %s: no note:\n%s%s", body, args[0], out, stderr)
			}
		}
	}
}
