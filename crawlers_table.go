package robotstxt

import "strings"

// The catalogue of known crawlers, as data: one entry a crawler, each with
// the source of its facts and the day they were compared with it
// (docs/crawlers.md describes the sources and lists the table). The table
// needs no network: nothing here is fetched at run time.
//
// Sources were read from stored copies, not live pages: the ai.robots.txt
// project's robots.json at commit 738c80d (2026-08-22), and the operators'
// pages named in Docs and Source as a search index held them. Crawlers whose
// engines document no other reading use the google dialect
// (docs/protocol.md, Dialects).

// catChecked is the day the entries below were last compared with their
// sources.
const catChecked = "2026-11-25"

// srcAIRobots is the ai.robots.txt project's list of AI crawlers, at the
// commit the entries taken from it were compared with.
const srcAIRobots = "https://github.com/ai-robots-txt/ai.robots.txt/blob/738c80df2169027ce0e07c9976fd3f2f57dd8f7b/robots.json"

// srcEarlier marks facts the table held before the catalogue, for crawlers
// with no page of their own (docs/protocol.md, Dialects, names them).
const srcEarlier = "docs/protocol.md"

// Google's pages and published lists. In March 2026 the address lists
// moved from /static/search/apis/ipranges/ to /static/crawling/ipranges/,
// and googlebot.json became common-crawlers.json; the old addresses answer
// with a note, not with addresses.
const (
	docGoogleCommon  = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers"
	docGoogleSpecial = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers"
	docGoogleUser    = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers"
	docGoogleAgent   = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-agent"
	googleIPRanges   = "https://developers.google.com/static/crawling/ipranges/"
)

var (
	ipGoogleCommon  = []string{googleIPRanges + "common-crawlers.json"}
	ipGoogleSpecial = []string{googleIPRanges + "special-crawlers.json"}
	ipGoogleUser    = []string{googleIPRanges + "user-triggered-fetchers-google.json"}
	ipGoogleAgents  = []string{googleIPRanges + "user-triggered-agents.json"}
	// Common crawlers: crawl-*.googlebot.com, geo-crawl-*.geo.googlebot.com.
	dnsGoogleCommon = []string{"googlebot.com"}
	// Special-case crawlers (rate-limited-proxy-*.google.com) and
	// fetchers Google controls (google-proxy-*.google.com).
	dnsGoogleProxy = []string{"google.com"}
)

// Other operators' pages and lists.
const (
	docBing        = "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0"
	docYandex      = "https://yandex.ru/support/webmaster/robot-workings/check-yandex-robots.html"
	docBaidu       = "https://www.baidu.com/search/spider.html"
	docApple       = "https://support.apple.com/en-us/119829"
	docOpenAI      = "https://developers.openai.com/api/docs/bots"
	docAnthropic   = "https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler"
	docPerplexity  = "https://docs.perplexity.ai/docs/resources/perplexity-crawlers"
	docMeta        = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers"
	docAmazon      = "https://developer.amazon.com/amazonbot"
	docAi2         = "https://allenai.org/crawler"
	docDuckDuckBot = "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot/"
	docSemrush     = "https://www.semrush.com/bot/"
	docWebz        = "https://webz.io/blog/web-data/what-is-the-omgili-bot-and-why-is-it-crawling-your-website/"
)

var (
	dnsBing   = []string{"search.msn.com"}
	dnsYandex = []string{"yandex.ru", "yandex.net", "yandex.com"}
	dnsBaidu  = []string{"baidu.com", "baidu.jp"}
)

// Notes shared by several entries.
const (
	noteGoogleUser   = "user-triggered: Google says these fetchers generally ignore robots.txt"
	noteYandexGlobal = "Yandex says robots that fetch for other purposes than indexing may ignore the '*' group: name them"
	noteGoogleGlobal = "obeys groups naming it; ignores the '*' group"
	noteReported     = "a third party's report (ai.robots.txt); the operator says nothing"
)

// Cloudflare's pages the behaviour classes come from. Its AI Crawl Control
// bot reference gives each major AI crawler one category (AI Crawler, AI
// Search, AI Assistant, Search Engine); its bot catalogue says which search
// engines' crawlers also collect for AI training; its page on verified
// bots (July 2026) says that AI Search is now Search and defines Direct
// and Intermediary. docs/crawlers.md, Behaviours, maps the categories to
// the classes.
const (
	cfBotReference = "https://developers.cloudflare.com/ai-crawl-control/reference/bots/"
	cfBotCatalog   = "https://developers.cloudflare.com/ai-crawl-control/reference/bot-catalog/"
	cfVerifiedBots = "https://developers.cloudflare.com/bots/concepts/bot/verified-bots/"
)

// Notes shared by several behaviour facts.
const (
	bnCFTraining  = "Cloudflare: AI Crawler (training)"
	bnCFSearch    = "Cloudflare: AI Search, now Search"
	bnCFAssistant = "Cloudflare: AI Assistant (agent)"
	bnCFSearchAI  = "Cloudflare: a search engine's crawler that also collects for AI training; the strictest class applies"
	bnGoogleFam   = "as Googlebot, whose token it falls back to: Cloudflare classes Googlebot search and training, and Google-Extended governs the AI use of what any of them fetches"
	bnCustomers   = "crawls the sites its customers name, for their AI tools: one operator, many customers starting its crawls"
	bnPlatform    = "a scraping or browsing service its customers drive: each fetch is a customer's"
	bnLocalAgent  = "software its users run, on their machines or accounts: every user sends requests presenting as it"
	bnUndoc       = "unclassified: no source says what it fetches for"
)

// behaviourFact is what the table says of a crawler's behaviour beyond
// what its purposes give (Purpose.Behaviours): classes Cloudflare names, an
// access other than direct, or the reason it is left unclassified.
type behaviourFact struct {
	b      Behaviour // the classes; 0: as its purposes map
	access Access    // 0: direct when the operator is known
	src    string    // where b or access come from; "": the entry's Source
	note   string    // how b and access were decided, or "unclassified: why"
}

// behaviourFacts are the entries whose behaviour classes or access are not
// simply those of their purposes, by catalogue name; completeCrawlers
// applies them, and TestCatalogueBehaviours checks every name is an entry.
var behaviourFacts = map[string]behaviourFact{
	// Cloudflare's bot reference and catalogue name these.
	"GPTBot":               {b: BehaviourTraining, src: cfBotReference, note: bnCFTraining},
	"ChatGPT-User":         {b: BehaviourAgent, src: cfBotReference, note: bnCFAssistant},
	"OAI-SearchBot":        {b: BehaviourSearch, src: cfBotReference, note: bnCFSearch},
	"ClaudeBot":            {b: BehaviourTraining, src: cfBotReference, note: bnCFTraining},
	"Claude-SearchBot":     {b: BehaviourSearch, src: cfBotReference, note: bnCFSearch},
	"Claude-User":          {b: BehaviourAgent, src: cfBotReference, note: bnCFAssistant},
	"PerplexityBot":        {b: BehaviourSearch, src: cfBotReference, note: bnCFSearch},
	"Perplexity-User":      {b: BehaviourAgent, src: cfBotReference, note: bnCFAssistant},
	"Googlebot":            {b: BehaviourSearch | BehaviourTraining, src: cfBotCatalog, note: bnCFSearchAI},
	"Googlebot-Image":      {b: BehaviourSearch | BehaviourTraining, src: cfBotCatalog, note: bnGoogleFam},
	"Googlebot-News":       {b: BehaviourSearch | BehaviourTraining, src: cfBotCatalog, note: bnGoogleFam},
	"Googlebot-Video":      {b: BehaviourSearch | BehaviourTraining, src: cfBotCatalog, note: bnGoogleFam},
	"Bingbot":              {b: BehaviourSearch | BehaviourTraining, src: cfBotCatalog, note: bnCFSearchAI},
	"msnbot":               {b: BehaviourSearch | BehaviourTraining, src: cfBotCatalog, note: "as Bingbot, whose legacy token it is"},
	"Applebot":             {b: BehaviourSearch | BehaviourTraining, src: cfBotCatalog, note: "Cloudflare: AI Search, and its catalogue says Apple may train on what it fetches; the strictest class applies"},
	"Amazonbot":            {b: BehaviourSearch | BehaviourTraining, src: cfBotCatalog, note: "Cloudflare: AI Crawler; Amazon's page also names Alexa answers (search)"},
	"Bytespider":           {b: BehaviourSearch | BehaviourTraining, src: cfBotCatalog, note: "Cloudflare: AI Crawler; its catalogue names ByteDance's search too"},
	"CCBot":                {b: BehaviourTraining, src: cfBotReference, note: "Cloudflare: AI Crawler; its crawl is an open archive others train on"},
	"Meta-ExternalAgent":   {b: BehaviourTraining, src: cfBotReference, note: bnCFTraining},
	"Meta-ExternalFetcher": {b: BehaviourAgent, src: cfBotReference, note: bnCFAssistant},
	"FacebookBot":          {b: BehaviourTraining, src: cfBotReference, note: bnCFTraining},
	"DuckAssistBot":        {b: BehaviourAgent, src: cfBotReference, note: "Cloudflare: AI Assistant: it fetches in real time for the answer a search asks"},
	"MistralAI-User":       {b: BehaviourAgent, src: cfBotReference, note: bnCFAssistant},
	"Google-CloudVertexBot": {b: BehaviourSearch | BehaviourTraining, access: AccessIntermediary, src: cfBotReference,
		note: "Cloudflare: AI Crawler; Google: crawls for the Vertex AI agents site owners build (search); " + bnCustomers},
	"Timpibot":        {b: BehaviourSearch | BehaviourTraining, src: cfBotCatalog, note: "Cloudflare's catalogue: an independent search engine; ai.robots.txt: AI training; the strictest class applies"},
	"archive.org_bot": {src: cfBotCatalog, note: "Cloudflare: Archiver, a class its 2026 taxonomy folds into data collection"},
	"ia_archiver":     {note: "an archive: data collection, as archive.org_bot"},

	// Purposes "other", "token-only" and none: classed one by one.
	"GoogleOther":            {b: BehaviourDataCollection, note: "Google: one-off crawls for research and development"},
	"GoogleOther-Image":      {b: BehaviourDataCollection, note: "Google: one-off crawls for research and development"},
	"GoogleOther-Video":      {b: BehaviourDataCollection, note: "Google: one-off crawls for research and development"},
	"APIs-Google":            {b: BehaviourMonitoring, note: "delivers push notifications: Cloudflare's webhooks and operations"},
	"YandexMobileBot":        {b: BehaviourSEO, note: "checks pages for mobile-friendliness: a site audit"},
	"YandexMetrika":          {b: BehaviourMonitoring, note: "Yandex Metrica's analytics"},
	"YandexAccessibilityBot": {b: BehaviourSEO, note: "checks page availability for Yandex Webmaster: Cloudflare puts site audits and accessibility under SEO"},
	"YandexImageResizer":     {note: "unclassified: resizes images for Yandex's mobile services; no class fits"},
	"YandexTracker":          {note: "unclassified: Yandex's page names the robot and no more"},
	"Baiduspider-favo":       {note: "unclassified: fetches for Baidu's bookmark service; no class fits"},
	"AgentTimes":             {b: BehaviourFeedFetching, note: "reads RSS feeds for its AI news"},
	"EchoboxBot":             {b: BehaviourLinkPreview, access: AccessIntermediary, note: "reads its customers' articles to post them on social platforms: nearest class Social/Link Preview; " + bnPlatform},
	"LCC":                    {b: BehaviourDataCollection, note: "data scraping"},
	"QuillBot":               {note: "unclassified: its AI writing and detection tools say nothing of what they fetch"},
	"Scrapy":                 {b: BehaviourDataCollection, access: AccessIntermediary, note: "a framework anyone runs under its default name"},
	"Thinkbot":               {b: BehaviourDataCollection, note: "collects pages for studies of AI use"},
	"wpbot":                  {b: BehaviourSearch, access: AccessIntermediary, note: "reads its customers' WordPress sites so their chatbot answers from them; " + bnCustomers},
	"YaK":                    {b: BehaviourDataCollection, note: "consumer intelligence: analytics"},
	"ISSCyberRiskCrawler":    {b: BehaviourSecurityTesting | BehaviourTraining, note: "rates companies' cyber risk from their sites (security testing), with machine learning (ai.robots.txt: training)"},
	"Aranet-SearchBot":       {note: bnUndoc},
	"Crawl4AI":               {access: AccessIntermediary, note: "unclassified: an open-source crawler anyone runs, for purposes its users choose"},
	"iAskBot":                {note: bnUndoc},
	"KunatoCrawler":          {note: bnUndoc},
	"Reflectionbot":          {note: bnUndoc},
	"WRTNBot":                {note: bnUndoc},

	// Transact: it buys for a person.
	"AmazonBuyForMe": {b: BehaviourAgent | BehaviourTransact, note: "buys on brands' sites for Amazon's shoppers: agent and transact"},

	// Intermediaries: one operator, many customers or users starting what
	// it fetches (Cloudflare's page on verified bots).
	"Lightpanda":                 {access: AccessIntermediary, src: cfVerifiedBots, note: "an open-source headless browser anyone runs"},
	"opencode":                   {access: AccessIntermediary, src: cfVerifiedBots, note: bnLocalAgent},
	"Claude-Code":                {access: AccessIntermediary, src: cfVerifiedBots, note: bnLocalAgent},
	"Google-Gemini-CLI":          {access: AccessIntermediary, src: cfVerifiedBots, note: bnLocalAgent},
	"Cursor":                     {access: AccessIntermediary, src: cfVerifiedBots, note: bnLocalAgent},
	"Trae":                       {access: AccessIntermediary, src: cfVerifiedBots, note: bnLocalAgent},
	"img2dataset":                {access: AccessIntermediary, src: cfVerifiedBots, note: "an open-source downloader anyone runs"},
	"NovaAct":                    {access: AccessIntermediary, src: cfVerifiedBots, note: "agents Amazon's developers build and run with its SDK"},
	"TwinAgent":                  {access: AccessIntermediary, src: cfVerifiedBots, note: bnPlatform},
	"GoogleAgent-URLContext":     {access: AccessIntermediary, src: cfVerifiedBots, note: "fetches the URLs each Gemini API caller names"},
	"Google-Firebase":            {access: AccessIntermediary, src: cfVerifiedBots, note: "fetches for the AI apps developers build on Firebase"},
	"bedrockbot":                 {access: AccessIntermediary, src: cfVerifiedBots, note: bnCustomers},
	"amazon-kendra":              {access: AccessIntermediary, src: cfVerifiedBots, note: bnCustomers},
	"amazon-QBusiness":           {access: AccessIntermediary, src: cfVerifiedBots, note: bnCustomers},
	"Cloudflare-AutoRAG":         {access: AccessIntermediary, src: cfVerifiedBots, note: bnCustomers},
	"atlassian-bot":              {access: AccessIntermediary, src: cfVerifiedBots, note: bnCustomers},
	"KlaviyoAIBot":               {access: AccessIntermediary, src: cfVerifiedBots, note: bnCustomers},
	"Anomura":                    {access: AccessIntermediary, src: cfVerifiedBots, note: bnCustomers},
	"AddSearchBot":               {access: AccessIntermediary, src: cfVerifiedBots, note: bnCustomers},
	"QualifiedBot":               {access: AccessIntermediary, src: cfVerifiedBots, note: bnCustomers},
	"bigsur.ai":                  {access: AccessIntermediary, src: cfVerifiedBots, note: bnCustomers},
	"Diffbot":                    {access: AccessIntermediary, src: cfVerifiedBots, note: bnPlatform},
	"FirecrawlAgent":             {access: AccessIntermediary, src: cfVerifiedBots, note: bnPlatform},
	"ApifyBot":                   {access: AccessIntermediary, src: cfVerifiedBots, note: bnPlatform},
	"ApifyWebsiteContentCrawler": {access: AccessIntermediary, src: cfVerifiedBots, note: bnPlatform},
	"Brightbot":                  {access: AccessIntermediary, src: cfVerifiedBots, note: bnPlatform},
	"CragCrawler":                {access: AccessIntermediary, src: cfVerifiedBots, note: bnPlatform},
	"Crawlspace":                 {access: AccessIntermediary, src: cfVerifiedBots, note: bnPlatform},
	"Mozilla-Tabstack":           {access: AccessIntermediary, src: cfVerifiedBots, note: bnPlatform},
	"Shap-User":                  {access: AccessIntermediary, src: cfVerifiedBots, note: "fetches for the users of Parallel's APIs"},
}

// crawlers is the table of known crawlers, in the order the commands list
// them: the major search engines' crawlers first, then other search and
// preview fetchers, AI crawlers and SEO tools, then the AI crawlers taken
// from ai.robots.txt's list.
var crawlers = completeCrawlers([]Crawler{
	// Google.
	{Name: "Googlebot", Dialect: Google, Operator: "Google", Purpose: "search", IgnoresCrawlDelay: true,
		Purposes: PurposeSearch, Docs: docGoogleCommon, ObeysRobots: ObeysYes, IPRanges: ipGoogleCommon, ReverseDNS: dnsGoogleCommon, Source: docGoogleCommon, Checked: catChecked},
	{Name: "Googlebot-Image", Fallbacks: []string{"Googlebot"}, Dialect: Google, Operator: "Google", Purpose: "image search", IgnoresCrawlDelay: true,
		Purposes: PurposeSearch, Docs: docGoogleCommon, ObeysRobots: ObeysYes, IPRanges: ipGoogleCommon, ReverseDNS: dnsGoogleCommon, Source: docGoogleCommon, Checked: catChecked},
	{Name: "Googlebot-News", Fallbacks: []string{"Googlebot"}, Dialect: Google, Operator: "Google", Purpose: "news", IgnoresCrawlDelay: true,
		Purposes: PurposeSearch, Docs: docGoogleCommon, ObeysRobots: ObeysYes, IPRanges: ipGoogleCommon, ReverseDNS: dnsGoogleCommon, Source: docGoogleCommon, Checked: catChecked},
	{Name: "Googlebot-Video", Fallbacks: []string{"Googlebot"}, Dialect: Google, Operator: "Google", Purpose: "video search", IgnoresCrawlDelay: true,
		Purposes: PurposeSearch, Docs: docGoogleCommon, ObeysRobots: ObeysYes, IPRanges: ipGoogleCommon, ReverseDNS: dnsGoogleCommon, Source: docGoogleCommon, Checked: catChecked},
	{Name: "Storebot-Google", Dialect: Google, Operator: "Google", Purpose: "shopping", IgnoresCrawlDelay: true,
		Purposes: PurposeSearch, Docs: docGoogleCommon, ObeysRobots: ObeysYes, IPRanges: ipGoogleCommon, ReverseDNS: dnsGoogleCommon, Source: docGoogleCommon, Checked: catChecked},
	{Name: "Google-InspectionTool", Fallbacks: []string{"Googlebot"}, Dialect: Google, Operator: "Google", Purpose: "Search Console testing tools", IgnoresCrawlDelay: true,
		Purposes: PurposeSEO, Docs: docGoogleCommon, ObeysRobots: ObeysYes, IPRanges: ipGoogleCommon, ReverseDNS: dnsGoogleCommon, Source: docGoogleCommon, Checked: catChecked},
	{Name: "GoogleOther", Dialect: Google, Operator: "Google", Purpose: "research and development", IgnoresCrawlDelay: true,
		Purposes: PurposeOther, Docs: docGoogleCommon, ObeysRobots: ObeysYes, IPRanges: ipGoogleCommon, ReverseDNS: dnsGoogleCommon, Source: docGoogleCommon, Checked: catChecked},
	{Name: "GoogleOther-Image", Fallbacks: []string{"GoogleOther"}, Dialect: Google, Operator: "Google", Purpose: "research and development (images)", IgnoresCrawlDelay: true,
		Purposes: PurposeOther, Docs: docGoogleCommon, ObeysRobots: ObeysYes, IPRanges: ipGoogleCommon, ReverseDNS: dnsGoogleCommon, Source: docGoogleCommon, Checked: catChecked},
	{Name: "GoogleOther-Video", Fallbacks: []string{"GoogleOther"}, Dialect: Google, Operator: "Google", Purpose: "research and development (video)", IgnoresCrawlDelay: true,
		Purposes: PurposeOther, Docs: docGoogleCommon, ObeysRobots: ObeysYes, IPRanges: ipGoogleCommon, ReverseDNS: dnsGoogleCommon, Source: docGoogleCommon, Checked: catChecked},
	{Name: "Google-CloudVertexBot", Dialect: Google, Operator: "Google", Purpose: "Vertex AI agents", IgnoresCrawlDelay: true,
		Purposes: PurposeAISearch, Docs: docGoogleCommon, ObeysRobots: ObeysYes, RobotsNote: "crawls the sites whose owners ask it to", IPRanges: ipGoogleCommon, ReverseDNS: dnsGoogleCommon, Source: docGoogleCommon, Checked: catChecked},
	{Name: "Google-Extended", Dialect: Google, Operator: "Google", Purpose: "control token: use of content for Gemini training and grounding", Control: true, IgnoresCrawlDelay: true,
		Purposes: PurposeTokenOnly | PurposeAITraining, Docs: docGoogleCommon, ObeysRobots: ObeysYes, RobotsNote: "a token Google's crawlers obey for the use of what they fetched", Source: docGoogleCommon, Checked: catChecked},
	{Name: "AdsBot-Google", IgnoresGlobal: true, Dialect: Google, Operator: "Google", Purpose: "ads landing-page quality", IgnoresCrawlDelay: true,
		Purposes: PurposeAds, Docs: docGoogleSpecial, ObeysRobots: ObeysPartly, RobotsNote: noteGoogleGlobal, IPRanges: ipGoogleSpecial, ReverseDNS: dnsGoogleProxy, Source: docGoogleSpecial, Checked: catChecked},
	{Name: "AdsBot-Google-Mobile", IgnoresGlobal: true, Dialect: Google, Operator: "Google", Purpose: "ads landing-page quality (mobile)", IgnoresCrawlDelay: true,
		Purposes: PurposeAds, Docs: docGoogleSpecial, ObeysRobots: ObeysPartly, RobotsNote: noteGoogleGlobal, IPRanges: ipGoogleSpecial, ReverseDNS: dnsGoogleProxy, Source: docGoogleSpecial, Checked: catChecked},
	{Name: "Mediapartners-Google", IgnoresGlobal: true, Dialect: Google, Operator: "Google", Purpose: "AdSense", IgnoresCrawlDelay: true,
		Purposes: PurposeAds, Docs: docGoogleSpecial, ObeysRobots: ObeysPartly, RobotsNote: noteGoogleGlobal, IPRanges: ipGoogleSpecial, ReverseDNS: dnsGoogleProxy, Source: docGoogleSpecial, Checked: catChecked},
	{Name: "APIs-Google", IgnoresGlobal: true, Dialect: Google, Operator: "Google", Purpose: "push notifications for Google APIs", IgnoresCrawlDelay: true,
		Purposes: PurposeOther, Docs: docGoogleSpecial, ObeysRobots: ObeysPartly, RobotsNote: noteGoogleGlobal, IPRanges: ipGoogleSpecial, ReverseDNS: dnsGoogleProxy, Source: docGoogleSpecial, Checked: catChecked},

	// Bing.
	{Name: "Bingbot", Token: "bingbot", Fallbacks: []string{"msnbot"}, Dialect: Bing, Operator: "Microsoft", Purpose: "search",
		Purposes: PurposeSearch, Docs: docBing, ObeysRobots: ObeysYes, IPRanges: []string{"https://www.bing.com/toolbox/bingbot.json"}, ReverseDNS: dnsBing, Source: docBing, Checked: catChecked},
	{Name: "msnbot", Dialect: Bing, Operator: "Microsoft", Purpose: "search (legacy token)",
		Purposes: PurposeSearch, Docs: docBing, ObeysRobots: ObeysYes, IPRanges: []string{"https://www.bing.com/toolbox/bingbot.json"}, ReverseDNS: dnsBing, Source: docBing, Checked: catChecked},
	{Name: "AdIdxBot", Token: "adidxbot", Dialect: Bing, Operator: "Microsoft", Purpose: "Bing Ads landing pages",
		Purposes: PurposeAds, Docs: docBing, ObeysRobots: ObeysYes, ReverseDNS: dnsBing, Source: docBing, Checked: catChecked},
	{Name: "MicrosoftPreview", Dialect: Bing, Operator: "Microsoft", Purpose: "page previews",
		Purposes: PurposePreview, Docs: docBing, ObeysRobots: ObeysYes, ReverseDNS: dnsBing, Source: docBing, Checked: catChecked},

	// Yandex: every Yandex robot obeys "User-agent: Yandex" when no group
	// names it.
	yandexBot("YandexBot", "search", PurposeSearch, ""),
	yandexBot("YandexImages", "image search", PurposeSearch, ""),
	yandexBot("YandexVideo", "video search", PurposeSearch, ""),
	yandexBot("YandexMedia", "multimedia", PurposeSearch, ""),
	yandexBot("YandexNews", "news", PurposeSearch, ""),
	yandexBot("YandexBlogs", "blog search", PurposeSearch, ""),
	yandexBot("YandexMobileBot", "mobile-friendliness", PurposeOther, noteYandexGlobal),
	yandexBot("YandexMetrika", "Yandex Metrica", PurposeOther, noteYandexGlobal),
	yandexBot("YandexDirect", "advertising", PurposeAds, noteYandexGlobal),
	yandexBot("YandexAdNet", "advertising network", PurposeAds, noteYandexGlobal),
	yandexBot("YandexMarket", "Yandex Market", PurposeSearch, noteYandexGlobal),
	yandexBot("YandexAccessibilityBot", "accessibility checks", PurposeOther, noteYandexGlobal),
	yandexBot("YandexScreenshotBot", "screenshots", PurposePreview, noteYandexGlobal),
	yandexBot("YandexFavicons", "favicons", PurposeSearch, noteYandexGlobal),
	yandexBot("YandexWebmaster", "Yandex Webmaster", PurposeSEO, noteYandexGlobal),
	yandexBot("YandexPagechecker", "micro-markup validator", PurposeSEO, noteYandexGlobal),
	yandexBot("YandexImageResizer", "mobile image resizing", PurposeOther, noteYandexGlobal),
	yandexBot("YandexTracker", "Yandex Tracker", PurposeOther, noteYandexGlobal),
	yandexBot("YandexAdditional", "additional search services", PurposeAISearch, ""),
	{Name: "Yandex", Dialect: Yandex, Operator: "Yandex", Purpose: "every Yandex robot",
		Purposes: PurposeSearch, Docs: docYandex, ObeysRobots: ObeysYes, ReverseDNS: dnsYandex, Source: docYandex, Checked: catChecked},

	// Baidu: the draft's records, the first matching line decides, and
	// Baiduspider supports * and $.
	baiduSpider("Baiduspider", "search", PurposeSearch),
	baiduSpider("Baiduspider-image", "image search", PurposeSearch, "Baiduspider"),
	baiduSpider("Baiduspider-video", "video search", PurposeSearch, "Baiduspider"),
	baiduSpider("Baiduspider-news", "news", PurposeSearch, "Baiduspider"),
	baiduSpider("Baiduspider-favo", "bookmarks", PurposeOther, "Baiduspider"),
	baiduSpider("Baiduspider-cpro", "union ads", PurposeAds, "Baiduspider"),
	baiduSpider("Baiduspider-ads", "business ads", PurposeAds, "Baiduspider"),
	baiduSpider("Baiduspider-mobile", "mobile search", PurposeSearch, "Baiduspider"),

	// Other search engines and link-preview fetchers.
	{Name: "360Spider", Operator: "Qihoo 360", Purpose: "search", Aliases: []string{"haosouspider"},
		Purposes: PurposeSearch, Source: srcEarlier, Checked: catChecked},
	{Name: "Slurp", Operator: "Yahoo", Purpose: "search", Aliases: []string{"Yahoo! Slurp"},
		Purposes: PurposeSearch, Docs: "https://help.yahoo.com/kb/SLN22600.html", ObeysRobots: ObeysYes, Source: "https://help.yahoo.com/kb/SLN22600.html", Checked: catChecked},
	{Name: "Sogou", Operator: "Sogou", Purpose: "search", Aliases: []string{"Sogou web spider", "Sogouspider"},
		Purposes: PurposeSearch, Docs: "https://www.sogou.com/docs/help/webmasters.htm", ObeysRobots: ObeysYes, Source: "https://www.sogou.com/docs/help/webmasters.htm", Checked: catChecked},
	{Name: "Yisouspider", Operator: "Shenma (Alibaba)", Purpose: "mobile search",
		Purposes: PurposeSearch, Source: srcEarlier, Checked: catChecked},
	{Name: "Bytespider", Operator: "ByteDance", Purpose: "search and AI training",
		Purposes: PurposeSearch | PurposeAITraining, ObeysRobots: ObeysNo, RobotsNote: noteReported, Source: srcAIRobots, Checked: catChecked},
	{Name: "PetalBot", Operator: "Huawei", Purpose: "Petal search",
		Purposes: PurposeSearch | PurposeAISearch, Docs: "https://aspiegel.com/petalbot", ObeysRobots: ObeysYes, ReverseDNS: []string{"petalsearch.com"}, Source: "https://aspiegel.com/petalbot", Checked: catChecked},
	{Name: "DuckDuckBot", Operator: "DuckDuckGo", Purpose: "search",
		Purposes: PurposeSearch, Docs: docDuckDuckBot, ObeysRobots: ObeysYes, RobotsNote: "its addresses are listed on its page", Source: docDuckDuckBot, Checked: catChecked},
	{Name: "Applebot", Operator: "Apple", Purpose: "Siri and Spotlight search",
		Purposes: PurposeSearch | PurposeAISearch, Docs: docApple, ObeysRobots: ObeysYes, IPRanges: []string{"https://search.developer.apple.com/applebot.json"}, ReverseDNS: []string{"applebot.apple.com"}, Source: docApple, Checked: catChecked},
	{Name: "Applebot-Extended", Operator: "Apple", Purpose: "control token: use of content for Apple's AI training", Control: true,
		Purposes: PurposeTokenOnly | PurposeAITraining, Docs: docApple, ObeysRobots: ObeysYes, RobotsNote: "a token Applebot obeys for the use of what it fetched; fetches nothing", Source: docApple, Checked: catChecked},
	{Name: "SeznamBot", Operator: "Seznam", Purpose: "search",
		Purposes: PurposeSearch, Docs: "https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/", ObeysRobots: ObeysYes, Source: "https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/", Checked: catChecked},
	{Name: "Yeti", Operator: "Naver", Purpose: "search", Aliases: []string{"Naverbot"},
		Purposes: PurposeSearch, Docs: "https://naver.me/spd", ObeysRobots: ObeysYes, Source: "https://naver.me/spd", Checked: catChecked},
	{Name: "Daum", Operator: "Kakao", Purpose: "search", Aliases: []string{"Daumoa"},
		Purposes: PurposeSearch, Docs: "https://cs.daum.net/faq/15/4118.html", Source: "https://cs.daum.net/faq/15/4118.html", Checked: catChecked},
	{Name: "coccocbot-web", Operator: "Coc Coc", Purpose: "search",
		Purposes: PurposeSearch, Docs: "https://help.coccoc.com/searchengine", ObeysRobots: ObeysYes, Source: "https://help.coccoc.com/searchengine", Checked: catChecked},
	{Name: "MojeekBot", Operator: "Mojeek", Purpose: "search",
		Purposes: PurposeSearch, Docs: "https://www.mojeek.com/bot.html", ObeysRobots: ObeysYes, Source: "https://www.mojeek.com/bot.html", Checked: catChecked},
	{Name: "Qwantbot", Operator: "Qwant", Purpose: "search", Aliases: []string{"Qwantify"},
		Purposes: PurposeSearch, Docs: "https://help.qwant.com/bot/", ObeysRobots: ObeysYes, Source: "https://help.qwant.com/bot/", Checked: catChecked},
	{Name: "Amazonbot", Operator: "Amazon", Purpose: "Alexa answers and AI",
		Purposes: PurposeAISearch | PurposeAITraining, Docs: docAmazon, ObeysRobots: ObeysYes, RobotsNote: "not crawl-delay; when robots.txt cannot be fetched for 30 days, crawls as if there were none",
		IPRanges: []string{"https://developer.amazon.com/amazonbot/ip-addresses/"}, ReverseDNS: []string{"crawl.amazonbot.amazon"}, Source: docAmazon, Checked: catChecked},
	{Name: "ia_archiver", Operator: "Internet Archive", Purpose: "Wayback Machine",
		Purposes: PurposeArchive, RobotsNote: "the token of Alexa Internet's crawler, whose crawls went to the Internet Archive", Source: srcEarlier, Checked: catChecked},
	{Name: "archive.org_bot", Operator: "Internet Archive", Purpose: "Wayback Machine",
		Purposes: PurposeArchive, Docs: "https://archive.org/details/archive.org_bot", Source: "https://archive.org/details/archive.org_bot", Checked: catChecked},
	{Name: "Twitterbot", Operator: "X (Twitter)", Purpose: "link previews",
		Purposes: PurposePreview, Docs: "https://developer.x.com/en/docs/x-for-websites/cards/guides/getting-started", ObeysRobots: ObeysYes, Source: "https://developer.x.com/en/docs/x-for-websites/cards/guides/getting-started", Checked: catChecked},
	{Name: "facebookexternalhit", Operator: "Meta", Purpose: "link previews",
		Purposes: PurposePreview, Docs: docMeta, ObeysRobots: ObeysPartly, RobotsNote: "may bypass robots.txt for security and integrity checks", Source: docMeta, Checked: catChecked},
	{Name: "LinkedInBot", Operator: "LinkedIn", Purpose: "link previews",
		Purposes: PurposePreview, Source: srcEarlier, Checked: catChecked},
	{Name: "Slackbot", Operator: "Slack", Purpose: "link previews",
		Purposes: PurposePreview, Docs: "https://api.slack.com/robots", Source: "https://api.slack.com/robots", Checked: catChecked},
	{Name: "Discordbot", Operator: "Discord", Purpose: "link previews",
		Purposes: PurposePreview, Source: srcEarlier, Checked: catChecked},
	{Name: "TelegramBot", Operator: "Telegram", Purpose: "link previews",
		Purposes: PurposePreview, Source: srcEarlier, Checked: catChecked},

	// AI crawlers and fetchers.
	{Name: "GPTBot", Operator: "OpenAI", Purpose: "AI training",
		Purposes: PurposeAITraining, Docs: docOpenAI, ObeysRobots: ObeysYes, IPRanges: []string{"https://openai.com/gptbot.json"}, Source: docOpenAI, Checked: catChecked},
	{Name: "OAI-SearchBot", Operator: "OpenAI", Purpose: "ChatGPT search",
		Purposes: PurposeAISearch, Docs: docOpenAI, ObeysRobots: ObeysYes, IPRanges: []string{"https://openai.com/searchbot.json"}, Source: docOpenAI, Checked: catChecked},
	{Name: "ChatGPT-User", Operator: "OpenAI", Purpose: "fetches for ChatGPT users",
		Purposes: PurposeUserFetch, Docs: docOpenAI, ObeysRobots: ObeysPartly, RobotsNote: "OpenAI says robots.txt rules may not apply to fetches a user starts",
		IPRanges: []string{"https://openai.com/chatgpt-user.json"}, Source: docOpenAI, Checked: catChecked},
	{Name: "ClaudeBot", Operator: "Anthropic", Purpose: "AI training",
		Purposes: PurposeAITraining, Docs: docAnthropic, ObeysRobots: ObeysYes, RobotsNote: "reads crawl-delay", Source: docAnthropic, Checked: catChecked},
	{Name: "Claude-User", Operator: "Anthropic", Purpose: "fetches for Claude users",
		Purposes: PurposeUserFetch, Docs: docAnthropic, ObeysRobots: ObeysYes, Source: docAnthropic, Checked: catChecked},
	{Name: "Claude-SearchBot", Operator: "Anthropic", Purpose: "Claude search",
		Purposes: PurposeAISearch, Docs: docAnthropic, ObeysRobots: ObeysYes, Source: docAnthropic, Checked: catChecked},
	{Name: "anthropic-ai", Operator: "Anthropic", Purpose: "AI training (legacy token)",
		Purposes: PurposeAITraining, RobotsNote: "a token Anthropic's current page no longer names", Source: srcAIRobots, Checked: catChecked},
	{Name: "Claude-Web", Operator: "Anthropic", Purpose: "fetches for Claude (legacy token)",
		Purposes: PurposeUserFetch, RobotsNote: "a token Anthropic's current page no longer names", Source: srcAIRobots, Checked: catChecked},
	{Name: "CCBot", Operator: "Common Crawl", Purpose: "open web crawl used for AI training",
		Purposes: PurposeAITraining | PurposeArchive, Docs: "https://commoncrawl.org/ccbot", ObeysRobots: ObeysYes,
		IPRanges: []string{"https://index.commoncrawl.org/ccbot.json"}, ReverseDNS: []string{"crawl.commoncrawl.org"}, Source: "https://commoncrawl.org/ccbot", Checked: catChecked},
	{Name: "PerplexityBot", Operator: "Perplexity", Purpose: "Perplexity search",
		Purposes: PurposeAISearch, Docs: docPerplexity, ObeysRobots: ObeysYes, IPRanges: []string{"https://www.perplexity.ai/perplexitybot.json"}, Source: docPerplexity, Checked: catChecked},
	{Name: "Perplexity-User", Operator: "Perplexity", Purpose: "fetches for Perplexity users",
		Purposes: PurposeUserFetch, Docs: docPerplexity, ObeysRobots: ObeysNo, RobotsNote: "Perplexity says fetches a user asks for generally ignore robots.txt",
		IPRanges: []string{"https://www.perplexity.ai/perplexity-user.json"}, Source: docPerplexity, Checked: catChecked},
	{Name: "Meta-ExternalAgent", Operator: "Meta", Purpose: "AI training",
		Purposes: PurposeAITraining, Docs: docMeta, ObeysRobots: ObeysYes, Source: docMeta, Checked: catChecked},
	{Name: "Meta-ExternalFetcher", Operator: "Meta", Purpose: "fetches for Meta AI users",
		Purposes: PurposeUserFetch, Docs: docMeta, ObeysRobots: ObeysPartly, RobotsNote: "Meta says it may bypass robots.txt, the fetch being a user's", Source: docMeta, Checked: catChecked},
	{Name: "FacebookBot", Operator: "Meta", Purpose: "speech recognition training",
		Purposes: PurposeAITraining, Docs: "https://developers.facebook.com/docs/sharing/bot/", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "cohere-ai", Operator: "Cohere", Purpose: "fetches for Cohere's assistant",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "cohere-training-data-crawler", Operator: "Cohere", Purpose: "AI training",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "Diffbot", Operator: "Diffbot", Purpose: "knowledge graph and AI",
		Purposes: PurposeAISearch, Docs: "https://www.diffbot.com/", ObeysRobots: ObeysPartly, RobotsNote: "at the choice of Diffbot's customers", Source: srcAIRobots, Checked: catChecked},
	{Name: "Omgilibot", Operator: "Webz.io", Purpose: "data for AI",
		Purposes: PurposeAITraining, Docs: docWebz, ObeysRobots: ObeysYes, RobotsNote: "a legacy token; Webz.io crawls as omgili", Source: srcAIRobots, Checked: catChecked},
	{Name: "Timpibot", Operator: "Timpi", Purpose: "AI training",
		Purposes: PurposeAITraining, Docs: "https://timpi.io", Source: srcAIRobots, Checked: catChecked},
	{Name: "AI2Bot", Operator: "Allen Institute for AI", Purpose: "AI training",
		Purposes: PurposeAITraining, Docs: docAi2, ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "YouBot", Operator: "You.com", Purpose: "AI search",
		Purposes: PurposeAISearch, Docs: "https://about.you.com/youbot/", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "DuckAssistBot", Operator: "DuckDuckGo", Purpose: "AI answers",
		Purposes: PurposeAISearch, Docs: "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot/", ObeysRobots: ObeysYes, RobotsNote: "its addresses are listed on its page",
		Source: "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot/", Checked: catChecked},
	{Name: "MistralAI-User", Operator: "Mistral", Purpose: "fetches for Le Chat users", Aliases: []string{"MistralAI-User/1.0"},
		Purposes: PurposeUserFetch, Docs: "https://docs.mistral.ai/robots/", ObeysRobots: ObeysYes, IPRanges: []string{"https://mistral.ai/mistralai-user-ips.json"}, Source: "https://docs.mistral.ai/robots/", Checked: catChecked},
	{Name: "ImagesiftBot", Operator: "ImageSift", Purpose: "image search and AI",
		Purposes: PurposeSearch | PurposeAITraining, Docs: "https://imagesift.com/about", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "PanguBot", Operator: "Huawei", Purpose: "AI training",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},

	// SEO tools.
	{Name: "AhrefsBot", Operator: "Ahrefs", Purpose: "SEO backlink index",
		Purposes: PurposeSEO | PurposeSearch, Docs: "https://ahrefs.com/robot", ObeysRobots: ObeysYes, ReverseDNS: []string{"ahrefs.com", "ahrefs.net"}, Source: "https://ahrefs.com/robot", Checked: catChecked},
	{Name: "SemrushBot", Operator: "Semrush", Purpose: "SEO backlink index",
		Purposes: PurposeSEO, Docs: docSemrush, ObeysRobots: ObeysYes, Source: docSemrush, Checked: catChecked},
	{Name: "MJ12bot", Operator: "Majestic", Purpose: "SEO backlink index",
		Purposes: PurposeSEO, Docs: "https://mj12bot.com/", ObeysRobots: ObeysYes, Source: "https://mj12bot.com/", Checked: catChecked},
	{Name: "DotBot", Operator: "Moz", Purpose: "SEO link index",
		Purposes: PurposeSEO, Docs: "https://moz.com/help/moz-procedures/crawlers/dotbot", ObeysRobots: ObeysYes, Source: "https://moz.com/help/moz-procedures/crawlers/dotbot", Checked: catChecked},
	{Name: "rogerbot", Operator: "Moz", Purpose: "SEO site audits",
		Purposes: PurposeSEO, Docs: "https://moz.com/help/moz-procedures/crawlers/rogerbot", ObeysRobots: ObeysYes, Source: "https://moz.com/help/moz-procedures/crawlers/rogerbot", Checked: catChecked},
	{Name: "BLEXBot", Operator: "WebMeUp", Purpose: "SEO backlink index",
		Purposes: PurposeSEO, Docs: "https://webmeup-crawler.com/", ObeysRobots: ObeysYes, Source: "https://webmeup-crawler.com/", Checked: catChecked},
	{Name: "DataForSeoBot", Operator: "DataForSEO", Purpose: "SEO data",
		Purposes: PurposeSEO, Docs: "https://dataforseo.com/dataforseo-bot", ObeysRobots: ObeysYes, Source: "https://dataforseo.com/dataforseo-bot", Checked: catChecked},

	// Added with the catalogue (issue 26): crawlers the operators above
	// document, then the rest of ai.robots.txt's list.
	{Name: "OAI-AdsBot", Operator: "OpenAI", Purpose: "checks ad landing pages for ChatGPT",
		Purposes: PurposeAds, Docs: docOpenAI, RobotsNote: "visits only pages submitted as ads", Source: docOpenAI, Checked: catChecked},
	{Name: "Google-Agent", Dialect: Google, Operator: "Google", Purpose: "agents acting for users (Project Mariner)", IgnoresCrawlDelay: true,
		Purposes: PurposeAgent, Docs: docGoogleAgent, ObeysRobots: ObeysNo, RobotsNote: noteGoogleUser, IPRanges: ipGoogleAgents, Source: docGoogleAgent, Checked: catChecked},
	{Name: "Google-NotebookLM", Dialect: Google, Operator: "Google", Purpose: "fetches sources for NotebookLM users", IgnoresCrawlDelay: true,
		Purposes: PurposeUserFetch, Docs: docGoogleUser, ObeysRobots: ObeysNo, RobotsNote: noteGoogleUser, IPRanges: ipGoogleUser, ReverseDNS: dnsGoogleProxy, Source: docGoogleUser, Checked: catChecked},
	{Name: "GoogleAgent-Mariner", Dialect: Google, Operator: "Google", Purpose: "Project Mariner browsing agent", IgnoresCrawlDelay: true,
		Purposes: PurposeAgent, Source: srcAIRobots, Checked: catChecked},
	{Name: "GoogleAgent-URLContext", Dialect: Google, Operator: "Google", Purpose: "fetches URLs Gemini API calls name", IgnoresCrawlDelay: true,
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Gemini-Deep-Research", Dialect: Google, Operator: "Google", Purpose: "fetches for Gemini Deep Research", IgnoresCrawlDelay: true,
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Google-Firebase", Dialect: Google, Operator: "Google", Purpose: "AI apps built on Firebase", IgnoresCrawlDelay: true,
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Google-Gemini-CLI", Dialect: Google, Operator: "Google", Purpose: "fetches for Gemini CLI (coding agent)", IgnoresCrawlDelay: true,
		Purposes: PurposeAgent, Source: srcAIRobots, Checked: catChecked},
	{Name: "Amzn-SearchBot", Operator: "Amazon", Purpose: "search in Alexa and Rufus",
		Purposes: PurposeAISearch, Docs: docAmazon, ObeysRobots: ObeysYes, Source: docAmazon, Checked: catChecked},
	{Name: "Amzn-User", Operator: "Amazon", Purpose: "fetches for Alexa users",
		Purposes: PurposeUserFetch, Docs: docAmazon, ObeysRobots: ObeysYes, IPRanges: []string{"https://developer.amazon.com/amazonbot/live-ip-addresses/"}, Source: docAmazon, Checked: catChecked},
	{Name: "amazon-kendra", Operator: "Amazon", Purpose: "Kendra enterprise search",
		Purposes: PurposeAISearch, ObeysRobots: ObeysYes, RobotsNote: "crawls the sites its customers name", Source: srcAIRobots, Checked: catChecked},
	{Name: "amazon-QBusiness", Operator: "Amazon", Purpose: "Amazon Q Business assistants",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "AmazonBuyForMe", Operator: "Amazon", Purpose: "Buy for Me shopping agent",
		Purposes: PurposeAgent, Source: srcAIRobots, Checked: catChecked},
	{Name: "bedrockbot", Operator: "Amazon", Purpose: "Bedrock knowledge bases",
		Purposes: PurposeAISearch, Docs: "https://docs.aws.amazon.com/bedrock/latest/userguide/webcrawl-data-source-connector.html", ObeysRobots: ObeysYes,
		RobotsNote: "crawls the sites its customers name", Source: srcAIRobots, Checked: catChecked},
	{Name: "NovaAct", Operator: "Amazon", Purpose: "Nova Act browsing agent",
		Purposes: PurposeAgent, Source: srcAIRobots, Checked: catChecked},
	{Name: "Meta-WebIndexer", Operator: "Meta", Purpose: "Meta AI search",
		Purposes: PurposeAISearch, Docs: docMeta, Source: srcAIRobots, Checked: catChecked},
	{Name: "Claude-Code", Operator: "Anthropic", Purpose: "fetches for Claude Code (coding agent)",
		Purposes: PurposeAgent, Source: srcAIRobots, Checked: catChecked},
	{Name: "YandexAdditionalBot", Fallbacks: []string{"Yandex"}, Dialect: Yandex, Operator: "Yandex", Purpose: "YandexGPT quick answers",
		Purposes: PurposeAISearch, Docs: "https://yandex.ru/support/webmaster/en/search-appearance/fast.html", ObeysRobots: ObeysYes, ReverseDNS: dnsYandex, Source: srcAIRobots, Checked: catChecked},
	{Name: "YiyanBot", Operator: "Baidu", Purpose: "fetches for the Yiyan assistant",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "TikTokSpider", Operator: "ByteDance", Purpose: "AI training",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "Trae", Operator: "ByteDance", Purpose: "fetches for Trae (coding agent)",
		Purposes: PurposeAgent, Source: srcAIRobots, Checked: catChecked},
	{Name: "TongyiBot", Operator: "Alibaba", Purpose: "fetches for the Qwen assistant",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "omgili", Operator: "Webz.io", Purpose: "web data sold, for AI among others",
		Purposes: PurposeAITraining, Docs: docWebz, ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "Webzio-Extended", Operator: "Webz.io", Purpose: "web data sold for AI training",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "SemrushBot-OCOB", Operator: "Semrush", Purpose: "ContentShake AI",
		Purposes: PurposeSEO, Docs: docSemrush, ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "SemrushBot-SWA", Operator: "Semrush", Purpose: "SEO Writing Assistant checks",
		Purposes: PurposeSEO, Docs: docSemrush, ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "Ai2Bot-Dolma", Operator: "Allen Institute for AI", Purpose: "AI training (Dolma)",
		Purposes: PurposeAITraining, Docs: docAi2, ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "AI2Bot-DeepResearchEval", Operator: "Allen Institute for AI", Purpose: "evaluating research assistants",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "AddSearchBot", Operator: "AddSearch", Purpose: "AI site search",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "AgentTimes", Operator: "The Agent Times", Purpose: "AI news from RSS feeds",
		Purposes: PurposeOther, Docs: "https://theagenttimes.com/about", Source: srcAIRobots, Checked: catChecked},
	{Name: "aiHitBot", Operator: "aiHit", Purpose: "company data for machine learning",
		Purposes: PurposeAITraining, Docs: "https://www.aihitdata.com/about", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "AIWebIndex", Operator: "Lyrenth", Purpose: "web index for AI systems",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Andibot", Operator: "Andi", Purpose: "AI search assistant",
		Purposes: PurposeAISearch, Docs: "https://andisearch.com/", Source: srcAIRobots, Checked: catChecked},
	{Name: "Anomura", Operator: "Direqt", Purpose: "AI search of its customers' sites",
		Purposes: PurposeAISearch, Docs: "https://direqt.ai", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "ApifyBot", Operator: "Apify", Purpose: "scraping for AI, RAG and automation",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "ApifyWebsiteContentCrawler", Operator: "Apify", Purpose: "site content for AI and automation",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Aranet-SearchBot", Purpose: "undocumented AI agent",
		Source: srcAIRobots, Checked: catChecked},
	{Name: "atlassian-bot", Operator: "Atlassian", Purpose: "Rovo AI search and agents",
		Purposes: PurposeAISearch, Docs: "https://support.atlassian.com/organization-administration/docs/connect-custom-website-to-rovo/", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "Awario", Operator: "Awario", Purpose: "AI data scraping",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "AzureAI-SearchBot", Purpose: "AI search",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "bigsur.ai", Operator: "Big Sur AI", Purpose: "AI web agents and sales assistants",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Bravebot", Operator: "Brave", Purpose: "Brave Search, also sold for AI",
		Purposes: PurposeSearch | PurposeAISearch, Docs: "https://safe.search.brave.com/help/brave-search-crawler", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "Brightbot", Operator: "Bright Data", Purpose: "web data for AI training and RAG", Aliases: []string{"Brightbot 1.0"},
		Purposes: PurposeAITraining | PurposeAISearch, Docs: "https://brightdata.com/brightbot", Source: srcAIRobots, Checked: catChecked},
	{Name: "BuddyBot", Operator: "BuddyBotLearning", Purpose: "AI learning companion",
		Purposes: PurposeUserFetch, Docs: "https://www.buddybotlearning.com", Source: srcAIRobots, Checked: catChecked},
	{Name: "Channel3Bot", Purpose: "AI search",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "ChatGLM-Spider", Purpose: "AI data scraping",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "Cloudflare-AutoRAG", Operator: "Cloudflare", Purpose: "AutoRAG search of its customers' sites",
		Purposes: PurposeAISearch, Docs: "https://developers.cloudflare.com/autorag", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "Cotoyogi", Operator: "ROIS", Purpose: "AI training (Japanese)",
		Purposes: PurposeAITraining, Docs: "https://ds.rois.ac.jp/en_center8/en_crawler/", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "CragCrawler", Operator: "CragSoftware", Purpose: "AI web scraping services",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Crawl4AI", Purpose: "undocumented AI agent",
		Source: srcAIRobots, Checked: catChecked},
	{Name: "Crawlspace", Operator: "Crawlspace", Purpose: "crawling platform for AI and RAG",
		Purposes: PurposeAISearch, Docs: "https://crawlspace.dev", ObeysRobots: ObeysYes, RobotsNote: "as its maker said on Hacker News", Source: srcAIRobots, Checked: catChecked},
	{Name: "Cursor", Operator: "Cursor", Purpose: "fetches for Cursor (coding agent)",
		Purposes: PurposeAgent, Source: srcAIRobots, Checked: catChecked},
	{Name: "Datenbank Crawler", Operator: "Datenbank", Purpose: "AI data scraping",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "DeepSeekBot", Operator: "DeepSeek", Purpose: "AI training",
		Purposes: PurposeAITraining, ObeysRobots: ObeysNo, RobotsNote: noteReported, Source: srcAIRobots, Checked: catChecked},
	{Name: "Devin", Operator: "Devin AI", Purpose: "software engineering agent",
		Purposes: PurposeAgent, ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "EchoboxBot", Operator: "Echobox", Purpose: "AI social and email publishing",
		Purposes: PurposeOther, Docs: "https://echobox.com", Source: srcAIRobots, Checked: catChecked},
	{Name: "ExaBot", Operator: "Exa", Purpose: "AI search engine and APIs",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "ExaSearchBot", Operator: "Exa", Purpose: "AI search index",
		Purposes: PurposeAISearch, Docs: "https://exa.ai", Source: srcAIRobots, Checked: catChecked},
	{Name: "Factset_spyderbot", Operator: "FactSet", Purpose: "AI model training",
		Purposes: PurposeAITraining, Docs: "https://www.factset.com/ai", Source: srcAIRobots, Checked: catChecked},
	{Name: "FirecrawlAgent", Operator: "Firecrawl", Purpose: "web content for LLM applications",
		Purposes: PurposeAISearch, ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "FriendlyCrawler", Purpose: "data sets for machine learning",
		Purposes: PurposeAITraining, ObeysRobots: ObeysYes, RobotsNote: "a third party's report; the operator is unknown", Source: srcAIRobots, Checked: catChecked},
	{Name: "GeistHaus-PageFetcher", Operator: "GeistHaus", Purpose: "fetches for AI therapy tools",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "HenkBot", Operator: "Valyu", Purpose: "AI search infrastructure",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "iAskBot", Purpose: "undocumented AI agent",
		Source: srcAIRobots, Checked: catChecked},
	{Name: "iaskspider", Operator: "iAsk", Purpose: "AI answers to user queries", Aliases: []string{"iaskspider/2.0"},
		Purposes: PurposeAISearch, ObeysRobots: ObeysNo, RobotsNote: noteReported, Source: srcAIRobots, Checked: catChecked},
	{Name: "ICC-Crawler", Operator: "NICT", Purpose: "AI research and training",
		Purposes: PurposeAITraining, Docs: "https://nict.go.jp", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "imageSpider", Purpose: "AI data scraping (images)",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "img2dataset", Operator: "img2dataset (open source)", Purpose: "image data sets for AI training",
		Purposes: PurposeAITraining, Docs: "https://github.com/rom1504/img2dataset", Source: srcAIRobots, Checked: catChecked},
	{Name: "ISSCyberRiskCrawler", Operator: "ISS Corporate", Purpose: "machine learning for cyber risk",
		Purposes: PurposeAITraining, Docs: "https://iss-cyber.com", ObeysRobots: ObeysNo, RobotsNote: noteReported, Source: srcAIRobots, Checked: catChecked},
	{Name: "kagi-fetcher", Operator: "Kagi", Purpose: "fetches for Kagi Assistant users",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Kangaroo Bot", Operator: "Kangaroo LLM", Purpose: "AI training (Australian)",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "Kimi-User", Operator: "Moonshot AI", Purpose: "fetches for Kimi users",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "KlaviyoAIBot", Operator: "Klaviyo", Purpose: "reads its customers' sites for AI",
		Purposes: PurposeAISearch, Docs: "https://help.klaviyo.com/hc/en-us/articles/40496146232219", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "KunatoCrawler", Purpose: "undocumented AI agent",
		Source: srcAIRobots, Checked: catChecked},
	{Name: "laion-huggingface-processor", Purpose: "AI data scraping",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "LAIONDownloader", Operator: "LAION", Purpose: "data sets for machine learning",
		Purposes: PurposeAITraining, Docs: "https://laion.ai/faq/", ObeysRobots: ObeysNo, RobotsNote: "per ai.robots.txt, citing LAION's FAQ", Source: srcAIRobots, Checked: catChecked},
	{Name: "LCC", Purpose: "data scraping (no source says it trains AI models)",
		Purposes: PurposeOther, Source: srcAIRobots, Checked: catChecked},
	{Name: "Lightpanda", Operator: "anyone (open-source browser)", Purpose: "headless browser for agents and automation",
		Purposes: PurposeAgent, Docs: "https://github.com/lightpanda-io/browser", ObeysRobots: ObeysPartly, RobotsNote: "at the choice of whoever runs it", Source: srcAIRobots, Checked: catChecked},
	{Name: "LinerBot", Operator: "Liner", Purpose: "fetches for Liner's AI assistant",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Linguee Bot", Operator: "Linguee", Purpose: "translation data for AI",
		Purposes: PurposeAITraining, Docs: "https://www.linguee.com", ObeysRobots: ObeysNo, RobotsNote: noteReported, Source: srcAIRobots, Checked: catChecked},
	{Name: "LinkupBot", Purpose: "AI search",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Manus-User", Operator: "Butterfly Effect", Purpose: "Manus browsing agent",
		Purposes: PurposeAgent, Source: srcAIRobots, Checked: catChecked},
	{Name: "Mozilla-Tabstack", Operator: "Mozilla", Purpose: "web data API for AI agents",
		Purposes: PurposeAISearch, Docs: "https://docs.tabstack.ai/trust/controlling-access", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "MyCentralAIScraperBot", Purpose: "AI data scraping",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "NagetBot", Operator: "Naget", Purpose: "AI content discovery",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "netEstate Imprint Crawler", Operator: "netEstate", Purpose: "AI data scraping",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "newsai", Purpose: "AI data scraping (news)",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "opencode", Operator: "anyone (open-source agent)", Purpose: "fetches for OpenCode (coding agent)",
		Purposes: PurposeAgent, Source: srcAIRobots, Checked: catChecked},
	{Name: "Panscient", Operator: "Panscient", Purpose: "company data built with machine learning", Aliases: []string{"panscient.com"},
		Purposes: PurposeAITraining, Docs: "https://panscient.com/faq.htm", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "PhindBot", Operator: "Phind", Purpose: "AI answers for developers",
		Purposes: PurposeUserFetch, Docs: "https://www.phind.com/", Source: srcAIRobots, Checked: catChecked},
	{Name: "Poggio-Citations", Operator: "Poggio", Purpose: "AI sales tools citing sources",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "Poseidon Research Crawler", Operator: "Poseidon Research", Purpose: "AI interpretability research",
		Purposes: PurposeAITraining, Docs: "https://www.poseidonresearch.com", Source: srcAIRobots, Checked: catChecked},
	{Name: "QualifiedBot", Operator: "Qualified", Purpose: "AI assistants on its customers' sites",
		Purposes: PurposeUserFetch, Docs: "https://www.qualified.com", Source: srcAIRobots, Checked: catChecked},
	{Name: "Querit-SearchBot", Operator: "Querit", Purpose: "search API for language models",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "QueritBot", Operator: "Querit", Purpose: "search API for language models",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "QuillBot", Operator: "QuillBot", Purpose: "AI writing and detection tools", Aliases: []string{"quillbot.com"},
		Purposes: PurposeOther, Docs: "https://quillbot.com", Source: srcAIRobots, Checked: catChecked},
	{Name: "Reflectionbot", Operator: "Reflection AI", Purpose: "undocumented AI agent",
		Docs: "https://reflection.ai/", Source: srcAIRobots, Checked: catChecked},
	{Name: "SBIntuitionsBot", Operator: "SB Intuitions", Purpose: "AI development",
		Purposes: PurposeAITraining, Docs: "https://www.sbintuitions.co.jp/en/bot/", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "Scrapy", Operator: "anyone (Scrapy framework)", Purpose: "default name of a scraping framework",
		Purposes: PurposeOther, Docs: "https://docs.scrapy.org/en/latest/topics/settings.html#robotstxt-obey", ObeysRobots: ObeysPartly,
		RobotsNote: "a setting (ROBOTSTXT_OBEY) of each project, on in new projects' settings", Source: srcAIRobots, Checked: catChecked},
	{Name: "Shap-User", Operator: "Parallel Web Systems", Purpose: "fetches for Parallel's users",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "ShapBot", Operator: "Parallel Web Systems", Purpose: "web search APIs for AI",
		Purposes: PurposeAISearch, Docs: "https://docs.parallel.ai/features/crawler", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "Sidetrade indexer bot", Operator: "Sidetrade", Purpose: "data for AI products",
		Purposes: PurposeAITraining, Docs: "https://www.sidetrade.com", Source: srcAIRobots, Checked: catChecked},
	{Name: "TavilyBot", Operator: "Tavily", Purpose: "search API for AI agents",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
	{Name: "TerraCotta", Operator: "Ceramic AI", Purpose: "search API for AI",
		Purposes: PurposeAISearch, Docs: "https://github.com/CeramicTeam/CeramicTerracotta", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "Thinkbot", Operator: "Thinkbot", Purpose: "studies of AI use",
		Purposes: PurposeOther, Docs: "https://www.thinkbot.agency", ObeysRobots: ObeysNo, RobotsNote: noteReported, Source: srcAIRobots, Checked: catChecked},
	{Name: "TwinAgent", Operator: "Twin", Purpose: "browser automation agents",
		Purposes: PurposeAgent, Source: srcAIRobots, Checked: catChecked},
	{Name: "UseAI", Operator: "Use AI", Purpose: "AI workspace research",
		Purposes: PurposeUserFetch, Source: srcAIRobots, Checked: catChecked},
	{Name: "VelenPublicWebCrawler", Operator: "Velen", Purpose: "business data and machine learning",
		Purposes: PurposeAITraining, Docs: "https://velen.io", ObeysRobots: ObeysYes, Source: srcAIRobots, Checked: catChecked},
	{Name: "WARDBot", Operator: "WEBSPARK", Purpose: "AI data scraping",
		Purposes: PurposeAITraining, Source: srcAIRobots, Checked: catChecked},
	{Name: "wpbot", Operator: "QuantumCloud", Purpose: "AI chatbot for WordPress sites",
		Purposes: PurposeOther, Docs: "https://www.quantumcloud.com", RobotsNote: "the operator offers an opt-out form", Source: srcAIRobots, Checked: catChecked},
	{Name: "WRTNBot", Purpose: "undocumented AI agent",
		Source: srcAIRobots, Checked: catChecked},
	{Name: "YaK", Operator: "Meltwater", Purpose: "consumer intelligence with AI",
		Purposes: PurposeOther, Docs: "https://www.meltwater.com/en/suite/consumer-intelligence", Source: srcAIRobots, Checked: catChecked},
	{Name: "ZanistaBot", Purpose: "AI search",
		Purposes: PurposeAISearch, Source: srcAIRobots, Checked: catChecked},
})

// yandexBot is a Yandex robot: Yandex's reading, "Yandex" as its fallback,
// verified by Yandex's domains. A note says it may ignore the '*' group.
func yandexBot(name, purpose string, p Purpose, note string) Crawler {
	c := Crawler{Name: name, Token: name, Fallbacks: []string{"Yandex"}, Dialect: Yandex, Operator: "Yandex", Purpose: purpose,
		Purposes: p, Docs: docYandex, ObeysRobots: ObeysYes, ReverseDNS: dnsYandex, Source: docYandex, Checked: catChecked}
	if note != "" {
		c.ObeysRobots, c.RobotsNote = ObeysPartly, note
	}
	return c
}

// baiduSpider is a Baidu crawler: Baidu's reading, verified by Baidu's
// domains.
func baiduSpider(name, purpose string, p Purpose, fallbacks ...string) Crawler {
	return Crawler{Name: name, Token: name, Fallbacks: fallbacks, Dialect: Baidu, Operator: "Baidu", Purpose: purpose,
		Purposes: p, Docs: docBaidu, ObeysRobots: ObeysYes, ReverseDNS: dnsBaidu, Source: docBaidu, Checked: catChecked}
}

// completeCrawlers fills in what the table leaves out: the token is the
// name and the dialect Google's. It clips every slice to its length, so that a copy
// appended to never writes into the table.
func completeCrawlers(table []Crawler) []Crawler {
	for i := range table {
		c := &table[i]
		if c.Token == "" {
			c.Token = c.Name
		}
		if c.Dialect == DefaultDialect {
			c.Dialect = Google
		}
		if c.Dialect == Yandex || c.Dialect == Baidu {
			// Yandex's robots have not obeyed crawl-delay since 2018,
			// Baidu's never read it (docs/protocol.md, Crawl-delay).
			c.IgnoresCrawlDelay = true
		}
		completeBehaviour(c)
		c.Fallbacks = clipNames(c.Fallbacks)
		c.Aliases = clipNames(c.Aliases)
		c.IPRanges = clipNames(c.IPRanges)
		c.ReverseDNS = clipNames(c.ReverseDNS)
	}
	return table
}

// completeBehaviour fills c's behaviour classes and access: the classes its
// purposes map to (Purpose.Behaviours), direct access when its operator is
// known, the entry's Source as theirs; then what behaviourFacts says of it.
func completeBehaviour(c *Crawler) {
	c.Behaviours = c.Purposes.Behaviours()
	c.BehaviourSource = c.Source
	c.BehaviourNote = "from its purposes (" + c.Purposes.String() + ")"
	if c.Operator != "" {
		c.Access = AccessDirect
	}
	f, ok := behaviourFacts[c.Name]
	if !ok {
		return
	}
	if f.b != 0 {
		c.Behaviours = f.b
	}
	if f.access != AccessUnknown {
		c.Access = f.access
	}
	if f.src != "" {
		c.BehaviourSource = f.src
	}
	if f.note != "" {
		c.BehaviourNote = f.note
	}
	if strings.HasPrefix(f.note, "unclassified: ") {
		c.Behaviours = 0
	}
}

func clipNames(s []string) []string { return s[:len(s):len(s)] }
