package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

const lintHelp = `Usage: robotstxt lint [--json | --sarif | --all] [--disable CODE,...] (FILE... | -u URL [--store SPEC])

Reports, compiler-style, what in robots.txt files crawlers read differently
from what was meant: typos and unknown fields, fields some crawlers ignore,
rules that can never match or never win, groups that drop the * rules, blank
lines inside groups, a site closed by Disallow: /, encoding problems, the
500 KiB cut, Yandex's limits, and rules the dialects read differently.

  FILE              robots.txt files; "-" reads standard input
  -u URL            instead of files: fetch the live robots.txt of URL's
                    origin through the cache (Google's fetch policy) and lint
                    it, named by its URL. A missing one (4xx: allow all) has
                    nothing to lint, an unreachable one (5xx, network error:
                    disallow all) cannot be read; the output says why
  --store SPEC      the cache's store, with -u: memory (this run only), a
                    bbolt file path, or a redis:// URL (default:
                    robotstxt/cache.db in the user's cache directory)
  --json            JSON output (see README: "lint --json")
  --sarif           SARIF 2.1.0 output, for code-scanning tools
  --disable CODES   comma-separated codes not to report
  --all             text output: every finding; by default a file shows the
                    first 3 findings of each code and counts the rest on one
                    line ("... and N more lines (lines ...)"); JSON and SARIF
                    always hold every finding
  --codes           list every code: severity, dialects, what to do

Each finding is FILE:LINE:COLUMN: SEVERITY[CODE]: MESSAGE (dialects: ...),
columns counted in bytes from 1. Severities: error, warning, info. A file
with several findings ends with FILE: N findings: COUNT CODE, ...
Exit status: 0 when no finding is an error, 1 when one is, 2 when a file
cannot be read or on bad usage.

Examples:
  robotstxt lint robots.txt
  robotstxt lint --disable unsupported-field,wildcards-in-original robots.txt
  robotstxt lint --sarif robots.txt > robots.sarif
  robotstxt lint -u https://example.com/
`

// lintReport is the JSON form of lint's output.
type lintReport struct {
	Files    []string   `json:"files"`
	Fetch    *fetchInfo `json:"fetch,omitempty"` // with -u
	Notes    []lintNote `json:"notes,omitempty"` // with -u
	Findings []finding  `json:"findings"`
	Errors   int        `json:"errors"`
	Warnings int        `json:"warnings"`
	Infos    int        `json:"infos"`
}

// lintNote says something about a file that is not a finding: where a
// fetched file came from, and what applies when there was no file.
type lintNote struct {
	File string `json:"file"`
	Note string `json:"note"`
}

func runLint(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("lint")
	jsonOut := fs.Bool("json", false, "JSON output")
	sarifOut := fs.Bool("sarif", false, "SARIF 2.1.0 output")
	listCodes := fs.Bool("codes", false, "list the codes")
	disable := fs.String("disable", "", "codes not to report")
	allLines := fs.Bool("all", false, "text output: every finding")
	src := addSourceFlags(fs)
	files, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "lint", lintHelp, args, err)
	}
	if *listCodes {
		writeCodes(stdout)
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
	off := map[string]bool{}
	for _, c := range strings.Split(*disable, ",") {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		if _, ok := lintCodeIndex[c]; !ok {
			fmt.Fprintf(stderr, "robotstxt lint: --disable: unknown code %q (robotstxt lint --codes lists them)\n", c)
			return 2
		}
		off[c] = true
	}
	stdinUsed := false
	status := 0
	rep := lintReport{Files: []string{}, Findings: []finding{}}
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
		if f.Fetched != nil {
			rep.Fetch = f.Fetched
			for _, n := range append(f.fetchNotes(), f.policyNotes(robotstxt.Dialects())...) {
				rep.Notes = append(rep.Notes, lintNote{f.Name, n})
			}
			if f.truncated() {
				rep.Notes = append(rep.Notes, lintNote{f.Name, fmt.Sprintf("the file is over %d bytes: only the first %d were downloaded, and are linted", robotstxt.DefaultMaxBytes, robotstxt.DefaultMaxBytes)})
			}
			switch f.policy() {
			case "disallow-all":
				// Not read: like a file that cannot be read.
				complain(stderr, "lint", "%s: cannot be read, nothing to lint: %s", f.Name, f.Fetched.Reason)
				status = 2
				continue
			case "allow-all":
				rep.Files = append(rep.Files, f.Name)
				continue
			}
		}
		rep.Files = append(rep.Files, f.Name)
		for _, fd := range lint(f) {
			if off[fd.Code] {
				continue
			}
			switch fd.Severity {
			case sevError:
				rep.Errors++
			case sevWarning:
				rep.Warnings++
			default:
				rep.Infos++
			}
			rep.Findings = append(rep.Findings, fd)
		}
	}
	switch {
	case *jsonOut:
		err = writeJSON(stdout, rep)
	case *sarifOut:
		err = writeJSON(stdout, sarif(&rep))
	default:
		writeFindings(stdout, &rep, useColor(stdout), *allLines)
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

// writeFindings writes the text report: per file, the first findings of
// each code and one line for the rest, then a count of the file's findings
// by code; all writes every finding.
func writeFindings(w io.Writer, rep *lintReport, color, all bool) {
	var b strings.Builder
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "%s: %s: %s\n", esc(n.File), paint(color, "note", "36"), esc(n.Note))
	}
	for i := 0; i < len(rep.Findings); {
		j := i + 1
		for j < len(rep.Findings) && rep.Findings[j].File == rep.Findings[i].File {
			j++
		}
		writeFileFindings(&b, rep.Findings[i:j], color, all)
		i = j
	}
	if len(rep.Files) > 0 {
		files := "file"
		if len(rep.Files) > 1 {
			files = "files"
		}
		fmt.Fprintf(&b, "%d %s: %d %s, %d %s, %d info\n", len(rep.Files), files,
			rep.Errors, plural(rep.Errors, "error"), rep.Warnings, plural(rep.Warnings, "warning"), rep.Infos)
	}
	io.WriteString(w, b.String())
}

// writeFileFindings writes the findings of one file, in line order.
func writeFileFindings(b *strings.Builder, fs []finding, color, all bool) {
	byCode := map[string][]int{} // the lines of each code
	var codes []string
	for _, f := range fs {
		if byCode[f.Code] == nil {
			codes = append(codes, f.Code)
		}
		byCode[f.Code] = append(byCode[f.Code], f.Line)
	}
	shown := map[string]int{}
	for _, f := range fs {
		label := paint(color, f.Severity+"["+f.Code+"]", severityColor(f.Severity))
		shown[f.Code]++
		n := shown[f.Code]
		if !all && n > shownPerCode {
			continue
		}
		fmt.Fprintf(b, "%s:%d:%d: %s: %s", esc(f.File), f.Line, f.Column, label, esc(f.Message))
		if len(f.Dialects) > 0 {
			fmt.Fprintf(b, " (dialects: %s)", strings.Join(f.Dialects, ", "))
		}
		b.WriteString("\n")
		if rest := byCode[f.Code][n:]; !all && n == shownPerCode && len(rest) > 0 {
			fmt.Fprintf(b, "%s: %s: ... and %d more %s (lines %s)\n", esc(f.File), label, len(rest), plural(len(rest), "line"), joinLines(rest, 10))
		}
	}
	if len(fs) < 2 {
		return
	}
	slices.SortStableFunc(codes, func(x, y string) int {
		if d := len(byCode[y]) - len(byCode[x]); d != 0 {
			return d
		}
		return lintCodeIndex[x] - lintCodeIndex[y]
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%d %s", len(byCode[c]), c)
	}
	fmt.Fprintf(b, "%s: %d findings: %s\n", esc(fs[0].File), len(fs), strings.Join(parts, ", "))
}

func severityColor(sev string) string {
	switch sev {
	case sevError:
		return "31;1"
	case sevWarning:
		return "33"
	}
	return "36"
}

func plural(n int, s string) string {
	if n == 1 {
		return s
	}
	return s + "s"
}

// The SARIF 2.1.0 log, as much of it as code-scanning tools read.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifText    `json:"shortDescription"`
	Help                 sarifText    `json:"help"`
	DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
	Properties           sarifRuleTag `json:"properties"`
}

type sarifRuleTag struct {
	Dialects []string `json:"dialects"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

// sarifLevel maps a severity to a SARIF level ("info" is "note").
func sarifLevel(sev string) string {
	if sev == sevInfo {
		return "note"
	}
	return sev
}

func sarif(rep *lintReport) *sarifLog {
	d := sarifDriver{Name: "robotstxt lint", Version: version, InformationURI: "https://github.com/seed53c283f5/robotstxt"}
	for _, c := range lintCodes {
		d.Rules = append(d.Rules, sarifRule{ID: c.Code, ShortDescription: sarifText{c.Summary},
			Help: sarifText{"Fix: " + c.Fix + "."}, DefaultConfiguration: sarifConfig{sarifLevel(c.Severity)},
			Properties: sarifRuleTag{Dialects: c.Dialects}})
	}
	run := sarifRun{Tool: sarifTool{d}, Results: []sarifResult{}}
	for _, f := range rep.Findings {
		uri := f.File
		if uri == "standard input" {
			uri = "stdin"
		}
		msg := f.Message
		if len(f.Dialects) > 0 {
			msg += " (dialects: " + strings.Join(f.Dialects, ", ") + ")"
		}
		run.Results = append(run.Results, sarifResult{RuleID: f.Code, RuleIndex: lintCodeIndex[f.Code], Level: sarifLevel(f.Severity),
			Message: sarifText{msg}, Locations: []sarifLocation{{sarifPhysical{sarifArtifact{uri}, sarifRegion{f.Line, f.Column}}}}})
	}
	return &sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
}
