package robotstxt

import "testing"

// TestHonoursCrawlDelay: the families docs/protocol.md names, by crawler
// and by token.
func TestHonoursCrawlDelay(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"Googlebot", false}, {"Googlebot-Image", false}, {"AdsBot-Google", false},
		{"Baiduspider", false}, {"Baiduspider-image", false},
		{"YandexBot", false}, {"YandexImages", false},
		{"Bingbot", true}, {"GPTBot", true}, {"AhrefsBot", true},
	} {
		c, ok := LookupCrawler(tc.name)
		if !ok {
			t.Fatalf("no crawler %s", tc.name)
		}
		if got := (Query{Crawler: &c}).HonoursCrawlDelay(); got != tc.want {
			t.Errorf("%s (crawler): %v, want %v", tc.name, got, tc.want)
		}
		if got := (Query{Agents: []string{c.Token}}).HonoursCrawlDelay(); got != tc.want {
			t.Errorf("%s (token): %v, want %v", tc.name, got, tc.want)
		}
	}
	for tok, want := range map[string]bool{"Yandex": false, "Googlebot/2.1": false, "MyOwnBot": true, "*": true} {
		if got := (Query{Agents: []string{tok}}).HonoursCrawlDelay(); got != want {
			t.Errorf("token %q: %v, want %v", tok, got, want)
		}
	}
	// Robots.CrawlDelay's Pace.Ignored is the same answer.
	r := ParseString("User-agent: *\nCrawl-delay: 4\n")
	for _, c := range Crawlers() {
		if p := r.CrawlDelay(Query{Crawler: &c}); p.Ignored == (Query{Crawler: &c}).HonoursCrawlDelay() {
			t.Errorf("%s: Pace.Ignored %v disagrees with HonoursCrawlDelay", c.Name, p.Ignored)
		}
	}
}
