package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

//go:embed example.robots.txt
var exampleRobots []byte

const compareHelp = `Usage: robotstxt compare [-f FILE | -u URL [--store SPEC]] [-c CRAWLER]... [-a TOKEN]...
                         [--agents A,B]... [--json] [URL...]

Shows, for each crawler and URL, whether the crawler may fetch the URL as its
own engine reads the file, and marks the cells where the dialects (google,
rfc9309, bing, yandex, baidu, original) disagree, with an explanation below
the table.

  -f FILE       the robots.txt file ("-" for standard input); without -f
                or -u, the example file bundled with robotstxt
  -u URL        instead of -f: fetch the live robots.txt of URL's origin
                once, through the cache; each crawler and dialect reads the
                answer with its own fetch policy (a 403 allows Google and
                blocks Baidu; a 503 blocks Google and allows Yandex). When
                every engine reads it alike and no rules apply (a 404), there
                is nothing to compare: the output says what applies, and why
  --store SPEC  the cache's store, with -u: memory (this run only), a bbolt
                file path, or a redis:// URL (default: robotstxt/cache.db in
                the user's cache directory)
  -c CRAWLER    a crawler from the table (repeatable); the default set is
                Googlebot, Googlebot-Image, AdsBot-Google, Bingbot, YandexBot,
                Baiduspider, GPTBot, CCBot and every crawler the file names
                (at most 32 of those, each with its user-agent line)
  -a TOKEN      a product token asked about as given (repeatable), with
                Google's semantics
  --agents A,B  one crawler that obeys several tokens at once (repeatable)
  --json        JSON output (see README: "compare --json")
  URL           absolute URLs or paths; typed URLs are normalised as crawlers
                normalise them (non-ASCII percent-encoded). Without URLs, one
                URL is derived from each rule of the file (up to 12).

Examples:
  robotstxt compare
  robotstxt compare -f robots.txt https://example.com/private/a https://example.com/b.pdf
  robotstxt compare -f robots.txt -c Googlebot -c Baiduspider /search?q=x
  robotstxt compare -f robots.txt -a MyBot /private/a
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
	Crawler string   `json:"crawler"`
	Token   string   `json:"token"`
	Agents  []string `json:"agents,omitempty"` // with -a or --agents: the tokens asked about
	Dialect string   `json:"dialect"`
	Known   bool     `json:"known"`
	// Line is the user-agent line that put the row in the default set,
	// for a crawler the file names; 0 for the others.
	Line  int           `json:"line,omitempty"`
	Cells []compareCell `json:"cells"`
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
	// Policy is set when the dialect's fetch policy, not rules, decided
	// (-u): "allow-all" or "disallow-all".
	Policy string `json:"policy,omitempty"`
}

// disagreement is one footnote: a cause of disagreement between the
// dialects, and every cell it explains.
type disagreement struct {
	Note        int       `json:"note"`
	Explanation string    `json:"explanation"`
	Cells       []cellRef `json:"cells"`
}

// cellRef names a cell of the table: its row's crawler and its URL.
type cellRef struct {
	Crawler string `json:"crawler"`
	URL     string `json:"url"`
}

// maxCompareFileRows bounds the rows compare adds for the crawlers a file
// names, so that a file of thousands of user-agent lines stays a table; a
// note says how many were left out.
const maxCompareFileRows = 32

func runCompare(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("compare")
	file := fs.String("f", "", "robots.txt file")
	jsonOut := fs.Bool("json", false, "JSON output")
	var crawlerNames, tokens, agentLists stringList
	fs.Var(&crawlerNames, "c", "crawler (repeatable)")
	fs.Var(&tokens, "a", "product token (repeatable)")
	fs.Var(&agentLists, "agents", "comma-separated tokens of one crawler (repeatable)")
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
		f, err = src.load(context.Background(), robotstxt.DefaultDialect, stderr)
	case *file != "":
		f, err = loadRobots(*file, stdin)
	}
	if err != nil {
		complain(stderr, "compare", "%v", err)
		return 2
	}
	r := f.Robots

	subjects, left, err := compareSubjects(r, crawlerNames, tokens, agentLists, maxCompareFileRows)
	if err != nil {
		complain(stderr, "compare", "%v", err)
		return 2
	}
	ds := robotstxt.Dialects()
	for i := range subjects {
		ds = append(ds, rowDialect(subjects[i].query("/", robotstxt.DefaultDialect)))
	}
	cmp := comparison{File: f.Name, Fetch: f.Fetched, Notes: f.fetchNotes(ds...)}
	if left > 0 {
		cmp.Notes = append(cmp.Notes, fmt.Sprintf("the file names %d more %s than the table shows (at most %d rows come from the file): pick them with -c or -a", left, plural(left, "crawler"), maxCompareFileRows))
	}
	cmp.Notes = append(cmp.Notes, f.fileNotes()...)
	if f.policy() != "rules" && !f.mixed(ds) {
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
	compare(f, subjects, &cmp)
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

// compareSubject is a row of compare or diff: a crawler, or product tokens
// asked about (-a, --agents), with the user-agent line that named it when
// it comes from the file.
type compareSubject struct {
	checkSubject
	line int
}

// query is the question of the subject about url in dialect d.
func (s *compareSubject) query(url string, d robotstxt.Dialect) robotstxt.Query {
	return robotstxt.Query{URL: url, Crawler: s.crawler, Agents: s.agents, Dialect: d}
}

// compareSubjects returns the rows named with -c, -a and --agents, or, with
// none of them, the default set plus the crawlers the file names, at most
// max of those; left counts the ones left out.
func compareSubjects(r *robotstxt.Robots, names, tokens, agentLists []string, max int) (out []compareSubject, left int, err error) {
	if len(names)+len(tokens)+len(agentLists) > 0 {
		subs, err := checkSubjects(names, tokens, agentLists)
		if err != nil {
			return nil, 0, err
		}
		for _, s := range subs {
			out = append(out, compareSubject{checkSubject: s})
		}
		return out, 0, nil
	}
	crawlers, lines, left := pickCrawlers(max, r)
	for i := range crawlers {
		out = append(out, compareSubject{checkSubject{label: crawlers[i].Name, crawler: &crawlers[i]}, lines[i]})
	}
	return out, left, nil
}

// pickCrawlers returns the default set plus the crawlers the files name,
// at most max of those, each with the user-agent line that names it (0 for
// the default set); left counts the named crawlers left out.
func pickCrawlers(max int, files ...*robotstxt.Robots) (out []robotstxt.Crawler, lines []int, left int) {
	seen := map[string]bool{}
	add := func(c robotstxt.Crawler, line int) {
		if key := strings.ToLower(c.Name); !seen[key] {
			seen[key] = true
			if line > 0 && len(out) >= len(defaultCrawlers)+max {
				left++
				return
			}
			out = append(out, c)
			lines = append(lines, line)
		}
	}
	for _, n := range defaultCrawlers {
		c, _ := robotstxt.LookupCrawler(n)
		add(c, 0)
	}
	for _, r := range files {
		for _, g := range r.Groups() {
			for _, a := range g.Agents {
				if a.Global || a.Value == "" {
					continue
				}
				if c, ok := robotstxt.LookupCrawler(a.Value); ok {
					add(c, a.Line)
				} else if c, ok := robotstxt.LookupCrawler(a.Token); ok && a.Token != "" {
					add(c, a.Line)
				} else if a.Token != "" {
					add(robotstxt.Crawler{Name: a.Token, Token: a.Token, Dialect: robotstxt.Google}, a.Line)
				}
			}
		}
	}
	return out, lines, left
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

// compare fills the table: a row per subject, a cell per URL, each cell as
// the subject's own engine answers (its dialect, and with -u its fetch
// policy), each dialect's answer to mark where they disagree, and one
// footnote per distinct explanation, listing the cells it explains.
func compare(f *robotsFile, subjects []compareSubject, cmp *comparison) {
	notes := map[string]int{} // explanation -> index in cmp.Disagreements
	for i := range subjects {
		s := &subjects[i]
		row := compareRow{Crawler: s.label, Agents: s.agents, Line: s.line}
		if c := s.crawler; c != nil {
			_, isKnown := robotstxt.LookupCrawler(c.Name)
			row.Token, row.Known = c.Token, isKnown
		} else {
			row.Token = strings.Join(s.agents, ",")
		}
		for _, u := range cmp.URLs {
			q := s.query(u, robotstxt.DefaultDialect)
			own := f.answer(rowDialect(q)).Decide(q)
			row.Dialect = own.Dialect.String()
			cell := compareCell{URL: u, Allowed: own.Allowed, Line: own.Line(), Group: own.Group.Reason, Dialects: map[string]dialectVerdict{}}
			if own.HasRule() {
				cell.Rule = own.Rule.Text
			}
			for _, d := range robotstxt.Dialects() {
				a := f.answer(d)
				dec := a.Decide(s.query(u, d))
				v := dialectVerdict{Allowed: dec.Allowed, Line: dec.Line()}
				if a.Policy != fetch.Rules {
					v.Policy = a.Policy.String()
				}
				if dec.HasRule() {
					v.Rule = dec.Rule.Text
				}
				cell.Dialects[d.String()] = v
				if dec.Allowed != own.Allowed {
					cell.Disagree = true
				}
			}
			if cell.Disagree {
				why := explainDisagreement(cell.Dialects)
				k, ok := notes[why]
				if !ok {
					k = len(cmp.Disagreements)
					notes[why] = k
					cmp.Disagreements = append(cmp.Disagreements, disagreement{Note: k + 1, Explanation: why})
				}
				cell.Note = k + 1
				cmp.Disagreements[k].Cells = append(cmp.Disagreements[k].Cells, cellRef{Crawler: s.label, URL: u})
			}
			row.Cells = append(row.Cells, cell)
		}
		if row.Dialect == "" {
			row.Dialect = rowDialect(s.query("/", robotstxt.DefaultDialect)).String()
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
			key := v.Line // a fetch policy's verdicts apart: keys -1, -2
			switch v.Policy {
			case "allow-all":
				key = -1
			case "disallow-all":
				key = -2
			}
			if _, ok := byLine[key]; !ok {
				lines = append(lines, key)
			}
			byLine[key] = append(byLine[key], d.String())
		}
		for _, l := range lines {
			who := strings.Join(byLine[l], ", ")
			if p := vs[byLine[l][0]].Policy; l < 0 {
				groups = append(groups, who+" (fetch policy: "+strings.ReplaceAll(p, "-", " ")+")")
			} else if l == 0 {
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
		if vs[d.String()].Policy != "" {
			continue // its fetch policy decided, not its reading
		}
		if hint := dialectHints[d]; hint != "" {
			out += "; " + hint
		}
	}
	return out
}

// dialectHints say what, in a dialect's reading, usually makes it differ.
var dialectHints = map[robotstxt.Dialect]string{
	robotstxt.Original: "the original draft takes the first matching rule in file order and has no wildcards",
	robotstxt.Baidu:    "Baidu takes the first matching rule in file order",
	robotstxt.RFC9309:  "RFC 9309 reads keys exactly, needs the colon and compares URLs percent-decoded",
	robotstxt.Yandex:   "Yandex has no index.htm rule",
}

func writeComparison(w io.Writer, cmp *comparison, color bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "robots.txt: %s\n", esc(cmp.File))
	for _, n := range cmp.Notes {
		fmt.Fprintf(&b, "note: %s\n", esc(n))
	}
	if cmp.Fetch != nil && len(cmp.Rows) == 0 {
		io.WriteString(w, b.String())
		return
	}
	b.WriteString("\nURLs:\n")
	for i, u := range cmp.URLs {
		fmt.Fprintf(&b, "  %2d  %s\n", i+1, esc(u))
	}
	// The table: every cell's text first, then each column as wide as
	// its widest cell, measured in display width (a footnote marker
	// widens a cell, a wide character takes two columns), the colour
	// added after padding.
	table := [][]string{{"crawler", "dialect"}}
	for i := range cmp.URLs {
		table[0] = append(table[0], fmt.Sprint(i+1))
	}
	codes := [][]string{nil}
	for _, row := range cmp.Rows {
		name := esc(row.Crawler)
		if row.Line > 0 {
			name += fmt.Sprintf(" (line %d)", row.Line)
		}
		cells := []string{name, row.Dialect}
		rowCodes := []string{"", ""}
		for _, c := range row.Cells {
			text, code := "allow", "32"
			if !c.Allowed {
				text, code = "BLOCK", "31;1"
			}
			if c.Line > 0 {
				text += fmt.Sprintf(":%d", c.Line)
			}
			if c.Disagree {
				text += fmt.Sprintf(" [%d]", c.Note)
			}
			cells = append(cells, text)
			rowCodes = append(rowCodes, code)
		}
		table = append(table, cells)
		codes = append(codes, rowCodes)
	}
	widths := make([]int, len(table[0]))
	for _, cells := range table {
		for i, c := range cells {
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	b.WriteString("\n")
	for r, cells := range table {
		var line strings.Builder
		for i, c := range cells {
			if i > 0 {
				line.WriteString("  ")
			}
			text := c
			if codes[r] != nil && codes[r][i] != "" {
				text = paint(color, c, codes[r][i])
			}
			line.WriteString(text)
			if i < len(cells)-1 {
				line.WriteString(strings.Repeat(" ", widths[i]-displayWidth(c)))
			}
		}
		b.WriteString(line.String() + "\n")
	}
	b.WriteString("\nallow:N / BLOCK:N: the verdict in the crawler's own dialect and the line that decided it.\n")
	if len(cmp.Disagreements) == 0 {
		b.WriteString("All dialects agree on every cell.\n")
	} else {
		b.WriteString("\nWhere the dialects disagree (the cells each note explains: crawler and URL number):\n")
		url := map[string]int{}
		for i, u := range cmp.URLs {
			url[u] = i + 1
		}
		for _, d := range cmp.Disagreements {
			fmt.Fprintf(&b, "  [%d] %s\n", d.Note, esc(d.Explanation))
			var cells []string
			for i, c := range d.Cells {
				if i == maxListedCells {
					cells = append(cells, fmt.Sprintf("and %d more", len(d.Cells)-i))
					break
				}
				cells = append(cells, fmt.Sprintf("%s %d", esc(c.Crawler), url[c.URL]))
			}
			fmt.Fprintf(&b, "      %s: %s\n", plural(len(d.Cells), "cell"), strings.Join(cells, ", "))
		}
	}
	io.WriteString(w, b.String())
}

// maxListedCells bounds the cells a footnote lists.
const maxListedCells = 24

// displayWidth is the number of terminal columns s takes: a column per
// rune, two for East Asian wide and fullwidth characters, none for
// combining marks, format characters and ANSI escape sequences.
func displayWidth(s string) int {
	w := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j + 1
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		case isWide(r):
			w += 2
		default:
			w++
		}
	}
	return w
}

// isWide reports whether r takes two terminal columns: the East Asian
// wide and fullwidth blocks, and the emoji planes.
func isWide(r rune) bool {
	return r >= 0x1100 && r <= 0x115f || r >= 0x2e80 && r <= 0x303e || r >= 0x3041 && r <= 0x33ff ||
		r >= 0x3400 && r <= 0x4dbf || r >= 0x4e00 && r <= 0x9fff || r >= 0xa000 && r <= 0xa4cf ||
		r >= 0xac00 && r <= 0xd7a3 || r >= 0xf900 && r <= 0xfaff || r >= 0xfe30 && r <= 0xfe4f ||
		r >= 0xff00 && r <= 0xff60 || r >= 0xffe0 && r <= 0xffe6 || r >= 0x1f300 && r <= 0x1f64f ||
		r >= 0x1f900 && r <= 0x1f9ff || r >= 0x20000 && r <= 0x3fffd
}
