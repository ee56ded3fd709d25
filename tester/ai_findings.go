package tester

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/lint"
)

// The AI report's findings: the file read for what it says to crawlers by
// name against what it says to every crawler (docs/ai.md lists the codes),
// each finding a question asked of the rows' answers and of the file's
// lines (aiFile), sorted errors first, then by line.

// isAI reports whether crawlers of purposes p are what a file that blocks
// "AI crawlers" means.
func isAI(p robotstxt.Purpose) bool {
	return p.Any(robotstxt.PurposeAITraining | robotstxt.PurposeAISearch | robotstxt.PurposeTokenOnly)
}

// isSite reports whether a normalised pattern matches every path: "/",
// "/*", "/*$" and the like.
func isSite(p string) bool {
	return strings.TrimRight(strings.TrimSuffix(p, "$"), "*") == "/"
}

// findings reads the file for the contradictions docs/ai.md describes, as
// they concern rows, at urls.
func (x *aiFile) findings(rows []aiRow, urls []string) []AIFinding {
	var out []AIFinding
	out = append(out, x.trainContradictions(rows, urls)...)
	out = append(out, x.notInherited(rows, urls)...)
	out = append(out, x.starDropped(rows, urls)...)
	out = append(out, x.searchBlocked(rows, urls)...)
	out = append(out, x.tokenOnlyRules()...)
	rank := map[string]int{"error": 0, "warning": 1, "info": 2}
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := rank[out[i].Severity], rank[out[j].Severity]; a != b {
			return a < b
		}
		return firstLine(out[i]) < firstLine(out[j])
	})
	return out
}

func firstLine(f AIFinding) int {
	if len(f.Lines) == 0 {
		return 0
	}
	return f.Lines[0].Line
}

// trainContradictions finds training crawlers blocked by name while the *
// group states train-ai=y, and training crawlers a group of their own lets
// fetch, with no preference, while the * group states train-ai=n.
func (x *aiFile) trainContradictions(rows []aiRow, urls []string) []AIFinding {
	var out []AIFinding
	for i := range rows {
		w := &rows[i]
		if w.d == nil || !w.named() || !w.c.Purposes.Has(robotstxt.PurposeAITraining) {
			continue
		}
		star := x.starOf(w.dialect)
		g := w.decs[0].Group
		for j, u := range urls {
			su := star.Usage(u)
			if !su.Allowed {
				continue
			}
			dec := &w.decs[j]
			pref := su.Usage.TrainAI()
			switch {
			case !dec.Allowed && pref == robotstxt.PrefAllow:
				out = append(out, AIFinding{Code: AITrainContradiction, Severity: "warning", Crawlers: []string{w.c.Name},
					Lines: x.lines(append(append([]int{dec.Line()}, g.Lines...), su.Usage.Lines...)...),
					Message: fmt.Sprintf("%s (%s) may not fetch %s: its own group blocks it (line %d: %s), while the * group states train-ai=y (%s): the file refuses one training crawler and invites every other to train; write train-ai=n in the * group if AI training is unwanted, or let %s in if it is wanted",
						w.c.Name, w.c.Purposes, u, dec.Line(), x.text(dec.Line()), linesWord(su.Usage.Lines), w.c.Name)})
			case dec.Allowed && pref == robotstxt.PrefDisallow && w.uses[j].Usage.TrainAI() == robotstxt.PrefUnknown:
				what := fmt.Sprintf("%s (%s) may fetch %s through its own group (user-agent %s), which states no train-ai preference", w.c.Name, w.c.Purposes, u, linesWord(g.Lines))
				if w.c.Purposes.Has(robotstxt.PurposeTokenOnly) {
					what = fmt.Sprintf("%s, a token that fetches nothing, lets %s use what its crawlers fetch at %s for AI (its own group, user-agent %s)", w.c.Name, operatorOf(&w.c), u, linesWord(g.Lines))
				}
				out = append(out, AIFinding{Code: AITrainContradiction, Severity: "error", Crawlers: []string{w.c.Name},
					Lines: x.lines(append(slices.Clone(g.Lines), su.Usage.Lines...)...),
					Message: fmt.Sprintf("%s, while the * group states train-ai=n (%s): that line does not reach it, since a group that names a crawler replaces the * group whole; add Content-Usage: train-ai=n to its group, or %s",
						what, linesWord(su.Usage.Lines), pick(w.c.Purposes.Has(robotstxt.PurposeTokenOnly), "Disallow: / to refuse that use", "Disallow: / if it should not fetch at all"))})
			default:
				continue
			}
			break // one finding a crawler
		}
	}
	return out
}

// notInherited finds the * group's Content-Usage and Content-Signal lines
// that crawlers with groups of their own do not read: one finding for
// each kind of line, listing the crawlers.
func (x *aiFile) notInherited(rows []aiRow, urls []string) []AIFinding {
	flagged := map[string]bool{} // reported as a training contradiction
	for _, f := range x.trainContradictions(rows, urls) {
		flagged[f.Crawlers[0]] = true
	}
	type miss struct {
		crawlers []string
		star     []int // the * group's lines
		agents   []int // the user-agent lines of their groups
		weighty  bool  // a crawler for whom the line matters: search or AI
		// starOf notes the readings whose * lines star holds: they are
		// the same for every crawler of a reading, added once.
		starOf map[robotstxt.Dialect]bool
	}
	var usage, signal miss
	for i := range rows {
		w := &rows[i]
		if w.d == nil || !w.named() || w.c.Purposes.Has(robotstxt.PurposeTokenOnly) {
			continue
		}
		allowed := slices.ContainsFunc(w.decs, func(d robotstxt.Decision) bool { return d.Allowed })
		if !allowed {
			continue // nothing it may fetch: no preference applies to it
		}
		sd := x.starOf(w.dialect).Decide("/")
		starGroups := sd.Group.Groups
		if sd.Group.Kind != robotstxt.GroupGlobal {
			continue
		}
		g := w.decs[0].Group
		weighty := w.c.Purposes.Any(robotstxt.PurposeSearch) || isAI(w.c.Purposes)
		if su := x.fieldLines(w.dialect, starGroups, robotstxt.FieldContentUsage); len(su) > 0 && !flagged[w.c.Name] &&
			len(x.fieldLines(w.dialect, g.Groups, robotstxt.FieldContentUsage)) == 0 {
			usage.crawlers = append(usage.crawlers, w.c.Name)
			if !usage.starOf[w.dialect] {
				if usage.starOf == nil {
					usage.starOf = map[robotstxt.Dialect]bool{}
				}
				usage.starOf[w.dialect] = true
				usage.star = append(usage.star, su...)
			}
			usage.agents = append(usage.agents, g.Lines[0])
			usage.weighty = usage.weighty || weighty
		}
		if ss := x.fieldLines(w.dialect, starGroups, robotstxt.FieldContentSignal); len(ss) > 0 && w.uses[0].Signals.Line == 0 {
			signal.crawlers = append(signal.crawlers, w.c.Name)
			signal.star = append(signal.star, ss[0])
			signal.agents = append(signal.agents, g.Lines[0])
			signal.weighty = signal.weighty || weighty
		}
	}
	var out []AIFinding
	for _, k := range []struct {
		m     *miss
		code  string
		field string
	}{{&usage, AIUsageNotInherited, "Content-Usage"}, {&signal, AISignalNotInherited, "Content-Signal"}} {
		m := k.m
		if len(m.crawlers) == 0 {
			continue
		}
		sev := "info"
		if m.weighty {
			sev = "warning"
		}
		star := slices.Compact(slices.Sorted(slices.Values(m.star)))
		agents := slices.Compact(slices.Sorted(slices.Values(m.agents)))
		lines := append(slices.Clone(star), agents[:min(len(agents), 8)]...)
		out = append(out, AIFinding{Code: k.code, Severity: sev, Crawlers: m.crawlers, Lines: x.lines(lines...),
			Message: fmt.Sprintf("the * group's %s (%s) does not reach %d %s, which %s none: %s; a group that names a crawler replaces the * group whole: repeat the line in %s (user-agent %s)",
				k.field, linesWord(star), len(m.crawlers), pick(len(m.crawlers) == 1, "crawler with a group of its own", "crawlers with groups of their own"),
				pick(len(m.crawlers) == 1, "states", "state"), listNames(m.crawlers, 8), pick(len(agents) == 1, "that group", "those groups"), linesWord(agents))})
	}
	return out
}

// starDropped finds named groups that let their crawlers fetch URLs the *
// group blocks, as lint's star-rules-dropped decides it
// (lint.StarRulesDropped: the * group's rules probed, and the URLs
// asked), each crawler in its own dialect: one finding a group, with
// lint's severity.
func (x *aiFile) starDropped(rows []aiRow, urls []string) []AIFinding {
	type drop struct {
		crawlers []string
		agents   []int
		example  string
		rule     int // the * rule that blocks example
		rules    []int
	}
	var order []string
	drops := map[string]*drop{}
	checks := map[robotstxt.Dialect]*lint.StarCheck{} // one a reading
	for i := range rows {
		w := &rows[i]
		if w.d == nil || !w.named() || w.c.Purposes.Has(robotstxt.PurposeTokenOnly) {
			continue // a token that fetches nothing drops no crawl rule
		}
		q := robotstxt.Query{Crawler: &w.c, Dialect: w.dialect}
		d := q.ReadsIn()
		sc := checks[d]
		if sc == nil {
			sc = lint.NewStarCheck(x.r, d)
			checks[d] = sc
		}
		found, ok := sc.Dropped(q, urls)
		if !ok {
			continue
		}
		g := w.decs[0].Group
		key := fmt.Sprint(w.dialect, g.Lines)
		dr := drops[key]
		if dr == nil {
			dr = &drop{agents: g.Lines, example: found.Example, rule: found.Rule}
			drops[key] = dr
			order = append(order, key)
		}
		dr.crawlers = append(dr.crawlers, w.c.Name)
		for _, n := range found.Rules {
			if !slices.Contains(dr.rules, n) {
				dr.rules = append(dr.rules, n)
			}
		}
	}
	sev := "info"
	if c, ok := lint.LookupCode(AIStarRulesDropped); ok {
		sev = c.Severity
	}
	var out []AIFinding
	for _, k := range order {
		dr := drops[k]
		slices.Sort(dr.rules)
		first := dr.rule
		msg := fmt.Sprintf("%s %s only the groups that name %s (user-agent %s), never the * group: %s, blocked for other crawlers by line %d (%s), is allowed for %s",
			listNames(dr.crawlers, 8), pick(len(dr.crawlers) == 1, "obeys", "obey"), pick(len(dr.crawlers) == 1, "it", "them"), linesWord(dr.agents),
			dr.example, first, x.text(first), pick(len(dr.crawlers) == 1, "it", "them"))
		if len(dr.rules) > 1 {
			msg += fmt.Sprintf(" (%d such * rules: %s)", len(dr.rules), linesWord(dr.rules))
		}
		msg += fmt.Sprintf("; repeat in %s group the * rules %s should follow", pick(len(dr.crawlers) == 1, "its", "their"), pick(len(dr.crawlers) == 1, "it", "they"))
		out = append(out, AIFinding{Code: AIStarRulesDropped, Severity: sev, Crawlers: dr.crawlers,
			Lines: x.lines(append(slices.Clone(dr.agents), dr.rules[:min(len(dr.rules), 8)]...)...), Message: msg})
	}
	return out
}

// searchBlocked finds search crawlers (that do not train AI models)
// blocked with the AI crawlers, when the file evidently targets AI
// crawlers: it blocks some of them by name.
func (x *aiFile) searchBlocked(rows []aiRow, urls []string) []AIFinding {
	targets := x.aiTargets()
	if len(targets) == 0 {
		return nil
	}
	type block struct {
		crawlers []string
		url      string
		rule     int
		agents   []int
		with     []string // the AI crawlers the group also names
	}
	var order []string
	blocks := map[string]*block{}
	for i := range rows {
		w := &rows[i]
		p := w.c.Purposes
		if w.d == nil || !p.Has(robotstxt.PurposeSearch) || p.Has(robotstxt.PurposeAITraining) || p.Has(robotstxt.PurposeTokenOnly) {
			continue
		}
		for _, u := range append([]string{"/"}, urls...) {
			d := w.d.Decide(u)
			if d.Allowed || !d.HasRule() {
				continue
			}
			var with []string
			var withLines []int
			switch d.Group.Kind {
			case robotstxt.GroupSpecific:
				with, withLines = x.aiNamed(w.dialect, d.Group.Groups, w.c.Name)
				if len(with) == 0 {
					continue // its own group blocks it, alone: deliberate
				}
			case robotstxt.GroupGlobal:
				if !isSite(d.Rule.Pattern) {
					continue // the * group blocks a part of the site for everyone
				}
			default:
				continue
			}
			key := fmt.Sprint(d.Group.Kind, d.Line()) // a rule belongs to one group
			b := blocks[key]
			if b == nil {
				b = &block{url: u, rule: d.Line(), agents: withLines, with: with}
				blocks[key] = b
				order = append(order, key)
			}
			if !slices.Contains(b.crawlers, w.c.Name) {
				b.crawlers = append(b.crawlers, w.c.Name)
				b.agents = append(b.agents, d.Group.Lines...)
			}
			break
		}
	}
	var out []AIFinding
	for _, k := range order {
		b := blocks[k]
		slices.Sort(b.agents)
		b.agents = slices.Compact(b.agents)
		who := listNames(b.crawlers, 8)
		if len(b.with) > 0 {
			out = append(out, AIFinding{Code: AISearchBlocked, Severity: "error", Crawlers: b.crawlers,
				Lines: x.lines(append(slices.Clone(b.agents), b.rule)...),
				Message: fmt.Sprintf("%s (search) may not fetch %s: line %d (%s) blocks %s in the group of user-agent %s, which also names %s: search engines drop what they may not fetch; give the AI crawlers a group of their own",
					who, b.url, b.rule, x.text(b.rule), pick(len(b.crawlers) == 1, "it", "them"), linesWord(b.agents), listNames(b.with, 6))})
			continue
		}
		out = append(out, AIFinding{Code: AISearchBlocked, Severity: "warning", Crawlers: b.crawlers,
			Lines: x.lines(append(slices.Clone(b.agents), b.rule)...),
			Message: fmt.Sprintf("%s (search) may not fetch %s: the * group closes the site to every crawler no group names (line %d: %s), search engines too, while the file's named groups target AI crawlers (%s); if only AI crawlers are meant, take Disallow: / out of the * group",
				who, b.url, b.rule, x.text(b.rule), listNames(targets, 6))})
	}
	return out
}

// aiTargets returns the AI crawlers the file blocks at "/" by name, each
// asked in its own dialect.
func (x *aiFile) aiTargets() []string {
	var out []string
	for _, f := range fileCrawlers(x.r) {
		if !f.known || !isAI(f.c.Purposes) {
			continue
		}
		d := x.r.Decide(robotstxt.Query{URL: "/", Crawler: &f.c})
		if !d.Allowed && d.Group.Kind == robotstxt.GroupSpecific {
			out = append(out, f.c.Name)
		}
	}
	return out
}

// aiNamed returns the AI crawlers that the user-agent lines of groups gs
// (dialect d's) name, other than self, and those lines.
func (x *aiFile) aiNamed(d robotstxt.Dialect, gs []int, self string) (names []string, lines []int) {
	groups := x.groupsFor(d)
	for _, gi := range gs {
		for _, a := range groups[gi].Agents {
			c, ok := robotstxt.CrawlerNamed(a.Value)
			if ok && c.Name != self && isAI(c.Purposes) && !c.Purposes.Has(robotstxt.PurposeSearch) {
				lines = append(lines, a.Line)
				if !slices.Contains(names, c.Name) {
					names = append(names, c.Name)
				}
			}
		}
	}
	return names, lines
}

// tokenOnlyRules explains the allow and disallow rules of groups that
// name a token that fetches nothing: one finding a group.
func (x *aiFile) tokenOnlyRules() []AIFinding {
	var out []AIFinding
	for _, g := range x.r.Groups() {
		if len(g.Rules) == 0 {
			continue
		}
		for _, a := range g.Agents {
			c, ok := robotstxt.CrawlerNamed(a.Value)
			if !ok || !c.Control {
				continue
			}
			use := strings.TrimPrefix(c.Purpose, "control token: ")
			var lines []int
			whole, allowAll, paths := false, false, false
			for _, ru := range g.Rules {
				lines = append(lines, ru.Line)
				switch {
				case !ru.Allow && isSite(ru.Pattern):
					whole = true
				case ru.Allow && isSite(ru.Pattern), !ru.Allow && ru.Pattern == "":
					allowAll = true
				default:
					paths = true
				}
			}
			var meaning string
			switch {
			case paths:
				meaning = "a path refuses that use (Disallow) or allows it (Allow) for those pages only, as a crawl rule would"
			case whole:
				meaning = "Disallow: / refuses that use for the whole site"
			case allowAll:
				meaning = "they allow that use for the whole site"
			}
			out = append(out, AIFinding{Code: AITokenOnlyRules, Severity: "info", Crawlers: []string{c.Name},
				Lines: x.lines(append([]int{a.Line}, lines...)...),
				Message: fmt.Sprintf("%s fetches nothing: %s, and the rules of its group (%s) say only whether %s may use what is fetched (%s): %s; they stop no crawl",
					c.Name, crawlersOf(&c), linesWord(lines), operatorOf(&c), use, meaning)})
		}
	}
	return out
}

// operatorOf names a crawler's operator, or "its operator".
func operatorOf(c *robotstxt.Crawler) string {
	if c.Operator == "" {
		return "its operator"
	}
	return c.Operator
}

// crawlersOf says who fetches for a token-only token's operator.
func crawlersOf(c *robotstxt.Crawler) string {
	switch c.Operator {
	case "Google":
		return "Google's crawlers (Googlebot and the others) fetch under their own tokens"
	case "Apple":
		return "Apple's crawler fetches under its own token (Applebot)"
	case "":
		return "its operator's crawlers fetch under their own tokens"
	}
	return c.Operator + "'s crawlers fetch under their own tokens"
}
