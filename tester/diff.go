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
	ProbesLeftOut int          `json:"probes_left_out,omitempty"`
	URLs          int          `json:"urls"`
	Crawlers      []string     `json:"crawlers"`
	Changes       []DiffChange `json:"changes"`
}

// DiffChange is one (crawler, URL) whose verdict changes.
type DiffChange struct {
	Crawler string      `json:"crawler"`
	Dialect string      `json:"dialect"`
	URL     string      `json:"url"`
	Old     DiffVerdict `json:"old"`
	New     DiffVerdict `json:"new"`
	order   int         // the subject's index, to list changes in the order of the crawlers
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
	return rep, nil
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
					Old: verdictFor(&da), New: verdictFor(&db), order: i}
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
