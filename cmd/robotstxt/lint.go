package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
	"github.com/seed53c283f5/robotstxt/internal/words"
	"github.com/seed53c283f5/robotstxt/lint"
	"github.com/seed53c283f5/robotstxt/tester"
)

const lintHelp = `Usage: robotstxt lint [--json | --sarif | --all] [--disable CODE,...]
                      (FILE... | -u URL [--store STORE] [--cached])

Reports, compiler-style, what in robots.txt files crawlers read differently
from what was meant: typos and unknown fields, fields some crawlers ignore,
rules that can never match or never win, groups that drop the * rules, blank
lines inside groups, a site closed by Disallow: /, encoding problems, the
500 KiB cut, Yandex's limits, and rules the dialects read differently.

  FILE              robots.txt files; "-" reads standard input
  -u URL            instead of files: fetch the live robots.txt of URL's
                    origin now (Google's fetch policy; conditionally when the
                    cache holds a copy) and lint it, named by its URL. A
                    missing one (4xx: allow all) has nothing to lint, an
                    unreachable one (5xx, network error: disallow all)
                    cannot be read; the output says why
  --store STORE     the cache's store, with -u: memory (this run only), a
                    bbolt file path, or a redis:// URL (default:
                    robotstxt/cache.db in the user's cache directory)
  --cached          with -u: lint the cache's copy while it is fresh (up to
                    24 h) instead of fetching now
  --json            JSON output (see docs/cli.md: "lint --json")
  --sarif           SARIF 2.1.0 output, for code-scanning tools
  --disable CODES   comma-separated codes not to report
  --all             text output: every finding; by default a file shows the
                    first 3 findings of each code and counts the rest on one
                    line ("... and N more lines (lines ...)"); JSON and SARIF
                    always hold every finding
  --codes           list every code: severity, dialects, what to do
  --original        also report what only the original dialect (the strict
                    1996 draft, which no crawler reads by) reads otherwise:
                    wildcards-in-original; left out by default
  --webbotauth      read the Signature-Agent and Max-Crawl-Rate lines of the
                    Web Bot Auth editors' draft (an extension no crawler is
                    known to read yet) and check them, rather than report
                    them as unknown fields

Each finding is FILE:LINE:COLUMN: SEVERITY[CODE]: MESSAGE (dialects: ...),
columns counted in bytes from 1, wrapped at 80 columns onto indented lines
(the dialect original is listed with --original). Severities: error,
warning, info. A file with several findings ends with FILE: N findings:
COUNT CODE, ...
Exit status: 0 when no finding is an error, 1 when one is, 2 when a file
cannot be read or on bad usage.

Examples:
  robotstxt lint robots.txt
  robotstxt lint --disable unsupported-field,star-rules-dropped robots.txt
  robotstxt lint --sarif robots.txt > robots.sarif
  robotstxt lint -u https://example.com/
`

// lintReport is the JSON form of lint's output.
type lintReport = tester.LintReport

// finding is one lint diagnostic, also its JSON form.
type finding = lint.Finding

func runLint(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("lint")
	jsonOut := fs.Bool("json", false, "JSON output")
	sarifOut := fs.Bool("sarif", false, "SARIF 2.1.0 output")
	listCodes := fs.Bool("codes", false, "list the codes")
	disable := fs.String("disable", "", "codes not to report")
	allLines := fs.Bool("all", false, "text output: every finding")
	original := fs.Bool("original", false, "report on the original dialect too")
	webBotAuth := fs.Bool("webbotauth", false, "read Signature-Agent and Max-Crawl-Rate lines")
	src := addSourceFlags(fs)
	files, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "lint", lintHelp, args, err)
	}
	if *listCodes {
		lint.WriteCodes(stdout)
		return 0
	}
	if *jsonOut && *sarifOut {
		fmt.Fprintln(stderr, "robotstxt lint: --json and --sarif are exclusive")
		return 2
	}
	if err := src.check(fs, len(files) > 0, "a file argument"); err != nil {
		fmt.Fprintf(stderr, "robotstxt lint: %v\n", err)
		return 2
	}
	if len(files) == 0 && src.URL == "" {
		fmt.Fprintln(stderr, "robotstxt lint: no file to lint (give files, - for standard input, or -u URL)")
		return 2
	}
	var off []string
	for _, c := range strings.Split(*disable, ",") {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		if _, ok := lint.LookupCode(c); !ok {
			did := ""
			var codes []string
			for _, k := range lint.Codes() {
				codes = append(codes, k.Code)
			}
			if near := suggest.Nearest(c, codes); near != "" {
				did = "; did you mean " + near + "?"
			}
			complain(stderr, "lint", "--disable: unknown code %q%s (robotstxt lint --codes lists them)", c, did)
			return 2
		}
		off = append(off, c)
	}
	stdinUsed := false
	status := 0
	rep := tester.NewLintReport()
	load := func(name string) (*robotsFile, error) {
		if src.URL != "" {
			return src.load(context.Background(), robotstxt.DefaultDialect, stderr)
		}
		f, err := loadRobots(name, stdin)
		if err == nil && name != "-" {
			f.Name = filepath.ToSlash(name)
		}
		return f, err
	}
	if src.URL != "" {
		files = []string{src.URL}
	}
	for _, name := range files {
		if name == "-" {
			if stdinUsed {
				fmt.Fprintln(stderr, "robotstxt lint: - given twice")
				return 2
			}
			stdinUsed = true
		}
		f, err := load(name)
		if err != nil {
			complain(stderr, "lint", "%v", err)
			status = 2
			continue
		}
		if *webBotAuth && f.Robots != nil {
			// Read again with the extension: its lines are then
			// fields of their groups, and lint checks them.
			f.Robots = robotstxt.ParseWith(f.Body, &robotstxt.ParseOptions{Size: int(f.Size), Extensions: robotstxt.ExtWebBotAuth})
		}
		opts := &tester.LintOptions{Disable: off, Original: *original}
		if !*jsonOut && !*sarifOut && !*allLines {
			// The text shows shownPerCode findings of each code and
			// counts the rest: their messages need not be kept.
			opts.Keep = keptPerCode
		}
		if err := rep.Add(f, opts); err != nil {
			complain(stderr, "lint", "%v", cliError(err, nil))
			status = 2
		}
	}
	switch {
	case *jsonOut:
		err = writeJSON(stdout, rep)
	case *sarifOut:
		err = writeJSON(stdout, lint.NewSARIF(rep.Findings, version))
	default:
		writeFindings(stdout, rep, useColor(stdout), *allLines)
	}
	if err != nil {
		fmt.Fprintf(stderr, "robotstxt lint: %v\n", err)
		return 2
	}
	if status == 0 && rep.Errors > 0 {
		status = 1
	}
	return status
}

// shownPerCode is how many findings of one code text output shows per file
// before it counts the rest on one line.
const shownPerCode = 3

// keptPerCode is how many findings of one code a text report keeps in full
// per file (tester.LintOptions.Keep): enough that the first shownPerCode
// in line order are among them, whatever order the checks find them in;
// the rest are only counted, with their lines.
const keptPerCode = 64

// writeFindings writes the text report: per file, the first findings of
// each code and one line for the rest, then a count of the file's findings
// by code; all writes every finding. It writes a file at a time. Each
// finding's text wraps at 80 columns, its first line in the compiler's
// form (FILE:LINE:COLUMN: SEVERITY[CODE]: ...), the others indented.
// Each finding's dialects are the report's (tester.Lint leaves original
// out unless asked for it), as the JSON form and the service give them.
func writeFindings(w io.Writer, rep *lintReport, color, all bool) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	for _, n := range rep.Notes {
		io.WriteString(bw, wrapIndent(fmt.Sprintf("%s: %s: %s", esc(n.File), paint(color, "note", "36"), esc(n.Note)), termWidth, "", findingIndent))
	}
	tallies := map[string][]lint.Tally{}
	for _, t := range rep.Tallies {
		tallies[t.File] = append(tallies[t.File], t)
	}
	for i := 0; i < len(rep.Findings); {
		j := i + 1
		for j < len(rep.Findings) && rep.Findings[j].File == rep.Findings[i].File {
			j++
		}
		writeFileFindings(bw, rep.Findings[i:j], tallies[rep.Findings[i].File], color, all)
		i = j
	}
	if len(rep.Files) > 0 {
		files := "file"
		if len(rep.Files) > 1 {
			files = "files"
		}
		fmt.Fprintf(bw, "%d %s: %d %s, %d %s, %d info\n", len(rep.Files), files,
			rep.Errors, plural(rep.Errors, "error"), rep.Warnings, plural(rep.Warnings, "warning"), rep.Infos)
	}
}

// writeFileFindings writes the findings of one file, in line order, and
// counts with them the findings tallied past keptPerCode.
func writeFileFindings(w io.Writer, fs []finding, tallies []lint.Tally, color, all bool) {
	byCode := map[string][]int{} // the lines of each code
	var codes []string
	total := len(fs)
	for _, f := range fs {
		if byCode[f.Code] == nil {
			codes = append(codes, f.Code)
		}
		byCode[f.Code] = append(byCode[f.Code], f.Line)
	}
	for _, t := range tallies {
		if byCode[t.Code] == nil {
			codes = append(codes, t.Code)
		}
		for _, l := range t.Lines {
			byCode[t.Code] = append(byCode[t.Code], int(l))
		}
		slices.Sort(byCode[t.Code])
		total += len(t.Lines)
	}
	shown := map[string][]int{} // the lines shown of each code
	for _, f := range fs {
		label := paint(color, f.Severity+"["+f.Code+"]", severityColor(f.Severity))
		n := len(shown[f.Code]) + 1
		if !all && n > shownPerCode {
			continue
		}
		shown[f.Code] = append(shown[f.Code], f.Line)
		text := fmt.Sprintf("%s:%d:%d: %s: %s", esc(f.File), f.Line, f.Column, label, esc(f.Message))
		if len(f.Dialects) > 0 {
			text += fmt.Sprintf(" (dialects: %s)", strings.Join(f.Dialects, ", "))
		}
		io.WriteString(w, wrapIndent(text, termWidth, "", findingIndent))
		if !all && n == shownPerCode {
			if rest := without(byCode[f.Code], shown[f.Code]); len(rest) > 0 {
				io.WriteString(w, wrapIndent(fmt.Sprintf("%s: %s: ... and %d more %s (lines %s)", esc(f.File), label, len(rest), plural(len(rest), "line"), lint.JoinLines(rest, 10)), termWidth, "", findingIndent))
			}
		}
	}
	if total < 2 {
		return
	}
	slices.SortStableFunc(codes, func(x, y string) int {
		if d := len(byCode[y]) - len(byCode[x]); d != 0 {
			return d
		}
		return lint.CodeIndex(x) - lint.CodeIndex(y)
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%d %s", len(byCode[c]), c)
	}
	io.WriteString(w, wrapIndent(fmt.Sprintf("%s: %d findings: %s", esc(fs[0].File), total, strings.Join(parts, ", ")), termWidth, "", findingIndent))
}

// findingIndent starts the lines a finding's text wraps onto.
const findingIndent = "    "

// without returns the sorted lines ls less one occurrence of each of the
// lines shown.
func without(ls, shown []int) []int {
	rest := make([]int, 0, len(ls))
	used := make([]bool, len(shown))
	for _, l := range ls {
		skip := false
		for i, s := range shown {
			if !used[i] && s == l {
				used[i], skip = true, true
				break
			}
		}
		if !skip {
			rest = append(rest, l)
		}
	}
	return rest
}

func severityColor(sev string) string {
	switch sev {
	case lint.SeverityError:
		return "31;1"
	case lint.SeverityWarning:
		return "33"
	}
	return "36"
}

// plural is s as it goes with a count of n (words.Plural, the one helper).
func plural(n int, s string) string { return words.Plural(n, s) }
