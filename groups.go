package robotstxt

import (
	"slices"
	"sort"
)

// Agent is one user-agent line of a group.
type Agent struct {
	Line   int
	Value  string // the value as written
	Token  string // the product token it names ("*" for the global group)
	Global bool   // the line names every crawler
}

// Rule is one allow or disallow line of a group.
type Rule struct {
	Line    int
	Allow   bool
	Value   string // the value as written
	Pattern string // the pattern as the dialect matches it (normalised)
	// CanMatch is false for a pattern no URL can match (one that starts
	// with neither '/' nor '*', such as "Disallow: .gif$").
	CanMatch bool
}

// Group is one group of a robots.txt file: user-agent lines and the rules
// that follow them, with the group's extension fields.
type Group struct {
	Agents     []Agent
	Rules      []Rule // in file order
	StartLine  int    // the first user-agent line
	EndLine    int    // the last line that belongs to the group
	CrawlDelay float64
	DelayLine  int // the line of the crawl-delay that counts; 0 when none
	// RequestRate and VisitTime are the group's request-rate and
	// visit-time lines; their zero values (Line 0) mean none, so they are
	// safe to read without a check.
	RequestRate RequestRate
	VisitTime   VisitTime
	// SignatureAgents and MaxCrawlRate are the group's Signature-Agent
	// lines and its first readable Max-Crawl-Rate line (Line 0: none),
	// read only when the file was parsed with ExtWebBotAuth.
	SignatureAgents []SignatureAgent
	MaxCrawlRate    CrawlRate
}

// Groups returns the groups of the file as Google reads it, in file order.
// Several groups may name the same crawler; they are merged when matching.
func (r *Robots) Groups() []Group { return r.GroupsFor(Google) }

// GroupsFor returns the groups as dialect d reads them: the strict dialects
// read keys exactly, and the original draft ends a record at a blank line.
func (r *Robots) GroupsFor(d Dialect) []Group {
	d = d.resolve()
	c := r.compiledFor(d)
	out := make([]Group, 0, len(c.groups))
	signing := c.signingByGroup()
	for gi := range c.groups {
		g := &c.groups[gi]
		og := Group{StartLine: int(c.agents[g.alo].line), EndLine: int(g.last)}
		for _, a := range c.agents[g.alo:g.ahi] {
			og.Agents = append(og.Agents, Agent{Line: int(a.line), Value: c.agentValue(a), Token: c.agentToken(a), Global: a.global()})
		}
		s := c.coldSet(int32(gi))
		for i := range s.rules {
			cr := &s.rules[i]
			if cr.flags&ruleIndexHTM != 0 {
				continue
			}
			ru := Rule{Line: int(cr.line), Allow: cr.allow(), Pattern: s.pat(cr), CanMatch: cr.flags&ruleDead == 0}
			if l, ok := r.LineFor(d, int(cr.line)); ok {
				ru.Value = l.Value
			}
			og.Rules = append(og.Rules, ru)
		}
		slices.SortFunc(og.Rules, func(a, b Rule) int { return a.Line - b.Line })
		if e := c.extOf(gi); e != nil {
			og.CrawlDelay, og.DelayLine = e.crawlDelay, int(e.crawlDelayLine)
			if e.requestRate != nil {
				og.RequestRate = *e.requestRate
			}
			if e.visitTime != nil {
				og.VisitTime = *e.visitTime
			}
		}
		if s := signing[int32(gi)]; s != nil {
			og.SignatureAgents, og.MaxCrawlRate = s.Agents, s.Rate
		}
		out = append(out, og)
	}
	return out
}

// GroupOf returns the group line n belongs to as dialect d reads the file:
// its index in GroupsFor(d), and false when the line belongs to none. A
// line belongs to the last group that starts (with its first user-agent
// line) at or above it; in the draft's readings (Baidu, Original), a blank
// line ends a record, and the lines after it belong to no group until the
// next user-agent line. A line past the file's end is asked as if it were
// appended: it belongs to the last group, in the draft's readings unless a
// blank line comes after that group's last line.
//
// It is the one answer to "which group is this line in" that every face
// asks (lint, the AI report, the policy writer); faces compare groups
// across readings by their StartLine, which is the same line in every
// reading that has the group.
func (r *Robots) GroupOf(d Dialect, n int) (int, bool) {
	d = d.resolve()
	c := r.compiledFor(d)
	gi := sort.Search(len(c.groups), func(i int) bool { return int(c.agents[c.groups[i].alo].line) > n }) - 1
	if gi < 0 {
		return -1, false
	}
	last := int(c.groups[gi].last)
	if n <= last || !d.DraftRecords() {
		return gi, true
	}
	for i := last + 1; i <= n; i++ {
		if l, ok := r.Line(i); ok && l.Empty {
			return -1, false
		}
	}
	return gi, true
}
