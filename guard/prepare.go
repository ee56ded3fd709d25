package guard

import (
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/seed53c283f5/robotstxt"
)

// preparedCache holds each robots.txt version's readings, one per
// crawler, made on the crawler's first request: at most max versions,
// then it starts again empty.
type preparedCache struct {
	last atomic.Pointer[prepared]
	mu   sync.Mutex
	m    map[*Rules]*prepared
	max  int
}

// prepared is one Rules made ready: a view per crawler of the catalogue,
// and the paths of the sitemaps the file names.
type prepared struct {
	rules    *Rules
	views    []atomic.Pointer[view]
	sitemaps map[string][]string // path -> hosts ("" for any)
}

func (c *preparedCache) get(r *Rules, crawlers int) *prepared {
	if p := c.last.Load(); p != nil && p.rules == r {
		return p
	}
	c.mu.Lock()
	p, ok := c.m[r]
	if !ok {
		if c.m == nil || len(c.m) >= c.max {
			c.m = make(map[*Rules]*prepared)
		}
		p = newPrepared(r, crawlers)
		c.m[r] = p
	}
	c.mu.Unlock()
	c.last.Store(p)
	return p
}

func newPrepared(r *Rules, crawlers int) *prepared {
	p := &prepared{rules: r, views: make([]atomic.Pointer[view], crawlers)}
	for _, s := range r.Robots.Sitemaps() {
		u, err := url.Parse(strings.TrimSpace(s.URL))
		if err != nil || u.EscapedPath() == "" {
			continue
		}
		path := u.EscapedPath()
		if u.RawQuery != "" {
			path += "?" + u.RawQuery
		}
		if p.sitemaps == nil {
			p.sitemaps = map[string][]string{}
		}
		p.sitemaps[path] = append(p.sitemaps[path], strings.ToLower(u.Hostname()))
	}
	return p
}

// sitemap reports whether path on host is a sitemap the file names.
func (p *prepared) sitemap(host, path string) bool {
	if p.sitemaps == nil {
		return false
	}
	for _, h := range p.sitemaps[path] {
		if h == "" || h == host {
			return true
		}
	}
	return false
}

// The uses whose preferences a crawler's purposes bring into question.
const (
	useTraining = 1 << iota // ai-training: train-ai, ai-train
	useAIInput              // ai-search, user-fetch, agent: ai-input
)

// usesOf are the preference uses crawler c's purposes touch.
func usesOf(c *robotstxt.Crawler) uint8 {
	var u uint8
	if c.Purposes.Any(robotstxt.PurposeAITraining) {
		u |= useTraining
	}
	if c.Purposes.Any(robotstxt.PurposeAISearch | robotstxt.PurposeUserFetch | robotstxt.PurposeAgent) {
		u |= useAIInput
	}
	return u
}

// view is one crawler's reading of one file: its decider (its dialect,
// its fallbacks), its pace, the preferences it is asked about.
type view struct {
	rob       *robotstxt.Robots
	dec       *robotstxt.Decider
	pace      robotstxt.Pace
	delayText string
	uses      uint8
}

func (p *prepared) view(i int, c *robotstxt.Crawler) *view {
	if v := p.views[i].Load(); v != nil {
		return v
	}
	rob := p.rules.Robots
	q := robotstxt.Query{Crawler: c}
	v := &view{rob: rob, dec: rob.Decider(q), pace: rob.CrawlDelay(q), uses: usesOf(c)}
	if v.pace.CrawlDelayLine != 0 {
		v.delayText = v.lineText(v.pace.CrawlDelayLine)
	}
	if !p.views[i].CompareAndSwap(nil, v) {
		return p.views[i].Load()
	}
	return v
}

func (v *view) lineText(n int) string {
	l, ok := v.rob.Line(n)
	if !ok {
		return ""
	}
	return l.Text
}

// refused returns the line of the usage preference that refuses the
// crawler's use of path, which it may fetch, and why; 0 when none does.
// It asks the existing usage API: the Content-Usage rule of the
// crawler's groups that decides for path, and its groups' Content-Signal
// line (Decider.Preferences, which Decider.Usage answers with for a URL
// that may be fetched: the fetch verdict is already known here).
func (v *view) refused(path string) (int, string) {
	u, sig := v.dec.Preferences(path)
	if v.uses&useTraining != 0 {
		if u.TrainAI() == robotstxt.PrefDisallow && len(u.Lines) > 0 {
			return u.Lines[0], "Content-Usage train-ai=n: no AI training, and this crawler trains AI"
		}
		if sig.AITrain == robotstxt.SignalNo && sig.Line != 0 {
			return sig.Line, "Content-Signal ai-train=no: no AI training, and this crawler trains AI"
		}
	}
	if v.uses&useAIInput != 0 && sig.AIInput == robotstxt.SignalNo && sig.Line != 0 {
		return sig.Line, "Content-Signal ai-input=no: no AI input, and this crawler fetches for AI answers"
	}
	return 0, ""
}
