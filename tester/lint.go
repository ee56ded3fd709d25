package tester

import (
	"fmt"
	"slices"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/lint"
)

// LintReport is what lint says of one or more robots.txt files: every
// finding, and notes on files fetched live. Its JSON form is what
// "robotstxt lint --json" prints.
type LintReport struct {
	Files    []string       `json:"files"`
	Fetch    *FetchInfo     `json:"fetch,omitempty"` // for a live origin
	Notes    []LintNote     `json:"notes,omitempty"` // for a live origin
	Findings []lint.Finding `json:"findings"`
	// Tallies are the findings LintOptions.Keep counted instead of
	// keeping (not in the JSON form, which keeps every finding).
	Tallies  []lint.Tally `json:"-"`
	Errors   int          `json:"errors"`
	Warnings int          `json:"warnings"`
	Infos    int          `json:"infos"`
}

// LintNote says something about a file that is not a finding: where a
// fetched file came from, and what applies when there was no file.
type LintNote struct {
	File string `json:"file"`
	Note string `json:"note"`
}

// LintOptions are the settings of Lint; nil means the defaults.
type LintOptions struct {
	// Disable lists codes not to report.
	Disable []string
	// Keep, when > 0, keeps the first Keep findings of each code of a
	// file in full and only counts the rest, in Tallies (see
	// lint.CheckBounded): for a text report that shows a few of each.
	Keep int
	// Original reports the codes that concern only the original
	// dialect too (lint.File.Original).
	Original bool
}

// NewLintReport returns an empty report, to which Add adds files.
func NewLintReport() *LintReport {
	return &LintReport{Files: []string{}, Findings: []lint.Finding{}}
}

// Lint lints one source. See LintReport.Add for the errors.
func Lint(src *Source, opts *LintOptions) (*LintReport, error) {
	rep := NewLintReport()
	if err := rep.Add(src, opts); err != nil {
		return rep, err
	}
	return rep, nil
}

// Add lints src and adds its findings, except the codes opts disables, to
// the report. A live origin's file adds the fetch and its notes; one with
// no rules to read adds no finding: a missing file (allow all) is listed
// with nothing to lint, an unreachable one (disallow all) cannot be read,
// and Add returns an *Error with Field "origin" after adding its notes. An
// unknown code in opts.Disable is an *Error with Field "disable".
func (rep *LintReport) Add(src *Source, opts *LintOptions) error {
	off := map[string]bool{}
	if opts != nil {
		for i, c := range opts.Disable {
			if _, ok := lint.LookupCode(c); !ok {
				return &Error{Field: "disable", Index: i, Value: c, Msg: fmt.Sprintf("unknown code %q", c)}
			}
			off[c] = true
		}
	}
	if src == nil {
		return &Error{Field: "robots", Msg: "no robots.txt to lint"}
	}
	if src.Fetched != nil {
		rep.Fetch = src.Fetched
		for _, n := range append(src.fetchNotes(), src.policyNotes(Dialects(opts != nil && opts.Original))...) {
			rep.Notes = append(rep.Notes, LintNote{src.Name, n})
		}
		if src.Truncated() {
			rep.Notes = append(rep.Notes, LintNote{src.Name, fmt.Sprintf("the file is over %d bytes: only the first %d were downloaded, and are linted", robotstxt.DefaultMaxBytes, robotstxt.DefaultMaxBytes)})
		}
		switch src.Policy() {
		case "disallow-all":
			// Not read: like a file that cannot be read.
			return &Error{Field: "origin", Value: src.Fetched.Origin, Msg: fmt.Sprintf("%s: cannot be read, nothing to lint: %s", src.Name, src.Fetched.Reason)}
		case "allow-all":
			rep.Files = append(rep.Files, src.Name)
			return nil
		}
	}
	rep.Files = append(rep.Files, src.Name)
	findings, tallies := lint.CheckBounded(&lint.File{Name: src.Name, Body: src.Body, Robots: src.Robots, Size: src.Size, CutLines: src.CutLines, Original: opts != nil && opts.Original}, keep(opts))
	count := func(severity string, n int) {
		switch severity {
		case lint.SeverityError:
			rep.Errors += n
		case lint.SeverityWarning:
			rep.Warnings += n
		default:
			rep.Infos += n
		}
	}
	for _, fd := range findings {
		if off[fd.Code] {
			continue
		}
		fd.Dialects = reportDialects(fd.Dialects, opts != nil && opts.Original)
		count(fd.Severity, 1)
		rep.Findings = append(rep.Findings, fd)
	}
	for _, t := range tallies {
		if off[t.Code] {
			continue
		}
		count(t.Severity, len(t.Lines))
		rep.Tallies = append(rep.Tallies, t)
	}
	return nil
}

func keep(opts *LintOptions) int {
	if opts == nil {
		return 0
	}
	return opts.Keep
}

// Dialects are the dialects a report is about: robotstxt.DefaultDialects,
// the dialects crawlers read by, and the original draft too when original
// asks for it. Lint and Compare, and so every face of them (the command,
// the service, the page), report on this one set.
func Dialects(original bool) []robotstxt.Dialect {
	if original {
		return robotstxt.Dialects()
	}
	return robotstxt.DefaultDialects()
}

// reportDialects is a finding's dialects as a report shows them: without
// "original" unless the report is about it too (Dialects). ds is not
// changed (it may be the code table's).
func reportDialects(ds []string, original bool) []string {
	if original || !slices.Contains(ds, robotstxt.Original.String()) {
		return ds
	}
	return slices.DeleteFunc(slices.Clone(ds), func(d string) bool { return d == robotstxt.Original.String() })
}
