package robotstxt

// This file holds a slow, deliberately simple reference for the google
// dialect, written from docs/protocol.md (File format to Which rule wins). It shares nothing with the fast
// code's compiled groups, sorted rules or glob matcher: it splits the body
// into lines itself, reads keys and values itself, keeps the groups as the
// file streams by and matches patterns with a plain set-of-positions
// simulation. The fuzz tests (fuzz_test.go) compare the fast code with it.
//
// The one piece it borrows is PathParamsQuery, which the conformance records
// of kind path_params_query verify on their own.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refMaxBytes is how much of a body Google's crawlers read: 500 KiB.
const refMaxBytes = 512000

// refMaxLine is how many bytes of one line Google's library keeps.
const refMaxLine = 16663

// refKind is what a line's key means to Google.
type refKind int

const (
	refNone refKind = iota // no directive, or a key Google ignores
	refUserAgent
	refAllow
	refDisallow
	refSitemap
)

// refLine is one line as the reference reads it.
type refLine struct {
	num       int
	text      string // the raw line, without its ending
	directive bool   // a key and a separator were found
	key       string
	value     string // trimmed, comment removed, not escaped
	kind      refKind
}

// refSplit cuts body into lines the way docs/protocol.md (File format; Google's reading in detail) describes: an
// optional BOM (or any leading part of one) is skipped, and a line ends at
// LF, CR or CRLF. The empty text after a final line ending is a line too.
// It returns each line's offset in body and its raw text.
func refSplit(body string) (offsets []int, texts []string) {
	start := 0
	for start < 3 && start < len(body) && body[start] == "\xEF\xBB\xBF"[start] {
		start++
	}
	i := start
	for i < len(body) {
		c := body[i]
		if c != '\n' && c != '\r' {
			i++
			continue
		}
		offsets = append(offsets, start)
		texts = append(texts, body[start:i])
		i++
		if c == '\r' && i < len(body) && body[i] == '\n' {
			i++ // CRLF is one line ending
		}
		start = i
	}
	offsets = append(offsets, start)
	texts = append(texts, body[start:])
	return offsets, texts
}

// refSpace is C's isspace in the "C" locale.
func refSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

func refTrim(s string) string {
	a, b := 0, len(s)
	for a < b && refSpace(s[a]) {
		a++
	}
	for b > a && refSpace(s[b-1]) {
		b--
	}
	return s[a:b]
}

// refReadLine reads one raw line: the 16,663-byte cut, the NUL cut, the
// comment, then the key and the value.
func refReadLine(num int, raw string) refLine {
	ln := refLine{num: num, text: raw}
	s := raw
	if len(s) > refMaxLine {
		s = s[:refMaxLine]
	}
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			s = s[:i]
			break
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '#' {
			s = s[:i]
			break
		}
	}
	s = refTrim(s)
	if s == "" {
		return ln
	}
	var key, value string
	if k, v, ok := strings.Cut(s, ":"); ok {
		key, value = k, v
	} else {
		// No colon: accept "key value", exactly two runs of bytes that are
		// not space or tab, separated by one run of spaces and tabs.
		fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
		if len(fields) != 2 {
			return ln
		}
		// fields[0] is a prefix of s (s is trimmed and starts with a
		// non-space byte); the value is the rest.
		key, value = fields[0], s[len(fields[0]):]
	}
	key, value = refTrim(key), refTrim(value)
	if key == "" {
		return ln
	}
	ln.directive, ln.key, ln.value = true, key, value
	ln.kind = refKeyKind(key)
	return ln
}

// refKeyKind reads a key by case-insensitive prefix, typos included, in
// the order docs/protocol.md (Google's reading in detail) gives.
func refKeyKind(key string) refKind {
	table := []struct {
		prefix string
		kind   refKind
	}{
		{"user-agent", refUserAgent}, {"useragent", refUserAgent}, {"user agent", refUserAgent},
		{"allow", refAllow},
		{"disallow", refDisallow}, {"dissallow", refDisallow}, {"dissalow", refDisallow},
		{"disalow", refDisallow}, {"diasllow", refDisallow}, {"disallaw", refDisallow},
		{"sitemap", refSitemap}, {"site-map", refSitemap},
	}
	for _, e := range table {
		if refHasPrefixFold(key, e.prefix) {
			return e.kind
		}
	}
	return refNone
}

// refHasPrefixFold compares only ASCII letters without case (strings.ToLower
// would also fold non-ASCII runes, which Google does not).
func refHasPrefixFold(s, lowerPrefix string) bool {
	if len(s) < len(lowerPrefix) {
		return false
	}
	for i := 0; i < len(lowerPrefix); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c = c - 'A' + 'a'
		}
		if c != lowerPrefix[i] {
			return false
		}
	}
	return true
}

// refReadAll reads every line of a body after the 500 KiB cut.
func refReadAll(body []byte) []refLine {
	b := string(body)
	if len(b) > refMaxBytes {
		b = b[:refMaxBytes]
	}
	_, texts := refSplit(b)
	out := make([]refLine, len(texts))
	for i, t := range texts {
		out[i] = refReadLine(i+1, t)
	}
	return out
}

// refEscape normalises an allow or disallow value: each byte >= 0x80 is
// written %XX, and the hex digits of an existing %xx escape are upper-cased.
func refEscape(v string) string {
	const hex = "0123456789ABCDEF"
	isHexDigit := func(c byte) bool {
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	upper := func(c byte) byte {
		if c >= 'a' && c <= 'f' {
			return c - 'a' + 'A'
		}
		return c
	}
	var out []byte
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '%' && i+2 < len(v) && isHexDigit(v[i+1]) && isHexDigit(v[i+2]):
			out = append(out, '%', upper(v[i+1]), upper(v[i+2]))
			i += 2
		case c >= 0x80:
			out = append(out, '%', hex[c>>4], hex[c&0xF])
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

// refMatch reports whether pattern matches path: '*' matches any run of
// bytes, a '$' that is the last byte ties the match to the end of path, and
// every other byte (a '$' elsewhere too) matches itself. Without the anchor
// the pattern only has to match a prefix of path.
//
// at[i] is true when the part of the pattern read so far can end just
// before path[i]: the textbook simulation of the pattern as an automaton.
func refMatch(path, pattern string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	// The bytes before the first '*' must start the path (a quick
	// rejection, which the walk below would reach too).
	if lit, _, _ := strings.Cut(pattern, "*"); !strings.HasPrefix(path, lit) {
		return false
	}
	at := make([]bool, len(path)+1)
	next := make([]bool, len(path)+1)
	at[0] = true
	for k := 0; k < len(pattern); k++ {
		clear(next)
		if pattern[k] == '*' {
			reached := false
			for i := range at {
				reached = reached || at[i]
				next[i] = reached
			}
		} else {
			for i := 0; i < len(path); i++ {
				if at[i] && path[i] == pattern[k] {
					next[i+1] = true
				}
			}
		}
		at, next = next, at
	}
	if anchored {
		return at[len(path)]
	}
	for _, ok := range at {
		if ok {
			return true
		}
	}
	return false
}

// refRule is an allow or disallow rule of a group.
type refRule struct {
	allow bool
	pat   string // escaped
	line  int
}

// refGroup is one group of the file, as the file streams by.
type refGroup struct {
	tokens []string // the product tokens its user-agent lines name
	global bool     // one of its user-agent lines is '*'
	rules  []refRule
}

// refGroups builds the groups: a user-agent line that follows a rule starts
// a new group, and rules before the first user-agent line belong to none.
func refGroups(lines []refLine) []*refGroup {
	var groups []*refGroup
	var cur *refGroup
	for _, ln := range lines {
		switch ln.kind {
		case refUserAgent:
			if cur == nil || len(cur.rules) > 0 {
				cur = &refGroup{}
				groups = append(groups, cur)
			}
			v := ln.value
			if v == "*" || len(v) > 1 && v[0] == '*' && refSpace(v[1]) {
				cur.global = true
				continue
			}
			n := 0
			for n < len(v) && (v[n] >= 'a' && v[n] <= 'z' || v[n] >= 'A' && v[n] <= 'Z' || v[n] == '-' || v[n] == '_') {
				n++
			}
			cur.tokens = append(cur.tokens, v[:n])
		case refAllow, refDisallow:
			if cur == nil {
				continue
			}
			cur.rules = append(cur.rules, refRule{allow: ln.kind == refAllow, pat: refEscape(ln.value), line: ln.num})
		}
	}
	return groups
}

// slowGoogle answers what Google's library answers for a crawler obeying
// all of agents: whether url may be fetched, and the line of the rule that
// decided (0 when no rule matched).
func slowGoogle(body []byte, agents []string, url string) (allowed bool, line int) {
	return slowGoogleGroups(refGroups(refReadAll(body)), agents, url)
}

// slowGoogleGroups is slowGoogle on a file's groups, read once by
// refGroups(refReadAll(body)).
func slowGoogleGroups(groups []*refGroup, agents []string, url string) (allowed bool, line int) {

	// The groups naming any of the agents; else the '*' groups.
	var chosen []*refGroup
	for _, g := range groups {
		named := false
		for _, tok := range g.tokens {
			for _, a := range agents {
				if refASCIIFold(tok, a) {
					named = true
				}
			}
		}
		if named {
			chosen = append(chosen, g)
		}
	}
	if len(chosen) == 0 {
		for _, g := range groups {
			if g.global {
				chosen = append(chosen, g)
			}
		}
	}

	path := PathParamsQuery(url)
	if i := strings.IndexByte(path, 0); i >= 0 {
		path = path[:i]
	}

	// The best allow and the best disallow: the longest pattern, and the
	// earliest line among the longest.
	type best struct {
		weight, line int
	}
	bestAllow, bestDisallow := best{-1, 0}, best{-1, 0}
	consider := func(b *best, weight, line int) {
		if weight > b.weight || weight == b.weight && line < b.line {
			b.weight, b.line = weight, line
		}
	}
	for _, g := range chosen {
		for _, r := range g.rules {
			if refMatch(path, r.pat) {
				if r.allow {
					consider(&bestAllow, len(r.pat), r.line)
				} else {
					consider(&bestDisallow, len(r.pat), r.line)
				}
				continue
			}
			// Google: an allow of .../index.htm... that does not match also
			// allows its directory, as the pattern "dir/$".
			if r.allow {
				if i := strings.LastIndex(r.pat, "/"); i >= 0 && strings.HasPrefix(r.pat[i:], "/index.htm") {
					dir := r.pat[:i+1] + "$"
					if refMatch(path, dir) {
						consider(&bestAllow, len(dir), r.line)
					}
				}
			}
		}
	}
	switch {
	case bestAllow.weight < 0 && bestDisallow.weight < 0:
		return true, 0
	case bestDisallow.weight > bestAllow.weight:
		// An empty disallow (weight 0) is reported but blocks nothing.
		return bestDisallow.weight == 0, bestDisallow.line
	default:
		return true, bestAllow.line
	}
}

// refASCIIFold reports whether a and b are equal ignoring the case of ASCII
// letters only (strings.EqualFold also folds Unicode, e.g. 'K' and the
// Kelvin sign, which Google's byte comparison does not).
func refASCIIFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x >= 'A' && x <= 'Z' {
			x += 'a' - 'A'
		}
		if y >= 'A' && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// TestReferenceAgainstConformance checks the reference itself on Google's
// own suite and on every golden answer over the real corpus, deciding line
// included, before the fuzz tests trust it.
func TestReferenceAgainstConformance(t *testing.T) {
	dir := sharedDir(t)
	recs := readJSONL(t, filepath.Join(dir, "conformance", "google_robots_test.jsonl"))
	if len(recs) != 145 {
		t.Fatalf("got %d cases, want 145", len(recs))
	}
	pass := 0
	for _, rec := range recs {
		ua, url, want := rec["ua"].(string), rec["url"].(string), rec["allowed"].(bool)
		if got, _ := slowGoogle(robotsOf(t, rec), []string{ua}, url); got != want {
			t.Errorf("%s: slowGoogle(%q, %q) = %v, want %v", rec["name"], ua, url, got, want)
			continue
		}
		pass++
	}
	t.Logf("%d/%d of Google's suite", pass, len(recs))

	cases := readGolden(t)
	if len(cases) != 52698 {
		t.Fatalf("got %d golden cases, want 52698", len(cases))
	}
	bodies := map[string][]byte{}
	pass, failed := 0, 0
	step := shortStep(50) // the reference is checked in full without -short
	for i, c := range cases {
		if i%step != 0 {
			continue
		}
		body, ok := bodies[c.File]
		if !ok {
			var err error
			body, err = os.ReadFile(filepath.Join(dir, "corpus", c.File))
			if err != nil {
				t.Fatal(err)
			}
			bodies[c.File] = body
		}
		got, line := slowGoogle(body, []string{c.UA}, c.URL)
		if got != c.Allowed || line != c.Line {
			failed++
			if failed <= 20 {
				t.Errorf("%s ua=%q url=%q: slowGoogle = %v line %d, want %v line %d", c.File, c.UA, c.URL, got, line, c.Allowed, c.Line)
			}
			continue
		}
		pass++
	}
	t.Logf("%d/%d corpus answers with the same deciding line", pass, len(cases))
}

// TestReferenceMatch pins the reference matcher on the examples of the
// source documents (docs/protocol.md, Matching) and on the corners of '$'.
func TestReferenceMatch(t *testing.T) {
	tests := []struct {
		pat, path string
		want      bool
	}{
		{"/fish", "/fish", true},
		{"/fish", "/fish.html", true},
		{"/fish", "/fish/salmon.html", true},
		{"/fish", "/fishheads", true},
		{"/fish", "/Fish.asp", false},
		{"/fish", "/catfish", false},
		{"/fish*", "/fishheads/yummy.html", true},
		{"/fish*", "/fish", true},
		{"/fish/", "/fish/?id=anything", true},
		{"/fish/", "/fish", false},
		{"/fish/", "/fish.html", false},
		{"/*.php", "/index.php", true},
		{"/*.php", "/folder/filename.php?parameters", true},
		{"/*.php", "/windows.PHP", false},
		{"/*.php$", "/filename.php", true},
		{"/*.php$", "/filename.php?parameters", false},
		{"/*.php$", "/filename.php5", false},
		{"/fish*.php", "/fishheads/catfish.php?parameters", true},
		{"/fish*.php", "/Fish.PHP", false},
		{"/$", "/", true},
		{"/$", "/page.htm", false},
		{"", "/anything", true},
		{"$", "/", false},
		{"/a$b", "/a$b", true},
		{"/a$b", "/ab", false},
		{"/a$$", "/a$", true},
		{"/a$$", "/a", false},
		{"*", "/", true},
		{"**$", "/x", true},
		{"/*a*a$", "/a", false},
		{"/*a*a$", "/aa", true},
		{"x", "/x", false},
	}
	for _, tt := range tests {
		if got := refMatch(tt.path, tt.pat); got != tt.want {
			t.Errorf("refMatch(%q, %q) = %v, want %v", tt.path, tt.pat, got, tt.want)
		}
	}
}

// TestFragmentAndNULEndThePath checks that Allowed, which looks for the
// path's end ('#' or NUL) only when a wildcard or anchored rule needs it,
// answers as the reference does, in small sets and in indexed large ones.
func TestFragmentAndNULEndThePath(t *testing.T) {
	rules := "Disallow: /a*b\nDisallow: /c$\nDisallow: /d*$\nAllow: /e\nDisallow: /e*f$\nDisallow: /g\n"
	var big strings.Builder
	big.WriteString("User-agent: *\n")
	big.WriteString(rules)
	for i := range 200 {
		fmt.Fprintf(&big, "Disallow: /p%d/*.x$\nAllow: /q%d\n", i, i)
	}
	bodies := []string{"User-agent: *\n" + rules, big.String()}
	urls := []string{
		"/a#b", "/a\x00b", "/ab#", "/ax\x00yb", "/c", "/c#", "/c#x", "/c\x00x", "/cx#",
		"/d#", "/d\x00", "/e#f", "/ef#", "/e\x00f", "/g#", "/#g", "/\x00g", "/p3/a.x#y",
		"/p3/a#.x", "/q3#", "http://h/c#x", "http://h#/c", "http://h/p7/z.x\x00", "/",
	}
	for bi, body := range bodies {
		r := Parse([]byte(body))
		for _, u := range urls {
			want, line := slowGoogle([]byte(body), []string{"FooBot"}, u)
			if got := r.Allowed("FooBot", u); got != want {
				t.Errorf("body %d: Allowed(%q) = %v, want %v (line %d)", bi, u, got, want, line)
			}
			if d := r.Decide(Query{URL: u, Agents: []string{"FooBot"}}); d.Allowed != want || d.Line() != line {
				t.Errorf("body %d: Decide(%q) = %v line %d, want %v line %d", bi, u, d.Allowed, d.Line(), want, line)
			}
		}
	}
}
