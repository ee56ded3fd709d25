package tester

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// ChangeSummary says what changed between two versions of a robots.txt
// file, line by line in meaning rather than in text: the groups added or
// removed (a group is known by the set of product tokens it names, so a
// group that only moved is no change), the allow and disallow rules added
// to or removed from the groups both versions have, the sitemaps, and the
// Content-Usage and Content-Signal lines. Lines that moved, comments,
// blank lines and the spelling of a key ("disallow", "DISALLOW") are no
// change. Files are read as Google reads them (groups that name the same
// tokens are merged).
//
// Its JSON form is the "summary" of "robotstxt diff --json" and of a
// watch's alert. Every list is present, empty when nothing changed.
type ChangeSummary struct {
	// Same is whether nothing that counts changed.
	Same          bool           `json:"same"`
	GroupsAdded   []GroupChange  `json:"groups_added"`
	GroupsRemoved []GroupChange  `json:"groups_removed"`
	RulesAdded    []RuleChange   `json:"rules_added"`
	RulesRemoved  []RuleChange   `json:"rules_removed"`
	SitemapsAdded []LineChange   `json:"sitemaps_added"`
	SitemapsGone  []LineChange   `json:"sitemaps_removed"`
	UsageAdded    []LineChange   `json:"content_usage_added"`
	UsageRemoved  []LineChange   `json:"content_usage_removed"`
	SignalAdded   []LineChange   `json:"content_signal_added"`
	SignalRemoved []LineChange   `json:"content_signal_removed"`
	Counts        ChangeCounts   `json:"counts"`
	Truncated     *TruncatedFlip `json:"truncated,omitempty"`
}

// ChangeCounts counts the groups and allow or disallow rules of each
// version, as Google reads them.
type ChangeCounts struct {
	OldGroups int `json:"old_groups"`
	NewGroups int `json:"new_groups"`
	OldRules  int `json:"old_rules"`
	NewRules  int `json:"new_rules"`
}

// TruncatedFlip is set when one version is over robotstxt.DefaultMaxBytes
// (crawlers read only its start) and the other is not.
type TruncatedFlip struct {
	Old bool `json:"old"`
	New bool `json:"new"`
}

// GroupChange is a group one version has and the other has not: its
// product tokens (lowercased: "googlebot" for "Googlebot/2.1", as
// crawlers match them), the line of its first user-agent line, and its rules.
// In GroupsRemoved the lines are the old file's, else the new file's.
type GroupChange struct {
	Agents []string   `json:"agents"`
	Line   int        `json:"line"`
	Rules  []RuleLine `json:"rules"`
}

// RuleLine is one allow or disallow line: its line number and its text
// as "Allow: VALUE" or "Disallow: VALUE".
type RuleLine struct {
	Line int    `json:"line"`
	Rule string `json:"rule"`
}

// RuleChange is an allow or disallow rule added to (or removed from) a
// group both versions have. Line is the new file's line for an added
// rule, the old file's for a removed one. Agents are the group's product
// tokens.
type RuleChange struct {
	Agents []string `json:"agents"`
	Line   int      `json:"line"`
	Allow  bool     `json:"allow"`
	Value  string   `json:"value"`
	Rule   string   `json:"rule"`
}

// LineChange is a sitemap, Content-Usage or Content-Signal line added or
// removed: its line number (in the new file when added, the old when
// removed) and its value as written. Agents are the product tokens of the
// group the line stands in (none for a sitemap or a line outside any
// group).
type LineChange struct {
	Line   int      `json:"line"`
	Value  string   `json:"value"`
	Agents []string `json:"agents,omitempty"`
}

// maxSummaryItems bounds each list of a ChangeSummary, so that the
// summary of two unrelated large files stays small enough for an alert.
const maxSummaryItems = 1000

// Changes summarises what changed from old to new (see ChangeSummary).
// A nil file is an empty one: Changes(nil, r) lists everything r has. Each
// list holds at most 1,000 entries (the counts are complete).
func Changes(old, new *robotstxt.Robots) *ChangeSummary {
	if old == nil {
		old = robotstxt.ParseString("")
	}
	if new == nil {
		new = robotstxt.ParseString("")
	}
	a, b := readFile(old), readFile(new)
	s := &ChangeSummary{
		GroupsAdded: []GroupChange{}, GroupsRemoved: []GroupChange{},
		RulesAdded: []RuleChange{}, RulesRemoved: []RuleChange{},
		SitemapsAdded: []LineChange{}, SitemapsGone: []LineChange{},
		UsageAdded: []LineChange{}, UsageRemoved: []LineChange{},
		SignalAdded: []LineChange{}, SignalRemoved: []LineChange{},
		Counts: ChangeCounts{OldGroups: len(a.order), NewGroups: len(b.order), OldRules: a.rules, NewRules: b.rules},
	}
	for _, k := range b.order {
		if _, ok := a.groups[k]; !ok && len(s.GroupsAdded) < maxSummaryItems {
			s.GroupsAdded = append(s.GroupsAdded, b.groups[k].change())
		}
	}
	for _, k := range a.order {
		if _, ok := b.groups[k]; !ok && len(s.GroupsRemoved) < maxSummaryItems {
			s.GroupsRemoved = append(s.GroupsRemoved, a.groups[k].change())
		}
	}
	for _, k := range b.order {
		ga, ok := a.groups[k]
		if !ok {
			continue
		}
		gb := b.groups[k]
		added, removed := multisetDiff(ga.rules, gb.rules, func(r robotstxt.Rule) string { return ruleText(r) })
		for _, r := range added {
			if len(s.RulesAdded) < maxSummaryItems {
				s.RulesAdded = append(s.RulesAdded, RuleChange{Agents: gb.agents, Line: r.Line, Allow: r.Allow, Value: r.Value, Rule: ruleText(r)})
			}
		}
		for _, r := range removed {
			if len(s.RulesRemoved) < maxSummaryItems {
				s.RulesRemoved = append(s.RulesRemoved, RuleChange{Agents: ga.agents, Line: r.Line, Allow: r.Allow, Value: r.Value, Rule: ruleText(r)})
			}
		}
	}
	lineKey := func(l LineChange) string { return strings.Join(l.Agents, ",") + "\x00" + l.Value }
	diffLines := func(old, new []LineChange, added, removed *[]LineChange) {
		ad, rm := multisetDiff(old, new, lineKey)
		*added = append(*added, ad[:min(len(ad), maxSummaryItems)]...)
		*removed = append(*removed, rm[:min(len(rm), maxSummaryItems)]...)
	}
	diffLines(a.sitemaps, b.sitemaps, &s.SitemapsAdded, &s.SitemapsGone)
	diffLines(a.usage, b.usage, &s.UsageAdded, &s.UsageRemoved)
	diffLines(a.signal, b.signal, &s.SignalAdded, &s.SignalRemoved)
	if old.Truncated() != new.Truncated() {
		s.Truncated = &TruncatedFlip{Old: old.Truncated(), New: new.Truncated()}
	}
	s.Same = s.Len() == 0
	return s
}

// Len counts the entries of the summary's lists (at most 1,000 a list),
// and one more when the file's cut at 500 KiB came or went.
func (s *ChangeSummary) Len() int {
	n := len(s.GroupsAdded) + len(s.GroupsRemoved) + len(s.RulesAdded) + len(s.RulesRemoved) +
		len(s.SitemapsAdded) + len(s.SitemapsGone) + len(s.UsageAdded) + len(s.UsageRemoved) +
		len(s.SignalAdded) + len(s.SignalRemoved)
	if s.Truncated != nil {
		n++
	}
	return n
}

// Lines says the summary in lines of text, one a change ("+ group
// googlebot (line 4, 2 rules)", "- rule Disallow: /a for * (line 3)"), in
// the order of the lists. Values are as the files wrote them: escape them
// before showing them on a terminal or in a page.
func (s *ChangeSummary) Lines() []string {
	var out []string
	for _, g := range s.GroupsAdded {
		out = append(out, fmt.Sprintf("+ group %s (line %d, %d %s)", agentList(g.Agents), g.Line, len(g.Rules), plural(len(g.Rules), "rule")))
	}
	for _, g := range s.GroupsRemoved {
		out = append(out, fmt.Sprintf("- group %s (old line %d, %d %s)", agentList(g.Agents), g.Line, len(g.Rules), plural(len(g.Rules), "rule")))
	}
	for _, r := range s.RulesAdded {
		out = append(out, fmt.Sprintf("+ %s for %s (line %d)", r.Rule, agentList(r.Agents), r.Line))
	}
	for _, r := range s.RulesRemoved {
		out = append(out, fmt.Sprintf("- %s for %s (old line %d)", r.Rule, agentList(r.Agents), r.Line))
	}
	lines := func(sign, what, where string, ls []LineChange) {
		for _, l := range ls {
			t := fmt.Sprintf("%s %s: %s (%sline %d)", sign, what, l.Value, where, l.Line)
			if len(l.Agents) > 0 {
				t = fmt.Sprintf("%s %s: %s for %s (%sline %d)", sign, what, l.Value, agentList(l.Agents), where, l.Line)
			}
			out = append(out, t)
		}
	}
	lines("+", "Sitemap", "", s.SitemapsAdded)
	lines("-", "Sitemap", "old ", s.SitemapsGone)
	lines("+", "Content-Usage", "", s.UsageAdded)
	lines("-", "Content-Usage", "old ", s.UsageRemoved)
	lines("+", "Content-Signal", "", s.SignalAdded)
	lines("-", "Content-Signal", "old ", s.SignalRemoved)
	if t := s.Truncated; t != nil {
		if t.New {
			out = append(out, fmt.Sprintf("! the file is now over %d bytes: crawlers read only its start", robotstxt.DefaultMaxBytes))
		} else {
			out = append(out, fmt.Sprintf("! the file is no longer over %d bytes", robotstxt.DefaultMaxBytes))
		}
	}
	return out
}

func agentList(agents []string) string {
	if len(agents) == 0 {
		return "(no group)"
	}
	return strings.Join(agents, ", ")
}

// ruleText is a rule as "Allow: VALUE" or "Disallow: VALUE".
func ruleText(r robotstxt.Rule) string {
	if r.Allow {
		return "Allow: " + r.Value
	}
	return "Disallow: " + r.Value
}

// fileGroup is the groups of a file that name one set of tokens, merged.
type fileGroup struct {
	agents []string // the tokens, lowercased, in the order of the first group
	line   int
	rules  []robotstxt.Rule
}

func (g *fileGroup) change() GroupChange {
	c := GroupChange{Agents: g.agents, Line: g.line, Rules: make([]RuleLine, 0, min(len(g.rules), maxSummaryItems))}
	for _, r := range g.rules[:min(len(g.rules), maxSummaryItems)] {
		c.Rules = append(c.Rules, RuleLine{Line: r.Line, Rule: ruleText(r)})
	}
	return c
}

// fileParts is what Changes compares of one file.
type fileParts struct {
	groups                  map[string]*fileGroup
	order                   []string // group keys in file order
	rules                   int
	sitemaps, usage, signal []LineChange
}

// readFile splits r into the parts Changes compares, as Google reads it.
func readFile(r *robotstxt.Robots) *fileParts {
	p := &fileParts{groups: map[string]*fileGroup{}}
	groups := r.GroupsFor(robotstxt.Google)
	// ranges maps a group's lines to its key, for the lines that stand
	// in a group (Content-Usage, Content-Signal).
	type span struct {
		start, end int
		key        string
	}
	var spans []span
	for _, g := range groups {
		var agents []string
		for _, a := range g.Agents {
			t := strings.ToLower(a.Token)
			if !slices.Contains(agents, t) {
				agents = append(agents, t)
			}
		}
		sorted := slices.Clone(agents)
		slices.Sort(sorted)
		key := strings.Join(sorted, "\x00")
		fg, ok := p.groups[key]
		if !ok {
			fg = &fileGroup{agents: agents, line: g.StartLine}
			p.groups[key] = fg
			p.order = append(p.order, key)
		}
		fg.rules = append(fg.rules, g.Rules...)
		p.rules += len(g.Rules)
		spans = append(spans, span{g.StartLine, g.EndLine, key})
	}
	for _, sm := range r.Sitemaps() {
		p.sitemaps = append(p.sitemaps, LineChange{Line: sm.Line, Value: sm.URL})
	}
	si := 0
	for _, l := range r.Lines() {
		if l.Field != robotstxt.FieldContentUsage && l.Field != robotstxt.FieldContentSignal {
			continue
		}
		for si < len(spans) && spans[si].end < l.Number {
			si++
		}
		c := LineChange{Line: l.Number, Value: l.Value}
		if si < len(spans) && spans[si].start <= l.Number {
			c.Agents = p.groups[spans[si].key].agents
		}
		if l.Field == robotstxt.FieldContentUsage {
			p.usage = append(p.usage, c)
		} else {
			p.signal = append(p.signal, c)
		}
	}
	return p
}

// multisetDiff returns the items of b that a lacks and of a that b lacks,
// counted by key, in their files' order: a key that old holds twice and
// new once is one removal (the later occurrence).
func multisetDiff[T any](a, b []T, key func(T) string) (added, removed []T) {
	count := map[string]int{}
	for _, x := range a {
		count[key(x)]++
	}
	for _, x := range b {
		k := key(x)
		if count[k] > 0 {
			count[k]--
		} else {
			added = append(added, x)
		}
	}
	count = map[string]int{}
	for _, x := range b {
		count[key(x)]++
	}
	for _, x := range a {
		k := key(x)
		if count[k] > 0 {
			count[k]--
		} else {
			removed = append(removed, x)
		}
	}
	return added, removed
}
