package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// checkCase is one behavioural statement of docs/protocol.md (File format to Dialects) for a dialect other
// than google, or for the crawler table, asked through robotstxt eval.
type checkCase struct {
	id      string // what the case checks, with the spec section
	robots  string
	who     string // "ua:TOKEN", "agents:A,B" or "crawler:NAME"
	url     string
	dialect string
	want    string // the answer line, exactly
}

func (c checkCase) question() string {
	q := map[string]any{"robots": c.robots, "url": c.url}
	kind, v, _ := strings.Cut(c.who, ":")
	switch kind {
	case "agents":
		q["agents"] = strings.Split(v, ",")
	default:
		q[kind] = v
	}
	if c.dialect != "" {
		q["dialect"] = c.dialect
	}
	b, _ := json.Marshal(q)
	return string(b)
}

// Answers, for brevity.
func ans(allowed bool, line int, rule, dialect string) string {
	b, _ := json.Marshal(answer{Allowed: allowed, Line: line, Rule: rule, Dialect: dialect})
	return string(b)
}

func ansDelay(allowed bool, line int, rule, dialect string, delay any) string {
	s := ans(allowed, line, rule, dialect)
	d, _ := json.Marshal(delay)
	return strings.TrimSuffix(s, "}") + `,"crawl_delay":` + string(d) + "}"
}

const (
	fictRecords = "# /robots.txt for http://www.fict.org/\n# comments to webmaster@fict.org\n\n" +
		"User-agent: unhipbot\nDisallow: /\n\nUser-agent: webcrawler\nUser-agent: excite\nDisallow: \n\n" +
		"User-agent: *\nDisallow: /org/plans.html\nAllow: /org/\nAllow: /serv\nAllow: /~mak\nDisallow: /\n"
	yandexGroups = "User-agent: YandexBot\nDisallow: /*id=\n\nUser-agent: Yandex\nDisallow: /*sid=\n\nUser-agent: *\nDisallow: /cgi-bin\n"
	bingFile     = "User-agent: *\nCrawl-delay: 10\nDisallow: /p\n\nUser-agent: bingbot\nDisallow: /b\n"
	worked       = "User-agent: googlebot-news\nDisallow: /n\n\nUser-agent: *\nDisallow: /s\n\nUser-agent: googlebot\nDisallow: /g\n"
)

var checklist = []checkCase{
	// rfc9309 (docs/protocol.md: Google's reading in detail, Dialects).
	{"rfc9309 exact keys: prefix key ignored", "User-agent: *\nDisallowed: /a\n", "ua:x", "/a", "rfc9309", ans(true, 0, "", "rfc9309")},
	{"rfc9309 exact keys: typo ignored", "User-agent: *\nDisalow: /a\n", "ua:x", "/a", "rfc9309", ans(true, 0, "", "rfc9309")},
	{"rfc9309 colon required", "User-agent: *\nDisallow /a\n", "ua:x", "/a", "rfc9309", ans(true, 0, "", "rfc9309")},
	{"rfc9309 keys case-insensitive", "USER-AGENT: *\ndisallow: /a\n", "ua:x", "/a", "rfc9309", ans(false, 2, "disallow: /a", "rfc9309")},
	{"rfc9309 no index.htm rule", "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n", "ua:x", "/d/", "rfc9309", ans(false, 2, "Disallow: /d/", "rfc9309")},
	{"rfc9309 no line cut", "User-agent: *\nDisallow: /" + strings.Repeat("a", 17000) + "b\n", "ua:x", "/" + strings.Repeat("a", 17000), "rfc9309", ans(true, 0, "", "rfc9309")},
	{"rfc9309 unreserved %xx decoded in pattern", "User-agent: *\nDisallow: /foo/bar/%62%61%7A\n", "ua:x", "/foo/bar/baz", "rfc9309", ans(false, 2, "Disallow: /foo/bar/%62%61%7A", "rfc9309")},
	{"rfc9309 unreserved %xx decoded in URL", "User-agent: *\nDisallow: /a~b\n", "ua:x", "/a%7eb", "rfc9309", ans(false, 2, "Disallow: /a~b", "rfc9309")},
	{"rfc9309 non-ASCII encoded in pattern", "User-agent: *\nDisallow: /foo/bar/ツ\n", "ua:x", "/foo/bar/%E3%83%84", "rfc9309", ans(false, 2, "Disallow: /foo/bar/ツ", "rfc9309")},
	{"rfc9309 non-ASCII encoded in URL", "User-agent: *\nDisallow: /foo/bar/%E3%83%84\n", "ua:x", "/foo/bar/ツ", "rfc9309", ans(false, 2, "Disallow: /foo/bar/%E3%83%84", "rfc9309")},
	{"rfc9309 hex case-insensitive", "User-agent: *\nDisallow: /%e3%83%84\n", "ua:x", "/%E3%83%84", "rfc9309", ans(false, 2, "Disallow: /%e3%83%84", "rfc9309")},
	{"rfc9309 reserved escape stays: %2F is not /", "User-agent: *\nDisallow: /a%2Fb\n", "ua:x", "/a/b", "rfc9309", ans(true, 0, "", "rfc9309")},
	{"rfc9309 %2A matches a literal *", "User-agent: *\nDisallow: /file-%2A.html\n", "ua:x", "/file-*.html", "rfc9309", ans(false, 2, "Disallow: /file-%2A.html", "rfc9309")},
	{"rfc9309 %2A is no wildcard", "User-agent: *\nDisallow: /file-%2A.html\n", "ua:x", "/file-x.html", "rfc9309", ans(true, 0, "", "rfc9309")},
	{"rfc9309 %24 matches a literal $", "User-agent: *\nDisallow: /foo-%24\n", "ua:x", "/foo-$", "rfc9309", ans(false, 2, "Disallow: /foo-%24", "rfc9309")},
	{"rfc9309 %24 is no anchor", "User-agent: *\nDisallow: /foo%24\n", "ua:x", "/foo", "rfc9309", ans(true, 0, "", "rfc9309")},
	{"rfc9309 * and $ are operators", "User-agent: *\nDisallow: /*.php$\n", "ua:x", "/a/b.php", "rfc9309", ans(false, 2, "Disallow: /*.php$", "rfc9309")},
	{"rfc9309 $ anchors", "User-agent: *\nDisallow: /*.php$\n", "ua:x", "/a/b.php?x", "rfc9309", ans(true, 0, "", "rfc9309")},
	{"rfc9309 /robots.txt always allowed", "User-agent: *\nDisallow: /\n", "ua:x", "https://example.com/robots.txt", "rfc9309", ans(true, 0, "", "rfc9309")},
	{"rfc9309 other paths follow the rules", "User-agent: *\nDisallow: /\n", "ua:x", "https://example.com/robots.txt.bak", "rfc9309", ans(false, 2, "Disallow: /", "rfc9309")},
	{"rfc9309 longest match", "User-agent: *\nAllow: /p\nDisallow: /\n", "ua:x", "/page", "rfc9309", ans(true, 2, "Allow: /p", "rfc9309")},
	{"rfc9309 allow wins a tie", "User-agent: *\nDisallow: /a\nAllow: /a\n", "ua:x", "/a", "rfc9309", ans(true, 3, "Allow: /a", "rfc9309")},
	{"rfc9309 groups merged, * ignored", "User-agent: FooBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: foobot\nAllow: /a/b\n", "ua:FooBot", "/a/b", "rfc9309", ans(true, 8, "Allow: /a/b", "rfc9309")},
	{"rfc9309 * when none names it", "User-agent: FooBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n", "ua:BarBot", "/a", "rfc9309", ans(false, 5, "Disallow: /", "rfc9309")},
	{"rfc9309 no crawl_delay field", "User-agent: *\nCrawl-delay: 5\nDisallow: /a\n", "ua:x", "/a", "rfc9309", ans(false, 3, "Disallow: /a", "rfc9309")},

	// bing (docs/protocol.md, Dialects).
	{"bing * ignored when a bingbot group exists", bingFile, "crawler:bingbot", "/p", "", ansDelay(true, 0, "", "bing", 10)},
	{"bing crawl-delay from * when bingbot has none", bingFile, "crawler:Bingbot", "/b", "", ansDelay(false, 6, "Disallow: /b", "bing", 10)},
	{"bing own crawl-delay first", "User-agent: *\nCrawl-delay: 10\nDisallow: /p\n\nUser-agent: bingbot\nCrawl-delay: 2.5\nDisallow: /b\n", "crawler:bingbot", "/b", "", ansDelay(false, 7, "Disallow: /b", "bing", 2.5)},
	{"bing unreadable crawl-delay ignored", "User-agent: bingbot\nCrawl-delay: soon\nDisallow: /b\n", "crawler:bingbot", "/b", "", ansDelay(false, 3, "Disallow: /b", "bing", nil)},
	{"bing * group when no bingbot group", "User-agent: *\nCrawl-delay: 0.5\nDisallow: /p\n", "crawler:bingbot", "/p", "", ansDelay(false, 3, "Disallow: /p", "bing", 0.5)},
	{"bing matching as Google: index.htm", "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n", "ua:x", "/d/", "bing", ansDelay(true, 3, "Allow: /d/index.html", "bing", nil)},
	{"bing reading as Google: typos", "User-agent: *\nDisalow: /a\n", "ua:x", "/a", "bing", ansDelay(false, 2, "Disalow: /a", "bing", nil)},
	{"bing URL as given", "User-agent: *\nDisallow: /ツ\n", "ua:x", "/ツ", "bing", ansDelay(true, 0, "", "bing", nil)},
	{"bing falls back to msnbot", "User-agent: msnbot\nDisallow: /m\n\nUser-agent: *\nDisallow: /\n", "crawler:bingbot", "/x", "", ansDelay(true, 0, "", "bing", nil)},
	{"bing: google dialect asked, no crawl_delay", bingFile, "crawler:bingbot", "/b", "google", ans(false, 6, "Disallow: /b", "google")},

	// yandex (docs/protocol.md, Dialects; Yandex's help).
	{"yandex own token beats Yandex", yandexGroups, "crawler:YandexBot", "/x?sid=1", "", ansDelay(false, 2, "Disallow: /*id=", "yandex", nil)},
	{"yandex own token: Yandex group unused", yandexGroups, "crawler:YandexBot", "/x?xsid", "", ansDelay(true, 0, "", "yandex", nil)},
	{"yandex Yandex group for other robots", yandexGroups, "crawler:YandexImages", "/x?sid=1", "", ansDelay(false, 5, "Disallow: /*sid=", "yandex", nil)},
	{"yandex * ignored when a Yandex group exists", yandexGroups, "crawler:YandexImages", "/cgi-bin/a", "", ansDelay(true, 0, "", "yandex", nil)},
	{"yandex * applies otherwise", "User-agent: *\nDisallow: /cgi-bin\n", "crawler:YandexBot", "/cgi-bin/a", "", ansDelay(false, 2, "Disallow: /cgi-bin", "yandex", nil)},
	{"yandex no group: all allowed", "User-agent: Googlebot\nDisallow: /\n", "crawler:YandexBot", "/a", "", ansDelay(true, 0, "", "yandex", nil)},
	{"yandex sorted by length (allow after)", "User-agent: Yandex\nAllow: /\nAllow: /catalog/auto\nDisallow: /catalog\n", "crawler:YandexBot", "/catalog/auto/1", "", ansDelay(true, 3, "Allow: /catalog/auto", "yandex", nil)},
	{"yandex sorted by length (order irrelevant)", "User-agent: Yandex\nAllow: /\nDisallow: /catalog\nAllow: /catalog/auto\n", "crawler:YandexBot", "/catalog/x", "", ansDelay(false, 3, "Disallow: /catalog", "yandex", nil)},
	{"yandex allow wins a tie", "User-agent: Yandex\nDisallow: /a\nAllow: /a\n", "crawler:YandexBot", "/a", "", ansDelay(true, 3, "Allow: /a", "yandex", nil)},
	{"yandex Allow: /cgi-bin + Disallow: /", "User-agent: Yandex\nAllow: /cgi-bin\nDisallow: /\n", "crawler:YandexBot", "/cgi-bin/x", "", ansDelay(true, 2, "Allow: /cgi-bin", "yandex", nil)},
	{"yandex ? is literal", "User-agent: Yandex\nDisallow: /page?\n", "crawler:YandexBot", "/page?a=1", "", ansDelay(false, 2, "Disallow: /page?", "yandex", nil)},
	{"yandex $ anchors", "User-agent: Yandex\nDisallow: /\nAllow: /*.html$\n", "crawler:YandexBot", "/a.html", "", ansDelay(true, 3, "Allow: /*.html$", "yandex", nil)},
	{"yandex $ anchors (miss)", "User-agent: Yandex\nDisallow: /\nAllow: /*.html$\n", "crawler:YandexBot", "/a.html?x", "", ansDelay(false, 2, "Disallow: /", "yandex", nil)},
	{"yandex empty Disallow allows", "User-agent: Yandex\nDisallow:\n", "crawler:YandexBot", "/a", "", ansDelay(true, 2, "Disallow:", "yandex", nil)},
	{"yandex no index.htm rule", "User-agent: Yandex\nDisallow: /d/\nAllow: /d/index.html\n", "crawler:YandexBot", "/d/", "", ansDelay(false, 2, "Disallow: /d/", "yandex", nil)},
	{"yandex crawl-delay reported", "User-agent: Yandex\nCrawl-delay: 2.5\nHost: example.com\nClean-param: ref /a\nDisallow: /a\n", "crawler:YandexBot", "/a", "", ansDelay(false, 5, "Disallow: /a", "yandex", 2.5)},
	{"yandex crawl-delay not from * when named", "User-agent: Yandex\nDisallow: /a\n\nUser-agent: *\nCrawl-delay: 9\n", "crawler:YandexBot", "/a", "", ansDelay(false, 2, "Disallow: /a", "yandex", nil)},
	{"yandex ua means the token alone", "User-agent: Yandex\nDisallow: /\n", "ua:YandexBot", "/a", "yandex", ansDelay(true, 0, "", "yandex", nil)},

	// original (docs/protocol.md, Dialects; the 1996 draft).
	{"original fict / no", fictRecords, "ua:OtherBot", "http://www.fict.org/", "original", ans(false, 16, "Disallow: /", "original")},
	{"original fict /index.html no", fictRecords, "ua:OtherBot", "http://www.fict.org/index.html", "original", ans(false, 16, "Disallow: /", "original")},
	{"original fict /robots.txt yes", fictRecords, "ua:OtherBot", "http://www.fict.org/robots.txt", "original", ans(true, 0, "", "original")},
	{"original fict /server.html yes", fictRecords, "ua:OtherBot", "http://www.fict.org/server.html", "original", ans(true, 14, "Allow: /serv", "original")},
	{"original fict /services/fast.html yes", fictRecords, "ua:OtherBot", "http://www.fict.org/services/fast.html", "original", ans(true, 14, "Allow: /serv", "original")},
	{"original fict /orgo.gif no", fictRecords, "ua:OtherBot", "http://www.fict.org/orgo.gif", "original", ans(false, 16, "Disallow: /", "original")},
	{"original fict /org/about.html yes", fictRecords, "ua:OtherBot", "http://www.fict.org/org/about.html", "original", ans(true, 13, "Allow: /org/", "original")},
	{"original fict /org/plans.html no", fictRecords, "ua:OtherBot", "http://www.fict.org/org/plans.html", "original", ans(false, 12, "Disallow: /org/plans.html", "original")},
	{"original fict /%7Ejim no", fictRecords, "ua:OtherBot", "http://www.fict.org/%7Ejim/jim.html", "original", ans(false, 16, "Disallow: /", "original")},
	{"original fict /%7Emak yes", fictRecords, "ua:OtherBot", "http://www.fict.org/%7Emak/mak.html", "original", ans(true, 15, "Allow: /~mak", "original")},
	{"original named record", fictRecords, "ua:unhipbot", "/server.html", "original", ans(false, 5, "Disallow: /", "original")},
	{"original empty Disallow allows all", fictRecords, "ua:excite", "/org/plans.html", "original", ans(true, 0, "", "original")},
	{"original substring, case-insensitive, no version", "User-agent: Mega-WebCrawler/2.1\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n", "ua:webcrawler/3.0", "/a", "original", ans(false, 2, "Disallow: /a", "original")},
	{"original first record only", "User-agent: foobot\nDisallow: /b\n\nUser-agent: foobot\nDisallow: /c\n", "ua:FooBot", "/c", "original", ans(true, 0, "", "original")},
	{"original first * record only", "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /c\n", "ua:FooBot", "/c", "original", ans(true, 0, "", "original")},
	{"original * only when no record names it", "User-agent: *\nDisallow: /a\n\nUser-agent: foobot\nDisallow: /b\n", "ua:FooBot", "/a", "original", ans(true, 0, "", "original")},
	{"original blank line ends a record", "User-agent: *\nDisallow: /a\n\nDisallow: /b\n", "ua:x", "/b", "original", ans(true, 0, "", "original")},
	{"original comment line ends no record", "User-agent: *\n# note\nDisallow: /b\n", "ua:x", "/b", "original", ans(false, 3, "Disallow: /b", "original")},
	{"original first match wins", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "ua:x", "/a/b", "original", ans(false, 2, "Disallow: /a", "original")},
	{"original first match wins (allow first)", "User-agent: *\nAllow: /a/b\nDisallow: /a\n", "ua:x", "/a/b", "original", ans(true, 2, "Allow: /a/b", "original")},
	{"original * is literal", "User-agent: *\nDisallow: /*.gif\n", "ua:x", "/a.gif", "original", ans(true, 0, "", "original")},
	{"original $ is literal", "User-agent: *\nDisallow: /a$\n", "ua:x", "/a", "original", ans(true, 0, "", "original")},
	{"original %xx decoded both sides", "User-agent: *\nDisallow: /a%3cd.html\n", "ua:x", "/a<d.html", "original", ans(false, 2, "Disallow: /a%3cd.html", "original")},
	{"original %2F kept", "User-agent: *\nDisallow: /a%2fb.html\n", "ua:x", "/a/b.html", "original", ans(true, 0, "", "original")},
	{"original %2F matches %2f", "User-agent: *\nDisallow: /a%2fb.html\n", "ua:x", "/a%2Fb.html", "original", ans(false, 2, "Disallow: /a%2fb.html", "original")},
	{"original exact keys", "User-agent: *\nDisallowed: /a\nDisallow /a\n", "ua:x", "/a", "original", ans(true, 0, "", "original")},
	{"original case-sensitive paths", "User-agent: *\nDisallow: /A\n", "ua:x", "/a", "original", ans(true, 0, "", "original")},
	{"original no crawl_delay field", "User-agent: *\nCrawl-delay: 5\nDisallow: /a\n", "ua:x", "/a", "original", ans(false, 3, "Disallow: /a", "original")},

	// baidu (docs/protocol.md, Dialects; Baidu's robots.txt help: the first matching line
	// decides, and Baiduspider supports * and $).
	{"baidu: Baiduspider's dialect, first match", "User-agent: Baiduspider\nDisallow: /a\nAllow: /a/b\n", "crawler:Baiduspider", "/a/b", "", ans(false, 2, "Disallow: /a", "baidu")},
	{"baidu help: Allow before Disallow lets it through", "User-agent: Baiduspider\nAllow: /dir1/\nDisallow: /dir1/\n", "crawler:Baiduspider", "/dir1/page.html", "", ans(true, 2, "Allow: /dir1/", "baidu")},
	{"baidu help: Disallow before Allow blocks it", "User-agent: Baiduspider\nDisallow: /dir1/\nAllow: /dir1/\n", "crawler:Baiduspider", "/dir1/page.html", "", ans(false, 2, "Disallow: /dir1/", "baidu")},
	{"baidu help: allow a subdirectory, block the rest", "User-agent: *\nAllow: /cgi-bin/see\nAllow: /tmp/hi\nAllow: /~joe/look\nDisallow: /cgi-bin/\nDisallow: /tmp/\nDisallow: /~joe/\n", "crawler:Baiduspider", "/tmp/hi/a.html", "", ans(true, 3, "Allow: /tmp/hi", "baidu")},
	{"baidu help: allow a subdirectory, block the rest (blocked)", "User-agent: *\nAllow: /cgi-bin/see\nAllow: /tmp/hi\nAllow: /~joe/look\nDisallow: /cgi-bin/\nDisallow: /tmp/\nDisallow: /~joe/\n", "crawler:Baiduspider", "/tmp/other", "", ans(false, 6, "Disallow: /tmp/", "baidu")},
	{"baidu * any run of characters", "User-agent: Baiduspider\nDisallow: /images/*\n", "crawler:Baiduspider", "/images/a.png", "", ans(false, 2, "Disallow: /images/*", "baidu")},
	{"baidu /*?* blocks dynamic pages", "User-agent: Baiduspider\nDisallow: /*?*\n", "crawler:Baiduspider", "/list?page=2", "", ans(false, 2, "Disallow: /*?*", "baidu")},
	{"baidu /*?* passes static pages", "User-agent: Baiduspider\nDisallow: /*?*\n", "crawler:Baiduspider", "/list/page2.html", "", ans(true, 0, "", "baidu")},
	{"baidu $ ends the URL", "User-agent: Baiduspider\nDisallow: /*.jpg$\n", "crawler:Baiduspider", "/a/b.jpg", "", ans(false, 2, "Disallow: /*.jpg$", "baidu")},
	{"baidu $ ends the URL (miss)", "User-agent: Baiduspider\nDisallow: /*.jpg$\n", "crawler:Baiduspider", "/a/b.jpg?x=1", "", ans(true, 0, "", "baidu")},
	{"baidu first match with wildcards", "User-agent: Baiduspider\nAllow: /*.html$\nDisallow: /\n", "crawler:Baiduspider", "/a/b.html", "", ans(true, 2, "Allow: /*.html$", "baidu")},
	{"baidu first match, not the longest", "User-agent: Baiduspider\nDisallow: /\nAllow: /*.html$\n", "crawler:Baiduspider", "/a/b.html", "", ans(false, 2, "Disallow: /", "baidu")},
	{"baidu case-sensitive paths", "User-agent: Baiduspider\nDisallow: /A*\n", "crawler:Baiduspider", "/abc", "", ans(true, 0, "", "baidu")},
	{"baidu records as the draft: substring names", "User-agent: Baiduspider-image\nDisallow: /i\n\nUser-agent: *\nDisallow: /\n", "ua:Baiduspider", "/i", "baidu", ans(false, 2, "Disallow: /i", "baidu")},
	{"baidu records as the draft: blank line ends a record", "User-agent: Baiduspider\nDisallow: /a\n\nDisallow: /b\n", "crawler:Baiduspider", "/b", "", ans(true, 0, "", "baidu")},
	{"baidu /robots.txt always allowed", "User-agent: Baiduspider\nDisallow: /\n", "crawler:Baiduspider", "/robots.txt", "", ans(true, 0, "", "baidu")},
	{"baidu ignores the index.htm rule", "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n", "crawler:Baiduspider", "/d/", "", ans(false, 2, "Disallow: /d/", "baidu")},
	{"baidu empty Disallow blocks nothing", "User-agent: *\nDisallow:\nDisallow: /a\n", "crawler:Baiduspider", "/a", "", ans(false, 3, "Disallow: /a", "baidu")},
	{"baidu dialect by name", "User-agent: *\nDisallow: /*.gif\n", "ua:x", "/a.gif", "baidu", ans(false, 2, "Disallow: /*.gif", "baidu")},
	{"original stays strict: * literal for the draft", "User-agent: *\nDisallow: /*.gif\n", "crawler:Baiduspider", "/a.gif", "original", ans(true, 0, "", "original")},

	// The crawler table (docs/protocol.md: Choosing a group, Dialects).
	{"AdsBot-Google ignores *", "User-agent: *\nDisallow: /\n", "crawler:AdsBot-Google", "/x", "", ans(true, 0, "", "google")},
	{"AdsBot-Google-Mobile ignores *", "User-agent: *\nDisallow: /\n", "crawler:AdsBot-Google-Mobile", "/x", "", ans(true, 0, "", "google")},
	{"Mediapartners-Google ignores *", "User-agent: *\nDisallow: /\n", "crawler:Mediapartners-Google", "/x", "", ans(true, 0, "", "google")},
	{"APIs-Google ignores *", "User-agent: *\nDisallow: /\n", "crawler:APIs-Google", "/x", "", ans(true, 0, "", "google")},
	{"AdsBot-Google obeys its own group", "User-agent: AdsBot-Google\nDisallow: /\n", "crawler:AdsBot-Google", "/x", "", ans(false, 2, "Disallow: /", "google")},
	{"AdsBot-Google as a token follows *", "User-agent: *\nDisallow: /\n", "ua:AdsBot-Google", "/x", "", ans(false, 2, "Disallow: /", "google")},
	{"Googlebot-Image falls back to Googlebot", worked, "crawler:Googlebot-Image", "/g", "", ans(false, 8, "Disallow: /g", "google")},
	{"Googlebot-Video falls back to Googlebot", worked, "crawler:Googlebot-Video", "/s", "", ans(true, 0, "", "google")},
	{"Googlebot-News own group", worked, "crawler:Googlebot-News", "/n", "", ans(false, 2, "Disallow: /n", "google")},
	{"worked example: token googlebot-images follows *", worked, "ua:googlebot-images", "/s", "", ans(false, 5, "Disallow: /s", "google")},
	{"worked example: googlebot follows 3", worked, "ua:googlebot", "/g", "", ans(false, 8, "Disallow: /g", "google")},
	{"Storebot-Google follows *", worked, "crawler:Storebot-Google", "/s", "", ans(false, 5, "Disallow: /s", "google")},
	{"every Yandex robot obeys Yandex", "User-agent: Yandex\nDisallow: /\n", "crawler:YandexMobileBot", "/x", "", ansDelay(false, 2, "Disallow: /", "yandex", nil)},
	{"Baiduspider-image falls back", "User-agent: Baiduspider\nDisallow: /\n", "crawler:Baiduspider-image", "/x", "", ans(false, 2, "Disallow: /", "baidu")},
	{"360Spider own group", "User-agent: 360Spider\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "crawler:360Spider", "/x", "", ans(false, 2, "Disallow: /", "google")},
	{"Slurp by its seed name", "User-Agent: Yahoo!  Slurp\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "crawler:Slurp", "/x", "", ans(false, 2, "Disallow: /", "google")},
	{"Sogou by its seed name", "User-Agent: Sogouspider\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "crawler:Sogou", "/x", "", ans(false, 2, "Disallow: /", "google")},
	{"Yisouspider", "User-Agent: Yisouspider\nDisallow: /\n", "crawler:Yisouspider", "/x", "", ans(false, 2, "Disallow: /", "google")},
	{"Twitterbot", "User-agent: Twitterbot\nDisallow: /\n", "crawler:Twitterbot", "/x", "", ans(false, 2, "Disallow: /", "google")},
	{"GPTBot", "User-agent: GPTBot\nDisallow: /\n", "crawler:gptbot", "/x", "", ans(false, 2, "Disallow: /", "google")},
	{"Google-Extended is not Googlebot", "User-agent: Google-Extended\nDisallow: /\n", "crawler:Googlebot", "/x", "", ans(true, 0, "", "google")},
	{"a crawler's dialect yields to an explicit one", "User-agent: Yandex\nDisallow: /\n", "crawler:YandexBot", "/x", "rfc9309", ans(false, 2, "Disallow: /", "rfc9309")},

	// Malformed questions.
	{"unknown crawler", "", "crawler:NoSuchBot", "/", "", `{"error":"question %d: crawler: unknown crawler \"NoSuchBot\""}`},
	{"unknown dialect", "", "ua:x", "/", "baidu2", `{"error":"question %d: dialect: unknown dialect \"baidu2\" (did you mean \"baidu\"?)"}`},
}

func TestEvalDialectChecklist(t *testing.T) {
	var in strings.Builder
	for _, c := range checklist {
		in.WriteString(c.question() + "\n")
	}
	code, out, stderr := runCmd(t, in.String(), "eval")
	// The two malformed questions at the end make the status 1.
	if code != 1 || !strings.HasPrefix(stderr, "robotstxt eval: 2 of ") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := lines(out)
	if len(got) != len(checklist) {
		t.Fatalf("%d answers for %d questions", len(got), len(checklist))
	}
	for i, c := range checklist {
		want := c.want
		if strings.HasPrefix(want, `{"error"`) {
			want = strings.Replace(want, "%d", strconv.Itoa(i+1), 1)
		}
		if got[i] != want {
			t.Errorf("%s:\n got  %s\n want %s", c.id, got[i], want)
		}
	}
}
