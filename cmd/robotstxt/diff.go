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

const diffHelp = `Usage: robotstxt diff [--urls FILE] [-c CRAWLER]... [-d DIALECT] [--json] OLD NEW

Lists every (crawler, URL) whose verdict changes between two versions of a
robots.txt file, with the deciding line on each side.

  OLD, NEW      the two files; one of them may be "-" for standard input
  --urls FILE   the URLs to compare, one a line ("-" for standard input);
                without it, URLs are derived from both files' rules: each
                pattern instantiated ('*' as "x" and as nothing, '$' dropped,
                with and without an extra segment), plus its neighbours (one
                more character, one less, the parent directory), so that no
                changed rule goes unnoticed
  -c CRAWLER    a crawler from the table (repeatable), or * for any crawler
                no group names; the default set is *, Googlebot,
                Googlebot-Image, AdsBot-Google, Bingbot, YandexBot,
                Baiduspider, GPTBot, CCBot and every crawler either file names
  -d DIALECT    google, rfc9309, bing, yandex or original, for every crawler
  --json        JSON output (see README: "diff --json")

Exit status, as diff(1): 0 when no verdict changes, 1 when some do, 2 on
trouble.

Examples:
  robotstxt diff robots.txt robots.new.txt
  robotstxt diff --urls important-urls.txt -c Googlebot robots.txt robots.new.txt
  curl -s https://example.com/robots.txt | robotstxt diff - robots.new.txt
`

// maxDiffURLs bounds the derived URLs.
const maxDiffURLs = 200_000

// diffReport is the result of diff, also its JSON form.
type diffReport struct {
	Old      string       `json:"old"`
	New      string       `json:"new"`
	Derived  bool         `json:"derived"`
	URLs     int          `json:"urls"`
	Crawlers []string     `json:"crawlers"`
	Changes  []diffChange `json:"changes"`
}

type diffChange struct {
	Crawler string      `json:"crawler"`
	Dialect string      `json:"dialect"`
	URL     string      `json:"url"`
	Old     diffVerdict `json:"old"`
	New     diffVerdict `json:"new"`
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
	var crawlerNames stringList
	fs.Var(&crawlerNames, "c", "crawler (repeatable)")
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
	crawlers, err := diffCrawlers(oldF.Robots, newF.Robots, crawlerNames)
	if err != nil {
		return fail("%v", err)
	}
	rep := &diffReport{Old: oldF.Name, New: newF.Name, Changes: []diffChange{}}
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
		urls = probeURLs(maxDiffURLs, oldF.Robots, newF.Robots)
	}
	diff(oldF.Robots, newF.Robots, crawlers, d, urls, rep)
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

// diffCrawlers returns the crawlers named with -c, or the default set plus
// every crawler either file names.
func diffCrawlers(a, b *robotstxt.Robots, names []string) ([]robotstxt.Crawler, error) {
	// "*" stands for every crawler that no group names.
	others := robotstxt.Crawler{Name: "*", Token: probeToken, Dialect: robotstxt.Google}
	if len(names) > 0 {
		var rest []string
		star := false
		for _, n := range names {
			if n == "*" {
				star = true
			} else {
				rest = append(rest, n)
			}
		}
		out, err := lookupCrawlers(rest)
		if star {
			out = append([]robotstxt.Crawler{others}, out...)
		}
		return out, err
	}
	ca, _ := pickCrawlers(a, nil)
	cb, _ := pickCrawlers(b, nil)
	seen := map[string]bool{}
	out := []robotstxt.Crawler{others}
	for _, c := range append(ca, cb...) {
		if k := strings.ToLower(c.Name); !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// probeURLs derives URL paths from the rules of the files: each pattern
// instantiated with '*' as "x" and as nothing and '$' dropped, with and
// without an extra segment, plus its neighbours: one more character, one
// less, and the parent directory. "/" comes first. At most max.
func probeURLs(max int, files ...*robotstxt.Robots) []string {
	urls := []string{"/"}
	seen := map[string]bool{"/": true}
	add := func(p string) {
		if p == "" || len(urls) >= max {
			return
		}
		if p[0] != '/' {
			p = "/" + p
		}
		if !seen[p] {
			seen[p] = true
			urls = append(urls, p)
		}
	}
	for _, r := range files {
		for _, d := range []robotstxt.Dialect{robotstxt.Google, robotstxt.Original} {
			for _, g := range r.GroupsFor(d) {
				for _, ru := range g.Rules {
					if ru.Value == "" {
						continue
					}
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
			}
		}
	}
	return urls
}

func diff(a, b *robotstxt.Robots, crawlers []robotstxt.Crawler, d robotstxt.Dialect, urls []string, rep *diffReport) {
	rep.URLs = len(urls)
	for i := range crawlers {
		c := &crawlers[i]
		rep.Crawlers = append(rep.Crawlers, c.Name)
		for _, u := range urls {
			q := robotstxt.Query{URL: u, Crawler: c, Dialect: d}
			da, db := a.Decide(q), b.Decide(q)
			if da.Allowed == db.Allowed {
				continue
			}
			rep.Changes = append(rep.Changes, diffChange{Crawler: c.Name, Dialect: da.Dialect.String(), URL: u,
				Old: verdictFor(&da), New: verdictFor(&db)})
		}
	}
	sort.SliceStable(rep.Changes, func(i, j int) bool { return rep.Changes[i].URL < rep.Changes[j].URL })
}

func verdictFor(d *robotstxt.Decision) diffVerdict {
	v := diffVerdict{Allowed: d.Allowed, Line: d.Line(), Group: strings.ReplaceAll(d.Group.Reason, probeToken, "the crawler")}
	if d.HasRule() {
		v.Rule = d.Rule.Text
	}
	return v
}

func writeDiff(w io.Writer, rep *diffReport, color bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", esc(rep.Old), esc(rep.New))
	how := "from --urls"
	if rep.Derived {
		how = "derived from both files' rules"
	}
	fmt.Fprintf(&b, "%d URLs (%s) x %d crawlers\n", rep.URLs, how, len(rep.Crawlers))
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
