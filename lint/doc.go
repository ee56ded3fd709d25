// Package lint reports what in a robots.txt file crawlers read differently
// from what was meant: typos and unknown fields, fields some crawlers
// ignore, rules that can never match or never win, groups that drop the *
// rules, blank lines inside groups, a site closed by "Disallow: /",
// encoding problems, the 500 KiB cut, Yandex's limits, and rules the
// dialects (google, rfc9309, bing, yandex, baidu, original) read
// differently.
//
// A report is about the dialects crawlers use (DefaultDialects): the codes
// that concern only the original draft (OriginalOnly) are left out unless
// File.Original asks for them.
//
// Check lints one File and returns Findings, compiler-style: a line, a
// column (in bytes, from 1), a stable code, a severity and a message that
// says what crawlers do and what to change. The code table (Codes,
// LookupCode) gives each code's severity, the dialects it affects, what it
// finds and the fix; NewSARIF turns findings into a SARIF 2.1.0 log for
// code-scanning tools. Linting never fails: any bytes give a list, and the
// checks are bounded on huge and hostile files.
//
// The checks read the parser's per-line report (robotstxt.Robots.Lines)
// and ask the file the questions crawlers ask; there is no second parser.
// The robotstxt command ("robotstxt lint") and the service print these
// findings; package tester adds the notes of a live origin's file.
package lint
