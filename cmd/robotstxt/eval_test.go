package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/testdata"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// sharedDir is the repository's testdata/ folder.
func sharedDir(t testing.TB) string {
	t.Helper()
	return testdata.MustRoot(t)
}

// runCmd runs the program with args and stdin and returns its exit status
// and output.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func TestEvalGoogleSuite(t *testing.T) {
	in, err := os.ReadFile(filepath.Join(sharedDir(t), "conformance", "google_robots_test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, string(in), "eval")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	qs, as := lines(string(in)), lines(out)
	if len(as) != len(qs) || len(qs) != 145 {
		t.Fatalf("%d answers for %d questions, want 145", len(as), len(qs))
	}
	pass := 0
	for i := range qs {
		var q struct {
			Name    string `json:"name"`
			Allowed bool   `json:"allowed"`
		}
		var a map[string]any
		json.Unmarshal([]byte(qs[i]), &q)
		if err := json.Unmarshal([]byte(as[i]), &a); err != nil {
			t.Fatalf("answer %d: %v", i+1, err)
		}
		if a["allowed"] != q.Allowed || a["dialect"] != "google" {
			t.Errorf("%s: answer %s, want allowed=%v", q.Name, as[i], q.Allowed)
			continue
		}
		if _, has := a["crawl_delay"]; has {
			t.Errorf("%s: the google dialect does not read crawl-delay: %s", q.Name, as[i])
		}
		pass++
	}
	t.Logf("eval: %d/%d of Google's suite", pass, len(qs))
}

func TestEvalCorpusGolden(t *testing.T) {
	dir := sharedDir(t)
	f, err := os.Open(filepath.Join(dir, "conformance", "corpus_golden.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type golden struct {
		File    string `json:"file"`
		UA      string `json:"ua"`
		URL     string `json:"url"`
		Allowed bool   `json:"allowed"`
		Line    int    `json:"line"`
	}
	var cases []golden
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	step, n := shortStep(10), 0
	for sc.Scan() {
		if n++; (n-1)%step != 0 {
			continue
		}
		var g golden
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, g)
		enc.Encode(map[string]string{"robots_file": filepath.Join(dir, "corpus", g.File), "ua": g.UA, "url": g.URL})
	}
	if n != 52698 {
		t.Fatalf("%d cases, want 52698", n)
	}
	code, out, stderr := runCmd(t, in.String(), "eval")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	as := lines(out)
	if len(as) != len(cases) {
		t.Fatalf("%d answers for %d questions", len(as), len(cases))
	}
	pass, failed := 0, 0
	for i, c := range cases {
		var a struct {
			Allowed bool   `json:"allowed"`
			Line    int    `json:"line"`
			Rule    string `json:"rule"`
			Error   string `json:"error"`
		}
		json.Unmarshal([]byte(as[i]), &a)
		if a.Error != "" || a.Allowed != c.Allowed || a.Line != c.Line || (a.Line == 0) != (a.Rule == "") {
			if failed++; failed <= 10 {
				t.Errorf("%s %q %q: got %s, want allowed=%v line=%d", c.File, c.UA, c.URL, as[i], c.Allowed, c.Line)
			}
			continue
		}
		pass++
	}
	t.Logf("eval: %d/%d corpus answers with the same deciding line", pass, len(cases))
}

func TestEvalFields(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	os.WriteFile(file, []byte("User-agent: *\nCrawl-delay: 4\nDisallow: /private\n\nUser-agent: Yandex\nDisallow: /ya\n"), 0o644)
	tests := []struct {
		name, in, want string
	}{
		{"robots", `{"robots":"User-agent: *\nDisallow: /x\n","ua":"FooBot","url":"https://example.com/x/y"}`,
			`{"allowed":false,"line":2,"rule":"Disallow: /x","dialect":"google"}`},
		{"robots_b64", `{"robots_b64":"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL3gK","ua":"FooBot","url":"/x"}`,
			`{"allowed":false,"line":2,"rule":"Disallow: /x","dialect":"google"}`},
		{"robots_file", `{"robots_file":"` + file + `","ua":"FooBot","url":"/private/a"}`,
			`{"allowed":false,"line":3,"rule":"Disallow: /private","dialect":"google"}`},
		{"no rule", `{"robots":"User-agent: *\nDisallow: /x\n","ua":"FooBot","url":"/y"}`,
			`{"allowed":true,"line":0,"rule":"","dialect":"google"}`},
		{"annotations ignored", `{"robots":"","ua":"a","url":"/","name":"t","source":"x","kind":"k","allowed":true,"line":0,"rule":"","expected":{"a":1},"id":7,"comment":"c"}`,
			`{"allowed":true,"line":0,"rule":"","dialect":"google"}`},
		{"usage", `{"robots":"User-agent: *\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y, x-new=n\nContent-Signal: search=yes, ai-train=no\n","ua":"FooBot","url":"/ai-ok/a","usage":true}`,
			`{"allowed":true,"line":0,"rule":"","dialect":"google","usage":{"lines":[4],"search":"unknown","train-ai":"y","x-new":"n"},"signals":{"ai-input":null,"ai-train":"no","line":5,"search":"yes"}}`},
		{"usage disallowed", `{"robots":"User-agent: *\nDisallow: /never/\nContent-Usage: train-ai=n\n","ua":"FooBot","url":"/never/a","usage":true}`,
			`{"allowed":false,"line":2,"rule":"Disallow: /never/","dialect":"google","usage":null,"signals":null}`},
		{"usage none", `{"robots":"User-agent: *\nDisallow: /never/\n","ua":"FooBot","url":"/a","usage":true}`,
			`{"allowed":true,"line":0,"rule":"","dialect":"google","usage":{"lines":[],"search":"unknown","train-ai":"unknown"},"signals":null}`},
		{"usage false", `{"robots":"User-agent: *\nContent-Usage: train-ai=n\n","ua":"FooBot","url":"/a","usage":false}`,
			`{"allowed":true,"line":0,"rule":"","dialect":"google"}`},
		{"usage with a 404: no file", `{"robots":"User-agent: *\nContent-Usage: train-ai=n\n","ua":"FooBot","url":"/a","usage":true,"status":404}`,
			`{"allowed":true,"line":0,"rule":"","dialect":"google","usage":{"lines":[],"search":"unknown","train-ai":"unknown"},"signals":null}`},
		{"usage with a 503: disallowed", `{"robots":"User-agent: *\nContent-Usage: train-ai=n\n","ua":"FooBot","url":"/a","usage":true,"status":503}`,
			`{"allowed":false,"line":0,"rule":"","dialect":"google","usage":null,"signals":null}`},
		{"usage with crawl-delay", `{"robots":"User-agent: *\nCrawl-delay: 2\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n, search=y\n","crawler":"bingbot","url":"/a/b","usage":true}`,
			`{"allowed":true,"line":0,"rule":"","dialect":"bing","crawl_delay":2,"usage":{"lines":[3,4],"search":"y","train-ai":"n"},"signals":null}`},
		{"unknown field refused", `{"robots":"","ua":"a","url":"/","extra":[1,2]}`,
			`{"error":"question 1: unknown field \"extra\""}`},
		{"misspelt field named", `{"robots":"","ua":"a","url":"/","usgae":true}`,
			`{"error":"question 1: unknown field \"usgae\" (did you mean \"usage\"?)"}`},
		{"bing crawl-delay", `{"robots_file":"` + file + `","crawler":"bingbot","url":"/private/a"}`,
			`{"allowed":false,"line":3,"rule":"Disallow: /private","dialect":"bing","crawl_delay":4}`},
		{"yandex null crawl-delay", `{"robots_file":"` + file + `","crawler":"YandexBot","url":"/ya"}`,
			`{"allowed":false,"line":6,"rule":"Disallow: /ya","dialect":"yandex","crawl_delay":null}`},
		{"dialect wins over the crawler's", `{"robots_file":"` + file + `","crawler":"YandexBot","url":"/ya","dialect":"google"}`,
			`{"allowed":false,"line":6,"rule":"Disallow: /ya","dialect":"google"}`},
		{"dialect with ua", `{"robots":"User-agent: *\nDisallow: /a\nAllow: /a/b\n","ua":"x","url":"/a/b","dialect":"original"}`,
			`{"allowed":false,"line":2,"rule":"Disallow: /a","dialect":"original"}`},
		{"agents", `{"robots":"User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\nUser-agent: *\nDisallow: /\n","agents":["a","b"],"url":"/b"}`,
			`{"allowed":false,"line":4,"rule":"Disallow: /b","dialect":"google"}`},
		{"rule keeps comment and CR", "{\"robots\":\"User-agent: *\\r\\nDisallow: /x # no\\r\\n\",\"ua\":\"a\",\"url\":\"/x\"}",
			`{"allowed":false,"line":2,"rule":"Disallow: /x # no","dialect":"google"}`},
		{"empty rule reported", `{"robots":"User-agent: *\nDisallow:\n","ua":"a","url":"/x"}`,
			`{"allowed":true,"line":2,"rule":"Disallow:","dialect":"google"}`},
		{"ua not a token", `{"robots":"User-agent: Googlebot\nDisallow: /x\n","ua":"Googlebot/2.1","url":"/x"}`,
			`{"allowed":true,"line":0,"rule":"","dialect":"google","warning":"ua \"Googlebot/2.1\" holds '/', which a product token cannot (the product token of this User-Agent is \"Googlebot\")"}`},
		// "agents": [] names no crawler: the * group answers, as Decide
		// and Google's library answer (issue 35 item 8).
		{"empty agents: the * group", `{"robots":"User-agent: foo\nAllow: /x\n\nUser-agent: *\nDisallow: /x\n","agents":[],"url":"/x"}`,
			`{"allowed":false,"line":5,"rule":"Disallow: /x","dialect":"google"}`},
		{"empty agents, no * group", `{"robots":"User-agent: foo\nDisallow: /\n","agents":[],"url":"/x"}`,
			`{"allowed":true,"line":0,"rule":"","dialect":"google"}`},
		{"agents not tokens", `{"robots":"","agents":["a b","c"],"url":"/x"}`,
			`{"allowed":true,"line":0,"rule":"","dialect":"google","warning":"agents \"a b\" holds a space, which a product token cannot (the product token of this User-Agent is \"a\")"}`},
		{"not json", `{"robots":`, `{"error":"question 1: not a JSON object: unexpected end of JSON input"}`},
		{"no robots", `{"ua":"a","url":"/"}`, `{"error":"question 1: missing robots, robots_b64 or robots_file"}`},
		{"two robots", `{"robots":"","robots_b64":"","ua":"a","url":"/"}`, `{"error":"question 1: robots, robots_b64 and robots_file are exclusive: give one"}`},
		{"no agent", `{"robots":"","url":"/"}`, `{"error":"question 1: missing ua, agents or crawler"}`},
		{"two agents", `{"robots":"","ua":"a","crawler":"Googlebot","url":"/"}`, `{"error":"question 1: ua, agents and crawler are exclusive: give one"}`},
		{"no url", `{"robots":"","ua":"a"}`, `{"error":"question 1: missing url"}`},
		{"bad crawler", `{"robots":"","crawler":"NoSuchBot","url":"/"}`, `{"error":"question 1: crawler: unknown crawler \"NoSuchBot\""}`},
		{"bad dialect", `{"robots":"","ua":"a","url":"/","dialect":"klingon"}`, `{"error":"question 1: dialect: unknown dialect \"klingon\""}`},
		{"bad base64", `{"robots_b64":"!!","ua":"a","url":"/"}`, `{"error":"question 1: robots_b64: not standard base64: illegal base64 data at input byte 0"}`},
		{"missing file", `{"robots_file":"/nonexistent/robots.txt","ua":"a","url":"/"}`, `{"error":"question 1: robots_file: open /nonexistent/robots.txt: no such file or directory"}`},
		{"directory", `{"robots_file":"` + dir + `","ua":"a","url":"/"}`, `{"error":"question 1: robots_file: ` + dir + ` is a directory"}`},
		{"agents not a list", `{"robots":"","agents":"a","url":"/"}`, `{"error":"question 1: agents: want a list of strings: json: cannot unmarshal string into Go value of type []string"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCmd(t, tt.in+"\n", "eval")
			// An error for an answer is exit status 1, with a line
			// on stderr.
			if wantCode := evalStatus(tt.want); code != wantCode {
				t.Fatalf("exit %d, want %d: %s", code, wantCode, stderr)
			}
			if got := strings.TrimSpace(out); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// evalStatus is the exit status of eval for one question answered with
// want: 1 for an error, else 0.
func evalStatus(want string) int {
	if strings.HasPrefix(want, `{"error"`) {
		return 1
	}
	return 0
}

func TestEvalGoesOnAfterErrors(t *testing.T) {
	in := "not json\n\n{\"robots\":\"\",\"ua\":\"a\",\"url\":\"/\"}\n{}\n{\"robots\":\"User-agent: *\\nDisallow: /\\n\",\"ua\":\"a\",\"url\":\"/\"}"
	code, out, stderr := runCmd(t, in, "eval")
	if code != 1 || stderr != "robotstxt eval: 2 of 4 questions got an error, not an answer\n" {
		t.Fatalf("exit %d, want 1 (two questions failed); stderr %q", code, stderr)
	}
	got := lines(out)
	if len(got) != 4 {
		t.Fatalf("got %d answers, want 4 (blank lines are skipped):\n%s", len(got), out)
	}
	if !strings.Contains(got[0], `"error"`) || !strings.Contains(got[1], `"allowed":true`) ||
		!strings.Contains(got[2], `"error":"question 3`) || !strings.Contains(got[3], `"allowed":false`) {
		t.Errorf("answers out of order or wrong:\n%s", out)
	}
}

func TestEvalURLNeitherAbsoluteNorPath(t *testing.T) {
	in := ""
	for _, u := range []string{"example.com/private", "private", "mailto:x@example.com", "?q=1"} {
		in += `{"robots":"User-agent: *\nDisallow: /\n","ua":"a","url":"` + u + `"}` + "\n"
	}
	in += `{"robots":"User-agent: *\nDisallow: /\n","ua":"a","url":""}` + "\n"
	code, out, _ := runCmd(t, in, "eval")
	got := lines(out)
	if code != 1 || len(got) != 5 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for i, a := range got[:4] {
		if !strings.HasPrefix(a, fmt.Sprintf(`{"error":"question %d: url: URL `, i+1)) {
			t.Errorf("question %d: %s", i+1, a)
		}
	}
	if got[4] != `{"allowed":false,"line":2,"rule":"Disallow: /","dialect":"google"}` {
		t.Errorf("empty url: %s", got[4])
	}
}

func TestEvalSizeLimit(t *testing.T) {
	body := "User-agent: *\n" + strings.Repeat("#", 600*1024) + "\nDisallow: /\n"
	q, _ := json.Marshal(map[string]string{"robots": body, "ua": "a", "url": "/x"})
	_, out, _ := runCmd(t, string(q), "eval")
	if !strings.Contains(out, `"allowed":true`) {
		t.Errorf("a rule past 500 KiB must not count: %s", out)
	}
	_, out, _ = runCmd(t, string(q), "eval", "-max-bytes", "-1")
	if !strings.Contains(out, `"allowed":false`) {
		t.Errorf("with no limit the rule counts: %s", out)
	}
}

func TestEvalUsage(t *testing.T) {
	if code, _, _ := runCmd(t, "", "eval", "extra"); code != 2 {
		t.Errorf("an argument: exit %d, want 2", code)
	}
	if code, _, stderr := runCmd(t, "", "eval", "-h"); code != 0 || !strings.Contains(stderr, "robots_b64") {
		t.Errorf("-h: exit %d, %q", code, stderr)
	}
	if code, _, _ := runCmd(t, "", "nosuchcommand"); code != 2 {
		t.Errorf("unknown command: exit %d, want 2", code)
	}
}
