package robotstxt

import "strings"

// Crawler describes a known crawler: the product token it looks for in
// user-agent lines, the tokens it falls back to when no group names it, whether
// it obeys the '*' group at all, and which dialect its engine reads robots.txt
// in. These are properties of a crawler, not of a token: they apply when a
// question names a crawler ([Query].Crawler), never when it names tokens.
type Crawler struct {
	Name      string   // the crawler's usual name, e.g. "Googlebot-Image"
	Token     string   // the product token it obeys first
	Fallbacks []string // tokens obeyed, in order, when no group names Token
	// IgnoresGlobal is set for crawlers that obey only groups naming them
	// and never the '*' group (Google's AdsBot crawlers, for example).
	IgnoresGlobal bool
	Dialect       Dialect // its engine's reading of robots.txt
	Operator      string  // who runs it
	Purpose       string  // what it fetches for
	// Control is set for tokens that crawlers of the operator obey for a
	// use of the content but that fetch nothing themselves (Google-Extended).
	Control bool
	// IgnoresCrawlDelay is set for crawlers whose engine ignores
	// crawl-delay and request-rate (Google's); the polite client does not
	// pace them by it, and Robots.CrawlDelay says so (Pace.Ignored).
	IgnoresCrawlDelay bool
	// Aliases are other names it is known by: LookupCrawler finds it by
	// them, and a user-agent line naming one of them names the crawler
	// ("User-agent: Yahoo! Slurp" is a group for Slurp).
	Aliases []string
}

// Tokens returns the tokens the crawler obeys, in order of preference.
func (c *Crawler) Tokens() []string {
	return append([]string{c.Token}, c.Fallbacks...)
}

func google(name, purpose string, fallbacks ...string) Crawler {
	return Crawler{Name: name, Token: name, Fallbacks: fallbacks, Dialect: Google, Operator: "Google", Purpose: purpose, IgnoresCrawlDelay: true}
}

func adsbot(name, purpose string) Crawler {
	c := google(name, purpose)
	c.IgnoresGlobal = true
	return c
}

func yandex(name, purpose string) Crawler {
	return Crawler{Name: name, Token: name, Fallbacks: []string{"Yandex"}, Dialect: Yandex, Operator: "Yandex", Purpose: purpose}
}

func baidu(name, purpose string, fallbacks ...string) Crawler {
	return Crawler{Name: name, Token: name, Fallbacks: fallbacks, Dialect: Baidu, Operator: "Baidu", Purpose: purpose}
}

func other(name, operator, purpose string, aliases ...string) Crawler {
	return Crawler{Name: name, Token: name, Dialect: Google, Operator: operator, Purpose: purpose, Aliases: aliases}
}

func ai(name, operator, purpose string) Crawler {
	return other(name, operator, purpose)
}

// crawlers is the table of known crawlers. Crawlers whose engines document
// no other reading use the google dialect (docs/protocol.md, Dialects).
var crawlers = []Crawler{
	// Google (developers.google.com/search/docs/crawling-indexing/overview-google-crawlers).
	google("Googlebot", "search"),
	google("Googlebot-Image", "image search", "Googlebot"),
	google("Googlebot-News", "news", "Googlebot"),
	google("Googlebot-Video", "video search", "Googlebot"),
	google("Storebot-Google", "shopping"),
	google("Google-InspectionTool", "Search Console testing tools", "Googlebot"),
	google("GoogleOther", "research and development"),
	google("GoogleOther-Image", "research and development (images)", "GoogleOther"),
	google("GoogleOther-Video", "research and development (video)", "GoogleOther"),
	google("Google-CloudVertexBot", "Vertex AI agents"),
	{Name: "Google-Extended", Token: "Google-Extended", Dialect: Google, Operator: "Google",
		Purpose: "control token: use of content for Gemini training and grounding", Control: true, IgnoresCrawlDelay: true},
	adsbot("AdsBot-Google", "ads landing-page quality"),
	adsbot("AdsBot-Google-Mobile", "ads landing-page quality (mobile)"),
	adsbot("Mediapartners-Google", "AdSense"),
	adsbot("APIs-Google", "push notifications for Google APIs"),

	// Bing (bing.com/webmasters/help/which-crawlers-does-bing-use).
	{Name: "Bingbot", Token: "bingbot", Fallbacks: []string{"msnbot"}, Dialect: Bing, Operator: "Microsoft", Purpose: "search"},
	{Name: "msnbot", Token: "msnbot", Dialect: Bing, Operator: "Microsoft", Purpose: "search (legacy token)"},
	{Name: "AdIdxBot", Token: "adidxbot", Dialect: Bing, Operator: "Microsoft", Purpose: "Bing Ads landing pages"},
	{Name: "MicrosoftPreview", Token: "MicrosoftPreview", Dialect: Bing, Operator: "Microsoft", Purpose: "page previews"},

	// Yandex (yandex.com/support/webmaster/robot-workings): every Yandex
	// robot obeys "User-agent: Yandex" when no group names it.
	yandex("YandexBot", "search"),
	yandex("YandexImages", "image search"),
	yandex("YandexVideo", "video search"),
	yandex("YandexMedia", "multimedia"),
	yandex("YandexNews", "news"),
	yandex("YandexBlogs", "blog search"),
	yandex("YandexMobileBot", "mobile-friendliness"),
	yandex("YandexMetrika", "Yandex Metrica"),
	yandex("YandexDirect", "advertising"),
	yandex("YandexAdNet", "advertising network"),
	yandex("YandexMarket", "Yandex Market"),
	yandex("YandexAccessibilityBot", "accessibility checks"),
	yandex("YandexScreenshotBot", "screenshots"),
	yandex("YandexFavicons", "favicons"),
	yandex("YandexWebmaster", "Yandex Webmaster"),
	yandex("YandexPagechecker", "micro-markup validator"),
	yandex("YandexImageResizer", "mobile image resizing"),
	yandex("YandexTracker", "Yandex Tracker"),
	yandex("YandexAdditional", "additional search services"),
	{Name: "Yandex", Token: "Yandex", Dialect: Yandex, Operator: "Yandex", Purpose: "every Yandex robot"},

	// Baidu (ziyuan.baidu.com, robots.txt help): the draft's records, the
	// first matching line decides, and Baiduspider supports * and $.
	baidu("Baiduspider", "search"),
	baidu("Baiduspider-image", "image search", "Baiduspider"),
	baidu("Baiduspider-video", "video search", "Baiduspider"),
	baidu("Baiduspider-news", "news", "Baiduspider"),
	baidu("Baiduspider-favo", "bookmarks", "Baiduspider"),
	baidu("Baiduspider-cpro", "union ads", "Baiduspider"),
	baidu("Baiduspider-ads", "business ads", "Baiduspider"),
	baidu("Baiduspider-mobile", "mobile search", "Baiduspider"),

	// Other search engines and link-preview fetchers.
	other("360Spider", "Qihoo 360", "search", "haosouspider"),
	other("Slurp", "Yahoo", "search", "Yahoo! Slurp"),
	other("Sogou", "Sogou", "search", "Sogou web spider", "Sogouspider"),
	other("Yisouspider", "Shenma (Alibaba)", "mobile search"),
	other("Bytespider", "ByteDance", "search and AI training"),
	other("PetalBot", "Huawei", "Petal search"),
	other("DuckDuckBot", "DuckDuckGo", "search"),
	other("Applebot", "Apple", "Siri and Spotlight search"),
	{Name: "Applebot-Extended", Token: "Applebot-Extended", Dialect: Google, Operator: "Apple",
		Purpose: "control token: use of content for Apple's AI training", Control: true},
	other("SeznamBot", "Seznam", "search"),
	other("Yeti", "Naver", "search", "Naverbot"),
	other("Daum", "Kakao", "search", "Daumoa"),
	other("coccocbot-web", "Coc Coc", "search"),
	other("MojeekBot", "Mojeek", "search"),
	other("Qwantbot", "Qwant", "search", "Qwantify"),
	other("Amazonbot", "Amazon", "Alexa answers and AI"),
	other("ia_archiver", "Internet Archive", "Wayback Machine"),
	other("archive.org_bot", "Internet Archive", "Wayback Machine"),
	other("Twitterbot", "X (Twitter)", "link previews"),
	other("facebookexternalhit", "Meta", "link previews"),
	other("LinkedInBot", "LinkedIn", "link previews"),
	other("Slackbot", "Slack", "link previews"),
	other("Discordbot", "Discord", "link previews"),
	other("TelegramBot", "Telegram", "link previews"),

	// AI crawlers and fetchers.
	ai("GPTBot", "OpenAI", "AI training"),
	ai("OAI-SearchBot", "OpenAI", "ChatGPT search"),
	ai("ChatGPT-User", "OpenAI", "fetches for ChatGPT users"),
	ai("ClaudeBot", "Anthropic", "AI training"),
	ai("Claude-User", "Anthropic", "fetches for Claude users"),
	ai("Claude-SearchBot", "Anthropic", "Claude search"),
	ai("anthropic-ai", "Anthropic", "AI training (legacy token)"),
	ai("Claude-Web", "Anthropic", "fetches for Claude (legacy token)"),
	ai("CCBot", "Common Crawl", "open web crawl used for AI training"),
	ai("PerplexityBot", "Perplexity", "Perplexity search"),
	ai("Perplexity-User", "Perplexity", "fetches for Perplexity users"),
	ai("Meta-ExternalAgent", "Meta", "AI training"),
	ai("Meta-ExternalFetcher", "Meta", "fetches for Meta AI users"),
	ai("FacebookBot", "Meta", "speech recognition training"),
	ai("cohere-ai", "Cohere", "fetches for Cohere's assistant"),
	ai("cohere-training-data-crawler", "Cohere", "AI training"),
	ai("Diffbot", "Diffbot", "knowledge graph and AI"),
	ai("Omgilibot", "Webz.io", "data for AI"),
	ai("Timpibot", "Timpi", "AI training"),
	ai("AI2Bot", "Allen Institute for AI", "AI training"),
	ai("YouBot", "You.com", "AI search"),
	ai("DuckAssistBot", "DuckDuckGo", "AI answers"),
	ai("MistralAI-User", "Mistral", "fetches for Le Chat users"),
	ai("ImagesiftBot", "ImageSift", "image search and AI"),
	ai("PanguBot", "Huawei", "AI training"),

	// SEO tools.
	other("AhrefsBot", "Ahrefs", "SEO backlink index"),
	other("SemrushBot", "Semrush", "SEO backlink index"),
	other("MJ12bot", "Majestic", "SEO backlink index"),
	other("DotBot", "Moz", "SEO link index"),
	other("rogerbot", "Moz", "SEO site audits"),
	other("BLEXBot", "WebMeUp", "SEO backlink index"),
	other("DataForSeoBot", "DataForSEO", "SEO data"),
}

// Crawlers returns a copy of the table of known crawlers.
func Crawlers() []Crawler {
	out := make([]Crawler, len(crawlers))
	copy(out, crawlers)
	return out
}

// LookupCrawler finds a known crawler by its name, token or an alias,
// ignoring case. The result is a copy the caller may change.
func LookupCrawler(name string) (Crawler, bool) {
	name = strings.TrimSpace(name)
	for i := range crawlers {
		c := &crawlers[i]
		if strings.EqualFold(c.Name, name) || strings.EqualFold(c.Token, name) {
			return *c, true
		}
	}
	for i := range crawlers {
		for _, a := range crawlers[i].Aliases {
			if strings.EqualFold(a, name) {
				return crawlers[i], true
			}
		}
	}
	return Crawler{}, false
}
