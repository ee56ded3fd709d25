package robotstxt

// Native fuzz tests. Plain `go test` runs only their seeds; to fuzz, run one
// target at a time, for example
//
//	go test -run '^$' -fuzz '^FuzzAllowed$' -fuzztime 60s -fuzzminimizetime 10s -parallel 1 .
//
// When fuzzing, the seeds are a sample of the smaller corpus files and the
// smaller hand-made seeds: large inputs slow every execution, and the fuzzer
// minimises each new interesting input, one execution per byte or so. Plain
// test runs seed from more of the corpus and from every hand-made seed.

import (
	"flag"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fuzzing reports whether the test binary was asked to fuzz (-fuzz).
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}

// corpusFiles returns the real corpus files (relative to the corpus
// directory, as the golden file names them) in name order, which is a
// random order: the names are content hashes.
func corpusFiles(f *testing.F) []string {
	f.Helper()
	dir := filepath.Join(sharedDir(f), "corpus")
	names, err := filepath.Glob(filepath.Join(dir, "real", "*.txt"))
	if err != nil {
		f.Fatal(err)
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join("real", filepath.Base(n))
	}
	slices.Sort(out)
	return out
}

func readCorpusFile(f *testing.F, name string) []byte {
	f.Helper()
	b, err := os.ReadFile(filepath.Join(sharedDir(f), "corpus", name))
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// handSeeds are small files aimed at the corners of Google's reading.
var handSeeds = []string{
	"",
	"\n",
	"\r\n",
	"\r\r\n\n",
	"User-agent: *\nDisallow: /\n",
	"\xEF\xBB\xBFUser-agent: FooBot\nDisallow: /a\n",
	"\xEF\xBBUser-agent: FooBot\nDisallow: /a",
	"\xEFUser-agent: FooBot\rDisallow: /a\r",
	"\xEF\xBB\xBF\xEF\xBB\xBFUser-agent: FooBot\nDisallow: /\n",
	"\xEF\xBB\xBF",
	"\xEF\xBB",
	"\xEF\r\nUser-agent: *\nDisallow: /",
	"\xEF\xBB\xBF\r\n",
	"User-agent: FooBot\rDisallow: /\rAllow: /x\r",
	"User-agent: FooBot\r\n\r\nDisallow: /\n\rAllow: /x\r\r\n",
	"User-agent: FooBot\nDisallow: /a\x00b\nAllow: /a\x00\n",
	"User-agent: Foo\x00Bot\nDisallow: /\n",
	"\x00User-agent: FooBot\nDisallow: /\n",
	"User-agent: *\nDisallow: /" + strings.Repeat("a", refMaxLine-11) + "bc\nAllow: /aa\n",
	"User-agent: *\nDisallow: /" + strings.Repeat("a", refMaxLine-12) + "$\n",
	"User-agent: *\nAllow: /" + strings.Repeat("x", refMaxLine) + "\nDisallow: /x\n",
	"User-agent: " + strings.Repeat("FooBot", 3000) + "\nDisallow: /\n",
	"User-agent: *\nDisallow: /*$\nAllow: /*.php$\nDisallow: /**a*$$\nAllow: $\nDisallow: *\n",
	"User-agent: *\nDisallow: /*a*a*a*a*a*a*b\nAllow: /*$*\nDisallow: /$a$\n",
	"User-agent: *\nDisallow: /\nAllow: /d/index.html\nAllow: /index.htm\nAllow: /x/index.htmlfoo\n",
	"User-agent: FooBot\nDisallow: /\nAllow: /d/index.htm$\nAllow: *index.html\n",
	"User-agent: FooBot\nDisallow:\nAllow:\n",
	"User-agent: FooBot\nAllow:\nDisallow:\nDisallow: /a\n",
	"User-agent FooBot\nDisallow /\nAllow /a b\nAllow\t\t/b\n",
	"useragent: foobot\ndissallow: /a\nDisallowed: /b\nuser agent: x\nsite-map: http://x/s.xml\n",
	"USER-AGENT: FOOBOT\nDISALLOW: /A\nALLOWANCE: /A/B\ndiasllow: /c\ndisallaw: /d\ndisalow: /e\ndissalow: /f\n",
	"User-agent: * foo\nDisallow: /\nUser-agent: *bot\nDisallow: /x\n",
	"User-agent: *\tfoo\nDisallow: /\n",
	"User-agent:\nDisallow: /\n",
	"User-agent: 123\nDisallow: /\n",
	"Disallow: /\nUser-agent: *\nAllow: /a\n",
	"User-agent: *\nDisallow: /%e3%83%84\nAllow: /ツ\nDisallow: /%zz%4\n",
	"User-agent: FooBot\nUser-agent: *\nDisallow: /\nUser-agent: BarBot\nSitemap: http://x/s.xml\nUser-agent: FooBot\nAllow: /a\n",
	"User-agent: FooBot\n\nUser-agent: BarBot\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n",
	"User-agent: Googlebot/2.1\nDisallow: /g\nUser-agent: Googlebot-News\nDisallow: /n\nUser-agent: googlebot2\nAllow: /\n",
	"User-agent: Yandex\nCrawl-delay: 2.5\nClean-param: ref&utm_source /shop\nHost: example.com\nDisallow: /y\n",
	"User-agent: bingbot\nCrawl-delay: 10\nUser-agent: *\nCrawl-delay: 3\nDisallow: /b\n",
	"User-agent: *\nDisallow: /org/plans.html\nAllow: /org/\nAllow: /serv\nAllow: /~mak\nDisallow: /\n",
	"# only a comment\n  # indented\nUser-agent: * # all\nDisallow: /a # b: c\n",
	"User-agent: a:b:c\nDisallow: :/x\n: value\nkey:\n",
	"<html><body>\nUser-agent: *<br>\nDisallow: /private\n</body></html>\n",
	"\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00",
	"User-agent: *\nDisallow: /\x80\xFF\xC3\xA9%c3%a9\n",
	"User-agent: *\v\nDisallow:\f/a\v\nAllow \v/b\n",
}

// bigGroups builds files whose groups hold more rules than the fast code
// scans one by one (it indexes large sets): many patterns sharing prefixes,
// literal, anchored and wildcard, allow and disallow of the same pattern,
// and the same agent named by two groups.
func bigGroups() []string {
	pats := []string{"", "/", "/$", "/a", "/a$", "/a/", "/a/b", "/a/b$", "/a/b/c", "/a/bc", "/ab", "/ab$",
		"/a*", "/a*$", "/*b", "/*b$", "/a/*/c", "/b", "/b/index.html", "/b/index.htm", "/c/", "/c/$",
		"/a/b/index.html", "/%e3%83%84", "/ツ", "/a?x=1", "/a;p", "*", "*$", "/a$b", "/**", "/a/b/c/d"}
	// Variants of the patterns, so that each group outgrows the rule count
	// from which sets are indexed whatever their buckets (hotMax).
	base := pats
	for r := 1; len(pats) <= hotMax; r++ {
		for _, p := range base {
			if p != "" && !strings.HasSuffix(p, "$") {
				pats = append(pats, p+strconv.Itoa(r))
			}
		}
	}
	var b1, b2 strings.Builder
	b1.WriteString("User-agent: FooBot\n")
	b2.WriteString("User-agent: *\n")
	for i, p := range pats {
		kind := "Disallow"
		if i%3 == 1 {
			kind = "Allow"
		}
		fmt.Fprintf(&b1, "%s: %s\n", kind, p)
		fmt.Fprintf(&b2, "Allow: %s\nDisallow: %s\n", p, p)
		if i == len(pats)/2 {
			b1.WriteString("User-agent: BarBot\nDisallow: /a/b\nUser-agent: FooBot\n")
		}
	}
	return []string{b1.String(), b2.String(), b1.String() + b2.String()}
}

// handQuestions pair agents and URLs aimed at the corners of matching.
var handQuestions = []struct{ ua, url string }{
	{"FooBot", "http://foo.bar/a"},
	{"foobot", "/a"},
	{"FooBot", ""},
	{"", "http://foo.bar/x"},
	{"*", "http://foo.bar/"},
	{"Googlebot", "http://foo.bar"},
	{"googlebot-news", "//foo.bar/x/y"},
	{"Foo Bot", "http://a/b?c#d"},
	{"FooBot", "foo.bar/?x"},
	{"BarBot", ";x"},
	{"FooBot", "http://x/\x00a"},
	{"FooBot", "http://x/a\x00b"},
	{"FooBot", "http://x/d/index.html"},
	{"FooBot", "http://x/d/"},
	{"FooBot", "http://x/index.htm"},
	{"FooBot", "/ツ"},
	{"FooBot", "/%E3%83%84"},
	{"FooBot", "http://x?" + strings.Repeat("q", 300)},
	{strings.Repeat("FooBot", 20), "/a"},
	{"Yandex", "/shop?ref=1&x=2"},
	{"bingbot", "/b"},
	{"FooBot", "/" + strings.Repeat("a", refMaxLine+3)},
	{"FooBot", "http://x/a#/b"},
	{"FooBot", "http://x:80/a://b"},
	{"FooBot", "/a/b"},
	{"foobot", "/a/bcd"},
	{"FooBot", "/a/x/c"},
	{"FooBot", "/c/"},
	{"FooBot", "/b/"},
	{"BarBot", "/a"},
	{"FooBot", "/a$b"},
	{"FooBot", "/ab"},
}

// seedBodies returns the hand seeds and a sample of the corpus. When
// fuzzing, only small files are taken; otherwise every file is, if all is
// set, or else every tenth.
func seedBodies(f *testing.F, all bool) [][]byte {
	var out [][]byte
	fz := fuzzing()
	for _, s := range append(handSeeds, bigGroups()...) {
		if fz && len(s) > 4096 {
			continue
		}
		out = append(out, []byte(s))
	}
	for i, name := range corpusFiles(f) {
		if !all && !fz && i%10 != 0 {
			continue
		}
		b := readCorpusFile(f, name)
		if fz && (len(b) > 4096 || i%5 != 0) {
			continue
		}
		out = append(out, b)
	}
	return out
}

// FuzzParse checks that Parse never panics, that its line report agrees with
// the reference reading of the lines, and that every other reading and
// question on the result can be asked without a panic.
func FuzzParse(f *testing.F) {
	for _, b := range seedBodies(f, !testing.Short()) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r := Parse(body)
		checkParsed(t, body, r)
	})
}

func checkParsed(t *testing.T, body []byte, r *Robots) {
	t.Helper()
	parsed := string(body)
	if len(parsed) > DefaultMaxBytes {
		parsed = parsed[:DefaultMaxBytes]
	}
	if r.Body() != parsed || r.Size() != len(body) || r.Truncated() != (len(body) > DefaultMaxBytes) {
		t.Fatalf("Body/Size/Truncated = %d bytes/%d/%v for a body of %d bytes", len(r.Body()), r.Size(), r.Truncated(), len(body))
	}

	// The line report: one line per line ending, plus one; offsets and text
	// as the reference splits them; the four Google fields as it reads them.
	checkReadFast(t, parsed)
	offsets, texts := refSplit(parsed)
	lines := collectLines(r.Lines())
	if len(lines) != len(texts) || r.NumLines() != len(texts) {
		t.Fatalf("Lines() has %d lines, want %d (body %q)", len(lines), len(texts), clip(parsed))
	}
	for i, l := range lines {
		if l.Number != i+1 {
			t.Fatalf("line %d has Number %d", i+1, l.Number)
		}
		if l.Offset < 0 || l.Offset+len(l.Text) > len(parsed) || parsed[l.Offset:l.Offset+len(l.Text)] != l.Text {
			t.Fatalf("line %d: Offset %d and Text %q are not in the body", l.Number, l.Offset, clip(l.Text))
		}
		if l.Offset != offsets[i] || l.Text != texts[i] {
			t.Fatalf("line %d: Offset %d Text %q, want %d %q", l.Number, l.Offset, clip(l.Text), offsets[i], clip(texts[i]))
		}
		if l.TooLong != (len(l.Text) > refMaxLine) {
			t.Fatalf("line %d: TooLong = %v for %d bytes", l.Number, l.TooLong, len(l.Text))
		}
		ref := refReadLine(i+1, texts[i])
		if l.HasDirective != ref.directive || ref.directive && (l.Key != ref.key || l.Value != ref.value) {
			t.Fatalf("line %d %q: directive %v key %q value %q, want %v %q %q",
				l.Number, clip(l.Text), l.HasDirective, l.Key, clip(l.Value), ref.directive, ref.key, clip(ref.value))
		}
		if want := refFieldOf(ref); ref.directive && !sameGoogleField(l.Field, want) {
			t.Fatalf("line %d %q: Field %v, want %v", l.Number, clip(l.Text), l.Field, want)
		}
	}
	for _, d := range Dialects() {
		ls := collectLines(r.LinesFor(d))
		if len(ls) != len(lines) {
			t.Fatalf("LinesFor(%v) has %d lines, Lines() %d", d, len(ls), len(lines))
		}
		for i := range ls {
			if ls[i].Number != lines[i].Number || ls[i].Offset != lines[i].Offset || ls[i].Text != lines[i].Text {
				t.Fatalf("LinesFor(%v) line %d differs from Lines(): %+v", d, i+1, ls[i])
			}
			if l, ok := r.LineFor(d, i+1); !ok || l != ls[i] {
				t.Fatalf("LineFor(%v, %d) = %+v, %v; LinesFor gives %+v", d, i+1, l, ok, ls[i])
			}
		}
	}
	for i := range lines {
		if l, ok := r.Line(i + 1); !ok || l != lines[i] || r.lineText(i+1) != lines[i].Text {
			t.Fatalf("Line(%d) = %+v, %v; Lines gives %+v", i+1, l, ok, lines[i])
		}
	}
	if _, ok := r.Line(0); ok {
		t.Fatal("Line(0) found a line")
	}
	if _, ok := r.Line(len(lines) + 1); ok {
		t.Fatal("Line(n+1) found a line")
	}

	_ = r.Sitemaps()
	_ = r.Hosts()
	_ = r.CleanParams()
	urls := fuzzURLs(lines)
	for _, u := range urls {
		_ = r.CleanURL(u)
	}

	// Questions in every dialect, by tokens and by known crawlers.
	agents := fuzzAgents(lines)
	for _, d := range Dialects() {
		for _, u := range urls {
			for _, a := range agents {
				dec := r.Decide(Query{URL: u, Agents: a, Dialect: d, Explain: true})
				checkExplained(t, d, dec)
			}
		}
	}
	for _, name := range []string{"Googlebot", "AdsBot-Google", "Bingbot", "YandexBot", "Baiduspider", "GPTBot"} {
		c, ok := LookupCrawler(name)
		if !ok {
			continue
		}
		for _, u := range urls {
			dec := r.Decide(Query{URL: u, Crawler: &c, Explain: true})
			checkExplained(t, dec.Dialect, dec)
		}
	}

	// The google dialect against the reference, on the first URL and agent.
	if len(agents[0]) > 0 {
		want, wantLine := slowGoogle(body, agents[0][:1], urls[0])
		dec := r.Decide(Query{URL: urls[0], Agents: agents[0][:1], Dialect: Google})
		if dec.Allowed != want || dec.Line() != wantLine {
			t.Fatalf("Decide(%q, %q) = %v line %d, reference %v line %d", agents[0][0], urls[0], dec.Allowed, dec.Line(), want, wantLine)
		}
	}
}

func refFieldOf(l refLine) Field {
	switch l.kind {
	case refUserAgent:
		return FieldUserAgent
	case refAllow:
		return FieldAllow
	case refDisallow:
		return FieldDisallow
	case refSitemap:
		return FieldSitemap
	}
	return FieldUnknown
}

// sameGoogleField compares fields as Google tells them apart: the four it
// reads, and everything else.
func sameGoogleField(got, want Field) bool {
	google := func(f Field) bool {
		return f == FieldUserAgent || f == FieldAllow || f == FieldDisallow || f == FieldSitemap
	}
	if google(want) {
		return got == want
	}
	return !google(got)
}

// fuzzURLs derives a few URLs from the file's own rules.
func fuzzURLs(lines []Line) []string {
	urls := []string{"http://example.com/", "/a/b?c=d"}
	for _, l := range lines {
		if len(urls) >= 4 {
			break
		}
		if l.HasDirective && (l.Field == FieldAllow || l.Field == FieldDisallow) && l.Value != "" {
			p := strings.ReplaceAll(strings.TrimSuffix(l.Value, "$"), "*", "x")
			if !strings.HasPrefix(p, "/") {
				p = "/" + p
			}
			if len(p) > 512 {
				p = p[:512] // keeps the reference's quadratic matcher quick
			}
			urls = append(urls, "http://example.com"+p)
		}
	}
	return urls
}

// fuzzAgents derives agent lists from the file's user-agent lines.
func fuzzAgents(lines []Line) [][]string {
	var toks []string
	for _, l := range lines {
		if l.HasDirective && l.Field == FieldUserAgent && len(toks) < 2 {
			toks = append(toks, ExtractToken(l.Value))
		}
	}
	out := [][]string{toks, {"FooBot"}}
	if len(toks) == 0 {
		out[0] = []string{"Googlebot"}
	}
	return out
}

// checkExplained checks what Explain adds to a decision: the deciding rule
// comes first, and there are matches only when a rule decided.
func checkExplained(t *testing.T, d Dialect, dec Decision) {
	t.Helper()
	if !dec.HasRule() {
		if len(dec.Matches) != 0 {
			t.Fatalf("%v: no deciding rule but %d matches: %+v", d, len(dec.Matches), dec.Matches)
		}
		return
	}
	if len(dec.Matches) == 0 || dec.Matches[0] != dec.Rule {
		t.Fatalf("%v: deciding rule %+v, matches %+v", d, dec.Rule, dec.Matches)
	}
	if d == Google || d == Bing {
		for _, m := range dec.Matches {
			if !refMatch(dec.Path, m.Pattern) {
				t.Fatalf("%v: rule %+v is listed as matching %q but does not", d, m, dec.Path)
			}
		}
	}
}

// clip shortens long strings in failure messages.
// collectLines gathers what a line iterator yields, checking the indexes.
func collectLines(seq iter.Seq2[int, Line]) []Line {
	var out []Line
	for i, l := range seq {
		if i != len(out) || l.Number != i+1 {
			panic(fmt.Sprintf("line iterator: index %d, Number %d after %d lines", i, l.Number, len(out)))
		}
		out = append(out, l)
	}
	return out
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + fmt.Sprintf("...(%d bytes)", len(s))
	}
	return s
}

// FuzzAllowed compares the fast matcher with the reference (slowGoogle): the
// verdict and the deciding line, for one agent and for two, and checks that
// every dialect can answer the same question with Explain.
func FuzzAllowed(f *testing.F) {
	fz := fuzzing()
	seeds := handSeeds[:len(handSeeds):len(handSeeds)]
	if !testing.Short() {
		// Big and wildcard-heavy sets are checked in full without -short.
		seeds = append(append(seeds, bigGroups()...), wildGroups(1, 2*bigSet))
	}
	for _, s := range seeds {
		for _, q := range handQuestions {
			if fz && len(s)+len(q.url) > 4096 {
				continue
			}
			f.Add(s, q.ua, q.url)
		}
	}
	byFile := map[string][]goldenCase{}
	for _, c := range readGolden(f) {
		byFile[c.File] = append(byFile[c.File], c)
	}
	step := 25 * shortStep(10)
	for i, name := range corpusFiles(f) {
		if i%step != 0 {
			continue
		}
		b := readCorpusFile(f, name)
		if fz && len(b) > 4096 {
			continue
		}
		for _, c := range byFile[name] {
			f.Add(string(b), c.UA, c.URL)
		}
	}
	f.Fuzz(func(t *testing.T, body, ua, url string) {
		r := ParseString(body)
		checkAllowed(t, r, body, ua, url)
	})
}

func checkAllowed(t *testing.T, r *Robots, body, ua, url string) {
	t.Helper()
	want, wantLine := slowGoogle([]byte(body), []string{ua}, url)
	got := r.Allowed(ua, url)
	dec := r.Decide(Query{URL: url, Agents: []string{ua}, Dialect: Google})
	if got != want || dec.Allowed != want || dec.Line() != wantLine {
		t.Fatalf("ua %q url %q: Allowed %v, Decide %v line %d; reference %v line %d\nrobots.txt: %q",
			ua, url, got, dec.Allowed, dec.Line(), want, wantLine, clip(body))
	}
	if bing := r.Decide(Query{URL: url, Agents: []string{ua}, Dialect: Bing}); bing.Allowed != want || bing.Line() != wantLine {
		t.Fatalf("ua %q url %q: bing %v line %d; google (reference) %v line %d\nrobots.txt: %q",
			ua, url, bing.Allowed, bing.Line(), want, wantLine, clip(body))
	}

	// Two agents together: every group naming either applies.
	agents := []string{ua, secondAgent(body, ua, url)}
	want2, line2 := slowGoogle([]byte(body), agents, url)
	dec2 := r.Decide(Query{URL: url, Agents: agents, Dialect: Google})
	if dec2.Allowed != want2 || dec2.Line() != line2 || r.AllowedAgents(agents, url) != want2 {
		t.Fatalf("agents %q url %q: Decide %v line %d; reference %v line %d\nrobots.txt: %q",
			agents, url, dec2.Allowed, dec2.Line(), want2, line2, clip(body))
	}

	for _, d := range Dialects() {
		dec := r.Decide(Query{URL: url, Agents: []string{ua}, Dialect: d, Explain: true})
		checkExplained(t, d, dec)
		if d == Google && (dec.Allowed != want || dec.Line() != wantLine) {
			t.Fatalf("ua %q url %q: with Explain %v line %d; reference %v line %d", ua, url, dec.Allowed, dec.Line(), want, wantLine)
		}
	}

	// URLs made from the file's own rules hit wildcards, anchors and the
	// index.htm rule far more often than the fuzzer's URLs do.
	for _, u := range ruleURLs(body, url) {
		want, wantLine := slowGoogle([]byte(body), []string{ua}, u)
		if got, ok := firstAnswer(r, ua, u); ok && got != want {
			t.Fatalf("ua %q url %q: first answer (from the lines) %v; reference %v line %d\nrobots.txt: %q",
				ua, u, got, want, wantLine, clip(body))
		}
		dec := r.Decide(Query{URL: u, Agents: []string{ua}, Dialect: Google})
		if got := r.Allowed(ua, u); got != want || dec.Allowed != want || dec.Line() != wantLine {
			t.Fatalf("ua %q url %q: Allowed %v, Decide %v line %d; reference %v line %d\nrobots.txt: %q",
				ua, u, got, dec.Allowed, dec.Line(), want, wantLine, clip(body))
		}
	}

	// The matched part of the URL: starts with '/', holds no fragment, and
	// is taken from the URL as it stands.
	p := PathParamsQuery(url)
	if !strings.HasPrefix(p, "/") || strings.Contains(p, "#") ||
		p != "/" && !strings.Contains(url, p) && !strings.Contains(url, p[1:]) {
		t.Fatalf("PathParamsQuery(%q) = %q", url, p)
	}
}

// ruleURLs makes up to four URLs from the first allow and disallow values
// of body: the value with each '*' replaced by the fuzzer's URL (or "x") and
// the '$' dropped, and the directory of the value (what the index.htm rule
// allows).
func ruleURLs(body, url string) []string {
	fill := url
	if len(fill) > 16 {
		fill = fill[:16]
	}
	if fill == "" {
		fill = "x"
	}
	var out []string
	for _, l := range refReadAll([]byte(body)) {
		if len(out) >= 4 {
			break
		}
		if l.kind != refAllow && l.kind != refDisallow || len(l.value) > 512 {
			continue
		}
		p := strings.ReplaceAll(strings.TrimSuffix(l.value, "$"), "*", fill)
		out = append(out, "http://example.com"+p)
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			out = append(out, "http://example.com"+p[:i+1])
		}
	}
	return out
}

// secondAgent picks another agent to ask about with ua: one of the tokens
// the file names, chosen by the URL's length, else a fixed one.
func secondAgent(body, ua, url string) string {
	var toks []string
	for _, l := range refReadAll([]byte(body)) {
		if l.kind == refUserAgent {
			if t := ExtractToken(l.value); t != "" && !strings.EqualFold(t, ua) {
				toks = append(toks, t)
			}
		}
	}
	if len(toks) == 0 {
		return "Googlebot"
	}
	return toks[len(url)%len(toks)]
}

// FuzzGlob compares the fast glob matcher with the reference matcher.
func FuzzGlob(f *testing.F) {
	seeds := []struct{ path, pat string }{
		{"/fish", "/fish"}, {"/fishheads/yummy.html", "/fish*"}, {"/folder/filename.php?parameters", "/*.php"},
		{"/filename.php", "/*.php$"}, {"/filename.php5", "/*.php$"}, {"/fishheads/catfish.php?p", "/fish*.php"},
		{"/", "/$"}, {"/a$b", "/a$b"}, {"/a$", "/a$$"}, {"/aa", "/*a*a$"}, {"/a", "/*a*a$"},
		{"/abcabc", "/*abc*abc"}, {"/ab", "*"}, {"/x", "**$"}, {"/", "$"}, {"", ""}, {"/", ""},
		{"/aXbXc", "/a*b*c$"}, {"/abab", "/*ab$"}, {"/a*b", "/a*b"},
	}
	for _, s := range seeds {
		f.Add(s.path, s.pat)
	}
	f.Fuzz(func(t *testing.T, path, pat string) {
		want := refMatch(path, pat)
		if got := globMatch(path, pat, strings.HasSuffix(pat, "$")); got != want {
			t.Fatalf("globMatch(%q, %q) = %v, reference %v", path, pat, got, want)
		}
	})
}
