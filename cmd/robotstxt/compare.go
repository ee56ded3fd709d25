package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

const compareHelp = `Usage: robotstxt compare [-f FILE | -u URL [--store STORE] [--cached]]
                         [-c CRAWLER]... [-a TOKEN]... [--agents A,B]...
                         [--probe N] [--json | --csv | --markdown] [URL...]

Shows, for each crawler and URL, whether the crawler may fetch the URL as its
own engine reads the file, and marks the cells where the dialects (google,
rfc9309, bing, yandex, baidu, original) disagree, with an explanation below
the table.

  -f FILE       the robots.txt file ("-" for standard input); without -f
                or -u, the example file bundled with robotstxt
  -u URL        instead of -f: fetch the live robots.txt of URL's origin
                now, once (conditionally when the cache holds a copy); each
                crawler and dialect reads the answer with its own fetch
                policy (a 403 allows Google and blocks Baidu; a 503 blocks
                Google and allows Yandex). When
                every engine reads it alike and no rules apply (a 404), there
                is nothing to compare: the output says what applies, and why
  --store STORE  the cache's store, with -u: memory (this run only), a bbolt
                file path, or a redis:// URL (default: robotstxt/cache.db in
                the user's cache directory)
  --cached      with -u: use the cache's copy while it is fresh (up to 24 h)
                instead of fetching now
  -c CRAWLER    a crawler from the table (repeatable), or * for any crawler
                no group names; the default set is *, Googlebot,
                Googlebot-Image, AdsBot-Google, Bingbot, YandexBot,
                Baiduspider, GPTBot, CCBot and every crawler the file names
                (at most 32 of those, each with its user-agent line)
  -a TOKEN      a product token asked about as given (repeatable), with
                Google's semantics
  --agents A,B  one crawler that obeys several tokens at once (repeatable)
  --probe N     without URLs: derive up to N URLs (default 12, at most
                1000), so that more of a long file's rules are probed
  --json        JSON output (see README: "compare --json")
  --csv         CSV output, one row a URL and crawler: url, crawler, dialect,
                verdict, line, rule, disagree, then each dialect's verdict
  --markdown    the same rows as a Markdown table
  URL           absolute URLs or paths; typed URLs are normalised as crawlers
                normalise them (non-ASCII percent-encoded). Without URLs,
                "/" and one URL per rule of the file, in file order, up to
                --probe in all; a note says how many of the rules they probe.

Exit status: 0 once the table is written (where the dialects disagree is
what the table shows, not a failure: the original dialect reads every
wildcard differently), 2 on bad usage or when the file cannot be read.

Examples:
  robotstxt compare
  robotstxt compare -f robots.txt https://example.com/private/a /b.pdf
  robotstxt compare -f robots.txt -c Googlebot -c Baiduspider /search?q=x
  robotstxt compare -f robots.txt -a MyBot /private/a
  robotstxt compare -u https://example.com/ /private/a
  robotstxt compare -f robots.txt --probe 100 -c '*' -c Googlebot
`

//go:embed example.robots.txt
var exampleRobots []byte

// comparison is the result of compare, also its JSON form.
type comparison = tester.Comparison

func runCompare(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("compare")
	file := fs.String("f", "", "robots.txt file")
	jsonOut := fs.Bool("json", false, "JSON output")
	csvOut := fs.Bool("csv", false, "CSV output")
	mdOut := fs.Bool("markdown", false, "Markdown output")
	var crawlerNames, tokens, agentLists stringList
	fs.Var(&crawlerNames, "c", "crawler (repeatable)")
	fs.Var(&tokens, "a", "product token (repeatable)")
	fs.Var(&agentLists, "agents", "comma-separated tokens of one crawler (repeatable)")
	probe := fs.Int("probe", tester.MaxDerivedURLs, "URLs derived from the rules")
	src := addSourceFlags(fs)
	urls, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "compare", compareHelp, args, err)
	}
	if err := outputFlags(*jsonOut, *csvOut, *mdOut); err != nil {
		complain(stderr, "compare", "%v", err)
		return 2
	}
	if err := src.check(fs, *file != "", "-f"); err != nil {
		complain(stderr, "compare", "%v", err)
		return 2
	}
	probeSet := false
	fs.Visit(func(f *flag.Flag) { probeSet = probeSet || f.Name == "probe" })
	switch {
	case *probe < 1 || *probe > tester.MaxProbeURLs:
		complain(stderr, "compare", "--probe %d: give a number of URLs from 1 to %d", *probe, tester.MaxProbeURLs)
		return 2
	case probeSet && len(urls) > 0:
		complain(stderr, "compare", "--probe applies only without URLs (it is how many URLs to derive from the file's rules)")
		return 2
	}
	for _, u := range urls {
		if err := checkURL(u); err != nil {
			complain(stderr, "compare", "%v", err)
			return 2
		}
	}
	f := tester.NewSource("example.robots.txt (bundled)", exampleRobots)
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
	cmp, err := tester.Compare(&tester.CompareRequest{Source: f, URLs: urls, Probe: *probe,
		Subjects: tester.Subjects{Crawlers: crawlerNames, Agents: tokens, AgentSets: agentSets(agentLists)}})
	if err != nil {
		complain(stderr, "compare", "%v", cliError(err, agentLists))
		return 2
	}
	if *csvOut || *mdOut {
		if err := writeReport(stdout, cmp, tester.CompareTable, *csvOut, *mdOut); err != nil {
			complain(stderr, "compare", "%v", err)
			return 2
		}
		return 0
	}
	return writeCompare(stdout, stderr, cmp, *jsonOut)
}

// writeCompare writes the comparison as JSON or as a table, and returns the
// exit status.
func writeCompare(stdout, stderr io.Writer, cmp *comparison, jsonOut bool) int {
	if jsonOut {
		if err := writeJSON(stdout, cmp); err != nil {
			complain(stderr, "compare", "%v", err)
			return 2
		}
		return 0
	}
	writeComparison(stdout, cmp, useColor(stdout))
	return 0
}

func writeComparison(w io.Writer, cmp *comparison, color bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "robots.txt: %s\n", esc(cmp.File))
	for _, n := range cmp.Notes {
		fmt.Fprintf(&b, "note: %s\n", esc(n))
	}
	if cmp.RulesProbed < cmp.Rules {
		// How to probe the rest, in this command's words (the JSON
		// form, the API's too, has rules_probed and rules).
		fmt.Fprintf(&b, "note: --probe N derives up to N URLs (%d now), or give the URLs to compare\n", len(cmp.URLs))
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
	for _, row := range cmp.Rows {
		if row.Crawler == "*" && row.Token == "*" {
			b.WriteString("*: any crawler no group names, in the google dialect.\n")
			break
		}
	}
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
