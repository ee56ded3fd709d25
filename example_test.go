package robotstxt_test

import (
	"fmt"
	"time"

	"github.com/seed53c283f5/robotstxt"
)

const exampleFile = `User-agent: Googlebot
Disallow: /private/
Allow: /private/press/

User-agent: *
Disallow: /tmp/
Crawl-delay: 5

Sitemap: https://example.com/sitemap.xml
`

func ExampleParse() {
	r := robotstxt.Parse([]byte(exampleFile))
	fmt.Println(len(r.Groups()), "groups,", len(r.Sitemaps()), "sitemap:", r.Sitemaps()[0].URL)
	// Output: 2 groups, 1 sitemap: https://example.com/sitemap.xml
}

func ExampleRobots_Allowed() {
	r := robotstxt.Parse([]byte(exampleFile))
	fmt.Println(r.Allowed("Googlebot", "https://example.com/private/x"))
	fmt.Println(r.Allowed("Googlebot", "https://example.com/private/press/2026"))
	fmt.Println(r.Allowed("Googlebot", "https://example.com/tmp/x")) // the * group does not apply to Googlebot
	fmt.Println(r.Allowed("GPTBot", "https://example.com/tmp/x"))
	// Output:
	// false
	// true
	// true
	// false
}

func ExampleRobots_Decide() {
	r := robotstxt.Parse([]byte(exampleFile))
	d := r.Decide(robotstxt.Query{URL: "https://example.com/private/press/a", Agents: []string{"Googlebot"}, Explain: true})
	fmt.Println(d.Allowed, "by line", d.Line(), d.Rule.Text)
	fmt.Println(d.Group.Reason)
	for _, m := range d.Lost() {
		fmt.Printf("line %d lost: %s\n", m.Line, m.Lost)
	}
	// Output:
	// true by line 3 Allow: /private/press/
	// user-agent line 1 names Googlebot
	// line 2 lost: shorter: 9 bytes against 15 (the longest match wins)
}

func ExampleRobots_Decide_crawler() {
	r := robotstxt.Parse([]byte(exampleFile))
	bing, _ := robotstxt.LookupCrawler("Bingbot")
	d := r.Decide(robotstxt.Query{URL: "https://example.com/tmp/a", Crawler: &bing})
	fmt.Println(d.Dialect, d.Allowed, d.Line(), d.CrawlDelay)
	// Output: bing false 6 5
}

func ExampleRobots_Decide_dialects() {
	r := robotstxt.Parse([]byte("User-agent: *\nDisallow: /a\nAllow: /a/b\n"))
	for _, d := range robotstxt.Dialects() {
		dec := r.Decide(robotstxt.Query{URL: "/a/b", Agents: []string{"anybot"}, Dialect: d})
		fmt.Println(d, dec.Allowed)
	}
	// Output:
	// google true
	// rfc9309 true
	// bing true
	// yandex true
	// baidu false
	// original false
}

func ExampleNormalizeURL() {
	fmt.Println(robotstxt.NormalizeURL("https://example.com/ツ?q=%e2%9c%93"))
	// Output: https://example.com/%E3%83%84?q=%E2%9C%93
}

func ExampleRobots_Lines() {
	r := robotstxt.Parse([]byte("useragent: *\nDisallow /x\ncrawl-delay: 2\n"))
	for _, l := range r.Lines() {
		fmt.Println(l.Number, l.GoogleTag(), l.Typo, l.MissingColon)
	}
	// Output:
	// 1 UserAgent true false
	// 2 Disallow false true
	// 3 Unused false false
	// 4 Unknown false false
}

func ExampleLookupCrawler() {
	c, _ := robotstxt.LookupCrawler("Googlebot-Image")
	fmt.Println(c.Tokens(), c.Dialect, c.IgnoresGlobal)
	ads, _ := robotstxt.LookupCrawler("AdsBot-Google")
	fmt.Println(ads.Tokens(), ads.IgnoresGlobal)
	// Output:
	// [Googlebot-Image Googlebot] google false
	// [AdsBot-Google] true
}

func ExampleRobots_CleanURL() {
	r := robotstxt.Parse([]byte("User-agent: Yandex\nClean-param: ref&sid /shop/\n"))
	fmt.Println(r.CleanURL("https://example.com/shop/item?id=7&ref=mail&sid=42"))
	// Output: https://example.com/shop/item?id=7
}

// A URL that no rule matches (most URLs): Rule is its zero value, Line is
// 0 and Lost is empty, so the same code reads every decision safely.
func ExampleRobots_Decide_noMatch() {
	r := robotstxt.Parse([]byte(exampleFile))
	d := r.Decide(robotstxt.Query{URL: "https://example.com/about", Agents: []string{"Googlebot"}, Explain: true})
	fmt.Println(d.Allowed, d.HasRule(), "by line", d.Line(), d.Rule.Text == "")
	fmt.Println(d.Reason)
	for _, m := range d.Lost() {
		fmt.Printf("line %d lost: %s\n", m.Line, m.Lost)
	}
	// Output:
	// true false by line 0 true
	// no rule matches: allowed
}

func ExampleProductToken() {
	// The token a crawler's groups are matched against, from the
	// User-Agent header it sends.
	fmt.Println(robotstxt.ProductToken("Googlebot/2.1 (+http://www.google.com/bot.html)"))
	fmt.Println(robotstxt.ProductToken("Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)"))
	// A browser's header names no crawler.
	fmt.Println(robotstxt.ProductToken("Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0"))
	// Output:
	// Googlebot
	// ExampleBot
	// Mozilla
}

func ExampleRobots_CrawlDelay() {
	r := robotstxt.Parse([]byte(exampleFile))
	// ExampleBot has no group of its own: the '*' group's crawl-delay applies.
	p := r.CrawlDelay(robotstxt.Query{Agents: []string{"ExampleBot"}})
	fmt.Println(p.CrawlDelay, "s, line", p.CrawlDelayLine, "of the * group:", p.CrawlDelayGlobal)
	fmt.Println(p.Interval(time.Now()))
	// Google's crawlers ignore the field.
	g, _ := robotstxt.LookupCrawler("Googlebot")
	fmt.Println(r.CrawlDelay(robotstxt.Query{Crawler: &g}).Ignored)
	// Output:
	// 5 s, line 7 of the * group: true
	// 5s
	// true
}

// A known crawler asks in its own dialect, with its fallback tokens:
// Googlebot-Image obeys Googlebot's group when no group names it.
func ExampleCrawler_Query() {
	r := robotstxt.ParseString("User-agent: Googlebot\nDisallow: /private\n")
	c, _ := robotstxt.LookupCrawler("Googlebot-Image")
	dec := r.Decide(c.Query("https://example.com/private/a.png"))
	fmt.Println(dec.Allowed, dec.Line())
	// Output: false 2
}

// What a crawler may do with a page's content: fetch it or not, and the
// AI usage preferences (Content-Usage rules) that apply where it may.
func ExampleRobots_Usage() {
	r := robotstxt.ParseString(`User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Signal: search=yes, ai-train=no
`)
	for _, path := range []string{"/test", "/never/test", "/ai-ok/test"} {
		a := r.Usage(robotstxt.Query{URL: "https://example.com" + path, Agents: []string{"ExampleBot"}})
		if !a.Allowed {
			fmt.Printf("%-12s no crawl, so no preference\n", path)
			continue
		}
		fmt.Printf("%-12s train-ai=%v (line %v), search=%v\n", path, a.Usage.TrainAI(), a.Usage.Lines, a.Usage.Search())
	}
	fmt.Println("signals: search", a(r).Search, "ai-train", a(r).AITrain)
	// Output:
	// /test        train-ai=n (line [4]), search=unknown
	// /never/test  no crawl, so no preference
	// /ai-ok/test  train-ai=y (line [5]), search=unknown
	// signals: search yes ai-train no
}

func a(r *robotstxt.Robots) robotstxt.Signals {
	return r.Usage(robotstxt.Query{URL: "/", Agents: []string{"ExampleBot"}}).Signals
}

// A statement of preference, as a Content-Usage rule or header holds it.
func ExampleParseUsagePreference() {
	prefs, ok := robotstxt.ParseUsagePreference(`train-ai=n, search=y, ai-output="n"`)
	fmt.Println(ok, prefs)
	_, ok = robotstxt.ParseUsagePreference("Train-AI=n") // keys are lower case
	fmt.Println(ok)
	// Output:
	// true [{train-ai n} {search y} {ai-output unknown}]
	// false
}
