package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
	"github.com/seed53c283f5/robotstxt/tester"
)

const diffHelp = `Usage: robotstxt diff [--urls FILE] [-c CRAWLER]... [--purpose P]...
                      [-a TOKEN]... [--agents A,B]... [-d DIALECT]
                      [--fail-on blocked|allowed|change] [--json] OLD NEW

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
  --crawler NAME  the same as -c
  --purpose P   every crawler of the catalogue that fetches for P
                (repeatable, or comma separated): search, ai-training,
                ai-search, user-fetch, agent, preview, ads, archive,
                seo-tool, token-only, other
  -a TOKEN      a product token asked about as given (repeatable)
  --agents A,B  one crawler that obeys several tokens at once (repeatable)
  -d DIALECT    google, rfc9309, bing, yandex, baidu or original, for
                every crawler
  --fail-on WHAT  which changes make the exit status 1, for a deploy
                pipeline: blocked (a URL allowed before is blocked now),
                allowed (a URL blocked before is allowed now), change (any
                verdict change: the default); the last line says which
  --json        JSON output (see README: "diff --json")

Exit status, as diff(1): 0 when no verdict changes (with --fail-on: none
of that kind), 1 when some do, 2 on trouble.

Examples:
  robotstxt diff robots.txt robots.new.txt
  robotstxt diff --urls important-urls.txt -c Googlebot \
    robots.txt robots.new.txt
  robotstxt diff -a MyBot robots.txt robots.new.txt
  robotstxt diff --fail-on blocked --urls important-urls.txt \
    --purpose search robots.txt robots.new.txt
  curl -s https://example.com/robots.txt | robotstxt diff - robots.new.txt
`

// diffReport is the result of diff, also its JSON form.
type diffReport = tester.DiffReport

func runDiff(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("diff")
	urlsFile := fs.String("urls", "", "URL list")
	dialect := fs.String("d", "", "dialect")
	jsonOut := fs.Bool("json", false, "JSON output")
	var crawlerNames, tokens, agentLists stringList
	fs.Var(&crawlerNames, "c", "crawler (repeatable)")
	fs.Var(&crawlerNames, "crawler", "crawler (repeatable)")
	var purposes stringList
	fs.Var(&purposes, "purpose", "purpose (repeatable)")
	failOn := fs.String("fail-on", "change", "blocked, allowed or change")
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
	switch *failOn {
	case "blocked", "allowed", "change":
	default:
		did := ""
		if near := suggest.Nearest(*failOn, []string{"blocked", "allowed", "change"}); near != "" {
			did = "; did you mean " + near + "?"
		}
		return fail("--fail-on %q: want blocked, allowed or change%s", *failOn, did)
	}
	for _, v := range purposes {
		p, err := robotstxt.ParsePurpose(v)
		if err != nil {
			return fail("--purpose: %s%s", strings.TrimPrefix(err.Error(), "robotstxt: "), nearPurposes(v))
		}
		if p == 0 {
			return fail("--purpose needs a purpose (search, ai-training, ...)")
		}
		for _, c := range robotstxt.CrawlersByPurpose(p) {
			crawlerNames = append(crawlerNames, c.Name)
		}
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
	req := &tester.DiffRequest{Old: oldF, New: newF, Dialect: d,
		Subjects: tester.Subjects{Crawlers: crawlerNames, Agents: tokens, AgentSets: agentSets(agentLists)}}
	if err := req.Validate(); err != nil {
		return fail("%v", cliError(err, agentLists))
	}
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
		urls, err := readURLList(r, name)
		if err != nil {
			return fail("%v", err)
		}
		for _, u := range urls {
			if err := checkURL(u); err != nil {
				return fail("%s: %v", name, err)
			}
		}
		req.URLs = append([]string{}, urls...) // not nil: no URL asks about none
	}
	rep, err := tester.Diff(req)
	if err != nil {
		return fail("%v", cliError(err, agentLists))
	}
	if *jsonOut {
		if err := writeJSON(stdout, rep); err != nil {
			return fail("%v", err)
		}
	} else {
		writeDiff(stdout, rep, useColor(stdout))
	}
	flagged := failing(rep, *failOn)
	if *failOn != "change" && !*jsonOut {
		writeFailOn(stdout, flagged, *failOn)
	}
	if len(flagged) > 0 {
		return 1
	}
	return 0
}

// failing returns the changes that --fail-on names: blocked (allowed
// before, blocked now), allowed (the other way), change (every one).
func failing(rep *diffReport, failOn string) []tester.DiffChange {
	var out []tester.DiffChange
	for _, c := range rep.Changes {
		switch {
		case failOn == "change",
			failOn == "blocked" && c.Old.Allowed && !c.New.Allowed,
			failOn == "allowed" && !c.Old.Allowed && c.New.Allowed:
			out = append(out, c)
		}
	}
	return out
}

// writeFailOn writes the last line of diff --fail-on blocked or allowed:
// whether the check passes, and if not, how many URLs and which crawlers.
func writeFailOn(w io.Writer, flagged []tester.DiffChange, failOn string) {
	if len(flagged) == 0 {
		fmt.Fprintf(w, "\nok: no URL newly %s (--fail-on %s)\n", failOn, failOn)
		return
	}
	urls := map[string]bool{}
	var crawlers []string
	for _, c := range flagged {
		urls[c.URL] = true
		if !slices.Contains(crawlers, c.Crawler) {
			crawlers = append(crawlers, c.Crawler)
		}
	}
	msg := fmt.Sprintf("FAIL: %d %s newly %s for %s (--fail-on %s)", len(urls), plural(len(urls), "URL"), failOn, strings.Join(crawlers, ", "), failOn)
	fmt.Fprint(w, "\n"+wrapIndent(msg, termWidth, "", "  "))
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
	side := func(v tester.DiffVerdict) string {
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
