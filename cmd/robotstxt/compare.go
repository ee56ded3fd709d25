package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

//go:embed example.robots.txt
var exampleRobots []byte

const compareHelp = `Usage: robotstxt compare [-f FILE | -u URL [--store SPEC]] [-c CRAWLER]... [--json] [URL...]

Shows, for each crawler and URL, whether the crawler may fetch the URL as its
own engine reads the file, and marks the cells where the dialects (google,
rfc9309, bing, yandex, original) disagree, with an explanation below the table.

  -f FILE       the robots.txt file ("-" for standard input); without -f
                or -u, the example file bundled with robotstxt
  -u URL        instead of -f: fetch the live robots.txt of URL's origin
                through the cache (Google's fetch policy). A missing (4xx) or
                unreachable (5xx, network error) one has no rules to compare:
                the output says what applies instead, and why
  --store SPEC  the cache's store, with -u: memory (this run only), a bbolt
                file path, or a redis:// URL (default: robotstxt/cache.db in
                the user's cache directory)
  -c CRAWLER    a crawler from the table (repeatable); the default set is
                Googlebot, Googlebot-Image, AdsBot-Google, Bingbot, YandexBot,
                Baiduspider, GPTBot, CCBot and every crawler the file names
  --json        JSON output (see README: "compare --json")
  URL           absolute URLs or paths; typed URLs are normalised as crawlers
                normalise them (non-ASCII percent-encoded). Without URLs, one
                URL is derived from each rule of the file (up to 12).

Examples:
  robotstxt compare
  robotstxt compare -f robots.txt https://example.com/private/a https://example.com/b.pdf
  robotstxt compare -f robots.txt -c Googlebot -c Baiduspider /search?q=x
  robotstxt compare -u https://example.com/ /private/a
`

var defaultCrawlers = []string{"Googlebot", "Googlebot-Image", "AdsBot-Google", "Bingbot", "YandexBot", "Baiduspider", "GPTBot", "CCBot"}

// comparison is the result of compare, also its JSON form.
type comparison struct {
	File          string         `json:"file"`
	Fetch         *fetchInfo     `json:"fetch,omitempty"` // with -u
	URLs          []string       `json:"urls"`
	Notes         []string       `json:"notes,omitempty"`
	Rows          []compareRow   `json:"rows"`
	Disagreements []disagreement `json:"disagreements"`
}

type compareRow struct {
	Crawler string        `json:"crawler"`
	Token   string        `json:"token"`
	Dialect string        `json:"dialect"`
	Known   bool          `json:"known"`
	Cells   []compareCell `json:"cells"`
}

type compareCell struct {
	URL      string                    `json:"url"`
	Allowed  bool                      `json:"allowed"`
	Line     int                       `json:"line"`
	Rule     string                    `json:"rule"`
	Group    string                    `json:"group"`
	Disagree bool                      `json:"disagree"`
	Note     int                       `json:"note,omitempty"`
	Dialects map[string]dialectVerdict `json:"dialects"`
}

type dialectVerdict struct {
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
}

type disagreement struct {
	Note        int    `json:"note"`
	Crawler     string `json:"crawler"`
	URL         string `json:"url"`
	Explanation string `json:"explanation"`
}

func runCompare(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("compare")
	file := fs.String("f", "", "robots.txt file")
	jsonOut := fs.Bool("json", false, "JSON output")
	var crawlerNames stringList
	fs.Var(&crawlerNames, "c", "crawler (repeatable)")
	src := addSourceFlags(fs)
	urls, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "compare", compareHelp, args, err)
	}
	if err := src.check(fs, *file != "", "-f"); err != nil {
		complain(stderr, "compare", "%v", err)
		return 2
	}
	for _, u := range urls {
		if err := checkURL(u); err != nil {
			complain(stderr, "compare", "%v", err)
			return 2
		}
	}
	f := &robotsFile{Name: "example.robots.txt (bundled)", Body: exampleRobots, Robots: robotstxt.Parse(exampleRobots)}
	switch {
	case src.URL != "":
		f, err = src.load(context.Background(), robotstxt.Google, stderr)
	case *file != "":
		f, err = loadRobots(*file, stdin)
	}
	if err != nil {
		complain(stderr, "compare", "%v", err)
		return 2
	}
	r := f.Robots

	crawlers, err := pickCrawlers(r, crawlerNames)
	if err != nil {
		complain(stderr, "compare", "%v", err)
		return 2
	}
	cmp := comparison{File: f.Name, Fetch: f.Fetched, Notes: f.fetchNotes()}
	if f.truncated() {
		cmp.Notes = append(cmp.Notes, fmt.Sprintf("the file is over %d bytes: only the first %d are read, as crawlers read them", robotstxt.DefaultMaxBytes, robotstxt.DefaultMaxBytes))
	}
	if f.policy() != "rules" {
		// No rules: every crawler gets the policy's answer for every
		// URL, and there is no reading of rules to compare.
		cmp.Notes = append(cmp.Notes, "nothing to compare: the dialects read rules differently, but no rules apply")
		cmp.URLs, cmp.Rows, cmp.Disagreements = []string{}, []compareRow{}, []disagreement{}
		return writeCompare(stdout, stderr, &cmp, *jsonOut)
	}
	if len(urls) == 0 {
		urls = deriveURLs(r, 12)
		cmp.Notes = append(cmp.Notes, "URLs derived from the file's rules")
	}
	for _, u := range urls {
		n := robotstxt.NormalizeURL(u)
		if n != u {
			cmp.Notes = append(cmp.Notes, fmt.Sprintf("%s normalised to %s", u, n))
		}
		cmp.URLs = append(cmp.URLs, n)
	}
	compare(r, crawlers, &cmp)
	return writeCompare(stdout, stderr, &cmp, *jsonOut)
}

// writeCompare writes the comparison as JSON or as a table, and returns the
// exit status.
func writeCompare(stdout, stderr io.Writer, cmp *comparison, jsonOut bool) int {
	if jsonOut {
		if err := writeJSON(stdout, cmp); err != nil {
			complain(stderr, "compare", "%v", err)
			return 1
		}
		return 0
	}
	writeComparison(stdout, cmp, useColor(stdout))
	return 0
}

// pickCrawlers returns the crawlers named with -c, or the default set plus
// every crawler the file names.
func pickCrawlers(r *robotstxt.Robots, names []string) ([]robotstxt.Crawler, error) {
	var out []robotstxt.Crawler
	seen := map[string]bool{}
	add := func(c robotstxt.Crawler) {
		if key := strings.ToLower(c.Name); !seen[key] {
			seen[key] = true
			out = append(out, c)
		}
	}
	if len(names) > 0 {
		return lookupCrawlers(names)
	}
	for _, n := range defaultCrawlers {
		c, _ := robotstxt.LookupCrawler(n)
		add(c)
	}
	for _, g := range r.Groups() {
		for _, a := range g.Agents {
			if a.Global || a.Value == "" {
				continue
			}
			if c, ok := robotstxt.LookupCrawler(a.Value); ok {
				add(c)
			} else if c, ok := robotstxt.LookupCrawler(a.Token); ok && a.Token != "" {
				add(c)
			} else if a.Token != "" {
				add(robotstxt.Crawler{Name: a.Token, Token: a.Token, Dialect: robotstxt.Google})
			}
		}
	}
	return out, nil
}

// deriveURLs makes one URL path from each rule of the file ('*' becomes
// "x", a final '$' is dropped), "/" first, at most max.
func deriveURLs(r *robotstxt.Robots, max int) []string {
	urls := []string{"/"}
	seen := map[string]bool{"/": true}
	for _, g := range r.Groups() {
		for _, ru := range g.Rules {
			p := ru.Value
			if p == "" || p[0] != '/' && p[0] != '*' {
				continue
			}
			p = strings.TrimSuffix(p, "$")
			p = strings.ReplaceAll(p, "*", "x")
			if p[0] != '/' {
				p = "/" + p
			}
			if !seen[p] && len(urls) < max {
				seen[p] = true
				urls = append(urls, p)
			}
		}
	}
	return urls
}

func compare(r *robotstxt.Robots, crawlers []robotstxt.Crawler, cmp *comparison) {
	for i := range crawlers {
		c := &crawlers[i]
		_, isKnown := robotstxt.LookupCrawler(c.Name)
		row := compareRow{Crawler: c.Name, Token: c.Token, Dialect: c.Dialect.String(), Known: isKnown}
		for _, u := range cmp.URLs {
			own := r.Decide(robotstxt.Query{URL: u, Crawler: c})
			cell := compareCell{URL: u, Allowed: own.Allowed, Line: own.Line(), Group: own.Group.Reason, Dialects: map[string]dialectVerdict{}}
			if own.HasRule() {
				cell.Rule = own.Rule.Text
			}
			for _, d := range robotstxt.Dialects() {
				dec := r.Decide(robotstxt.Query{URL: u, Crawler: c, Dialect: d})
				v := dialectVerdict{Allowed: dec.Allowed, Line: dec.Line()}
				if dec.HasRule() {
					v.Rule = dec.Rule.Text
				}
				cell.Dialects[d.String()] = v
				if dec.Allowed != own.Allowed {
					cell.Disagree = true
				}
			}
			if cell.Disagree {
				cell.Note = len(cmp.Disagreements) + 1
				cmp.Disagreements = append(cmp.Disagreements, disagreement{
					Note: cell.Note, Crawler: c.Name, URL: u, Explanation: explainDisagreement(cell.Dialects),
				})
			}
			row.Cells = append(row.Cells, cell)
		}
		cmp.Rows = append(cmp.Rows, row)
	}
}

// explainDisagreement says which dialects allow and which block, by which
// lines, and what in the odd dialects' reading makes the difference.
func explainDisagreement(vs map[string]dialectVerdict) string {
	var parts []string
	google := vs[robotstxt.Google.String()].Allowed
	var odd []robotstxt.Dialect
	for _, allowed := range []bool{true, false} {
		var groups []string
		byLine := map[int][]string{}
		var lines []int
		for _, d := range robotstxt.Dialects() {
			v := vs[d.String()]
			if v.Allowed != allowed {
				continue
			}
			if v.Allowed != google {
				odd = append(odd, d)
			}
			if _, ok := byLine[v.Line]; !ok {
				lines = append(lines, v.Line)
			}
			byLine[v.Line] = append(byLine[v.Line], d.String())
		}
		for _, l := range lines {
			who := strings.Join(byLine[l], ", ")
			if l == 0 {
				groups = append(groups, who+" (no rule matches)")
			} else {
				groups = append(groups, fmt.Sprintf("%s (line %d %q)", who, l, vs[byLine[l][0]].Rule))
			}
		}
		if len(groups) == 0 {
			continue
		}
		verb := "allowed by "
		if !allowed {
			verb = "blocked by "
		}
		parts = append(parts, verb+strings.Join(groups, " and "))
	}
	out := strings.Join(parts, "; ")
	for _, d := range odd {
		if hint := dialectHints[d]; hint != "" {
			out += "; " + hint
		}
	}
	return out
}

// dialectHints say what, in a dialect's reading, usually makes it differ.
var dialectHints = map[robotstxt.Dialect]string{
	robotstxt.Original: "the original draft takes the first matching rule in file order and has no wildcards",
	robotstxt.RFC9309:  "RFC 9309 reads keys exactly, needs the colon and compares URLs percent-decoded",
	robotstxt.Yandex:   "Yandex has no index.htm rule",
}

func writeComparison(w io.Writer, cmp *comparison, color bool) {
	paint := func(s, code string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "robots.txt: %s\n", esc(cmp.File))
	for _, n := range cmp.Notes {
		fmt.Fprintf(&b, "note: %s\n", esc(n))
	}
	if cmp.Fetch != nil && cmp.Fetch.Policy != "rules" {
		io.WriteString(w, b.String())
		return
	}
	b.WriteString("\nURLs:\n")
	for i, u := range cmp.URLs {
		fmt.Fprintf(&b, "  %2d  %s\n", i+1, esc(u))
	}
	nameW := len("crawler")
	for _, row := range cmp.Rows {
		nameW = max(nameW, len(row.Crawler))
	}
	const cellW = 11
	fmt.Fprintf(&b, "\n%-*s  %-8s", nameW, "crawler", "dialect")
	for i := range cmp.URLs {
		fmt.Fprintf(&b, " %-*s", cellW, fmt.Sprintf("%d", i+1))
	}
	b.WriteString("\n")
	for _, row := range cmp.Rows {
		fmt.Fprintf(&b, "%-*s  %-8s", nameW, row.Crawler, row.Dialect)
		for _, c := range row.Cells {
			text := "allow"
			code := "32"
			if !c.Allowed {
				text, code = "BLOCK", "31;1"
			}
			if c.Line > 0 {
				text += fmt.Sprintf(":%d", c.Line)
			}
			if c.Disagree {
				text += fmt.Sprintf(" [%d]", c.Note)
			}
			pad := cellW - len(text)
			b.WriteString(" " + paint(text, code) + strings.Repeat(" ", max(pad, 0)))
		}
		b.WriteString("\n")
	}
	b.WriteString("\nallow:N / BLOCK:N: the verdict in the crawler's own dialect and the line that decided it.\n")
	if len(cmp.Disagreements) == 0 {
		b.WriteString("All dialects agree on every cell.\n")
	} else {
		b.WriteString("\nWhere the dialects disagree:\n")
		for _, d := range cmp.Disagreements {
			fmt.Fprintf(&b, "  [%d] %s, %s: %s\n", d.Note, esc(d.Crawler), esc(d.URL), esc(d.Explanation))
		}
	}
	io.WriteString(w, b.String())
}
