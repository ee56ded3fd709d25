package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

const diffHelp = `Usage: robotstxt diff [--urls FILE] [-c CRAWLER]... [-a TOKEN]... [--agents A,B]...
                      [-d DIALECT] [--json] OLD NEW

Lists every (crawler, URL) whose verdict changes between two versions of a
robots.txt file, with the deciding line on each side.

  OLD, NEW      the two files; one of them may be "-" for standard input
  --urls FILE   the URLs to compare, one a line ("-" for standard input);
                without it, URLs are derived from both files' rules: each
                pattern instantiated ('*' as "x" and as nothing, '$' dropped,
                with and without an extra segment), plus its neighbours (one
                more character, one less, the parent directory), so that no
                changed rule goes unnoticed; for large files at most a
                share of them, those of the rules that differ first (a note
                says how many were left out)
  -c CRAWLER    a crawler from the table (repeatable), or * for any crawler
                no group names; the default set is *, Googlebot,
                Googlebot-Image, AdsBot-Google, Bingbot, YandexBot,
                Baiduspider, GPTBot, CCBot and every crawler either file
                names (at most 32 of those)
  -a TOKEN      a product token asked about as given (repeatable)
  --agents A,B  one crawler that obeys several tokens at once (repeatable)
  -d DIALECT    google, rfc9309, bing, yandex, baidu or original, for every crawler
  --json        JSON output (see README: "diff --json")

Exit status, as diff(1): 0 when no verdict changes, 1 when some do, 2 on
trouble.

Examples:
  robotstxt diff robots.txt robots.new.txt
  robotstxt diff --urls important-urls.txt -c Googlebot robots.txt robots.new.txt
  robotstxt diff -a MyBot robots.txt robots.new.txt
  curl -s https://example.com/robots.txt | robotstxt diff - robots.new.txt
`

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

// diffQuestions is how many questions diff asks about files of n rules in
// all.
func diffQuestions(n int) int {
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

// diffReport is the result of diff, also its JSON form.
type diffReport struct {
	Old     string   `json:"old"`
	New     string   `json:"new"`
	Derived bool     `json:"derived"`
	Notes   []string `json:"notes,omitempty"`
	// ProbesLeftOut counts the derived URLs not asked about (at least).
	ProbesLeftOut int          `json:"probes_left_out,omitempty"`
	URLs          int          `json:"urls"`
	Crawlers      []string     `json:"crawlers"`
	Changes       []diffChange `json:"changes"`
}

type diffChange struct {
	Crawler string      `json:"crawler"`
	Dialect string      `json:"dialect"`
	URL     string      `json:"url"`
	Old     diffVerdict `json:"old"`
	New     diffVerdict `json:"new"`
	order   int         // the subject's index, to list changes in the order of the crawlers
}

type diffVerdict struct {
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Group   string `json:"group"`
}

func runDiff(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("diff")
	urlsFile := fs.String("urls", "", "URL list")
	dialect := fs.String("d", "", "dialect")
	jsonOut := fs.Bool("json", false, "JSON output")
	var crawlerNames, tokens, agentLists stringList
	fs.Var(&crawlerNames, "c", "crawler (repeatable)")
	fs.Var(&tokens, "a", "product token (repeatable)")
	fs.Var(&agentLists, "agents", "comma-separated tokens of one crawler (repeatable)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "diff", diffHelp, args, err)
	}
	fail := func(format string, a ...any) int {
		complain(stderr, "diff", format, a...)
		return 2
	}
	if len(files) != 2 {
		return fail("want two files, OLD and NEW, got %d", len(files))
	}
	stdins := 0
	for _, f := range append(files, *urlsFile) {
		if f == "-" {
			stdins++
		}
	}
	if stdins > 1 {
		return fail("only one of OLD, NEW and --urls can be - (standard input)")
	}
	d, err := parseDialectFlag(*dialect)
	if err != nil {
		return fail("%v", err)
	}
	oldF, err := loadRobots(files[0], stdin)
	if err != nil {
		return fail("%v", err)
	}
	newF, err := loadRobots(files[1], stdin)
	if err != nil {
		return fail("%v", err)
	}
	subjects, left, err := diffSubjects(oldF.Robots, newF.Robots, crawlerNames, tokens, agentLists)
	if err != nil {
		return fail("%v", err)
	}
	rep := &diffReport{Old: oldF.Name, New: newF.Name, Changes: []diffChange{}}
	if left > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the files name %d more %s than are compared (at most %d come from the files): pick them with -c or -a", left, plural(left, "crawler"), maxCompareFileRows))
	}
	classes, why := diffClasses(oldF.Robots, newF.Robots, subjects, d)
	var urls []string
	if *urlsFile != "" {
		var r io.Reader = stdin
		name := "standard input"
		if *urlsFile != "-" {
			f, err := openFile(*urlsFile)
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					return fail("%s: no such file", *urlsFile)
				}
				if errors.Is(err, errIsDir) {
					return fail("%s: is a directory, not a list of URLs", *urlsFile)
				}
				return fail("%v", err)
			}
			defer f.Close()
			r, name = f, *urlsFile
		}
		urls, err = readURLList(r, name)
		if err != nil {
			return fail("%v", err)
		}
		for i, u := range urls {
			if err := checkURL(u); err != nil {
				return fail("%s: %v", name, err)
			}
			urls[i] = robotstxt.NormalizeURL(u)
		}
	} else {
		rep.Derived = true
		questions := diffQuestions(ruleCount(oldF.Robots) + ruleCount(newF.Robots))
		var all int
		urls, all = probeURLs(max(questions/len(classes), 1), oldF.Robots, newF.Robots)
		if all > len(urls) {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%d of %d or more probe URLs are asked about (at most %d questions for these files, and %d different %s): those from the rules that differ between the files come first; give --urls to choose",
				len(urls), all, questions, len(classes), plural(len(classes), "reading")))
			rep.ProbesLeftOut = all - len(urls)
		}
	}
	diff(oldF.Robots, newF.Robots, subjects, classes, why, d, urls, rep)
	if *jsonOut {
		if err := writeJSON(stdout, rep); err != nil {
			return fail("%v", err)
		}
	} else {
		writeDiff(stdout, rep, useColor(stdout))
	}
	if len(rep.Changes) > 0 {
		return 1
	}
	return 0
}

// diffSubjects returns the rows named with -c (where "*" is any crawler
// no group names), -a and --agents, or the default set: "*", the compare
// set and the crawlers either file names, at most maxCompareFileRows of
// those; left counts the ones left out.
func diffSubjects(a, b *robotstxt.Robots, names, tokens, agentLists []string) (out []compareSubject, left int, err error) {
	others := robotstxt.Crawler{Name: "*", Token: probeToken, Dialect: robotstxt.Google}
	star := compareSubject{checkSubject: checkSubject{label: "*", crawler: &others}}
	if len(names)+len(tokens)+len(agentLists) > 0 {
		var rest []string
		for _, n := range names {
			if n != "*" {
				rest = append(rest, n)
			} else if len(out) == 0 {
				out = append(out, star)
			}
		}
		if len(rest)+len(tokens)+len(agentLists) > 0 {
			subs, err := checkSubjects(rest, tokens, agentLists)
			if err != nil {
				return nil, 0, err
			}
			for _, s := range subs {
				out = append(out, compareSubject{checkSubject: s})
			}
		}
		return out, 0, nil
	}
	crawlers, lines, left := pickCrawlers(maxCompareFileRows, a, b)
	out = []compareSubject{star}
	for i := range crawlers {
		out = append(out, compareSubject{checkSubject{label: crawlers[i].Name, crawler: &crawlers[i]}, lines[i]})
	}
	return out, left, nil
}

// diffClasses groups the subjects by reading: the groups of each file
// that apply to them and the dialect. Subjects of one reading get the same
// answer for every URL, so diff asks once per reading.
// It also returns, for each subject, why each file's groups apply to it.
func diffClasses(a, b *robotstxt.Robots, subjects []compareSubject, d robotstxt.Dialect) (classes [][]int, why [][2]string) {
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
func diff(a, b *robotstxt.Robots, subjects []compareSubject, classes [][]int, why [][2]string, d robotstxt.Dialect, urls []string, rep *diffReport) {
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
				c := diffChange{Crawler: subjects[i].label, Dialect: da.Dialect.String(), URL: u,
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

func verdictFor(d *robotstxt.Decision) diffVerdict {
	v := diffVerdict{Allowed: d.Allowed, Line: d.Line(), Group: groupReason(d)}
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

func writeDiff(w io.Writer, rep *diffReport, color bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", esc(rep.Old), esc(rep.New))
	how := "from --urls"
	if rep.Derived {
		how = "derived from both files' rules"
	}
	fmt.Fprintf(&b, "%d %s (%s) x %d %s\n", rep.URLs, plural(rep.URLs, "URL"), how, len(rep.Crawlers), plural(len(rep.Crawlers), "crawler"))
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note: %s\n", esc(n))
	}
	if len(rep.Changes) == 0 {
		b.WriteString("\nNo verdict changes.\n")
		io.WriteString(w, b.String())
		return
	}
	side := func(v diffVerdict) string {
		verdict := paint(color, "allowed", "32")
		if !v.Allowed {
			verdict = paint(color, "BLOCKED", "31;1")
		}
		if v.Line == 0 {
			return verdict + "  (no rule matches; " + esc(v.Group) + ")"
		}
		return fmt.Sprintf("%s  line %d: %s", verdict, v.Line, esc(strings.TrimSpace(v.Rule)))
	}
	last := ""
	for _, c := range rep.Changes {
		if c.URL != last {
			last = c.URL
			fmt.Fprintf(&b, "\n%s\n", esc(c.URL))
		}
		fmt.Fprintf(&b, "  %s (%s)\n    - %s\n    + %s\n", esc(c.Crawler), c.Dialect, side(c.Old), side(c.New))
	}
	fmt.Fprintf(&b, "\n%d %s changed\n", len(rep.Changes), plural(len(rep.Changes), "verdict"))
	io.WriteString(w, b.String())
}
