package tester

import (
	"errors"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// CheckRequest asks whether crawlers may fetch URLs under one robots.txt.
type CheckRequest struct {
	Source *Source
	// URLs are absolute URLs or paths starting with '/'; they are
	// normalised as crawlers normalise them (robotstxt.NormalizeURL).
	URLs []string
	// Subjects are who is asked about; none means Googlebot.
	Subjects
	// Dialect, when set, wins over each crawler's own; tokens are asked
	// in Google's dialect unless it is set.
	Dialect robotstxt.Dialect
}

// CheckReport is the answer to a CheckRequest: one result per URL and
// subject, URL by URL. Its JSON form is what "robotstxt check --json"
// prints.
type CheckReport struct {
	File    string        `json:"file"`
	Fetch   *FetchInfo    `json:"fetch,omitempty"` // for a live origin
	Notes   []string      `json:"notes,omitempty"`
	Results []CheckResult `json:"results"`
	Allowed int           `json:"allowed"`
	Blocked int           `json:"blocked"`
	// PerRow is set when the rows read the fetched answer with fetch
	// policies that differ: each result's FetchPolicy says which it used.
	PerRow bool `json:"-"`
}

// CheckResult is the answer for one URL and one subject.
type CheckResult struct {
	URL            string     `json:"url"`
	Input          string     `json:"input,omitempty"` // the URL as given, when normalising changed it
	Who            string     `json:"who"`             // the crawler's name, the token, or the tokens joined by '+'
	Crawler        string     `json:"crawler,omitempty"`
	Agents         []string   `json:"agents,omitempty"`
	Dialect        string     `json:"dialect"`
	Allowed        bool       `json:"allowed"`
	Path           string     `json:"path"` // what the rules were matched against
	Line           int        `json:"line"` // the deciding line; 0: none
	Rule           string     `json:"rule"`
	Reason         string     `json:"reason"`
	Group          CheckGroup `json:"group"`
	CrawlDelay     *float64   `json:"crawl_delay,omitempty"`
	CrawlDelayLine int        `json:"crawl_delay_line,omitempty"`
	Matches        []RuleJSON `json:"matches"`
	// Policy is set when no rules applied: a fetch policy ("allow-all",
	// "disallow-all") decided.
	Policy string `json:"policy,omitempty"`
	// FetchPolicy is, for a live origin fetched with DefaultDialect, the
	// dialect whose fetch policy read the site's answer for this row: the
	// crawler's own.
	FetchPolicy string `json:"fetch_policy,omitempty"`
}

// CheckGroup is the group a decision applied and why.
type CheckGroup struct {
	Kind   string `json:"kind"` // specific, global or none
	Token  string `json:"token,omitempty"`
	Lines  []int  `json:"lines"`
	Reason string `json:"reason"`
}

// RuleJSON is a rule that matched the URL; Lost says why it did not decide.
type RuleJSON struct {
	Line     int    `json:"line"`
	Allow    bool   `json:"allow"`
	Pattern  string `json:"pattern"`
	Text     string `json:"text"`
	Implicit bool   `json:"implicit,omitempty"`
	Lost     string `json:"lost,omitempty"`
}

// Check answers req. Its error, for bad input, is an *Error naming the
// field at fault.
func Check(req *CheckRequest) (*CheckReport, error) {
	return checkRequest(req, nil, nil)
}

// CheckStream answers req as Check does, but hands the results one by one
// to each, in the order of Check's Results, instead of keeping them: the
// report it returns has no Results (its counts are set). before, when not
// nil, gets the report (without results and counts) before the first
// result. The *CheckResult each gets is reused: it and its slices are
// valid only during the call. A service writes a large answer this way
// without holding every result. Bad input is an *Error, returned before
// any call.
func CheckStream(req *CheckRequest, before func(*CheckReport), each func(*CheckResult)) (*CheckReport, error) {
	if each == nil {
		each = func(*CheckResult) {}
	}
	return checkRequest(req, before, each)
}

// checkRequest is Check (each nil) or CheckStream.
func checkRequest(req *CheckRequest, before func(*CheckReport), each func(*CheckResult)) (*CheckReport, error) {
	subjects, err := req.resolve()
	if err != nil {
		return nil, err
	}
	if len(req.URLs) == 0 {
		return nil, &Error{Field: "urls", Msg: "no URL to check"}
	}
	if err := checkURLs(req.URLs); err != nil {
		return nil, err
	}
	if req.Source == nil {
		return nil, &Error{Field: "robots", Msg: "no robots.txt to check", Err: errors.New("nil source")}
	}
	return check(req.Source, subjects, req.Dialect, req.URLs, before, each), nil
}

// check answers; with each set, it hands each result to it instead of
// keeping them in the report.
func check(f *Source, subjects []subject, d robotstxt.Dialect, urls []string, before func(*CheckReport), each func(*CheckResult)) *CheckReport {
	var ds []robotstxt.Dialect
	for _, s := range subjects {
		q := robotstxt.Query{Crawler: s.crawler, Dialect: d}
		ds = append(ds, q.ReadsIn())
	}
	rep := &CheckReport{File: f.Name, Fetch: f.Fetched, Notes: f.fetchNotes(ds...), PerRow: f.mixed(ds)}
	rep.Notes = append(rep.Notes, f.fileNotes()...)
	rep.Notes = append(rep.Notes, f.originNotes(urls)...)
	var scratch *CheckResult // with each: the result handed to it
	if each == nil {
		rep.Results = make([]CheckResult, 0, len(urls)*len(subjects))
	} else {
		scratch = new(CheckResult)
		if before != nil {
			before(rep)
		}
	}
	// What a row's answers share whatever the URL: the question, the
	// fetched answer it reads, the crawl-delay, and the decider that has
	// chosen the row's groups once.
	type row struct {
		q          robotstxt.Query
		a          *fetch.Answer
		policy     string
		decider    *robotstxt.Decider
		crawlDelay *float64 // the crawl-delay the crawler waits, nil when none
		delayLine  int
		fetchPol   string
	}
	rows := make([]row, len(subjects))
	for i, s := range subjects {
		// Read in q.ReadsIn() (d, else the crawler's own, else Google's),
		// with that dialect's fetch policy.
		q := robotstxt.Query{Crawler: s.crawler, Agents: s.agents, Dialect: d, Explain: true}
		q.Dialect = q.ReadsIn()
		a := f.Answer(q.Dialect)
		w := row{q: q, a: a, policy: a.Policy.String()}
		if a.Policy == fetch.Rules && a.Robots != nil {
			w.decider = f.decider(a, q)
		}
		if f.perRow() {
			w.fetchPol = a.Dialect.String()
		}
		if w.policy == "rules" && a.Robots != nil {
			// The pace the polite client keeps: its group's
			// crawl-delay, else '*''s, for a crawler that honours it
			// (Query.HonoursCrawlDelay, inside CrawlDelay).
			if p := a.Robots.CrawlDelay(q); !p.Ignored && p.CrawlDelayLine != 0 {
				cd := p.CrawlDelay
				w.crawlDelay, w.delayLine = &cd, p.CrawlDelayLine
			}
		}
		rows[i] = w
	}
	// The rules that matched, of every result, in slabs: one allocation
	// for many results.
	var slab []RuleJSON
	slabSize := min(4096, 2*len(urls)*len(subjects))
	if each != nil {
		slabSize = 4 // one result's rules at a time
	}
	for _, u := range urls {
		n := robotstxt.NormalizeURL(u)
		for i, s := range subjects {
			w := &rows[i]
			var dec robotstxt.Decision
			if w.decider != nil {
				dec = w.decider.Decide(n)
			} else {
				q := w.q
				q.URL = n
				dec = w.a.Decide(q)
			}
			// Filled in place, field by field: a result is large, and
			// copying it costs.
			var res *CheckResult
			if each == nil {
				rep.Results = rep.Results[:len(rep.Results)+1]
				res = &rep.Results[len(rep.Results)-1]
			} else {
				*scratch = CheckResult{}
				res = scratch
				slab = slab[:0] // the last result's rules are written
			}
			res.URL, res.Who, res.Agents, res.Dialect = n, s.label, s.agents, dec.Dialect.String()
			res.Allowed, res.Path, res.Line, res.Reason = dec.Allowed, dec.Path, dec.Line(), dec.Reason
			res.Group = CheckGroup{Kind: dec.Group.Kind.String(), Token: dec.Group.Token, Lines: dec.Group.Lines, Reason: dec.Group.Reason}
			res.FetchPolicy = w.fetchPol
			if res.Group.Lines == nil {
				res.Group.Lines = []int{}
			}
			if n != u {
				res.Input = u
			}
			if w.policy != "rules" && dec.Path != "/robots.txt" {
				res.Policy = w.policy
			}
			if s.crawler != nil {
				res.Crawler = s.crawler.Name
			}
			if dec.HasRule() {
				res.Rule = dec.Rule.Text
			}
			if w.crawlDelay != nil {
				cd := *w.crawlDelay
				res.CrawlDelay, res.CrawlDelayLine = &cd, w.delayLine
			}
			if cap(slab)-len(slab) < len(dec.Matches) || slab == nil {
				slab = make([]RuleJSON, 0, max(len(dec.Matches), slabSize))
			}
			at := len(slab)
			for _, m := range dec.Matches {
				slab = append(slab, RuleJSON{Line: m.Line, Allow: m.Allow, Pattern: m.Pattern, Text: m.Text, Implicit: m.Implicit, Lost: m.Lost})
			}
			res.Matches = slab[at:len(slab):len(slab)]
			if dec.Allowed {
				rep.Allowed++
			} else {
				rep.Blocked++
			}
			if each != nil {
				each(res)
			}
		}
	}
	return rep
}
