package robotstxt

import (
	"math"
	"time"
)

// Pace is how fast a robots.txt file asks one crawler to go: the
// crawl-delay and request-rate lines that apply to it, with the lines they
// come from. See [Robots.CrawlDelay].
type Pace struct {
	// CrawlDelay is the crawl-delay in seconds when CrawlDelayLine is not
	// 0: the least time between the starts of two requests.
	CrawlDelay     float64
	CrawlDelayLine int // the line it comes from; 0 when none applies
	// CrawlDelayGlobal is set when it comes from the '*' group (the
	// crawler's own groups having none).
	CrawlDelayGlobal bool
	// RequestRate is the request-rate line that applies (Requests every
	// Per, within From-To UTC when set); nil when none.
	RequestRate       *RequestRate
	RequestRateGlobal bool // it comes from the '*' group
	// Ignored is set for a crawler whose engine ignores these fields
	// (Query.HonoursCrawlDelay is false: Google's, Yandex's and Baidu's
	// crawlers). The values are still
	// what the file says; Interval is 0.
	Ignored bool
}

// maxInterval is what a pace longer than time.Duration can hold is read
// as: a delay of 1e300 seconds is a very long one, not an overflow.
const maxInterval = time.Duration(math.MaxInt64)

// Interval is the least time to leave between the starts of two requests
// at time now: the slower of the crawl-delay and the request-rate (Per
// divided by Requests; only within its time window, when it has one). It
// is 0 when neither applies, or when the crawler ignores them.
func (p Pace) Interval(now time.Time) time.Duration {
	if p.Ignored {
		return 0
	}
	var d time.Duration
	if p.CrawlDelayLine != 0 {
		if p.CrawlDelay >= maxInterval.Seconds() {
			d = maxInterval
		} else {
			d = time.Duration(p.CrawlDelay * float64(time.Second))
		}
	}
	if rr := p.RequestRate; rr != nil && rr.Requests > 0 && inWindow(rr.From, rr.To, now) {
		d = max(d, rr.Per/time.Duration(rr.Requests))
	}
	return d
}

// inWindow reports whether now (UTC) falls in [from, to), both "HHMM"; an
// empty window is always. A window whose end is before its start runs
// across midnight.
func inWindow(from, to string, now time.Time) bool {
	if from == "" || to == "" {
		return true
	}
	u := now.UTC()
	hm := u.Hour()*100 + u.Minute()
	f, t := hhmm(from), hhmm(to)
	if f <= t {
		return f <= hm && hm < t
	}
	return hm >= f || hm < t
}

func hhmm(s string) int {
	return int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
}

// CrawlDelay returns the pace the file asks of the crawler q names (its
// Agents or Crawler; q.URL is not used): the crawl-delay and request-rate
// of the groups that apply to it in q's dialect, each taken from the '*'
// group when the crawler's own groups have none (as Bing reads
// crawl-delay). It reads the fields whatever the dialect, since most
// crawlers honour them; Pace.Ignored tells a crawler that does not
// (Query.HonoursCrawlDelay). Decision.CrawlDelay, by contrast, is only the crawl-delay of
// the chosen groups, as the dialect reads it.
func (r *Robots) CrawlDelay(q Query) Pace {
	d := q.ReadsIn()
	c := r.compiledFor(d)
	var p Pace
	p.Ignored = !q.HonoursCrawlDelay()
	choice, _ := c.choose(q, d)
	fill := func(groups []int, global bool) {
		for _, gi := range groups {
			e := c.extOf(gi)
			if e == nil {
				continue
			}
			if p.CrawlDelayLine == 0 && e.crawlDelayLine != 0 {
				p.CrawlDelay, p.CrawlDelayLine, p.CrawlDelayGlobal = e.crawlDelay, int(e.crawlDelayLine), global
			}
			if p.RequestRate == nil && e.requestRate != nil {
				rr := *e.requestRate
				p.RequestRate, p.RequestRateGlobal = &rr, global
			}
		}
	}
	switch choice.Kind {
	case GroupSpecific:
		fill(choice.Groups, false)
		if p.CrawlDelayLine == 0 || p.RequestRate == nil {
			gl := make([]int, len(c.globalGroups))
			for i, g := range c.globalGroups {
				gl[i] = int(g)
			}
			fill(gl, true)
		}
	case GroupGlobal:
		fill(choice.Groups, true)
	}
	return p
}
