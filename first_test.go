package robotstxt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// firstAnswer asks r's google reading a question as Allowed asks its first
// ones, from the parsed lines; ok is false when that reading gives up.
func firstAnswer(r *Robots, ua, url string) (allowed, ok bool) {
	path, slash := splitPathRaw(url)
	if slash {
		path = "/" + cutPath(path)
	}
	r.google.rawAsked.Store(0)
	return r.google.allowedRaw(ua, path)
}

// TestFirstAnswers checks that the answers read from the parsed lines, as
// a reading's first questions are answered, are the compiled sets'
// answers: on every golden question of the corpus and on the hand-made
// edge cases.
func TestFirstAnswers(t *testing.T) {
	type pair struct{ fresh, compiled *Robots }
	parsed := map[string]pair{}
	get := func(name string, body []byte) pair {
		p, ok := parsed[name]
		if !ok {
			p = pair{Parse(body), Parse(body)}
			p.compiled.Compile()
			parsed[name] = p
		}
		return p
	}
	answered, gaveUp := 0, 0
	check := func(name string, p pair, ua, url string) {
		t.Helper()
		got, ok := firstAnswer(p.fresh, ua, url)
		if !ok {
			gaveUp++
			return
		}
		answered++
		if want := p.compiled.Allowed(ua, url); got != want {
			t.Errorf("%s: first answer for %q %q is %v, compiled %v", name, ua, url, got, want)
		}
	}
	dir := sharedDir(t)
	cases := readGolden(t)
	for i := 0; i < len(cases); i += shortStep(5) {
		c := cases[i]
		p, ok := parsed[c.File]
		if !ok {
			body, err := os.ReadFile(filepath.Join(dir, "corpus", c.File))
			if err != nil {
				t.Fatal(err)
			}
			p = get(c.File, body)
		}
		check(c.File, p, c.UA, c.URL)
		// And the golden verdict itself, for the first answer.
		if got, ok := firstAnswer(p.fresh, c.UA, c.URL); ok && got != c.Allowed {
			t.Errorf("%s: first answer for %q %q is %v, golden %v", c.File, c.UA, c.URL, got, c.Allowed)
		}
	}
	// Hand-made files: wildcards, anchors, the index.htm rule, escapes,
	// several groups naming one crawler, URLs with fragments and NUL.
	edge := []string{
		"User-agent: FooBot\nDisallow: /\nAllow: /a/index.html\nAllow: /b/*/index.htm\n\nUser-agent: BarBot\nUser-agent: foobot\nDisallow: /c$\nAllow: /*.gif$\nDisallow: /d*e$x\n",
		"User-agent: *\nDisallow: /*\nAllow: /$\nDisallow: $\nDisallow: .gif\nAllow: *x\nDisallow: /a$b\n",
		"User-agent: *\nDisallow: /%7e\nDisallow: /\xe2\x82\xac\nAllow: /plain\n",
		"User-agent: *\nDisallow:\nAllow: /x\n\nuser-agent: FOOBOT\nallow: /\ndisallow: /\n",
		// Escaped patterns whose start before the escape does or does
		// not prefix the path, with wildcards before and after it, and
		// an escaped index.htm allow whose "dir/$" matches.
		"User-agent: *\nAllow: /\nDisallow: /w/%7ex*y\nDisallow: /w*%7e\nAllow: /w/%7E\nDisallow: /q\xc3\xa9%3a\nDisallow: /*x%7e\nDisallow: /b$%7e\nDisallow: /a/\nAllow: /a/index.htm%7e\n",
	}
	urls := []string{"/", "/a/", "/a/index.html", "/b/x/", "/b/x/index.htm", "/c", "/c/", "/x.gif", "/x.gif?", "/dze$x", "/d/e$x#f",
		"/a$b", "/a#b$", "/x\x00/", "/%7e", "/%7E", "/~", "/%E2%82%AC", "/plain", "http://h?q", "http://h;p/x", "x", "",
		"/w/%7Exzy", "/w/%7ex", "/w/%7E", "/wz%7E", "/w/", "/q%C3%A9%3A", "/q%C3%A9%3Ab", "/q%c3%a9", "/a/index.htm%7E", "/b$%7E", "/b", "/abx%7E", "/ab%7E"}
	for i, body := range edge {
		p := get("edge"+strings.Repeat("'", i), []byte(body))
		for _, ua := range []string{"FooBot", "foobot", "BarBot", "Other", "", "*"} {
			for _, u := range urls {
				check("edge", p, ua, u)
			}
		}
	}
	// Escaping a pattern on the stack allocates nothing.
	if testing.CoverMode() == "" && !benchRaceEnabled() {
		r := Parse([]byte(edge[2]))
		for _, u := range []string{"/%7e/x", "/%E2%82%AC", "/plain"} {
			if n := testing.AllocsPerRun(10, func() { firstAnswer(r, "FooBot", u) }); n != 0 {
				t.Errorf("first answer for %q allocates %v times", u, n)
			}
		}
	}
	t.Logf("%d questions answered from the lines, %d left to the compiled sets", answered, gaveUp)
	if answered == 0 || gaveUp > answered/10 {
		t.Errorf("the lines answered %d questions and gave up on %d", answered, gaveUp)
	}
}
