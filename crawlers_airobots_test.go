package robotstxt

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// aiRobotsNames are the names of ai.robots.txt's robots.json at commit
// 738c80d (2026-08-22), in its order: 166 names, the keys of that file.
var aiRobotsNames = []string{
	"AddSearchBot", "AgentTimes", "AI2Bot", "AI2Bot-DeepResearchEval", "Ai2Bot-Dolma", "aiHitBot",
	"AIWebIndex", "amazon-kendra", "amazon-QBusiness", "Amazonbot", "AmazonBuyForMe",
	"Amzn-SearchBot", "Amzn-User", "Andibot", "Anomura", "anthropic-ai", "ApifyBot",
	"ApifyWebsiteContentCrawler", "Applebot", "Applebot-Extended", "Aranet-SearchBot",
	"atlassian-bot", "Awario", "AzureAI-SearchBot", "bedrockbot", "bigsur.ai", "Bravebot",
	"Brightbot", "Brightbot 1.0", "BuddyBot", "Bytespider", "CCBot", "Channel3Bot", "ChatGLM-Spider",
	"ChatGPT Agent", "ChatGPT-User", "Claude-Code", "Claude-SearchBot", "Claude-User", "Claude-Web",
	"ClaudeBot", "Cloudflare-AutoRAG", "CloudVertexBot", "Code", "cohere-ai",
	"cohere-training-data-crawler", "Cotoyogi", "CragCrawler", "Crawl4AI", "Crawlspace", "Cursor",
	"Datenbank Crawler", "DeepSeekBot", "Devin", "Diffbot", "DuckAssistBot", "Echobot Bot",
	"EchoboxBot", "ExaBot", "ExaSearchBot", "FacebookBot", "facebookexternalhit", "Factset_spyderbot",
	"FirecrawlAgent", "FriendlyCrawler", "GeistHaus-PageFetcher", "Gemini-Deep-Research",
	"Google-Agent", "Google-CloudVertexBot", "Google-Extended", "Google-Firebase",
	"Google-Gemini-CLI", "Google-NotebookLM", "GoogleAgent-Mariner", "GoogleAgent-URLContext",
	"GoogleOther", "GoogleOther-Image", "GoogleOther-Video", "GPTBot", "HenkBot", "iAskBot",
	"iaskspider", "iaskspider/2.0", "ICC-Crawler", "ImagesiftBot", "imageSpider", "img2dataset",
	"ISSCyberRiskCrawler", "kagi-fetcher", "Kangaroo Bot", "Kimi-User", "KlaviyoAIBot",
	"KunatoCrawler", "laion-huggingface-processor", "LAIONDownloader", "LCC", "Lightpanda",
	"LinerBot", "Linguee Bot", "LinkupBot", "Manus-User", "meta-externalagent", "Meta-ExternalAgent",
	"meta-externalfetcher", "Meta-ExternalFetcher", "meta-webindexer", "MistralAI-User",
	"MistralAI-User/1.0", "Mozilla-Tabstack", "MyCentralAIScraperBot", "NagetBot",
	"netEstate Imprint Crawler", "newsai", "NotebookLM", "NovaAct", "OAI-SearchBot", "omgili",
	"omgilibot", "OpenAI", "opencode", "Operator", "PanguBot", "Panscient", "panscient.com",
	"Perplexity-User", "PerplexityBot", "PetalBot", "PhindBot", "Poggio-Citations",
	"Poseidon Research Crawler", "QualifiedBot", "Querit-SearchBot", "QueritBot", "QuillBot",
	"quillbot.com", "Reflectionbot", "SBIntuitionsBot", "Scrapy", "SemrushBot-OCOB", "SemrushBot-SWA",
	"Shap-User", "ShapBot", "Sidetrade indexer bot", "Spider", "TavilyBot", "Terra Cotta",
	"TerraCotta", "Thinkbot", "TikTokSpider", "Timpibot", "TongyiBot", "Trae", "TwinAgent", "UseAI",
	"VelenPublicWebCrawler", "WARDBot", "Webzio-Extended", "webzio-extended", "wpbot", "WRTNBot",
	"YaK", "YandexAdditional", "YandexAdditionalBot", "YiyanBot", "YouBot", "ZanistaBot",
}

// aiRobotsLeftOut are the names of aiRobotsNames the table does not hold,
// and why.
var aiRobotsLeftOut = map[string]string{
	"ChatGPT Agent":  "not a product token, and OpenAI's page of crawlers names no such token",
	"Operator":       "OpenAI's page of crawlers names no such token",
	"OpenAI":         "OpenAI's page of crawlers names no crawler of that name; the source gives no purpose",
	"Code":           "a common word that no operator documents as a token",
	"Spider":         "a common word that no operator documents as a token",
	"CloudVertexBot": "not a token Google documents: Google's crawler is Google-CloudVertexBot",
	"NotebookLM":     "not a token Google documents: Google's fetcher is Google-NotebookLM",
	"Echobot Bot":    "not a product token, and a second name for Echobox's EchoboxBot",
	"Terra Cotta":    "not a product token, and a second name for Ceramic's TerraCotta",
}

// invalidTokens are the names of aiRobotsNames that are not product tokens
// (RFC 9309: letters, '-' and '_'), with the token Google's reading of a
// user-agent line gives them: its value up to the first other byte.
var invalidTokens = []struct{ name, google string }{
	{"AI2Bot", "AI"},
	{"AI2Bot-DeepResearchEval", "AI"},
	{"Ai2Bot-Dolma", "Ai"},
	{"bigsur.ai", "bigsur"},
	{"Brightbot 1.0", "Brightbot"},
	{"Channel3Bot", "Channel"},
	{"ChatGPT Agent", "ChatGPT"},
	{"Crawl4AI", "Crawl"},
	{"Datenbank Crawler", "Datenbank"},
	{"Echobot Bot", "Echobot"},
	{"iaskspider/2.0", "iaskspider"},
	{"img2dataset", "img"},
	{"Kangaroo Bot", "Kangaroo"},
	{"Linguee Bot", "Linguee"},
	{"MistralAI-User/1.0", "MistralAI-User"},
	{"netEstate Imprint Crawler", "netEstate"},
	{"panscient.com", "panscient"},
	{"Poseidon Research Crawler", "Poseidon"},
	{"quillbot.com", "quillbot"},
	{"Sidetrade indexer bot", "Sidetrade"},
	{"Terra Cotta", "Terra"},
}

// TestAIRobotsList checks that every name of ai.robots.txt's list is in
// the table (by name, token or alias) or left out for a stated reason.
func TestAIRobotsList(t *testing.T) {
	if len(aiRobotsNames) != 166 {
		t.Fatalf("%d names, want the 166 of robots.json", len(aiRobotsNames))
	}
	for _, n := range aiRobotsNames {
		c, found := LookupCrawler(n)
		why, left := aiRobotsLeftOut[n]
		switch {
		case found && left:
			t.Errorf("%q is in the table (as %s) and left out (%s)", n, c.Name, why)
		case !found && !left:
			t.Errorf("%q is neither in the table nor left out", n)
		}
	}
	for n := range aiRobotsLeftOut {
		if !slices.Contains(aiRobotsNames, n) {
			t.Errorf("left out %q is not in the list", n)
		}
	}
}

// TestAIRobotsInvalidTokens checks the list of names that are not product
// tokens, and the group Google's reading gives each: a line naming it is a
// group for the token ExtractToken finds, and for no crawler asking as the
// name. A crawler of the table with such a name is matched on its whole
// name, as 360Spider is.
func TestAIRobotsInvalidTokens(t *testing.T) {
	var invalid []string
	for _, n := range aiRobotsNames {
		if !ValidToken(n) {
			invalid = append(invalid, n)
		}
	}
	var listed []string
	for _, it := range invalidTokens {
		listed = append(listed, it.name)
	}
	if !slices.Equal(invalid, listed) {
		t.Fatalf("names that are not tokens: %q\nlisted: %q", invalid, listed)
	}
	doc, err := os.ReadFile("docs/crawlers.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range invalidTokens {
		if got := ExtractToken(it.name); got != it.google {
			t.Errorf("ExtractToken(%q) = %q, want %q", it.name, got, it.google)
		}
		r := ParseString("User-agent: " + it.name + "\nDisallow: /\n\nUser-agent: *\nAllow: /\n")
		if r.Allowed(it.google, "/x") {
			t.Errorf("%q: the group does not apply to %q in Google's reading", it.name, it.google)
		}
		if !r.Allowed("Unrelatedbot", "/x") {
			t.Errorf("%q: the group applies to everyone", it.name)
		}
		if c, ok := LookupCrawler(it.name); ok {
			if d := r.Decide(Query{URL: "/x", Crawler: &c}); d.Allowed {
				t.Errorf("crawler %s does not obey a group naming %q: %s", c.Name, it.name, d.Group.Reason)
			}
		}
		row := "| `" + it.name + "` | `" + it.google + "` |"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/crawlers.md has no row %s", row)
		}
	}
}
