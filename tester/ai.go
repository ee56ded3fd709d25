package tester

import (
	"fmt"

	"github.com/seed53c283f5/robotstxt"
)

// The site owner's view of AI crawlers: who may fetch the site, and what
// the file says they may do with what they fetch. Each crawler is asked in
// its own dialect with its fallback tokens, as check asks it; the crawl
// verdict comes with the usage preferences that apply (Content-Usage, per
// URL, only where the crawler may fetch; Content-Signal, per group). Then
// the file is read for contradictions between what it says to crawlers by
// name and what it says to every crawler: docs/ai.md lists them.

// aiSectionOrder is the order of the sections of an AI report: the
// purposes a site owner weighs first, then the others.
var aiSectionOrder = []robotstxt.Purpose{
	robotstxt.PurposeSearch, robotstxt.PurposeAITraining, robotstxt.PurposeAISearch,
	robotstxt.PurposeUserFetch, robotstxt.PurposeAgent, robotstxt.PurposeTokenOnly,
	robotstxt.PurposePreview, robotstxt.PurposeAds, robotstxt.PurposeArchive,
	robotstxt.PurposeSEO, robotstxt.PurposeOther,
}

// aiSectionTitles say in a few words what each section's crawlers do.
var aiSectionTitles = map[string]string{
	"search":      "search engines' indexes",
	"ai-training": "training AI models",
	"ai-search":   "AI answers and AI search (retrieval)",
	"user-fetch":  "fetches a person asked an assistant for",
	"agent":       "agents that browse and act for a person",
	"token-only":  "tokens that fetch nothing: \"allowed\" lets the operator use for AI what its crawlers fetch",
	"preview":     "link previews",
	"ads":         "advertising",
	"archive":     "web archives",
	"seo-tool":    "SEO tools",
	"other":       "other uses",
	"unknown":     "crawlers the catalogue does not know",
}

// AIOptions say which crawlers and URLs AI asks about. The zero value (or
// nil) asks about "/" for DefaultAICrawlers and every crawler the file
// names.
type AIOptions struct {
	// URLs are absolute URLs or paths starting with '/', normalised as
	// crawlers normalise them; none: "/".
	URLs []string
	// Crawlers are who is asked about: names from the catalogue
	// (robotstxt.LookupCrawler), or product tokens the file names in a
	// user-agent line. None: DefaultAICrawlers and every crawler the file
	// names (at most MaxFileRows of those not in the default set).
	Crawlers []string
	// All asks about the whole catalogue, and every token the file names
	// that the catalogue does not know. Crawlers, when set, wins.
	All bool
}

// AIReport is the answer of AI: crawler by crawler, grouped by purpose,
// whether it may fetch each URL and which line decided, the usage
// preferences that apply, and the contradictions found in the file. Its
// JSON form is what "robotstxt ai --json" prints (docs/ai.md documents it).
type AIReport struct {
	File  string     `json:"file"`
	Fetch *FetchInfo `json:"fetch,omitempty"` // for a live origin
	Notes []string   `json:"notes,omitempty"`
	// URLs are the URLs asked about, normalised.
	URLs []string `json:"urls"`
	// UsageLines and SignalLines count the file's Content-Usage and
	// Content-Signal lines (in groups or not): with none, the file
	// states no usage preference.
	UsageLines  int `json:"usage_lines"`
	SignalLines int `json:"signal_lines"`
	// Others is what the file says to a crawler that no group names: the
	// * group's answers (Name "*").
	Others AICrawler `json:"others"`
	// Crawlers are the crawlers asked about, section by section (in the
	// order of Sections), in the catalogue's order within a section.
	Crawlers []AICrawler `json:"crawlers"`
	// Sections are the purposes the crawlers are grouped by, in order,
	// each with the names of its crawlers; only those that have any.
	Sections []AISection `json:"sections"`
	// Summary is the report in a few lines, one a purpose (AISummary):
	// what the faces show before the table.
	Summary []AISummaryLine `json:"summary"`
	// Findings are the contradictions found, errors first, then by line.
	Findings []AIFinding `json:"findings"`
	// Errors, Warnings and Infos count the findings by severity.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// AISection is one purpose of an AIReport and the crawlers listed under it.
type AISection struct {
	Purpose  string   `json:"purpose"` // a purpose's name (robotstxt.Purpose), or "unknown"
	Title    string   `json:"title"`   // what its crawlers do, in a few words
	Crawlers []string `json:"crawlers"`
}

// AICrawler is one crawler of an AIReport: who it is, the groups that
// apply to it, and its answers URL by URL.
type AICrawler struct {
	Name     string   `json:"name"`
	Token    string   `json:"token"`
	Operator string   `json:"operator,omitempty"`
	Purposes []string `json:"purposes"` // its purposes' names; empty when unknown
	// Section is the purpose it is listed under: among its purposes, the
	// first of token-only, ai-training, ai-search, user-fetch, agent,
	// search, then the others; "unknown" when it has none.
	Section string `json:"section"`
	Known   bool   `json:"known"` // in the catalogue
	// ObeysRobots is what its operator says: yes, no, partly or unknown;
	// RobotsNote qualifies it.
	ObeysRobots string `json:"obeys_robots"`
	RobotsNote  string `json:"robots_note,omitempty"`
	Dialect     string `json:"dialect"`
	// Line is the user-agent line that put it in the report, for a
	// crawler the file names and the default set does not hold; else 0.
	Line    int        `json:"line,omitempty"`
	Group   CheckGroup `json:"group"`
	Answers []AIAnswer `json:"answers"`
	// Signals is the Content-Signal line of its groups, which applies
	// whatever the URL; nil when they have none.
	Signals *AISignals `json:"signals"`
}

// AIAnswer is one URL for one crawler: the crawl verdict and the usage
// preferences that apply.
type AIAnswer struct {
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"` // the deciding allow or disallow rule's line; 0: none
	Rule    string `json:"rule"`
	// Policy is set when no rules applied: a fetch policy ("allow-all",
	// "disallow-all") decided.
	Policy string `json:"policy,omitempty"`
	// Usage is nil when the URL may not be fetched (preferences apply
	// only to what may be crawled) or when no rules apply.
	Usage *AIUsage `json:"usage"`
}

// AIUsage is the usage preferences (Content-Usage) that apply to a URL a
// crawler may fetch: each "y", "n" or "unknown".
type AIUsage struct {
	TrainAI string `json:"train-ai"`
	Search  string `json:"search"`
	// Other holds any other category the deciding rules name.
	Other map[string]string `json:"other,omitempty"`
	// Lines are the deciding Content-Usage rules' lines, ascending;
	// empty when no rule applies.
	Lines []int `json:"lines"`
}

// AISignals is a Content-Signal line: each use "yes", "no", or "" when
// the line does not name it (or gives another value), and its level of
// use.
type AISignals struct {
	Line    int    `json:"line"`
	Search  string `json:"search"`
	AIInput string `json:"ai-input"`
	AITrain string `json:"ai-train"`
	// Use is the line's use= level (immediate, reference or full), ""
	// when it has none or gives another value.
	Use  string `json:"use,omitempty"`
	Text string `json:"text"` // the line's value, as written
}

// AIFinding is a contradiction in the file: what it says to crawlers by
// name against what it says to every crawler, or a line that does not
// mean what it seems to. Codes are stable (docs/ai.md lists them).
type AIFinding struct {
	Code     string   `json:"code"`
	Severity string   `json:"severity"` // error, warning or info
	Crawlers []string `json:"crawlers"` // the crawlers it concerns; empty when the file as a whole
	Lines    []AILine `json:"lines"`    // the lines involved, ascending
	Message  string   `json:"message"`
}

// AILine is a line of the file, as written.
type AILine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// The codes of AI findings.
const (
	// AITrainContradiction: a training crawler blocked by name while
	// the * group states train-ai=y, or a training crawler allowed by a
	// group of its own with no preference while the * group states
	// train-ai=n.
	AITrainContradiction = "train-ai-contradiction"
	// AIUsageNotInherited: Content-Usage lines of the * group that
	// crawlers with groups of their own never read.
	AIUsageNotInherited = "usage-not-inherited"
	// AISignalNotInherited: a Content-Signal line of the * group that
	// crawlers with groups of their own never read.
	AISignalNotInherited = "signal-not-inherited"
	// AIStarRulesDropped: a named group allows URLs the * group blocks.
	AIStarRulesDropped = "star-rules-dropped"
	// AISearchBlocked: a search crawler blocked with the AI crawlers.
	AISearchBlocked = "search-blocked"
	// AITokenOnlyRules: allow or disallow rules for a token that fetches
	// nothing (Google-Extended, Applebot-Extended).
	AITokenOnlyRules = "token-only-rules"
)

// AI answers, for the file src, what the crawlers o names may fetch at its
// URLs and what usage preferences apply, crawler by crawler, and reports
// the contradictions it finds. Its error, for bad input, is an *Error
// naming the field at fault: "robots" (no source), "urls", "crawlers" (a
// name neither the catalogue nor the file knows).
func AI(src *Source, o *AIOptions) (*AIReport, error) {
	if src == nil {
		return nil, &Error{Field: "robots", Msg: "no robots.txt to read"}
	}
	var opts AIOptions
	if o != nil {
		opts = *o
	}
	if err := checkURLs(opts.URLs); err != nil {
		return nil, err
	}
	rows, left, err := aiRows(src.Robots, &opts)
	if err != nil {
		return nil, err
	}
	urls := opts.URLs
	if len(urls) == 0 {
		urls = []string{"/"}
	}
	rep := &AIReport{File: src.Name, Fetch: src.Fetched, Crawlers: []AICrawler{}, Sections: []AISection{}, Findings: []AIFinding{}}
	var ds []robotstxt.Dialect
	for i := range rows {
		ds = append(ds, rows[i].dialect)
	}
	rep.Notes = append(rep.Notes, src.fetchNotes(ds...)...)
	rep.Notes = append(rep.Notes, src.fileNotes()...)
	rep.Notes = append(rep.Notes, src.originNotes(urls)...)
	if left > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the file names %d more %s than are shown (at most %d come from the file): name them with --crawler, or take the whole catalogue with --all", left, plural(left, "crawler"), MaxFileRows))
	}
	for _, u := range urls {
		n := robotstxt.NormalizeURL(u)
		if n != u {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s normalised to %s", u, n))
		}
		rep.URLs = append(rep.URLs, n)
	}
	for _, l := range src.Robots.Lines() {
		switch l.Field {
		case robotstxt.FieldContentUsage:
			rep.UsageLines++
		case robotstxt.FieldContentSignal:
			rep.SignalLines++
		}
	}
	star := aiRow{c: robotstxt.Crawler{Name: "*", Token: probeToken, Dialect: robotstxt.Google}, known: true, dialect: robotstxt.Google}
	src.aiAsk(&star, rep.URLs)
	rep.Others = star.report(src.Robots, rep.URLs)
	rep.Others.Token = "*"
	rep.Others.Section = ""
	for i := range rows {
		src.aiAsk(&rows[i], rep.URLs)
	}
	// Section by section, in the catalogue's order within each.
	sections := map[string][]int{}
	for i := range rows {
		s := sectionOf(rows[i].c.Purposes)
		sections[s] = append(sections[s], i)
	}
	var order []string
	for _, p := range aiSectionOrder {
		order = append(order, p.String())
	}
	order = append(order, "unknown")
	for _, s := range order {
		if len(sections[s]) == 0 {
			continue
		}
		sec := AISection{Purpose: s, Title: aiSectionTitles[s]}
		for _, i := range sections[s] {
			sec.Crawlers = append(sec.Crawlers, rows[i].c.Name)
			rep.Crawlers = append(rep.Crawlers, rows[i].report(src.Robots, rep.URLs))
		}
		rep.Sections = append(rep.Sections, sec)
	}
	if src.Policy() == "rules" || src.perRow() {
		x := newAIFile(src.Robots)
		rep.Findings = append(rep.Findings, x.findings(rows, rep.URLs)...)
	}
	rep.Summary = AISummary(rep)
	for _, f := range rep.Findings {
		switch f.Severity {
		case "error":
			rep.Errors++
		case "warning":
			rep.Warnings++
		default:
			rep.Infos++
		}
	}
	return rep, nil
}
