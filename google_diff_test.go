package robotstxt

import (
	"strings"
	"testing"
)

// The cases below are edge cases from a differential run of the google
// dialect against Google's robots.txt library (RobotsMatcher: its verdict and
// matching_line()), built locally from upstream sources. Over 3 million
// generated questions (real files with derived and mutated URLs, mutated real
// files, random files from a grammar of robots.txt lines, random user agents
// and URLs, lines near the 16,663-byte limit, files near 500 KiB) and a
// coverage-guided fuzz run found no disagreement; these are kept as a
// regression table. Each answer (allowed, line) is the one Google's library
// gave.

// googleDiffCases are questions for one product token: Google's
// OneAgentAllowedByRobots.
var googleDiffCases = []struct {
	name    string
	robots  string
	ua      string
	url     string
	allowed bool
	line    int
}{
	{"long line cut at 16663 bytes: the kept prefix matches", "User-agent: *\nDisallow: /" + strings.Repeat("a", 16660) + "b\n", "FooBot", "http://h/" + strings.Repeat("a", 16652), false, 2},
	{"long line cut: one byte short of the kept prefix", "User-agent: *\nDisallow: /" + strings.Repeat("a", 16660) + "b\n", "FooBot", "http://h/" + strings.Repeat("a", 16651), true, 0},
	{"long line cut before its '$'", "User-agent: *\nDisallow: /" + strings.Repeat("a", 16652) + "$\n", "FooBot", "http://h/" + strings.Repeat("a", 16652) + "x", false, 2},
	{"long line cut inside a UTF-8 sequence, then escaped", "User-agent: *\nAllow: /" + strings.Repeat("\xc3\xa9", 8330) + "\nDisallow: /", "FooBot", "http://h/" + strings.Repeat("%C3%A9", 8327) + "%C3x", true, 2},
	{"long line with CR LF at the boundary keeps line numbers", "User-agent: *\r\nDisallow: /" + strings.Repeat("a", 16652) + "\r\nAllow: /a\r\n", "FooBot", "http://h/a", true, 3},
	{"long user-agent line", "User-agent: " + strings.Repeat("Foo", 6000) + "\nDisallow: /\n", strings.Repeat("Foo", 5550), "/x", true, 0},
	{"long user-agent line: the kept token matches", "User-agent: " + strings.Repeat("Foo", 6000) + "\nDisallow: /\n", strings.Repeat("Foo", 5550) + "F", "/x", false, 2},
	{"very long URL against a wildcard rule", "User-agent: *\nDisallow: /*a*b$\n", "FooBot", "http://h/" + strings.Repeat("a", 100000) + "b", false, 2},
	{"long query after an empty path", "User-agent: *\nDisallow: /\nAllow: /?" + strings.Repeat("q", 2000) + "\n", "FooBot", "http://h?" + strings.Repeat("q", 2500), true, 3},
	{"full BOM", "\xef\xbb\xbfUser-agent: FooBot\nDisallow: /\n", "FooBot", "/x", false, 2},
	{"partial BOM is skipped", "\xef\xbbUser-agent: FooBot\nDisallow: /\n", "FooBot", "/x", false, 2},
	{"second BOM stays in the key", "\xef\xbb\xbf\xef\xbb\xbfUser-agent: FooBot\nDisallow: /\n", "FooBot", "/x", true, 0},
	{"BOM after a space stays in the key", " \xef\xbb\xbfUser-agent: FooBot\nDisallow: /\n", "FooBot", "/x", true, 0},
	{"broken BOM keeps the mismatching byte", "\xef\xefUser-agent: FooBot\nDisallow: /\n", "FooBot", "/x", true, 0},
	{"CR only line endings", "User-agent: FooBot\r\rDisallow: /x\r", "FooBot", "/x", false, 3},
	{"LF CR counts two lines", "User-agent: FooBot\n\rDisallow: /x\n\rAllow: /x\n", "FooBot", "/x", true, 5},
	{"CR CR LF counts two lines", "User-agent: FooBot\r\r\nDisallow: /x\r\r\n", "FooBot", "/x", false, 3},
	{"NUL ends a rule's value", "User-agent: FooBot\nDisallow: /a\x00b\n", "FooBot", "/ac", false, 2},
	{"NUL in the URL ends its path", "User-agent: FooBot\nDisallow: /ab\n", "FooBot", "http://h/a\x00b", true, 0},
	{"NUL ends a user-agent value", "User-agent: Foo\x00Bar\nDisallow: /\n", "Foo", "/", false, 2},
	{"missing colons and a typo", "useragent FooBot\ndisalow /x\n", "FooBot", "/x/y", false, 2},
	{"three words without a colon are ignored", "User-agent: FooBot\nDisallow /x /y\n", "FooBot", "/x", true, 0},
	{"colon in a colon-less rule splits the key", "User-agent: FooBot\nDisallow /http://x\n", "FooBot", "http://h//x", false, 2},
	{"'user agent' with a space", "user agent: FooBot\nDisallow: /\n", "FooBot", "/", false, 2},
	{"'user  agent' with two spaces is unknown", "user  agent: FooBot\nDisallow: /\n", "FooBot", "/", true, 0},
	{"key prefixes: user-agents, disallowed", "User-agents: FooBot\nDisallowed: /x\n", "FooBot", "/x", false, 2},
	{"'dis allow' is unknown", "User-agent: FooBot\nDis allow: /x\n", "FooBot", "/x", true, 0},
	{"vertical tab and form feed are white space", "User-agent:\x0bFooBot\x0c\nDisallow\x0b:\x0c/x\n", "FooBot", "/x", false, 2},
	{"'*' then a vertical tab is global", "User-agent: *\x0bfoo\nDisallow: /\n", "FooBot", "/", false, 2},
	{"'*foo' is neither global nor a token", "User-agent: *foo\nDisallow: /\n", "FooBot", "/", true, 0},
	{"'*foo' names the empty token", "User-agent: *foo\nDisallow: /\n", "", "/", false, 2},
	{"a value starting with a digit names the empty token", "User-agent: 1bot\nDisallow: /\nUser-agent: *\nAllow: /\n", "", "/", false, 2},
	{"versioned line token matches", "User-agent: Googlebot/2.1\nDisallow: /\n", "googlebot", "/", false, 2},
	{"versioned asked token matches nothing", "User-agent: Googlebot\nDisallow: /\nUser-agent: *\nDisallow: /p\n", "Googlebot/2.1", "/p", false, 4},
	{"asked token with a space", "User-agent: Foo Bar\nDisallow: /\n", "Foo Bar", "/", true, 0},
	{"line token is cut at the space", "User-agent: Foo Bar\nDisallow: /\n", "foo", "/", false, 2},
	{"specific group with only an empty rule beats '*'", "User-agent: FooBot\nDisallow:\n\nUser-agent: *\nDisallow: /\n", "FooBot", "/x", true, 2},
	{"specific group without rules", "User-agent: *\nDisallow: /\nUser-agent: FooBot\n", "FooBot", "/x", true, 0},
	{"rules before any user-agent are ignored", "Disallow: /\nUser-agent: FooBot\nAllow: /y\n", "FooBot", "/x", true, 0},
	{"sitemap does not end a group", "User-agent: BarBot\nSitemap: /s\nUser-agent: FooBot\nDisallow: /\n", "BarBot", "/", false, 4},
	{"unknown key does not end a group", "User-agent: BarBot\nCrawl-delay: 1\nUser-agent: FooBot\nDisallow: /\n", "BarBot", "/", false, 4},
	{"'*' and a token in one group: the token's", "User-agent: *\nUser-agent: FooBot\nDisallow: /x\nUser-agent: *\nDisallow: /\n", "FooBot", "/y", true, 0},
	{"index.html allow opens its directory", "User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n", "FooBot", "/dir/", true, 3},
	{"index.html allow: not the directory with a query", "User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n", "FooBot", "/dir/?x", false, 2},
	{"index.htm allow with a wildcard directory", "User-agent: *\nDisallow: /\nAllow: /*/index.htm\n", "FooBot", "/a/b/", true, 3},
	{"INDEX.HTML is not the quirk", "User-agent: *\nDisallow: /dir/\nAllow: /dir/INDEX.HTML\n", "FooBot", "/dir/", false, 2},
	{"lower-case escapes in a rule are upper-cased", "User-agent: *\nDisallow: /%c3%a9\n", "FooBot", "/%C3%A9", false, 2},
	{"lower-case escapes in the URL are not", "User-agent: *\nDisallow: /%c3%a9\n", "FooBot", "/%c3%a9", true, 0},
	{"raw UTF-8 in a rule is escaped", "User-agent: *\nDisallow: /\xc3\xa9\n", "FooBot", "/%C3%A9", false, 2},
	{"raw UTF-8 in the URL is not", "User-agent: *\nDisallow: /\xc3\xa9\n", "FooBot", "/\xc3\xa9", true, 0},
	{"escaping counts in the weight", "User-agent: *\nAllow: /\xc3\xa9\nDisallow: /%C3%A9x\n", "FooBot", "/%C3%A9x", false, 3},
	{"a lone '%' and a short escape", "User-agent: *\nDisallow: /%\nAllow: /%4\n", "FooBot", "/%4a", true, 3},
	{"'$' alone never matches", "User-agent: *\nDisallow: $\n", "FooBot", "/", true, 0},
	{"'$' inside a pattern is literal", "User-agent: *\nDisallow: /a$b\n", "FooBot", "/a$b", false, 2},
	{"'/$' is the root only", "User-agent: *\nDisallow: /$\n", "FooBot", "/?", true, 0},
	{"equal weights: allow wins, its line reported", "User-agent: *\nDisallow: /a\nAllow: /a\n", "FooBot", "/a", true, 3},
	{"equal weights in one kind: the first line", "User-agent: *\nDisallow: /a*\nDisallow: /*b\n", "FooBot", "/ab", false, 2},
	{"empty rule reported when nothing weightier", "User-agent: *\nAllow:\nDisallow: /x\n", "FooBot", "/y", true, 2},
	{"empty URL", "User-agent: *\nDisallow: /\n", "FooBot", "", false, 2},
	{"URL without a path", "User-agent: *\nDisallow: /$\n", "FooBot", "http://h", false, 2},
	{"URL with params only", "User-agent: *\nDisallow: /;\n", "FooBot", "http://h;x", false, 2},
	{"network-path URL", "User-agent: *\nDisallow: /x\n", "FooBot", "//h/x", false, 2},
	{"three slashes", "User-agent: *\nDisallow: /x\n", "FooBot", "///x", false, 2},
	{"'://' after the path is not a scheme", "User-agent: *\nDisallow: /x:\n", "FooBot", "h/x://y", false, 2},
	{"fragment before the path", "User-agent: *\nDisallow: /\nAllow: /$\n", "FooBot", "http://h#/x", true, 3},
	{"fragment before '://'", "User-agent: *\nDisallow: /d\n", "FooBot", "a#b://c/d", true, 0},
	{"fragment cuts a wildcard match", "User-agent: *\nDisallow: /a*b\n", "FooBot", "http://h/a#b", true, 0},
	{"query-only relative URL", "User-agent: *\nDisallow: /?x\n", "FooBot", "?x", false, 2},
	{"comment cut before the colon test", "User-agent: FooBot\nDisallow /x #a: b\n", "FooBot", "/x", false, 2},
}

// googleDiffAgentCases are questions for several product tokens together:
// Google's AllowedByRobots.
var googleDiffAgentCases = []struct {
	name    string
	robots  string
	agents  []string
	url     string
	allowed bool
	line    int
}{
	{"rules of both named groups apply together", "User-agent: FooBot\nDisallow: /a\nUser-agent: BarBot\nAllow: /a/b\nDisallow: /a/b/c\n", []string{"FooBot", "BarBot"}, "http://h/a/b/x", true, 4},
	{"one named token is enough to leave '*'", "User-agent: *\nDisallow: /\nUser-agent: FooBot\nAllow: /x\n", []string{"BarBot", "FooBot"}, "http://h/y", true, 0},
	{"the empty token among others", "User-agent: 1bot\nDisallow: /\nUser-agent: *\nAllow: /\n", []string{"FooBot", ""}, "/p", false, 2},
	{"a group naming two asked tokens counts once", "User-agent: FooBot\nUser-agent: BarBot\nDisallow: /p\nUser-agent: BarBot\nAllow: /p\n", []string{"BarBot", "FooBot"}, "/p", true, 5},
}

func TestGoogleDiffEdgeCases(t *testing.T) {
	for _, c := range googleDiffCases {
		// A fresh parse asked through Decide first, and one asked through
		// Allowed first: the rule sets are compiled on the first question.
		r := ParseString(c.robots)
		d := r.Decide(Query{URL: c.url, Agents: []string{c.ua}, Dialect: Google})
		if d.Allowed != c.allowed || d.Line() != c.line {
			t.Errorf("%s: Decide = %v, line %d; Google: %v, line %d", c.name, d.Allowed, d.Line(), c.allowed, c.line)
		}
		if got := r.Allowed(c.ua, c.url); got != c.allowed {
			t.Errorf("%s: Allowed after Decide = %v; Google: %v", c.name, got, c.allowed)
		}
		if got := ParseString(c.robots).Allowed(c.ua, c.url); got != c.allowed {
			t.Errorf("%s: Allowed = %v; Google: %v", c.name, got, c.allowed)
		}
	}
}

func TestGoogleDiffSeveralAgents(t *testing.T) {
	for _, c := range googleDiffAgentCases {
		r := ParseString(c.robots)
		d := r.Decide(Query{URL: c.url, Agents: c.agents, Dialect: Google})
		if d.Allowed != c.allowed || d.Line() != c.line {
			t.Errorf("%s: Decide = %v, line %d; Google: %v, line %d", c.name, d.Allowed, d.Line(), c.allowed, c.line)
		}
		if got := r.AllowedAgents(c.agents, c.url); got != c.allowed {
			t.Errorf("%s: AllowedAgents = %v; Google: %v", c.name, got, c.allowed)
		}
	}
}
