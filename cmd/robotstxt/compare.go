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
own engine reads the file, and marks the cells where the dialects crawlers
use (google, rfc9309, bing, yandex, baidu) disagree, with an explanation
below the table. A table wider than 80 columns is cut into blocks of URLs,
each with the crawlers' column.

  -f FILE       the robots.txt file ("-" for standard input); without -f
                or -u, the example file bundled with robotstxt
  -u URL        instead of -f: fetch the live robots.txt of URL's origin
                now, once (conditionally when the cache holds a copy); each
                crawler and dialect reads the answer with its own fetch
                policy (a 403 allows Google and blocks Baidu; a 503 blocks
                Google and allows Yandex). When
                every engine reads it alike and no rules apply (a 404), there
                is nothing to compare: the output says what applies, and why
  --store STORE
                the cache's store, with -u: memory (this run only), a bbolt
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
  --original    compare the original dialect too (the strict 1996 draft,
                which no crawler reads by; it reads every * and $ as a
                literal character); --json's cells hold its verdicts
                either way
  --json        JSON output (see docs/cli.md: "compare --json")
  --csv         CSV output, one row a URL and crawler: url, crawler, dialect,
                verdict, line, rule, disagree, then each dialect's verdict
  --markdown    the same rows as a Markdown table
  URL           absolute URLs or paths; typed URLs are normalised as crawlers
                normalise them (non-ASCII percent-encoded). Without URLs,
                "/" and one URL per rule of the file, in file order, up to
                --probe in all; a note says how many of the rules they probe.

Exit status: 0 once the table is written (where the dialects disagree is
what the table shows, not a failure), 2 on bad usage or when the file
cannot be read.

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
	original := fs.Bool("original", false, "compare the original dialect too")
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
	cmp, err := tester.Compare(&tester.CompareRequest{Source: f, URLs: urls, Probe: *probe, Dialects: tester.Dialects(*original),
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
	b.WriteString(wrapIndent(esc(cmp.File), termWidth, "robots.txt: ", "    "))
	for _, n := range cmp.Notes {
		b.WriteString(wrapIndent(esc(n), termWidth, "note: ", "      "))
	}
	if cmp.RulesProbed < cmp.Rules {
		// How to probe the rest, in this command's words (the JSON
		// form, the API's too, has rules_probed and rules).
		b.WriteString(wrapIndent(fmt.Sprintf("--probe N derives up to N URLs (%d now), or give the URLs to compare", len(cmp.URLs)), termWidth, "note: ", "      "))
	}
	if cmp.Fetch != nil && len(cmp.Rows) == 0 {
		io.WriteString(w, b.String())
		return
	}
	b.WriteString("\nURLs:\n")
	for i, u := range cmp.URLs {
		first := fmt.Sprintf("  %2d  ", i+1)
		b.WriteString(wrapIndent(esc(u), termWidth, first, strings.Repeat(" ", len(first))))
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
		name := cutDisplay(esc(row.Crawler), maxLabelWidth)
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
	// The URL columns in blocks that fit termWidth, each block with the
	// crawler and dialect columns: crawlers are the rows because there
	// are few of them and their names are long; URLs, up to --probe of
	// them, are the columns that wrap.
	for _, block := range urlBlocks(widths) {
		start, end := block[0], block[1]
		b.WriteString("\n")
		for r, cells := range table {
			var line strings.Builder
			for _, i := range append([]int{0, 1}, seq(start, end)...) {
				c := cells[i]
				if i > 0 {
					line.WriteString("  ")
				}
				text := c
				if codes[r] != nil && codes[r][i] != "" {
					text = paint(color, c, codes[r][i])
				}
				line.WriteString(text)
				if i < end-1 {
					line.WriteString(strings.Repeat(" ", widths[i]-displayWidth(c)))
				}
			}
			b.WriteString(line.String() + "\n")
		}
	}
	b.WriteString("\n" + wrapIndent("allow:N / BLOCK:N: the crawler's own dialect's verdict, N the deciding line.", termWidth, "", ""))
	for _, row := range cmp.Rows {
		if row.Crawler == "*" && row.Token == "*" {
			b.WriteString("*: any crawler no group names, in the google dialect.\n")
			break
		}
	}
	if len(cmp.Disagreements) == 0 {
		b.WriteString("All dialects agree on every cell.\n")
	} else {
		b.WriteString("\n" + wrapIndent("Where the dialects disagree (each note's cells: crawler and URL number):", termWidth, "", ""))
		url := map[string]int{}
		for i, u := range cmp.URLs {
			url[u] = i + 1
		}
		for _, d := range cmp.Disagreements {
			b.WriteString(wrapIndent(esc(d.Explanation), termWidth, fmt.Sprintf("  [%d] ", d.Note), "      "))
			var cells []string
			for i, c := range d.Cells {
				if i == maxListedCells {
					cells = append(cells, fmt.Sprintf("and %d more", len(d.Cells)-i))
					break
				}
				cells = append(cells, fmt.Sprintf("%s %d", esc(c.Crawler), url[c.URL]))
			}
			b.WriteString(wrapIndent(plural(len(d.Cells), "cell")+": "+strings.Join(cells, ", "), termWidth, "      ", "        "))
		}
	}
	io.WriteString(w, b.String())
}

// urlBlocks splits the URL columns of the table (from the third column of
// widths on) into blocks [start, end) that fit termWidth with the first
// two columns: as few blocks as the widest columns allow, of about as
// many columns each, so that the last block is not a stub.
func urlBlocks(widths []int) [][2]int {
	fixed := widths[0] + 2 + widths[1]
	fits := func(start, end int) bool {
		used := fixed
		for i := start; i < end; i++ {
			used += 2 + widths[i]
		}
		return used <= termWidth || end-start == 1
	}
	var greedy [][2]int
	for start := 2; start < len(widths); {
		end := start + 1
		for end < len(widths) && fits(start, end+1) {
			end++
		}
		greedy = append(greedy, [2]int{start, end})
		start = end
	}
	n, k := len(widths)-2, len(greedy)
	if k < 2 {
		return greedy
	}
	var even [][2]int
	for i := range k {
		start, end := 2+i*n/k, 2+(i+1)*n/k
		if !fits(start, end) {
			return greedy
		}
		even = append(even, [2]int{start, end})
	}
	return even
}

// maxLabelWidth bounds the crawler column of compare's table: a token a
// file names may be long.
const maxLabelWidth = 24

// cutDisplay shortens s to n display columns, ending in "..." when it had
// more.
func cutDisplay(s string, n int) string {
	if displayWidth(s) <= n {
		return s
	}
	return s[:cutWidth(s, n-3)] + "..."
}

// seq is the numbers from a up to b, b excluded.
func seq(a, b int) []int {
	out := make([]int, 0, b-a)
	for i := a; i < b; i++ {
		out = append(out, i)
	}
	return out
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
		w += runeWidth(r)
	}
	return w
}

// runeWidth is the number of terminal columns r takes: two for East Asian
// wide and fullwidth characters, none for combining marks and format
// characters, else one.
func runeWidth(r rune) int {
	switch {
	case r < 0x300 && r != 0xAD:
		return 1 // ASCII and Latin: no mark (but the soft hyphen), nothing wide
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	case isWide(r):
		return 2
	}
	return 1
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
