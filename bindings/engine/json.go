package engine

import (
	"encoding/json"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/usagejson"
)

// RuleJSON is the deciding rule of a decision.
type RuleJSON struct {
	Line     int    `json:"line"`
	Allow    bool   `json:"allow"`
	Pattern  string `json:"pattern"`
	Text     string `json:"text"`
	Implicit bool   `json:"implicit"`
}

// GroupJSON is the group choice of a decision.
type GroupJSON struct {
	Kind   string `json:"kind"`
	Token  string `json:"token"`
	Lines  []int  `json:"lines"`
	Groups []int  `json:"groups"`
	Reason string `json:"reason"`
}

// DecisionJSON is what Decide returns, as JSON.
type DecisionJSON struct {
	Allowed        bool      `json:"allowed"`
	Line           int       `json:"line"`
	Dialect        string    `json:"dialect"`
	Path           string    `json:"path"`
	Rule           *RuleJSON `json:"rule"` // null when no rule decided
	Group          GroupJSON `json:"group"`
	Reason         string    `json:"reason"`
	CrawlDelay     *float64  `json:"crawl_delay"`
	CrawlDelayLine int       `json:"crawl_delay_line"`
}

func ints(v []int) []int {
	if v == nil {
		return []int{}
	}
	return v
}

// Decide answers a question with what decided it, as a JSON object:
// allowed, line, dialect, path, rule (line, allow, pattern, text,
// implicit; null when no rule decided), group (kind, token, lines, groups,
// reason), reason, crawl_delay (null when none applies) and
// crawl_delay_line.
func Decide(h int64, agent string, kind int, url string, d int) (out []byte, err error) {
	defer guard(&err)
	e, err := lookup(h)
	if err != nil {
		return nil, err
	}
	dec, err := e.decide(agent, kind, url, d)
	if err != nil {
		return nil, err
	}
	j := DecisionJSON{
		Allowed: dec.Allowed, Line: dec.Line(), Dialect: dec.Dialect.String(), Path: dec.Path,
		Group: GroupJSON{Kind: dec.Group.Kind.String(), Token: dec.Group.Token,
			Lines: ints(dec.Group.Lines), Groups: ints(dec.Group.Groups), Reason: dec.Group.Reason},
		Reason: dec.Reason, CrawlDelayLine: dec.CrawlDelayLine,
	}
	if dec.HasRule() {
		r := dec.Rule
		j.Rule = &RuleJSON{Line: r.Line, Allow: r.Allow, Pattern: r.Pattern, Text: r.Text, Implicit: r.Implicit}
	}
	if dec.HasCrawlDelay {
		cd := dec.CrawlDelay
		j.CrawlDelay = &cd
	}
	return json.Marshal(j)
}

// RateJSON is a request-rate line.
type RateJSON struct {
	Requests int     `json:"requests"`
	Seconds  float64 `json:"seconds"`
	From     string  `json:"from"`
	To       string  `json:"to"`
	Line     int     `json:"line"`
}

// VisitJSON is a visit-time line.
type VisitJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
	Line int    `json:"line"`
}

// PaceJSON is what Pace returns, as JSON.
type PaceJSON struct {
	CrawlDelay        *float64   `json:"crawl_delay"`
	CrawlDelayLine    int        `json:"crawl_delay_line"`
	CrawlDelayGlobal  bool       `json:"crawl_delay_global"`
	RequestRate       *RateJSON  `json:"request_rate"`
	RequestRateGlobal bool       `json:"request_rate_global"`
	VisitTime         *VisitJSON `json:"visit_time"`
	Ignored           bool       `json:"ignored"`
	IntervalSeconds   float64    `json:"interval_seconds"`
}

// Pace returns how fast the file asks the agent to go (Robots.CrawlDelay),
// as a JSON object: crawl_delay (null when none), crawl_delay_line,
// crawl_delay_global, request_rate (requests, seconds, from, to, line; null
// when none), request_rate_global, visit_time (from, to, line; null when
// none), ignored (the crawler's engine ignores these fields) and
// interval_seconds (the least time between two requests now). The
// visit-time line, which the core reads but Pace does not report, is taken
// here as crawl-delay is: from the agent's groups, else from '*'.
func Pace(h int64, agent string, kind, d int) (out []byte, err error) {
	defer guard(&err)
	e, err := lookup(h)
	if err != nil {
		return nil, err
	}
	q, err := query(agent, kind, d)
	if err != nil {
		return nil, err
	}
	var j PaceJSON
	if e.robots != nil {
		p := e.robots.CrawlDelay(q)
		if p.CrawlDelayLine != 0 {
			cd := p.CrawlDelay
			j.CrawlDelay, j.CrawlDelayLine, j.CrawlDelayGlobal = &cd, p.CrawlDelayLine, p.CrawlDelayGlobal
		}
		if rr := p.RequestRate; rr != nil {
			j.RequestRate = &RateJSON{Requests: rr.Requests, Seconds: rr.Per.Seconds(), From: rr.From, To: rr.To, Line: rr.Line}
			j.RequestRateGlobal = p.RequestRateGlobal
		}
		j.Ignored = p.Ignored
		j.IntervalSeconds = p.Interval(time.Now()).Seconds()
		j.VisitTime = visitTime(e.robots, q)
	}
	return json.Marshal(j)
}

// visitTime is the visit-time line of the groups that apply to q, else of
// the '*' groups (as Robots.CrawlDelay takes crawl-delay).
func visitTime(r *robotstxt.Robots, q robotstxt.Query) *VisitJSON {
	q.URL = "/"
	dec := r.Decide(q)
	groups := r.GroupsFor(dec.Dialect)
	pick := func(ok func(i int, g *robotstxt.Group) bool) *VisitJSON {
		for i := range groups {
			g := &groups[i]
			if g.VisitTime.Line != 0 && ok(i, g) {
				return &VisitJSON{From: g.VisitTime.From, To: g.VisitTime.To, Line: g.VisitTime.Line}
			}
		}
		return nil
	}
	chosen := func(i int, _ *robotstxt.Group) bool {
		for _, c := range dec.Group.Groups {
			if c == i {
				return true
			}
		}
		return false
	}
	global := func(_ int, g *robotstxt.Group) bool {
		for _, a := range g.Agents {
			if a.Global {
				return true
			}
		}
		return false
	}
	switch dec.Group.Kind {
	case robotstxt.GroupSpecific:
		if v := pick(chosen); v != nil {
			return v
		}
		if q.Crawler != nil && q.Crawler.IgnoresGlobal {
			return nil
		}
		return pick(global)
	case robotstxt.GroupGlobal:
		return pick(chosen)
	}
	return nil
}

// SitemapJSON is a sitemap line.
type SitemapJSON struct {
	URL  string `json:"url"`
	Line int    `json:"line"`
}

// HostJSON is a host line.
type HostJSON struct {
	Value string `json:"value"`
	Line  int    `json:"line"`
}

// InfoJSON is what Info returns, as JSON.
type InfoJSON struct {
	Policy      string        `json:"policy"`
	Reason      string        `json:"reason"`
	Unreachable bool          `json:"unreachable"`
	Truncated   bool          `json:"truncated"`
	Size        int           `json:"size"`
	Sitemaps    []SitemapJSON `json:"sitemaps"`
	Hosts       []HostJSON    `json:"hosts"`
}

// Info describes a handle as a JSON object: policy ("rules", "allow-all",
// "disallow-all"), reason (why, for a handle from ForStatus), unreachable
// (the answer must be retried: 5xx, no answer), truncated and size (of the
// body), sitemaps (url, line) and hosts (value, line; Yandex's host lines,
// the first being the preferred host).
func Info(h int64) (out []byte, err error) {
	defer guard(&err)
	e, err := lookup(h)
	if err != nil {
		return nil, err
	}
	j := InfoJSON{Policy: "rules", Sitemaps: []SitemapJSON{}, Hosts: []HostJSON{}}
	if a := e.answer; a != nil {
		j.Policy, j.Reason, j.Unreachable = a.Policy.String(), a.Reason, a.Unreachable
	}
	if r := e.robots; r != nil {
		j.Truncated, j.Size = r.Truncated(), r.Size()
		for _, s := range r.Sitemaps() {
			j.Sitemaps = append(j.Sitemaps, SitemapJSON{s.URL, s.Line})
		}
		for _, x := range r.Hosts() {
			j.Hosts = append(j.Hosts, HostJSON{x.Value, x.Line})
		}
	}
	return json.Marshal(j)
}

// UsageJSON is what Usage returns, as JSON.
type UsageJSON struct {
	Allowed bool            `json:"allowed"`
	Line    int             `json:"line"`
	Usage   json.RawMessage `json:"usage"`
	Signals json.RawMessage `json:"signals"`
}

// Usage answers what the agent may do with url's content as a JSON object:
// allowed and line (the crawl decision), usage (null when the URL may not
// be crawled, else train-ai, search and any other category's preference,
// "y", "n" or "unknown", with lines, the Content-Usage lines that gave
// them) and signals (null when the agent's groups have no Content-Signal
// line, else search, ai-train and ai-input, "yes", "no" or null, and
// line): the members "robotstxt eval" writes.
func Usage(h int64, agent string, kind int, url string, d int) (out []byte, err error) {
	defer guard(&err)
	e, err := lookup(h)
	if err != nil {
		return nil, err
	}
	var ua robotstxt.UsageAnswer
	if e.robots == nil {
		dec, err := e.decide(agent, kind, url, d)
		if err != nil {
			return nil, err
		}
		ua.Allowed, ua.Line = dec.Allowed, dec.Line()
	} else {
		if e.answer != nil && d == 0 && kind != AgentCrawler {
			d = int(e.answer.Dialect)
		}
		p, q, err := e.decider(agent, kind, d)
		if err != nil {
			return nil, err
		}
		if p == nil {
			q.URL = url
			ua = e.robots.Usage(q)
		} else {
			ua = p.Usage(url)
		}
	}
	u, s := usagejson.Encode(ua, ua.Allowed)
	return json.Marshal(UsageJSON{Allowed: ua.Allowed, Line: ua.Line, Usage: u, Signals: s})
}

// Sitemaps returns the file's sitemap lines as a JSON array of {url, line}
// (empty for a handle whose policy is not "rules").
func Sitemaps(h int64) (out []byte, err error) {
	defer guard(&err)
	e, err := lookup(h)
	if err != nil {
		return nil, err
	}
	list := []SitemapJSON{}
	if e.robots != nil {
		for _, s := range e.robots.Sitemaps() {
			list = append(list, SitemapJSON{s.URL, s.Line})
		}
	}
	return json.Marshal(list)
}
