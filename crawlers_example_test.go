package robotstxt_test

import (
	"fmt"

	"github.com/seed53c283f5/robotstxt"
)

func ExampleParsePurpose() {
	p, err := robotstxt.ParsePurpose("ai-training, RAG")
	fmt.Println(p, err)
	fmt.Println(p.Has(robotstxt.PurposeAISearch), p.Any(robotstxt.PurposeSearch))
	_, err = robotstxt.ParsePurpose("crawling")
	fmt.Println(err != nil)
	// Output:
	// ai-training,ai-search <nil>
	// true false
	// true
}

func ExampleCrawlersByPurpose() {
	for _, c := range robotstxt.CrawlersByPurpose(robotstxt.PurposeAITraining | robotstxt.PurposeUserFetch) {
		if c.Operator == "OpenAI" || c.Operator == "Anthropic" && c.ObeysRobots == robotstxt.ObeysYes {
			fmt.Printf("%s: %s, obeys robots.txt: %s\n", c.Name, c.Purposes, c.ObeysRobots)
		}
	}
	// Output:
	// GPTBot: ai-training, obeys robots.txt: yes
	// ChatGPT-User: user-fetch, obeys robots.txt: partly
	// ClaudeBot: ai-training, obeys robots.txt: yes
	// Claude-User: user-fetch, obeys robots.txt: yes
}

func ExampleCrawler_catalogue() {
	c, _ := robotstxt.LookupCrawler("Googlebot")
	fmt.Println(c.Purposes, c.ObeysRobots)
	fmt.Println(c.IPRanges)
	fmt.Println(c.ReverseDNS)
	ext, _ := robotstxt.LookupCrawler("Google-Extended")
	fmt.Println(ext.Purposes, ext.Control)
	// Output:
	// search yes
	// [https://developers.google.com/static/crawling/ipranges/common-crawlers.json]
	// [googlebot.com]
	// ai-training,token-only true
}

func ExampleParseBehaviour() {
	b, err := robotstxt.ParseBehaviour("Training, Social/Link Preview")
	fmt.Println(b, err)
	fmt.Println(b.Any(robotstxt.BehaviourTraining), b.Has(robotstxt.BehaviourSearch|robotstxt.BehaviourTraining))
	// Cloudflare's older categories read as the class they became.
	b, _ = robotstxt.ParseBehaviour("AI Crawler, AI Search, AI Assistant")
	fmt.Println(b)
	// Output:
	// training,link-preview <nil>
	// true false
	// search,agent,training
}

func ExampleCrawlersByBehaviour() {
	// A policy's "agent: allow", and who drives each agent.
	for _, c := range robotstxt.CrawlersByBehaviour(robotstxt.BehaviourAgent) {
		if c.Operator == "OpenAI" || c.Operator == "Amazon" {
			fmt.Printf("%s: %s, %s\n", c.Name, c.Behaviours, c.Access)
		}
	}
	g, _ := robotstxt.LookupCrawler("Googlebot")
	fmt.Println(g.Name+":", g.Behaviours, "from", g.Purposes, "and", g.BehaviourSource)
	// Output:
	// ChatGPT-User: agent, direct
	// Amzn-User: agent, direct
	// AmazonBuyForMe: agent,transact, direct
	// NovaAct: agent, intermediary
	// Googlebot: search,training from search and https://developers.cloudflare.com/ai-crawl-control/reference/bot-catalog/
}
