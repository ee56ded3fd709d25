package tester

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// The AI report's rows: which crawlers are asked about (the default set,
// the catalogue, the crawlers the file names), each asked in its own
// dialect with the fetch policy of its engine (aiAsk), and made into the
// report's AICrawler (report).

// aiDefaultCrawlers are the crawlers AI asks about when none are named,
// before the crawlers the file names: the major ones of each purpose.
var aiDefaultCrawlers = []string{
	"Googlebot", "Bingbot", "DuckDuckBot", "Applebot", // search
	"GPTBot", "ClaudeBot", "CCBot", "Bytespider", "Meta-ExternalAgent", "Amazonbot", // AI training
	"OAI-SearchBot", "Claude-SearchBot", "PerplexityBot", // AI search
	"ChatGPT-User", "Claude-User", "Perplexity-User", "Meta-ExternalFetcher", // user-triggered
	"Google-Agent",                         // agents
	"Google-Extended", "Applebot-Extended", // tokens that fetch nothing
}

// DefaultAICrawlers returns the names of the crawlers AI asks about when
// none are named (before the crawlers the file names), in the catalogue's
// order.
func DefaultAICrawlers() []string {
	out := slices.Clone(aiDefaultCrawlers)
	order := map[string]int{}
	for i, c := range robotstxt.Crawlers() {
		order[c.Name] = i
	}
	sort.SliceStable(out, func(i, j int) bool { return order[out[i]] < order[out[j]] })
	return out
}

// aiRow is one crawler asked about, with its answers.
type aiRow struct {
	c       robotstxt.Crawler
	known   bool
	line    int
	dialect robotstxt.Dialect
	a       *fetch.Answer
	d       *robotstxt.Decider // nil when no rules apply
	decs    []robotstxt.Decision
	uses    []robotstxt.UsageAnswer
}

// aiRows returns the crawlers o asks about (see AIOptions), each with its
// dialect; left counts the crawlers the file names that are left out.
func aiRows(r *robotstxt.Robots, o *AIOptions) (rows []aiRow, left int, err error) {
	seen := map[string]bool{}
	add := func(c robotstxt.Crawler, known bool, line int) bool {
		key := strings.ToLower(c.Name)
		if seen[key] {
			return false
		}
		seen[key] = true
		d := c.Dialect
		if d == robotstxt.DefaultDialect {
			d = robotstxt.Google
		}
		rows = append(rows, aiRow{c: c, known: known, line: line, dialect: d})
		return true
	}
	named := fileCrawlers(r)
	if len(o.Crawlers) > 0 {
		for i, n := range o.Crawlers {
			if c, ok := robotstxt.LookupCrawler(n); ok {
				add(c, true, 0)
				continue
			}
			j := slices.IndexFunc(named, func(f fileCrawler) bool { return !f.known && strings.EqualFold(f.c.Token, strings.TrimSpace(n)) })
			if j < 0 {
				return nil, 0, &Error{Field: "crawlers", Index: i, Value: n, Msg: fmt.Sprintf("unknown crawler %q: not in the catalogue, and the file names no such token", n)}
			}
			add(named[j].c, false, named[j].line)
		}
		return rows, 0, nil
	}
	if o.All {
		for _, c := range robotstxt.Crawlers() {
			add(c, true, 0)
		}
	} else {
		for _, n := range DefaultAICrawlers() {
			c, _ := robotstxt.LookupCrawler(n)
			add(c, true, 0)
		}
	}
	extra := 0
	for _, f := range named {
		if seen[strings.ToLower(f.c.Name)] {
			continue
		}
		if !o.All && extra == MaxFileRows {
			left++
			continue
		}
		if add(f.c, f.known, f.line) {
			extra++
		}
	}
	return rows, left, nil
}

// fileCrawler is a crawler a user-agent line names: from the catalogue, or
// a token the catalogue does not know.
type fileCrawler struct {
	c     robotstxt.Crawler
	known bool
	line  int
}

// fileCrawlers returns the crawlers the file's user-agent lines name, in
// file order, once each.
func fileCrawlers(r *robotstxt.Robots) []fileCrawler {
	var out []fileCrawler
	seen := map[string]bool{}
	for _, g := range r.Groups() {
		for _, a := range g.Agents {
			if a.Global {
				continue
			}
			c, ok := robotstxt.CrawlerNamed(a.Value)
			if !ok {
				if a.Token == "" {
					continue
				}
				c = robotstxt.Crawler{Name: a.Token, Token: a.Token, Dialect: robotstxt.Google}
			}
			if key := strings.ToLower(c.Name); !seen[key] {
				seen[key] = true
				out = append(out, fileCrawler{c: c, known: ok, line: a.Line})
			}
		}
	}
	return out
}

// aiAsk answers w's questions about urls: the crawl decision and the usage
// preferences, in w's dialect, with the fetch policy of its engine.
func (f *Source) aiAsk(w *aiRow, urls []string) {
	q := robotstxt.Query{Crawler: &w.c}
	w.a = f.Answer(w.dialect)
	if w.a.Policy == fetch.Rules && w.a.Robots != nil {
		w.d = f.decider(w.a, q)
	}
	for _, u := range urls {
		if w.d != nil {
			w.decs = append(w.decs, w.d.Decide(u))
			w.uses = append(w.uses, w.d.Usage(u))
			continue
		}
		q.URL = u
		w.decs = append(w.decs, w.a.Decide(q))
		w.uses = append(w.uses, robotstxt.UsageAnswer{})
	}
}

// report is w as an AICrawler.
func (w *aiRow) report(r *robotstxt.Robots, urls []string) AICrawler {
	c := &w.c
	out := AICrawler{Name: c.Name, Token: c.Token, Operator: c.Operator, Purposes: c.Purposes.Names(),
		Section: sectionOf(c.Purposes), Known: w.known, ObeysRobots: c.ObeysRobots.String(), RobotsNote: c.RobotsNote,
		Dialect: w.dialect.String(), Line: w.line, Answers: make([]AIAnswer, len(urls))}
	if len(w.decs) > 0 {
		g := w.decs[0].Group
		out.Group = CheckGroup{Kind: g.Kind.String(), Token: g.Token, Lines: g.Lines, Reason: groupReason(&w.decs[0])}
		if out.Group.Lines == nil {
			out.Group.Lines = []int{}
		}
	}
	for i, u := range urls {
		dec := &w.decs[i]
		a := AIAnswer{URL: u, Allowed: dec.Allowed, Line: dec.Line()}
		if dec.HasRule() {
			a.Rule = dec.Rule.Text
		}
		if w.d == nil {
			if dec.Path != "/robots.txt" {
				a.Policy = w.a.Policy.String()
			}
		} else if dec.Allowed {
			a.Usage = usageOf(w.uses[i].Usage)
		}
		out.Answers[i] = a
	}
	if w.d != nil && len(w.uses) > 0 {
		if s := w.uses[0].Signals; s.Line != 0 {
			out.Signals = &AISignals{Line: s.Line, Search: s.Search.String(), AIInput: s.AIInput.String(), AITrain: s.AITrain.String(), Use: s.Use.String()}
			if l, ok := r.Line(s.Line); ok {
				out.Signals.Text = l.Value
			}
		}
	}
	return out
}

// usageOf is u in the report's terms.
func usageOf(u robotstxt.Usage) *AIUsage {
	out := &AIUsage{TrainAI: u.TrainAI().String(), Search: u.Search().String(), Lines: u.Lines}
	if out.Lines == nil {
		out.Lines = []int{}
	}
	for _, p := range u.Prefs {
		if p.Key != robotstxt.UsageTrainAI && p.Key != robotstxt.UsageSearch {
			if out.Other == nil {
				out.Other = map[string]string{}
			}
			out.Other[p.Key] = p.Pref.String()
		}
	}
	return out
}

// named reports whether w's groups name it (its own token or a fallback),
// rather than '*' or none.
func (w *aiRow) named() bool {
	return len(w.decs) > 0 && w.decs[0].Group.Kind == robotstxt.GroupSpecific
}

// aiSectionPriority is which of its purposes places a crawler that has
// several: the use of the content a site owner is asked about first
// (Bytespider fetches for search and AI training: it is listed with the
// training crawlers).
var aiSectionPriority = []robotstxt.Purpose{
	robotstxt.PurposeTokenOnly, robotstxt.PurposeAITraining, robotstxt.PurposeAISearch,
	robotstxt.PurposeUserFetch, robotstxt.PurposeAgent, robotstxt.PurposeSearch,
	robotstxt.PurposePreview, robotstxt.PurposeAds, robotstxt.PurposeArchive,
	robotstxt.PurposeSEO, robotstxt.PurposeOther,
}

// sectionOf returns the name of the section a crawler of purposes p is
// listed in: "unknown" for the empty set.
func sectionOf(p robotstxt.Purpose) string {
	for _, s := range aiSectionPriority {
		if p.Has(s) {
			return s.String()
		}
	}
	return "unknown"
}
