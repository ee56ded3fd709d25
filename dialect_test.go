package robotstxt

import (
	"fmt"
	"strings"
	"testing"
)

type dialectCase struct {
	url     string
	allowed bool
	line    int // -1: do not check
}

func checkDialect(t *testing.T, body string, q Query, cases []dialectCase) {
	t.Helper()
	r := ParseString(body)
	for _, c := range cases {
		q.URL = c.url
		d := r.Decide(q)
		if d.Allowed != c.allowed {
			t.Errorf("%s %v %s: allowed = %v, want %v (%s; group: %s)", d.Dialect, q.Agents, c.url, d.Allowed, c.allowed, d.Reason, d.Group.Reason)
		}
		if c.line >= 0 && d.Line() != c.line {
			t.Errorf("%s %v %s: line = %d, want %d", d.Dialect, q.Agents, c.url, d.Line(), c.line)
		}
	}
}

// The worked example of the 1996 draft (www.fict.org); docs/protocol.md, Dialects.
const fictOrg = `User-agent: *
Disallow: /org/plans.html
Allow: /org/
Allow: /serv
Allow: /~mak
Disallow: /
`

func TestOriginalFictOrg(t *testing.T) {
	for _, agent := range []string{"unhipbot", "webcrawler", "excite"} {
		checkDialect(t, fictOrg, Query{Agents: []string{agent}, Dialect: Original}, []dialectCase{
			{"http://www.fict.org/", false, 6},
			{"http://www.fict.org/index.html", false, 6},
			{"http://www.fict.org/robots.txt", true, 0},
			{"http://www.fict.org/server.html", true, 4},
			{"http://www.fict.org/services/fast.html", true, 4},
			{"http://www.fict.org/services/slow.html", true, 4},
			{"http://www.fict.org/orgo.gif", false, 6},
			{"http://www.fict.org/org/about.html", true, 3},
			{"http://www.fict.org/org/plans.html", false, 2},
			{"http://www.fict.org/%7Ejim/jim.html", false, 6},
			{"http://www.fict.org/%7Emak/mak.html", true, 5},
		})
	}
}

// The full fict.org file of the draft: named records, blank-line separated.
const fictOrgFull = `# /robots.txt for http://www.fict.org/
# comments to webmaster@fict.org

User-agent: unhipbot
Disallow: /

User-agent: webcrawler
User-agent: excite
Disallow: 

User-agent: *
Disallow: /org/plans.html
Allow: /org/
Allow: /serv
Allow: /~mak
Disallow: /
`

func TestOriginalRecords(t *testing.T) {
	checkDialect(t, fictOrgFull, Query{Agents: []string{"unhipbot"}, Dialect: Original}, []dialectCase{
		{"/", false, 5}, {"/index.html", false, 5}, {"/robots.txt", true, 0}, {"/server.html", false, 5},
	})
	for _, agent := range []string{"webcrawler", "excite", "WebCrawler/3.0"} {
		checkDialect(t, fictOrgFull, Query{Agents: []string{agent}, Dialect: Original}, []dialectCase{
			{"/", true, 0}, {"/org/plans.html", true, 0}, {"/%7Ejim/jim.html", true, 0},
		})
	}
	checkDialect(t, fictOrgFull, Query{Agents: []string{"OtherBot"}, Dialect: Original}, []dialectCase{
		{"/", false, 16}, {"/org/about.html", true, 13}, {"/org/plans.html", false, 12},
	})
	// Substring matching: a record naming "unhipbot/1.0" applies to unhipbot.
	checkDialect(t, "User-agent: UnhipBot/1.0\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n",
		Query{Agents: []string{"unhipbot"}, Dialect: Original}, []dialectCase{{"/a", false, 2}, {"/b", true, 0}})
	// A blank line ends the record: the rule after it belongs to no record.
	checkDialect(t, "User-agent: *\nDisallow: /a\n\nDisallow: /b\n",
		Query{Agents: []string{"x"}, Dialect: Original}, []dialectCase{{"/a", false, 2}, {"/b", true, 0}})
	// No wildcards in the draft: '*' and '$' are literal.
	checkDialect(t, "User-agent: *\nDisallow: /*.gif$\n",
		Query{Agents: []string{"x"}, Dialect: Original}, []dialectCase{{"/a.gif", true, 0}, {"/*.gif$", false, 2}})
	// The draft decodes %xx before comparing, except %2F.
	checkDialect(t, "User-agent: *\nDisallow: /a%2Fb\nDisallow: /%63\n",
		Query{Agents: []string{"x"}, Dialect: Original}, []dialectCase{
			{"/a/b", true, 0}, {"/a%2fb", false, 2}, {"/c", false, 3}, {"/%63x", false, 3},
		})
	// Google reads the same file differently: the record separation is ignored.
	checkDialect(t, "User-agent: *\nDisallow: /a\n\nDisallow: /b\n",
		Query{Agents: []string{"x"}, Dialect: Google}, []dialectCase{{"/b", false, 4}})
}

// The examples of Yandex's robots.txt help.
func TestYandexSeedExamples(t *testing.T) {
	const groups = `User-agent: YandexBot # for the indexing robot
Disallow: /*id=

User-agent: Yandex # all Yandex robots
Disallow: /*sid= # except the main indexing robot

User-agent: * # not used by Yandex robots
Disallow: /cgi-bin
`
	yandexBot, _ := LookupCrawler("YandexBot")
	checkDialect(t, groups, Query{Crawler: &yandexBot}, []dialectCase{
		{"/page?id=1", false, 2},
		{"/page?sid=1", false, 2}, // "/*id=" matches "sid=" too
		{"/cgi-bin/x", true, 0},
	})
	images, _ := LookupCrawler("YandexImages")
	checkDialect(t, groups, Query{Crawler: &images}, []dialectCase{
		{"/page?sid=1", false, 5},
		{"/page?id=1", true, 0},
		{"/cgi-bin/x", true, 0},
	})
	checkDialect(t, groups, Query{Agents: []string{"OtherBot"}, Dialect: Yandex}, []dialectCase{
		{"/cgi-bin/x", false, 8}, {"/page?id=1", true, 0},
	})

	// Allow and Disallow are sorted by prefix length; the order in the file
	// does not matter.
	for _, body := range []string{
		"User-agent: Yandex\nAllow: /\nAllow: /catalog/auto\nDisallow: /catalog\n",
		"User-agent: Yandex\nAllow: /\nDisallow: /catalog\nAllow: /catalog/auto\n",
	} {
		checkDialect(t, body, Query{Crawler: &yandexBot}, []dialectCase{
			{"/catalog", false, -1}, {"/catalog/x", false, -1}, {"/catalog/auto/1", true, -1}, {"/", true, 2},
		})
	}
	checkDialect(t, "User-agent: Yandex\nAllow: /cgi-bin\nDisallow: /\n", Query{Crawler: &yandexBot}, []dialectCase{
		{"/cgi-bin/a", true, 2}, {"/a", false, 3},
	})
	checkDialect(t, "User-agent: Yandex\nDisallow: /page?\n", Query{Crawler: &yandexBot}, []dialectCase{
		{"/page?x=1", false, 2}, {"/page", true, 0},
	})
	// When no group names Yandex, '*' applies; with none at all, everything.
	checkDialect(t, "User-agent: *\nDisallow: /x\n", Query{Crawler: &yandexBot}, []dialectCase{{"/x", false, 2}})
	checkDialect(t, "User-agent: Googlebot\nDisallow: /\n", Query{Crawler: &yandexBot}, []dialectCase{{"/x", true, 0}})
	// Google's index.htm rule is Google's alone.
	const index = "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n"
	checkDialect(t, index, Query{Agents: []string{"x"}, Dialect: Google}, []dialectCase{{"/d/", true, 3}})
	checkDialect(t, index, Query{Agents: []string{"x"}, Dialect: Yandex}, []dialectCase{{"/d/", false, 2}})
}

func TestYandexCrawlDelayAndCleanParam(t *testing.T) {
	body := "User-agent: Yandex\nCrawl-delay: 2.5\nClean-param: ref&utm_source /catalog/\nDisallow: /admin\n"
	r := ParseString(body)
	yb, _ := LookupCrawler("YandexBot")
	d := r.Decide(Query{URL: "/catalog/x?ref=1", Crawler: &yb})
	if !d.HasCrawlDelay || d.CrawlDelay != 2.5 || d.CrawlDelayLine != 2 {
		t.Errorf("crawl-delay = %v %v line %d, want 2.5 at line 2", d.CrawlDelay, d.HasCrawlDelay, d.CrawlDelayLine)
	}
	for in, want := range map[string]string{
		"http://h/catalog/x?ref=1&id=7&utm_source=a#top": "http://h/catalog/x?id=7#top",
		"http://h/catalog/x?ref=1":                       "http://h/catalog/x",
		"http://h/other?ref=1":                           "http://h/other?ref=1",
		"http://h/catalog/x":                             "http://h/catalog/x",
	} {
		if got := r.CleanURL(in); got != want {
			t.Errorf("CleanURL(%q) = %q, want %q", in, got, want)
		}
	}
	cps := r.CleanParams()
	if len(cps) != 1 || len(cps[0].Params) != 2 || cps[0].Path != "/catalog/" || cps[0].Line != 3 {
		t.Errorf("CleanParams = %+v", cps)
	}
}

func TestBing(t *testing.T) {
	bing, _ := LookupCrawler("bingbot")
	body := "User-agent: *\nCrawl-delay: 10\nDisallow: /private\n\nUser-agent: bingbot\nDisallow: /nobing\n"
	r := ParseString(body)
	d := r.Decide(Query{URL: "/private/x", Crawler: &bing})
	if d.Dialect != Bing || !d.Allowed {
		t.Errorf("bingbot /private/x: %v in %s, want allowed in bing (the * group is ignored)", d.Allowed, d.Dialect)
	}
	if !d.HasCrawlDelay || d.CrawlDelay != 10 || d.CrawlDelayLine != 2 {
		t.Errorf("bingbot crawl-delay = %v (line %d), want 10 from the * group", d.CrawlDelay, d.CrawlDelayLine)
	}
	d = r.Decide(Query{URL: "/nobing", Crawler: &bing})
	if d.Allowed || d.Line() != 6 {
		t.Errorf("bingbot /nobing: %v line %d", d.Allowed, d.Line())
	}
	// Google takes no crawl-delay from '*' for a named crawler either way,
	// but the decision still carries the group's own.
	r = ParseString("User-agent: bingbot\nCrawl-delay: 1.5\nCrawl-delay: 3\nDisallow:\n\nUser-agent: *\nCrawl-delay: 10\n")
	d = r.Decide(Query{URL: "/", Crawler: &bing})
	if d.CrawlDelay != 1.5 || d.CrawlDelayLine != 2 {
		t.Errorf("first crawl-delay of the group should count: %v line %d", d.CrawlDelay, d.CrawlDelayLine)
	}
	// An unreadable crawl-delay is ignored.
	r = ParseString("User-agent: bingbot\nCrawl-delay: soon\nDisallow:\n")
	if d = r.Decide(Query{URL: "/", Crawler: &bing}); d.HasCrawlDelay {
		t.Errorf("unreadable crawl-delay read as %v", d.CrawlDelay)
	}
	// msnbot groups apply to bingbot when no bingbot group exists.
	r = ParseString("User-agent: msnbot\nDisallow: /m\n\nUser-agent: *\nDisallow: /\n")
	if d = r.Decide(Query{URL: "/x", Crawler: &bing}); !d.Allowed {
		t.Errorf("bingbot should follow the msnbot group: %s", d.Group.Reason)
	}
}

func TestRFC9309(t *testing.T) {
	q := Query{Agents: []string{"FooBot"}, Dialect: RFC9309}
	// %2A and %24 in a pattern match a literal '*' and '$' (RFC 9309 §2.2.3).
	checkDialect(t, "User-agent: *\nDisallow: /path/file-with-a-%2A.html\nDisallow: /path/foo-%24\n", q, []dialectCase{
		{"https://www.example.com/path/file-with-a-*.html", false, 2},
		{"https://www.example.com/path/file-with-a-%2A.html", false, 2},
		{"https://www.example.com/path/file-with-a-x.html", true, 0},
		{"https://www.example.com/path/foo-$", false, 3},
		{"https://www.example.com/path/foo-%24", false, 3},
	})
	// Percent-encoded unreserved characters compare decoded; non-ASCII
	// compares encoded, on both sides.
	checkDialect(t, "User-agent: *\nDisallow: /foo/bar/%62%61%7A\nDisallow: /foo/bar/ツ\n", q, []dialectCase{
		{"/foo/bar/baz", false, 2},
		{"/foo/bar/%62az", false, 2},
		{"/foo/bar/ツ", false, 3},
		{"/foo/bar/%E3%83%84", false, 3},
		{"/foo/bar/%e3%83%84", false, 3},
	})
	// /robots.txt is always allowed.
	checkDialect(t, "User-agent: *\nDisallow: /\n", q, []dialectCase{{"/robots.txt", true, 0}, {"/x", false, 2}})
	// Keys are exact: no typos, no prefixes, a colon is required.
	checkDialect(t, "User-agent: *\nDisalow: /a\nDisallowed: /b\nDisallow /c\nDisallow: /d\n", q, []dialectCase{
		{"/a", true, 0}, {"/b", true, 0}, {"/c", true, 0}, {"/d", false, 5},
	})
	checkDialect(t, "User-agent: *\nDisalow: /a\nDisallowed: /b\nDisallow /c\n", Query{Agents: []string{"FooBot"}}, []dialectCase{
		{"/a", false, 2}, {"/b", false, 3}, {"/c", false, 4},
	})
	// Google's /robots.txt and index.htm answers differ.
	checkDialect(t, "User-agent: *\nDisallow: /\n", Query{Agents: []string{"FooBot"}}, []dialectCase{{"/robots.txt", false, 2}})
	checkDialect(t, "User-agent: *\nDisallow: /d/\nAllow: /d/index.htm\n", q, []dialectCase{{"/d/", false, 2}})
	// Longest match, allow wins ties, groups merged, '*' ignored when named.
	checkDialect(t, "User-agent: FooBot\nDisallow: /a\nUser-agent: *\nDisallow: /\nUser-agent: foobot\nAllow: /a\n", q, []dialectCase{
		{"/a", true, 6}, {"/b", true, 0},
	})
}

func TestCrawlerTable(t *testing.T) {
	body := "User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n"
	r := ParseString(body)
	ads, ok := LookupCrawler("AdsBot-Google")
	if !ok || !ads.IgnoresGlobal {
		t.Fatal("AdsBot-Google should be known and ignore the * group")
	}
	if d := r.Decide(Query{URL: "/private", Crawler: &ads}); !d.Allowed || d.Group.Kind != GroupNone {
		t.Errorf("AdsBot-Google ignores *: got %v (%s)", d.Allowed, d.Group.Reason)
	}
	// Given as a plain token, the * group applies (Google's library answers so).
	if r.Allowed("AdsBot-Google", "/private") {
		t.Error("as a token, AdsBot-Google follows the * group")
	}
	img, _ := LookupCrawler("Googlebot-Image")
	if d := r.Decide(Query{URL: "/nogoogle", Crawler: &img}); d.Allowed || d.Line() != 5 {
		t.Errorf("Googlebot-Image falls back to Googlebot: %v line %d (%s)", d.Allowed, d.Line(), d.Group.Reason)
	}
	if d := r.Decide(Query{URL: "/private", Crawler: &img}); !d.Allowed {
		t.Errorf("Googlebot-Image with a Googlebot group ignores *")
	}
	if r.Allowed("Googlebot-Image", "/private") {
		t.Error("as a token, Googlebot-Image follows the * group")
	}
	for _, name := range []string{"Googlebot", "Bingbot", "YandexBot", "Baiduspider", "360Spider", "Slurp", "Sogou",
		"Yisouspider", "Twitterbot", "GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "PerplexityBot", "Bytespider",
		"AdsBot-Google-Mobile", "Mediapartners-Google", "APIs-Google", "Sogou web spider", "yahoo! slurp"} {
		c, ok := LookupCrawler(name)
		if !ok {
			t.Errorf("crawler %q not in the table", name)
			continue
		}
		if c.Dialect == DefaultDialect {
			t.Errorf("crawler %q has no dialect", name)
		}
	}
	for name, want := range map[string]Dialect{"Googlebot": Google, "bingbot": Bing, "YandexBot": Yandex, "Baiduspider": Baidu, "Baiduspider-image": Baidu, "GPTBot": Google} {
		if c, _ := LookupCrawler(name); c.Dialect != want {
			t.Errorf("%s dialect = %s, want %s", name, c.Dialect, want)
		}
	}
	// A crawler whose token holds digits is matched on its whole name.
	s360, _ := LookupCrawler("360Spider")
	r = ParseString("User-agent: 360Spider\nDisallow: /\n\nUser-agent: *\nDisallow:\n")
	if d := r.Decide(Query{URL: "/x", Crawler: &s360}); d.Allowed {
		t.Errorf("360Spider should follow its own group: %s", d.Group.Reason)
	}
	// Baidu reads in file order: first match wins.
	baidu, _ := LookupCrawler("Baiduspider")
	r = ParseString("User-agent: Baiduspider\nDisallow: /a\nAllow: /a/b\n")
	if d := r.Decide(Query{URL: "/a/b", Crawler: &baidu}); d.Allowed || d.Dialect != Baidu {
		t.Errorf("Baiduspider /a/b: %v in %s, want disallowed by the first match", d.Allowed, d.Dialect)
	}
	if d := r.Decide(Query{URL: "/a/b", Crawler: &baidu, Dialect: Google}); !d.Allowed {
		t.Error("an explicit dialect wins over the crawler's own")
	}
}

func TestParseDialect(t *testing.T) {
	for _, d := range Dialects() {
		got, err := ParseDialect(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDialect(%q) = %v, %v", d.String(), got, err)
		}
	}
	if _, err := ParseDialect("klingon"); err == nil {
		t.Error("unknown dialect accepted")
	}
	if d, err := ParseDialect(DefaultDialect.String()); err != nil || d != DefaultDialect {
		t.Errorf("ParseDialect(%q) = %v, %v: the default dialect's name must parse", DefaultDialect.String(), d, err)
	}
}

func TestExplain(t *testing.T) {
	r := ParseString("User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b\nDisallow:\n")
	d := r.Decide(Query{URL: "/a/b/c", Agents: []string{"x"}, Explain: true})
	if !d.Allowed || d.Line() != 3 {
		t.Fatalf("got %v line %d", d.Allowed, d.Line())
	}
	if len(d.Matches) != 4 {
		t.Fatalf("matches = %+v", d.Matches)
	}
	wantLines := []int{3, 4, 2, 5}
	for i, m := range d.Matches {
		if m.Line != wantLines[i] {
			t.Errorf("match %d: line %d, want %d", i, m.Line, wantLines[i])
		}
		if (i == 0) != (m.Lost == "") {
			t.Errorf("match %d: lost = %q", i, m.Lost)
		}
	}
	if d.Matches[1].Lost != "same length: allow wins a tie" {
		t.Errorf("tie reason = %q", d.Matches[1].Lost)
	}
	if d.Group.Kind != GroupGlobal || len(d.Group.Lines) != 1 || d.Group.Lines[0] != 1 {
		t.Errorf("group = %+v", d.Group)
	}
	if d.Rule.Text != "Allow: /a/b" {
		t.Errorf("rule text = %q", d.Rule.Text)
	}
}

func TestSeveralAgents(t *testing.T) {
	r := ParseString("User-agent: FooBot\nDisallow: /foo\nUser-agent: *\nDisallow: /\n\nUser-agent: BarBot\nDisallow: /bar\nAllow: /bar/ok\n")
	if !r.AllowedAgents([]string{"FooBot", "BarBot"}, "/x") {
		t.Error("/x: the * group must be ignored when any agent is named")
	}
	if r.AllowedAgents([]string{"FooBot", "BarBot"}, "/foo") || r.AllowedAgents([]string{"FooBot", "BarBot"}, "/bar") {
		t.Error("rules of both named groups apply")
	}
	if !r.AllowedAgents([]string{"FooBot", "BarBot"}, "/bar/ok") {
		t.Error("/bar/ok allowed by the longer allow")
	}
	if r.AllowedAgents([]string{"BazBot"}, "/x") {
		t.Error("BazBot follows *")
	}
}

// RFC 9309 §2.2.2 compares URIs normalised per RFC 3986: characters that
// may not appear in a URI as they are (space, '"', '<', '>', '\', '^', '`',
// '{', '|', '}') are percent-encoded on both sides, so a rule written with
// them matches the URL a crawler sends, and the other way round; reserved
// characters keep their meaning, so %3F is not '?'.
func TestRFC9309UnsafeASCII(t *testing.T) {
	q := Query{Agents: []string{"FooBot"}, Dialect: RFC9309}
	checkDialect(t, "User-agent: *\nDisallow: /a<b>\nDisallow: /c%7Cd\nDisallow: /e\"f\nDisallow: /g{h}^`\\\n", q, []dialectCase{
		{"/a%3Cb%3E", false, 2},
		{"/a%3cb%3e", false, 2},
		{"/a<b>", false, 2},
		{"/c|d", false, 3},
		{"/c%7cd", false, 3},
		{"/e%22f", false, 4},
		{"/g%7Bh%7D%5E%60%5C", false, 5},
		{"/g{h}^`\\", false, 5},
	})
	checkDialect(t, "User-agent: *\nDisallow: /a%3Fb\nDisallow: /c?d\n", q, []dialectCase{
		{"/a?b", true, 0}, {"/a%3Fb", false, 2}, {"/c%3Fd", true, 0}, {"/c?d", false, 3},
	})
	// A '%' that starts no escape is a literal '%', written %25.
	checkDialect(t, "User-agent: *\nDisallow: /100%\nDisallow: /p%25q\n", q, []dialectCase{
		{"/100%25", false, 2}, {"/100%", false, 2}, {"/100", true, 0}, {"/p%q", false, 3}, {"/p%25q", false, 3},
	})
}

// A crawler is also named by the names the table knows it by (docs/protocol.md, Choosing a group; the
// source documents write "User-Agent: Yahoo! Slurp" and "User-Agent: Sogouspider"),
// while a product token asked about as such means that token alone.
func TestCrawlerAliasesNameTheCrawler(t *testing.T) {
	slurp, _ := LookupCrawler("Slurp")
	for _, body := range []string{
		"User-Agent: Yahoo! Slurp\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		"User-Agent:  Yahoo!  Slurp # Yahoo\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		"User-agent: yahoo! slurp/3.0\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		"User-agent: Slurp\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
	} {
		checkDialect(t, body, Query{Crawler: &slurp}, []dialectCase{{"/x", false, 2}})
	}
	checkDialect(t, "User-Agent: Yahoo! Slurp\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		Query{Agents: []string{"Slurp"}}, []dialectCase{{"/x", true, 5}})
	checkDialect(t, "User-Agent: Yahoo! Slurpy\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		Query{Crawler: &slurp}, []dialectCase{{"/x", true, 5}})
	sogou, _ := LookupCrawler("Sogouspider")
	for _, body := range []string{
		"User-agent: Sogouspider\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		"User-agent: Sogou web spider\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		"User-agent: Sogou\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
	} {
		checkDialect(t, body, Query{Crawler: &sogou}, []dialectCase{{"/x", false, 2}})
	}
	s360, _ := LookupCrawler("360Spider")
	checkDialect(t, "User-agent: haosouspider\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
		Query{Crawler: &s360}, []dialectCase{{"/x", false, 2}})
	for body, token := range map[string]string{
		"User-agent: Sogouspider\nDisallow: /\n":      "Sogouspider",
		"User-agent: Sogou web spider\nDisallow: /\n": "Sogou",
	} {
		d := ParseString(body).Decide(Query{URL: "/x", Crawler: &sogou})
		if d.Group.Token != token || len(d.Group.Lines) != 1 || d.Group.Lines[0] != 1 {
			t.Errorf("%q: group = %+v, want line 1 naming %s", body, d.Group, token)
		}
	}
}

// Baidu's robots.txt help: the first matching Allow or Disallow line
// decides, and Baiduspider supports * and $ (docs/protocol.md, Dialects).
func TestBaidu(t *testing.T) {
	baidu, _ := LookupCrawler("Baiduspider")
	body := "User-agent: Baiduspider\nAllow: /*.html$\nDisallow: /images/*\nDisallow: /*?*\nAllow: /a%2Ab\nDisallow: /\n"
	checkDialect(t, body, Query{Crawler: &baidu}, []dialectCase{
		{"/x/page.html", true, 2},
		{"/x/page.html?q=1", false, 4},
		{"/images/a.png", false, 3},
		{"/images/a.html", true, 2},
		{"/list?page=2", false, 4},
		{"/a*b", true, 5},
		{"/aXb", false, 6},
		{"/robots.txt", true, 0},
		{"/other", false, 6},
	})
	// The original draft, asked for explicitly, reads the same file
	// without wildcards.
	checkDialect(t, body, Query{Crawler: &baidu, Dialect: Original}, []dialectCase{
		{"/images/a.png", false, 6},
		{"/x/page.html", false, 6},
	})
	r := ParseString("User-agent: *\nDisallow: /a\nAllow: /a/b\n")
	d := r.Decide(Query{URL: "/a/b/c", Crawler: &baidu, Explain: true})
	if d.Allowed || len(d.Lost()) != 1 || !strings.Contains(d.Lost()[0].Lost, "first match wins in the baidu dialect") {
		t.Errorf("explain: %v %+v", d.Allowed, d.Matches)
	}
	if got, err := ParseDialect("Baidu"); err != nil || got != Baidu {
		t.Errorf("ParseDialect(baidu) = %v, %v", got, err)
	}
	if got, err := ParseDialect("draft"); err != nil || got != Original {
		t.Errorf("ParseDialect(draft) = %v, %v", got, err)
	}
}

// Yandex reads a robots.txt over 500 KB as no restrictions, whatever the
// source of the file (docs/protocol.md, Dialects); other dialects read its first 500 KiB.
func TestYandexIgnoresOversizedFiles(t *testing.T) {
	head := "User-agent: *\nDisallow: /\n"
	pad := func(n int) string { return head + strings.Repeat("#", n-len(head)) }
	yb, _ := LookupCrawler("YandexBot")
	gb, _ := LookupCrawler("Googlebot")
	for _, tc := range []struct {
		name   string
		r      *Robots
		yandex bool // allowed for YandexBot
	}{
		{"at the limit", ParseString(pad(DefaultMaxBytes)), false},
		{"one byte over", ParseString(pad(DefaultMaxBytes + 1)), true},
		{"600 KB", Parse([]byte(pad(600_000))), true},
		{"no limit", ParseWith([]byte(pad(600_000)), &ParseOptions{MaxBytes: -1}), true},
		{"cut by the caller", ParseWith([]byte(pad(DefaultMaxBytes)), &ParseOptions{Size: DefaultMaxBytes + 1}), true},
		{"caller's size not over the body", ParseWith([]byte(pad(1000)), &ParseOptions{Size: 10}), false},
	} {
		d := tc.r.Decide(Query{URL: "/x", Crawler: &yb})
		if d.Allowed != tc.yandex {
			t.Errorf("%s: YandexBot allowed = %v, want %v (%s)", tc.name, d.Allowed, tc.yandex, d.Reason)
		}
		if tc.yandex && !strings.HasPrefix(d.Reason, "Yandex ignores files over 500 KB") {
			t.Errorf("%s: reason %q", tc.name, d.Reason)
		}
		if d := tc.r.Decide(Query{URL: "/x", Agents: []string{"x"}, Dialect: Yandex}); d.Allowed != tc.yandex {
			t.Errorf("%s: dialect yandex allowed = %v", tc.name, d.Allowed)
		}
		if d := tc.r.Decide(Query{URL: "/x", Crawler: &gb}); d.Allowed {
			t.Errorf("%s: Googlebot reads the first 500 KiB: allowed", tc.name)
		}
	}
	if r := ParseWith([]byte("x"), &ParseOptions{Size: 700_000}); !r.Truncated() || r.Size() != 700_000 {
		t.Errorf("caller-cut body: Truncated %v Size %d", r.Truncated(), r.Size())
	}
}

// TestGoogleField checks how the google reading names keys: by
// case-insensitive prefix, with Google's typos, and the extension fields
// exactly.
func TestGoogleField(t *testing.T) {
	for _, c := range []struct {
		key   string
		field Field
		flags lineFlags
	}{
		{"Disallow", FieldDisallow, 0},
		{"DISALLOW", FieldDisallow, 0},
		{"disallowed", FieldDisallow, flagPrefixKey},
		{"dissallow", FieldDisallow, flagTypo},
		{"Dissalow", FieldDisallow, flagTypo},
		{"disalow", FieldDisallow, flagTypo},
		{"diasllow", FieldDisallow, flagTypo},
		{"disallaw", FieldDisallow, flagTypo},
		{"disallo", FieldUnknown, 0},
		{"allow", FieldAllow, 0},
		{"ALLOW", FieldAllow, 0},
		{"allows", FieldAllow, flagPrefixKey},
		{"allo", FieldUnknown, 0},
		{"User-agent", FieldUserAgent, 0},
		{"USER-AGENT", FieldUserAgent, 0},
		{"user-agents", FieldUserAgent, flagPrefixKey},
		{"user-agenT", FieldUserAgent, 0},
		{"user-agen", FieldUnknown, 0},
		{"user-age\x00t", FieldUnknown, 0},
		{"useragent", FieldUserAgent, flagTypo},
		{"user agent", FieldUserAgent, flagTypo},
		{"Sitemap", FieldSitemap, 0},
		{"sitemaps", FieldSitemap, flagPrefixKey},
		{"site-map", FieldSitemap, flagTypo},
		{"Crawl-delay", FieldCrawlDelay, 0},
		{"host", FieldHost, 0},
		{"dallow", FieldUnknown, 0},
		{"\xc4isallow", FieldUnknown, 0},
		{"Disallow\xc4", FieldDisallow, flagPrefixKey},
	} {
		f, flags := googleField(c.key, 0)
		if f != c.field || flags != c.flags {
			t.Errorf("googleField(%q) = %v, %#x; want %v, %#x", c.key, f, flags, c.field, c.flags)
		}
	}
}

// TestDefaultDialects: the dialects crawlers read by are every dialect but
// the original draft, in Dialects' order, and a fresh slice each call.
func TestDefaultDialects(t *testing.T) {
	got := DefaultDialects()
	want := []Dialect{Google, RFC9309, Bing, Yandex, Baidu}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("DefaultDialects() = %v, want %v", got, want)
	}
	got[0] = Original
	if DefaultDialects()[0] != Google {
		t.Fatal("DefaultDialects shares its slice")
	}
}

// TestQueryReadsIn: the dialect a query reads in is its own, else its
// crawler's, else Google's (a product token's); Decide answers in it.
func TestQueryReadsIn(t *testing.T) {
	baidu, _ := LookupCrawler("Baiduspider")
	custom := Crawler{Name: "Custom", Token: "Custom"} // no dialect: Google's
	r := Parse([]byte("User-agent: *\nAllow: /a\nDisallow: /\n"))
	for _, c := range []struct {
		q    Query
		want Dialect
	}{
		{Query{Agents: []string{"MyBot"}}, Google},
		{Query{Agents: []string{"MyBot"}, Dialect: Yandex}, Yandex},
		{Query{Crawler: &baidu}, Baidu},
		{Query{Crawler: &baidu, Dialect: Bing}, Bing},
		{Query{Crawler: &custom}, Google},
		{Query{Dialect: Dialect(200)}, Google},
	} {
		if got := c.q.ReadsIn(); got != c.want {
			t.Errorf("%+v: ReadsIn %v, want %v", c.q, got, c.want)
		}
		q := c.q
		q.URL = "/a"
		if d := r.Decide(q); c.want <= Baidu && d.Dialect != c.want {
			t.Errorf("%+v: Decide answers in %v, want %v", c.q, d.Dialect, c.want)
		}
	}
}

// TestURLHead: a URL's head is its scheme and authority, cut where
// PathParamsQuery starts reading; nothing in the path changes it.
func TestURLHead(t *testing.T) {
	for _, c := range [][2]string{
		{"https://example.com/a%zz", "https://example.com"},
		{"http://example.com:8080?q", "http://example.com:8080"},
		{"http://example.com;p/x", "http://example.com"},
		{"http://example.com#f/x", "http://example.com"},
		{"http://user@example.com/%", "http://user@example.com"},
		{"ftp://[::1]:21/x", "ftp://[::1]:21"},
		{"HTTP://Example.COM", "HTTP://Example.COM"},
		{"example.com/a", "example.com"},
		{"/a/b", ""},
		{"#x", ""},
		{"//example.com/x", "//example.com"},
	} {
		if got := URLHead(c[0]); got != c[1] {
			t.Errorf("URLHead(%q) = %q, want %q", c[0], got, c[1])
		}
		// What follows the head is the path rules read (fragment cut).
		rest, _, _ := strings.Cut(c[0][len(c[1]):], "#")
		if !strings.HasPrefix(rest, "/") {
			rest = "/" + rest
		}
		if p := PathParamsQuery(c[0]); p != rest {
			t.Errorf("%q: the path %q does not follow the head (want %q)", c[0], p, rest)
		}
	}
}
