package tester

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// DiffRequest asks which verdicts change between two versions of a
// robots.txt file.
type DiffRequest struct {
	Old, New *Source
	// URLs are the URLs to compare. Nil: probe URLs derived from both
	// files' rules (bounded; the report says how many were left out); an
	// empty list that is not nil asks about no URL.
	URLs []string
	// Subjects are the crawlers compared; a crawler named "*" is any
	// crawler no group names. None: "*", DefaultCrawlers and every
	// crawler either file names (at most MaxFileRows of those).
	Subjects
	// Dialect, when set, is every crawler's dialect.
	Dialect robotstxt.Dialect
}

// Validate reports bad subjects and URLs, as Diff would.
func (req *DiffRequest) Validate() error {
	if _, _, err := diffSubjects(nil, nil, &req.Subjects); err != nil {
		return err
	}
	return checkURLs(req.URLs)
}

// Bounds on the work of diff when it derives the URLs, so that any pair of
// files within the size limit is compared in a few seconds: it asks at
// most maxDiffQuestions (probe URL, reading) pairs, and fewer for large
// files, so that questions times rules stays within maxDiffRuleChecks. A
// reading is a set of crawlers that the same groups of both files apply to
// in the same dialect: they get the same answers, so it is asked once.
const (
	maxDiffQuestions  = 200_000
	maxDiffRuleChecks = 25_000_000
)

// DiffQuestions is how many questions Diff asks at most, when it derives
// the URLs, about two files of n allow and disallow rules in all (as Google
// reads them): fewer for larger files, so that any pair of files within the
// size limit is compared in a few seconds.
func DiffQuestions(n int) int {
	return min(maxDiffQuestions, maxDiffRuleChecks/(n+64))
}

// ruleCount counts the allow and disallow rules of r as Google reads it.
func ruleCount(r *robotstxt.Robots) int {
	n := 0
	for _, g := range r.GroupsFor(robotstxt.Google) {
		n += len(g.Rules)
	}
	return n
}

// DiffReport is the answer to a DiffRequest: every (crawler, URL) whose
// verdict changes. Its JSON form is what "robotstxt diff --json" prints.
type DiffReport struct {
	Old     string   `json:"old"`
	New     string   `json:"new"`
	Derived bool     `json:"derived"`
	Notes   []string `json:"notes,omitempty"`
	// ProbesLeftOut counts the derived URLs not asked about (at least).
	ProbesLeftOut int      `json:"probes_left_out,omitempty"`
	URLs          int      `json:"urls"`
	Crawlers      []string `json:"crawlers"`
	// Summary is what changed in the file, in meaning (Changes).
	Summary *ChangeSummary `json:"summary"`
	// ByCrawler counts the verdicts that change for each crawler that
	// has any, in the order of Crawlers.
	ByCrawler []DiffCrawler `json:"by_crawler"`
	// Causes group the changes by the edit that made them: the rule that
	// decided before and the one that decides now, most changes first.
	Causes  []DiffCause  `json:"causes"`
	Changes []DiffChange `json:"changes"`
}

// DiffCrawler counts the verdicts of one crawler that change.
type DiffCrawler struct {
	Crawler string `json:"crawler"`
	Blocked int    `json:"blocked"` // allowed before, blocked now
	Allowed int    `json:"allowed"` // blocked before, allowed now
}

// DiffCause is the verdict changes one edit of the file made: every
// change whose deciding rule was Old in the old file and is New in the
// new one (nil: no rule decided, or a fetch policy).
type DiffCause struct {
	// Kind says what the edit was: "added" (New is a rule the new file
	// added), "removed" (Old is a rule the new file dropped), "replaced"
	// (both), or "groups" (both rules are in both files: the groups that
	// apply changed, by a user-agent line added or removed).
	Kind string    `json:"kind"`
	Old  *RuleLine `json:"old,omitempty"`
	New  *RuleLine `json:"new,omitempty"`
	// Crawlers are those whose verdicts it changed, in the order of
	// DiffReport.Crawlers.
	Crawlers []string `json:"crawlers"`
	Blocked  int      `json:"blocked"` // changes to blocked
	Allowed  int      `json:"allowed"` // changes to allowed
	// URLs counts the URLs it changed; Examples are the first few.
	URLs     int      `json:"urls"`
	Examples []string `json:"examples"`
	// GroupsRemoved and GroupsAdded are the groups of the summary
	// (their first user-agent lines, old and new) that these crawlers
	// read before and no longer, or read now and did not: the edit that
	// moved them to other groups.
	GroupsRemoved []int `json:"groups_removed,omitempty"`
	GroupsAdded   []int `json:"groups_added,omitempty"`
}

// maxCauseExamples bounds DiffCause.Examples.
const maxCauseExamples = 3

// DiffChange is one (crawler, URL) whose verdict changes.
type DiffChange struct {
	Crawler string      `json:"crawler"`
	Dialect string      `json:"dialect"`
	URL     string      `json:"url"`
	Old     DiffVerdict `json:"old"`
	New     DiffVerdict `json:"new"`
	order   int         // the subject's index, to list changes in the order of the crawlers
	// The user-agent lines that chose the groups on each side.
	oldAgents, newAgents []int
}

// DiffVerdict is one side of a change: the verdict and what decided it.
type DiffVerdict struct {
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Group   string `json:"group"`
}

// Diff answers req. Its error, for bad input, is an *Error naming the field
// at fault.
func Diff(req *DiffRequest) (*DiffReport, error) {
	if req.Old == nil || req.New == nil {
		return nil, &Error{Field: "robots", Msg: "diff needs two robots.txt files, old and new"}
	}
	a, b := req.Old.Robots, req.New.Robots
	subjects, left, err := diffSubjects(a, b, &req.Subjects)
	if err != nil {
		return nil, err
	}
	if err := checkURLs(req.URLs); err != nil {
		return nil, err
	}
	rep := &DiffReport{Old: req.Old.Name, New: req.New.Name, Changes: []DiffChange{}}
	if left > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the files name %d more %s than are compared (at most %d come from the files): pick them with -c or -a", left, plural(left, "crawler"), MaxFileRows))
	}
	classes, why := diffClasses(a, b, subjects, req.Dialect)
	var urls []string
	if req.URLs != nil {
		urls = make([]string, len(req.URLs))
		for i, u := range req.URLs {
			urls[i] = robotstxt.NormalizeURL(u)
		}
	} else {
		rep.Derived = true
		questions := DiffQuestions(ruleCount(a) + ruleCount(b))
		var all int
		urls, all = probeURLs(max(questions/len(classes), 1), a, b)
		if all > len(urls) {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%d of %d or more probe URLs are asked about (at most %d questions for these files, and %d different %s): those from the rules that differ between the files come first; give --urls to choose",
				len(urls), all, questions, len(classes), plural(len(classes), "reading")))
			rep.ProbesLeftOut = all - len(urls)
		}
	}
	diff(a, b, subjects, classes, why, req.Dialect, urls, rep)
	rep.Summary = Changes(a, b)
	summarise(rep, groupsByAgentLine(a, rep.Summary.GroupsRemoved), groupsByAgentLine(b, rep.Summary.GroupsAdded))
	return rep, nil
}

// groupsByAgentLine maps each user-agent line of the groups of r that
// changes lists (by their first user-agent line) to that first line.
func groupsByAgentLine(r *robotstxt.Robots, changes []GroupChange) map[int]int {
	first := map[int]bool{}
	for _, g := range changes {
		first[g.Line] = true
	}
	out := map[int]int{}
	if len(first) == 0 {
		return out
	}
	for _, g := range r.Groups() {
		if first[g.StartLine] {
			for _, a := range g.Agents {
				out[a.Line] = g.StartLine
			}
		}
	}
	return out
}

// summarise fills rep.ByCrawler and rep.Causes from rep.Changes and
// rep.Summary. removedGroups and addedGroups map the user-agent lines of
// the groups removed (old file) and added (new file) to their first lines.
func summarise(rep *DiffReport, removedGroups, addedGroups map[int]int) {
	rep.ByCrawler, rep.Causes = []DiffCrawler{}, []DiffCause{}
	byCrawler := map[string]*DiffCrawler{}
	for _, name := range rep.Crawlers {
		byCrawler[name] = &DiffCrawler{Crawler: name}
	}
	// The lines of the rules the edit added (new file) and removed (old
	// file), from the summary (bounded: past its lists, a cause's kind
	// is only as good as what they hold).
	added, removed := map[int]bool{}, map[int]bool{}
	for _, r := range rep.Summary.RulesAdded {
		added[r.Line] = true
	}
	for _, g := range rep.Summary.GroupsAdded {
		for _, r := range g.Rules {
			added[r.Line] = true
		}
	}
	for _, r := range rep.Summary.RulesRemoved {
		removed[r.Line] = true
	}
	for _, g := range rep.Summary.GroupsRemoved {
		for _, r := range g.Rules {
			removed[r.Line] = true
		}
	}
	type key struct{ old, new int }
	index := map[key]int{}
	seenURL := map[key]map[string]bool{}
	seenCrawler := map[key]map[string]bool{}
	for _, c := range rep.Changes {
		if bc := byCrawler[c.Crawler]; bc != nil {
			if c.New.Allowed {
				bc.Allowed++
			} else {
				bc.Blocked++
			}
		}
		k := key{c.Old.Line, c.New.Line}
		i, ok := index[k]
		if !ok {
			i = len(rep.Causes)
			index[k] = i
			cause := DiffCause{Crawlers: []string{}, Examples: []string{}}
			if c.Old.Line > 0 {
				cause.Old = &RuleLine{Line: c.Old.Line, Rule: strings.TrimSpace(c.Old.Rule)}
			}
			if c.New.Line > 0 {
				cause.New = &RuleLine{Line: c.New.Line, Rule: strings.TrimSpace(c.New.Rule)}
			}
			switch a, r := c.New.Line > 0 && added[c.New.Line], c.Old.Line > 0 && removed[c.Old.Line]; {
			case a && r:
				cause.Kind = "replaced"
			case a:
				cause.Kind = "added"
			case r:
				cause.Kind = "removed"
			default:
				cause.Kind = "groups"
			}
			rep.Causes = append(rep.Causes, cause)
			seenURL[k], seenCrawler[k] = map[string]bool{}, map[string]bool{}
		}
		cause := &rep.Causes[i]
		if c.New.Allowed {
			cause.Allowed++
		} else {
			cause.Blocked++
		}
		if !seenURL[k][c.URL] {
			seenURL[k][c.URL] = true
			cause.URLs++
			if len(cause.Examples) < maxCauseExamples {
				cause.Examples = append(cause.Examples, c.URL)
			}
		}
		seenCrawler[k][c.Crawler] = true
		for _, l := range c.oldAgents {
			if g, ok := removedGroups[l]; ok && !slices.Contains(cause.GroupsRemoved, g) {
				cause.GroupsRemoved = append(cause.GroupsRemoved, g)
			}
		}
		for _, l := range c.newAgents {
			if g, ok := addedGroups[l]; ok && !slices.Contains(cause.GroupsAdded, g) {
				cause.GroupsAdded = append(cause.GroupsAdded, g)
			}
		}
	}
	for i := range rep.Causes {
		k := key{}
		if o := rep.Causes[i].Old; o != nil {
			k.old = o.Line
		}
		if n := rep.Causes[i].New; n != nil {
			k.new = n.Line
		}
		for _, name := range rep.Crawlers {
			if seenCrawler[k][name] {
				rep.Causes[i].Crawlers = append(rep.Causes[i].Crawlers, name)
			}
		}
	}
	sort.SliceStable(rep.Causes, func(i, j int) bool {
		return rep.Causes[i].Allowed+rep.Causes[i].Blocked > rep.Causes[j].Allowed+rep.Causes[j].Blocked
	})
	for _, name := range rep.Crawlers {
		if bc := byCrawler[name]; bc.Allowed+bc.Blocked > 0 {
			rep.ByCrawler = append(rep.ByCrawler, *bc)
			bc.Allowed, bc.Blocked = 0, 0 // a name listed twice counts once
		}
	}
}

// diffSubjects returns the rows named in subs (where the crawler "*" is
// any crawler no group names), or the default set: "*", the compare set
// and the crawlers either file names, at most MaxFileRows of those; left
// counts the ones left out.
func diffSubjects(a, b *robotstxt.Robots, subs *Subjects) (out []subject, left int, err error) {
	if !subs.empty() {
		out, err := subs.resolveWithStar()
		return out, 0, err
	}
	if a == nil || b == nil {
		return nil, 0, nil
	}
	crawlers, lines, left := pickCrawlers(MaxFileRows, a, b)
	out = []subject{starSubject()}
	for i := range crawlers {
		out = append(out, subject{label: crawlers[i].Name, crawler: &crawlers[i], line: lines[i]})
	}
	return out, left, nil
}

// probeToken is a product token no file names: asking about it gives the
// answer of the '*' group.
const probeToken = "robotstxt-lint-probe"

// starSubject is the row "*": any crawler no group names, asked about as
// probeToken, in the google dialect.
func starSubject() subject {
	others := robotstxt.Crawler{Name: "*", Token: probeToken, Dialect: robotstxt.Google}
	return subject{label: "*", crawler: &others}
}

// resolveWithStar resolves subs, where the crawler "*" (once, first) is
// any crawler no group names.
func (subs *Subjects) resolveWithStar() (out []subject, err error) {
	rest := *subs
	rest.Crawlers = nil
	for _, n := range subs.Crawlers {
		if n != "*" {
			rest.Crawlers = append(rest.Crawlers, n)
		} else if len(out) == 0 {
			out = append(out, starSubject())
		}
	}
	if !rest.empty() {
		more, err := rest.resolve()
		if err != nil {
			if e, ok := err.(*Error); ok && e.Field == "crawlers" {
				e.Index = slices.Index(subs.Crawlers, e.Value)
			}
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// diffClasses groups the subjects by reading: the groups of each file
// that apply to them and the dialect. Subjects of one reading get the same
// answer for every URL, so diff asks once per reading.
// It also returns, for each subject, why each file's groups apply to it.
func diffClasses(a, b *robotstxt.Robots, subjects []subject, d robotstxt.Dialect) (classes [][]int, why [][2]string) {
	index := map[string]int{}
	for i := range subjects {
		q := subjects[i].query("/", d)
		da, db := a.Decide(q), b.Decide(q)
		why = append(why, [2]string{groupReason(&da), groupReason(&db)})
		key := fmt.Sprint(da.Dialect, da.Group.Kind, da.Group.Lines, db.Group.Kind, db.Group.Lines)
		if subjects[i].crawler != nil && subjects[i].crawler.IgnoresGlobal {
			key += " ignores *"
		}
		k, ok := index[key]
		if !ok {
			k = len(classes)
			index[key] = k
			classes = append(classes, nil)
		}
		classes[k] = append(classes[k], i)
	}
	return classes, why
}

// probeURLs derives URL paths from the rules of the files: each pattern
// instantiated with '*' as "x" and as nothing and '$' dropped, with and
// without an extra segment, plus its neighbours: one more character, one
// less, and the parent directory. "/" comes first, then the probes of the
// rules that are not in every file (the edit), then the others. It returns
// at most max, and how many there are in all (counted up to 16 times max).
func probeURLs(max int, files ...*robotstxt.Robots) (urls []string, all int) {
	type ruleKey struct {
		allow bool
		value string
	}
	dialects := []robotstxt.Dialect{robotstxt.Google, robotstxt.Original}
	// How many files hold each rule (as Google reads them; a rule is
	// counted once per file).
	holders := map[ruleKey]int{}
	for _, r := range files {
		inFile := map[ruleKey]bool{}
		for _, g := range r.GroupsFor(robotstxt.Google) {
			for _, ru := range g.Rules {
				k := ruleKey{ru.Allow, ru.Value}
				if !inFile[k] {
					inFile[k] = true
					holders[k]++
				}
			}
		}
	}
	urls = []string{"/"}
	seen := map[string]bool{"/": true}
	limit := 16 * max
	add := func(p string) {
		if p == "" || len(seen) >= limit {
			return
		}
		if p[0] != '/' {
			p = "/" + p
		}
		if !seen[p] {
			seen[p] = true
			if len(urls) < max {
				urls = append(urls, p)
			}
		}
	}
	for _, changed := range []bool{true, false} {
		for _, r := range files {
			for _, d := range dialects {
				for _, g := range r.GroupsFor(d) {
					for _, ru := range g.Rules {
						if ru.Value == "" || (holders[ruleKey{ru.Allow, ru.Value}] < len(files)) != changed {
							continue
						}
						probeRule(ru, add)
						if len(seen) >= limit {
							return urls, len(seen)
						}
					}
				}
			}
		}
	}
	return urls, len(seen)
}

// probeRule gives add the probe URLs of one rule.
func probeRule(ru robotstxt.Rule, add func(string)) {
	for _, p := range []string{ru.Pattern, robotstxt.EscapePattern(ru.Value)} {
		p = strings.TrimSuffix(p, "$")
		for _, star := range []string{"x", ""} {
			b := strings.ReplaceAll(p, "*", star)
			add(b)
			add(b + "x")
			add(strings.TrimSuffix(b, "/") + "/x")
			if len(b) > 1 {
				add(b[:len(b)-1])
			}
			if i := strings.LastIndexByte(strings.TrimSuffix(b, "/"), '/'); i >= 0 {
				add(b[:i+1])
				if i > 0 {
					add(b[:i])
				}
			}
		}
	}
}

// diff asks, for each reading (see diffClasses) and URL, both files, and
// records a change for every subject of a reading whose verdict changes.
// why holds each subject's group reasons in a and b (see diffClasses).
func diff(a, b *robotstxt.Robots, subjects []subject, classes [][]int, why [][2]string, d robotstxt.Dialect, urls []string, rep *DiffReport) {
	rep.URLs = len(urls)
	for _, s := range subjects {
		rep.Crawlers = append(rep.Crawlers, s.label)
	}
	for _, class := range classes {
		first := &subjects[class[0]]
		for _, u := range urls {
			q := first.query(u, d)
			da, db := a.Decide(q), b.Decide(q)
			if da.Allowed == db.Allowed {
				continue
			}
			for _, i := range class {
				c := DiffChange{Crawler: subjects[i].label, Dialect: da.Dialect.String(), URL: u,
					Old: verdictFor(&da), New: verdictFor(&db), order: i, oldAgents: da.Group.Lines, newAgents: db.Group.Lines}
				c.Old.Group, c.New.Group = why[i][0], why[i][1]
				rep.Changes = append(rep.Changes, c)
			}
		}
	}
	sort.SliceStable(rep.Changes, func(i, j int) bool {
		ci, cj := &rep.Changes[i], &rep.Changes[j]
		if ci.URL != cj.URL {
			return ci.URL < cj.URL
		}
		return ci.order < cj.order
	})
}

func verdictFor(d *robotstxt.Decision) DiffVerdict {
	v := DiffVerdict{Allowed: d.Allowed, Line: d.Line(), Group: groupReason(d)}
	if d.HasRule() {
		v.Rule = d.Rule.Text
	}
	return v
}

// groupReason says why the decision's groups apply, "*" standing for "the
// crawler".
func groupReason(d *robotstxt.Decision) string {
	return strings.ReplaceAll(d.Group.Reason, probeToken, "the crawler")
}
