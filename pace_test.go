package robotstxt

import (
	"testing"
	"time"
)

func TestCrawlDelayPace(t *testing.T) {
	const file = `User-agent: *
Crawl-delay: 2
Request-rate: 1/10s
Disallow: /tmp

User-agent: OwnBot
Crawl-delay: 0.5
Disallow: /x

User-agent: RateBot
Request-rate: 3/1m 0800-1700
Disallow: /r

User-agent: bingbot
Disallow: /b
`
	r := ParseString(file)
	bing, _ := LookupCrawler("bingbot")
	gbot, _ := LookupCrawler("Googlebot")
	noon := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	night := time.Date(2026, 1, 1, 22, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name       string
		q          Query
		delay      float64
		line       int
		global     bool
		rateLine   int
		ignored    bool
		noon, nite time.Duration
	}{
		{"a token without a group of its own: '*'", Query{Agents: []string{"ExampleBot"}}, 2, 2, true, 3, false, 10 * time.Second, 10 * time.Second},
		{"its own group wins", Query{Agents: []string{"ownbot"}}, 0.5, 7, false, 3, false, 10 * time.Second, 10 * time.Second},
		{"request-rate in a window, crawl-delay from '*'", Query{Agents: []string{"RateBot"}}, 2, 2, true, 11, false, 20 * time.Second, 2 * time.Second},
		{"bing falls back to '*'", Query{Crawler: &bing}, 2, 2, true, 3, false, 10 * time.Second, 10 * time.Second},
		{"google's crawlers ignore it", Query{Crawler: &gbot}, 2, 2, true, 3, true, 0, 0},
		{"any dialect", Query{Agents: []string{"ownbot"}, Dialect: Google}, 0.5, 7, false, 3, false, 10 * time.Second, 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := r.CrawlDelay(tc.q)
			if p.CrawlDelay != tc.delay || p.CrawlDelayLine != tc.line || p.CrawlDelayGlobal != tc.global || p.Ignored != tc.ignored {
				t.Errorf("%+v", p)
			}
			if p.RequestRate == nil || p.RequestRate.Line != tc.rateLine {
				t.Errorf("request-rate %+v", p.RequestRate)
			}
			if got := p.Interval(noon); got != tc.noon {
				t.Errorf("Interval(noon) = %v, want %v", got, tc.noon)
			}
			if got := p.Interval(night); got != tc.nite {
				t.Errorf("Interval(night) = %v, want %v", got, tc.nite)
			}
		})
	}
	if p := ParseString("User-agent: *\nDisallow: /\n").CrawlDelay(Query{Agents: []string{"x"}}); p.CrawlDelayLine != 0 || p.RequestRate != nil || p.Interval(noon) != 0 {
		t.Errorf("no crawl-delay: %+v", p)
	}
	if p := ParseString("User-agent: x\nCrawl-delay: 1e300\n").CrawlDelay(Query{Agents: []string{"x"}}); p.Interval(noon) <= 0 {
		t.Errorf("huge crawl-delay: interval %v", p.Interval(noon))
	}
	// A window across midnight.
	if p := ParseString("User-agent: *\nRequest-rate: 1/5s 2200-0600\n").CrawlDelay(Query{Agents: []string{"x"}}); p.Interval(night) != 5*time.Second || p.Interval(noon) != 0 {
		t.Errorf("window across midnight: %v %v", p.Interval(night), p.Interval(noon))
	}
}
