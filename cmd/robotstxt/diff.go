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
  --crawler NAME
                the same as -c
  --purpose P   every crawler of the catalogue that fetches for P
                (repeatable, or comma separated): search, ai-training,
                ai-search, user-fetch, agent, preview, ads, archive,
                seo-tool, token-only, other
  -a TOKEN      a product token asked about as given (repeatable)
  --agents A,B  one crawler that obeys several tokens at once (repeatable)
  -d DIALECT    google, rfc9309, bing, yandex, baidu or original, for
                every crawler
  --fail-on WHAT
                which changes make the exit status 1, for a deploy
                pipeline: blocked (a URL allowed before is blocked now),
                allowed (a URL blocked before is allowed now), change (any
                verdict change: the default); the last line says which
  --json        JSON output (see docs/cli.md: "diff --json")

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
		b.WriteString(fitLine(esc(n), "note: ", "      "))
	}
	if len(rep.Changes) == 0 {
		b.WriteString("\nNo verdict changes.\n")
		writeOtherEdits(&b, rep)
		io.WriteString(w, b.String())
		return
	}
	writeDiffSummary(&b, rep)
	side := func(v tester.DiffVerdict) string {
		verdict := paint(color, "allowed", "32")
		if !v.Allowed {
			verdict = paint(color, "BLOCKED", "31;1")
		}
		if v.Line == 0 {
			return verdict + "  (no rule matches; " + esc(v.Group) + ")"
		}
		return fmt.Sprintf("%s  line %d: %s", verdict, v.Line, cutDisplay(esc(strings.TrimSpace(v.Rule)), maxRuleShown))
	}
	last := ""
	for _, c := range rep.Changes {
		if c.URL != last {
			last = c.URL
			b.WriteString("\n" + fitLine(esc(c.URL), "", "  "))
		}
		fmt.Fprintf(&b, "  %s (%s)\n", esc(c.Crawler), c.Dialect)
		b.WriteString(fitLine(side(c.Old), "    - ", "               "))
		b.WriteString(fitLine(side(c.New), "    + ", "               "))
	}
	fmt.Fprintf(&b, "\n%d %s changed\n", len(rep.Changes), plural(len(rep.Changes), "verdict"))
	io.WriteString(w, b.String())
}

// writeDiffSummary writes what comes before the details: the verdicts
// that change per crawler, then the edits that changed them, grouped
// (each rule added or removed with the crawlers and URLs it changed),
// then the file's other edits.
func writeDiffSummary(b *strings.Builder, rep *diffReport) {
	fmt.Fprintf(b, "\nSummary: %d %s changed, for %d %s\n", len(rep.Changes), plural(len(rep.Changes), "verdict"),
		len(rep.ByCrawler), plural(len(rep.ByCrawler), "crawler"))
	nameW := 0
	for _, c := range rep.ByCrawler {
		nameW = max(nameW, displayWidth(esc(c.Crawler)))
	}
	nameW = min(nameW, maxLabelWidth)
	for _, c := range rep.ByCrawler {
		name := cutDisplay(esc(c.Crawler), maxLabelWidth)
		b.WriteString(fitLine(directions(c.Blocked, c.Allowed), "  "+name+strings.Repeat(" ", nameW-displayWidth(name))+"  ", "    "))
	}
	b.WriteString("\nThe edits that changed them, most changes first:\n")
	for i, c := range rep.Causes {
		if i == maxCausesShown {
			fmt.Fprintf(b, "  ... and %d more (diff --json lists them all)\n", len(rep.Causes)-i)
			break
		}
		rule := func(r *tester.RuleLine, old bool) string {
			if r == nil {
				return "no rule"
			}
			text := cutDisplay(esc(r.Rule), maxRuleShown)
			if old {
				return fmt.Sprintf("old line %d: %s", r.Line, text)
			}
			return fmt.Sprintf("line %d: %s", r.Line, text)
		}
		for _, l := range c.GroupsRemoved {
			b.WriteString(fitLine(fmt.Sprintf("group %s (old line %d, removed)", groupAgents(rep.Summary.GroupsRemoved, l), l), "  - ", "      "))
		}
		for _, l := range c.GroupsAdded {
			b.WriteString(fitLine(fmt.Sprintf("group %s (line %d, added)", groupAgents(rep.Summary.GroupsAdded, l), l), "  + ", "      "))
		}
		switch c.Kind {
		case "added":
			b.WriteString(fitLine(rule(c.New, false)+" (added)", "  + ", "      "))
		case "removed":
			b.WriteString(fitLine(rule(c.Old, true)+" (removed)", "  - ", "      "))
		case "replaced":
			b.WriteString(fitLine(rule(c.Old, true)+" (removed)", "  - ", "      "))
			b.WriteString(fitLine(rule(c.New, false)+" (added)", "  + ", "      "))
		default:
			b.WriteString(fitLine("other groups apply: "+rule(c.Old, true)+", now "+rule(c.New, false), "  ~ ", "      "))
		}
		urls := make([]string, len(c.Examples))
		for i, u := range c.Examples {
			urls[i] = esc(u)
		}
		if c.URLs > len(c.Examples) {
			urls = append(urls, fmt.Sprintf("and %d more", c.URLs-len(c.Examples)))
		}
		crawlers := make([]string, len(c.Crawlers))
		for i, n := range c.Crawlers {
			crawlers[i] = esc(n)
		}
		b.WriteString(wrapIndent(fmt.Sprintf("%s for %s; %d %s: %s", directions(c.Blocked, c.Allowed), strings.Join(crawlers, ", "),
			c.URLs, plural(c.URLs, "URL"), strings.Join(urls, ", ")), termWidth, "      ", "        "))
	}
	writeOtherEdits(b, rep)
	b.WriteString("\nThe verdicts that change, URL by URL:\n")
}

// groupAgents names the agents of the group of gs whose first user-agent
// line is line.
func groupAgents(gs []tester.GroupChange, line int) string {
	for _, g := range gs {
		if g.Line == line {
			return esc(strings.Join(g.Agents, ", "))
		}
	}
	return "?"
}

// maxCausesShown and maxOtherEdits bound the summary of diff's text.
const (
	maxCausesShown = 20
	maxOtherEdits  = 10
	maxRuleShown   = 160 // columns of a rule in the summary
)

// directions says how many verdicts became blocked and allowed: "2 now
// blocked, 1 now allowed".
func directions(blocked, allowed int) string {
	var parts []string
	if blocked > 0 {
		parts = append(parts, fmt.Sprintf("%d now blocked", blocked))
	}
	if allowed > 0 {
		parts = append(parts, fmt.Sprintf("%d now allowed", allowed))
	}
	return strings.Join(parts, ", ")
}

// writeOtherEdits lists the edits of the file that changed none of the
// verdicts asked about (a rule no URL probed, a sitemap, a Content-Usage
// line), at most maxOtherEdits of them.
func writeOtherEdits(b *strings.Builder, rep *diffReport) {
	s := rep.Summary
	if s == nil {
		return
	}
	causeOld, causeNew := map[int]bool{}, map[int]bool{}
	groupOld, groupNew := map[int]bool{}, map[int]bool{}
	for _, c := range rep.Causes {
		if c.Old != nil {
			causeOld[c.Old.Line] = true
		}
		if c.New != nil {
			causeNew[c.New.Line] = true
		}
		for _, l := range c.GroupsRemoved {
			groupOld[l] = true
		}
		for _, l := range c.GroupsAdded {
			groupNew[l] = true
		}
	}
	// s.Lines() says the edits in the order of the summary's lists:
	// mark those that caused a change, to leave them out.
	var caused []bool
	groupCaused := func(g tester.GroupChange, lines map[int]bool) bool {
		for _, r := range g.Rules {
			if lines[r.Line] {
				return true
			}
		}
		return false
	}
	for _, g := range s.GroupsAdded {
		caused = append(caused, groupNew[g.Line] || groupCaused(g, causeNew))
	}
	for _, g := range s.GroupsRemoved {
		caused = append(caused, groupOld[g.Line] || groupCaused(g, causeOld))
	}
	for _, r := range s.RulesAdded {
		caused = append(caused, causeNew[r.Line])
	}
	for _, r := range s.RulesRemoved {
		caused = append(caused, causeOld[r.Line])
	}
	var other []string
	for i, l := range s.Lines() {
		if i < len(caused) && caused[i] {
			continue
		}
		other = append(other, l)
	}
	if len(other) == 0 {
		return
	}
	if len(rep.Changes) == 0 {
		b.WriteString("\nThe file's edits:\n")
	} else {
		b.WriteString("\nEdits that changed no verdict asked about:\n")
	}
	for i, l := range other {
		if i == maxOtherEdits {
			fmt.Fprintf(b, "  ... and %d more (diff --json: summary)\n", len(other)-i)
			break
		}
		b.WriteString(wrapIndent(esc(l), termWidth, "  ", "      "))
	}
}
