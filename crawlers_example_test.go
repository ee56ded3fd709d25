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
