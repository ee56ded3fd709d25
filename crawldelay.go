package robotstxt

import "strings"

// Whether a crawler paces itself by crawl-delay: one answer for check (which
// shows the delay), the polite client (which waits it), Robots.CrawlDelay
// (Pace.Ignored) and lint (which warns of a line no crawler of its group
// reads). docs/protocol.md, "Crawl-delay", says why each family is where it
// is.

// HonoursCrawlDelay reports whether the crawler q asks about waits between
// requests as the file's crawl-delay and request-rate lines ask: a known
// crawler (q.Crawler) unless its engine ignores them
// (Crawler.IgnoresCrawlDelay: Google's, Yandex's and Baidu's crawlers).
// For a token (q.Agents; a user-agent line's value will do), the crawlers
// that read a group naming it, by their own names
// (CrawlerNamed) or as a fallback ("Yandex" is read by every
// Yandex robot): false when every one of them ignores the lines, true when
// one reads them or the catalogue knows none (a custom crawler, which
// should). Several tokens at once are Google's library's question (the
// names of one of Google's crawlers), which reads no crawl-delay: false.
// The dialect does not change the answer: it decides which lines
// apply, not whether the crawler waits.
func (q Query) HonoursCrawlDelay() bool {
	if q.Crawler != nil {
		return !q.Crawler.IgnoresCrawlDelay
	}
	switch len(q.Agents) {
	case 0:
		return true
	case 1:
		return tokenHonoursCrawlDelay(strings.TrimSpace(q.Agents[0]))
	}
	return false
}

// tokenHonoursCrawlDelay answers HonoursCrawlDelay for a group naming
// t, a token or a user-agent line's value.
func tokenHonoursCrawlDelay(t string) bool {
	readers, honour := 0, false
	named, ok := CrawlerNamed(t)
	tok := ExtractToken(t)
	for i := range crawlers {
		c := &crawlers[i]
		reads := ok && named.Name == c.Name
		for _, f := range c.Fallbacks {
			reads = reads || tok != "" && strings.EqualFold(f, tok)
		}
		if reads {
			readers++
			honour = honour || !c.IgnoresCrawlDelay
		}
	}
	return readers == 0 || honour
}
