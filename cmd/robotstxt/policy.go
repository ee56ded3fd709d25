package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

const policyHelp = `Usage: robotstxt policy [FILE | -u URL [--store STORE] [--cached]]
                        [--deny PURPOSE]... [--allow PURPOSE]...
                        [--deny-crawler NAME]... [--allow-crawler NAME]...
                        [--write OUT] [--json]

Writes the robots.txt lines that state stances towards crawlers ("no AI
training, keep search, allow user-triggered fetches") and merges them into
a file: a group naming every denied crawler of the catalogue with
Disallow: / (in the place of the groups that named them), Allow: / for
allowed crawlers that the file blocks, and Content-Usage (train-ai,
search) and Content-Signal (search, ai-input, ai-train) lines in the *
group and in the groups of allowed crawlers. Every other line is kept byte
for byte, comments too. It shows the unified diff and the verdicts that
change; applying it again changes nothing.

  FILE                the robots.txt to merge into ("-" for standard
                      input); without FILE or -u, an empty file
  -u URL              instead of FILE: the live robots.txt of URL's origin,
                      fetched now
  --store STORE       the cache's store, with -u
  --cached            with -u: use the cache's copy while it is fresh
  --deny PURPOSE      deny the crawlers of a purpose (repeatable, or comma
                      separated): search, ai-training, ai-search,
                      user-fetch, agent, preview, ads, archive, seo-tool,
                      token-only, other
  --allow PURPOSE     allow the crawlers of a purpose (repeatable); a
                      crawler with a denied and an allowed purpose is denied
  --deny-crawler NAME
                      deny one crawler (repeatable, or comma separated): a
                      name from the catalogue or any product token
  --allow-crawler NAME
                      allow one crawler (repeatable); wins over the purposes
  --write OUT         write the new file to OUT ("-": standard output, and
                      nothing else there)
  --json              JSON output (see docs/ai.md)

Content-Usage says train-ai for ai-training and search for search;
Content-Signal says search, ai-input (for ai-search) and ai-train.

Exit status: without --write, 0 when the file already follows the policy
and 1 when it changes (as diff(1)); with --write, 0 once written; 2 on bad
usage or input.

Examples:
  robotstxt policy robots.txt --deny ai-training --allow search \
    --allow user-fetch
  robotstxt policy robots.txt --deny ai-training,ai-search \
    --allow-crawler Applebot --write robots.txt
  robotstxt policy --deny ai-training --write - > robots.txt
  robotstxt policy -u https://example.com/ --deny-crawler GPTBot --json
`

func runPolicy(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("policy")
	jsonOut := fs.Bool("json", false, "JSON output")
	out := fs.String("write", "", "write the new file to OUT")
	var deny, allow, denyC, allowC stringList
	fs.Var(&deny, "deny", "purpose to deny (repeatable)")
	fs.Var(&allow, "allow", "purpose to allow (repeatable)")
	fs.Var(&denyC, "deny-crawler", "crawler to deny (repeatable)")
	fs.Var(&allowC, "allow-crawler", "crawler to allow (repeatable)")
	src := addSourceFlags(fs)
	files, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "policy", policyHelp, args, err)
	}
	fail := func(format string, a ...any) int {
		complain(stderr, "policy", format, a...)
		return 2
	}
	if err := src.check(fs, len(files) > 0, "a file argument"); err != nil {
		return fail("%v", err)
	}
	if len(files) > 1 {
		return fail("one robots.txt at a time, got %d files", len(files))
	}
	if *out == "-" && *jsonOut {
		return fail("--write - and --json both write to standard output: give --write a file")
	}
	req := &tester.PolicyRequest{DenyCrawlers: policyNames(denyC), AllowCrawlers: policyNames(allowC)}
	for _, p := range []struct {
		flag string
		list []string
		into *robotstxt.Purpose
	}{{"--deny", deny, &req.Deny}, {"--allow", allow, &req.Allow}} {
		for _, v := range p.list {
			q, err := robotstxt.ParsePurpose(v)
			if err != nil {
				return fail("%s: %s%s", p.flag, strings.TrimPrefix(err.Error(), "robotstxt: "), nearPurposes(v))
			}
			*p.into |= q
		}
	}
	switch {
	case src.URL != "":
		req.Source, err = src.load(context.Background(), robotstxt.DefaultDialect, stderr)
	case len(files) == 1:
		req.Source, err = loadRobots(files[0], stdin)
	}
	if err != nil {
		return fail("%v", err)
	}
	rep, err := tester.Policy(req)
	if err != nil {
		var e *tester.Error
		switch {
		case errors.As(err, &e) && e.Field == "stances" && e.Value == "":
			return fail("no stance: give --deny, --allow, --deny-crawler or --allow-crawler")
		case errors.As(err, &e) && e.Field == "stances":
			return fail("%s is both in --deny and in --allow", e.Value)
		case errors.As(err, &e):
			return fail("%s", e.Msg)
		}
		return fail("%v", err)
	}
	if *out != "" {
		if *out == "-" {
			io.WriteString(stdout, rep.Body)
			return 0
		}
		if err := os.WriteFile(*out, []byte(rep.Body), 0o644); err != nil {
			return fail("--write: %v", err)
		}
	}
	if *jsonOut {
		if err := writeJSON(stdout, rep); err != nil {
			complain(stderr, "policy", "%v", err)
			return 2
		}
	} else {
		writePolicy(stdout, rep, *out, useColor(stdout))
	}
	if *out == "" && rep.Changed {
		return 1
	}
	return 0
}

// policyNames splits repeatable, comma-separated flag values, blanks dropped.
func policyNames(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// writePolicy writes the report as text: the stances, the preferences the
// * group states, the diff, and the verdicts that change, URL by URL,
// with the crawlers that share a change on one line.
func writePolicy(w io.Writer, rep *tester.PolicyReport, written string, color bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "robots.txt: %s\n", esc(rep.File))
	for _, n := range rep.Notes {
		b.WriteString(aiWrap(esc(n), "note: ", "      ", aiWidth))
	}
	count := map[string]int{}
	var named []string
	for _, c := range rep.Crawlers {
		count[fmt.Sprint(c.Allow, c.By)]++
		if c.By == "crawler" {
			named = append(named, pick(c.Allow, "allow ", "deny ")+esc(c.Name))
		}
	}
	var stances []string
	for _, s := range []struct {
		allow bool
		names []string
	}{{false, rep.Deny}, {true, rep.Allow}} {
		for _, p := range s.names {
			stances = append(stances, fmt.Sprintf("%s %s (%d)", pick(s.allow, "allow", "deny"), p, count[fmt.Sprint(s.allow, p)]))
		}
	}
	stances = append(stances, named...)
	b.WriteString(aiWrap(strings.Join(stances, ", "), "Policy: ", "  ", aiWidth))
	if rep.ContentUsage != "" {
		fmt.Fprintf(&b, "The * group's Content-Usage: %s\n", rep.ContentUsage)
	}
	if rep.ContentSignal != "" {
		fmt.Fprintf(&b, "The * group's Content-Signal: %s\n", rep.ContentSignal)
	}
	if !rep.Changed {
		b.WriteString("\nThe file already follows the policy: nothing changes.\n")
		io.WriteString(w, b.String())
		return
	}
	b.WriteString("\n")
	for _, l := range strings.SplitAfter(strings.TrimSuffix(rep.Diff, "\n"), "\n") {
		text := esc(strings.TrimSuffix(l, "\n"))
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			text = paint(color, text, "1")
		case strings.HasPrefix(l, "+"):
			text = paint(color, text, "32")
		case strings.HasPrefix(l, "-"):
			text = paint(color, text, "31")
		case strings.HasPrefix(l, "@@"):
			text = paint(color, text, "36")
		}
		b.WriteString(text + "\n")
	}
	v := rep.Verdicts
	how := "derived from both files' rules"
	fmt.Fprintf(&b, "\nVerdicts that change (%d %s %s, x %d %s):\n", v.URLs, plural(v.URLs, "URL"), how, len(v.Crawlers), plural(len(v.Crawlers), "crawler"))
	if len(v.Changes) == 0 {
		b.WriteString("  none\n")
	}
	// Crawlers whose changes are the same, URL for URL, go together;
	// their changes are told by verdict, with the URLs.
	type change struct {
		allowed, was bool
		line         int
		rule         string
		urls         []string
	}
	type crawlerChanges struct {
		who     []string
		changes []*change
	}
	var order []string
	byKey := map[string]*crawlerChanges{}
	per := map[string][]tester.DiffChange{}
	var crawlers []string
	for _, c := range v.Changes {
		if per[c.Crawler] == nil {
			crawlers = append(crawlers, c.Crawler)
		}
		per[c.Crawler] = append(per[c.Crawler], c)
	}
	for _, name := range slicesSorted(crawlers, v.Crawlers) {
		var key strings.Builder
		for _, c := range per[name] {
			fmt.Fprintf(&key, "%s %v %d %v %d\n", c.URL, c.Old.Allowed, c.Old.Line, c.New.Allowed, c.New.Line)
		}
		cc := byKey[key.String()]
		if cc == nil {
			cc = &crawlerChanges{}
			byKey[key.String()] = cc
			order = append(order, key.String())
			for _, c := range per[name] {
				var ch *change
				for _, x := range cc.changes {
					if x.was == c.Old.Allowed && x.allowed == c.New.Allowed && x.line == c.New.Line {
						ch = x
					}
				}
				if ch == nil {
					ch = &change{was: c.Old.Allowed, allowed: c.New.Allowed, line: c.New.Line, rule: c.New.Rule}
					cc.changes = append(cc.changes, ch)
				}
				ch.urls = append(ch.urls, c.URL)
			}
		}
		cc.who = append(cc.who, esc(name))
	}
	word := func(allowed bool) string {
		if allowed {
			return paint(color, "allowed", "32")
		}
		return paint(color, "BLOCKED", "31;1")
	}
	for _, k := range order {
		cc := byKey[k]
		who := strings.Join(cc.who, ", ")
		if len(cc.who) > 1 {
			who = fmt.Sprintf("%d crawlers: %s", len(cc.who), who)
		}
		b.WriteString(aiWrap(who, "  ", "  ", aiWidth))
		for _, ch := range cc.changes {
			by := "(no rule matches)"
			if ch.line > 0 {
				by = fmt.Sprintf("by line %d (%s)", ch.line, esc(strings.TrimSpace(ch.rule)))
			}
			var urls []string
			for i, u := range ch.urls {
				if i == 6 {
					urls = append(urls, "...")
					break
				}
				urls = append(urls, esc(u))
			}
			b.WriteString(aiWrap(fmt.Sprintf("%s -> %s %s at %d %s: %s", word(ch.was), word(ch.allowed), by,
				len(ch.urls), plural(len(ch.urls), "URL"), strings.Join(urls, ", ")), "    ", "      ", aiWidth))
		}
	}
	fmt.Fprintf(&b, "%d %s change\n", len(v.Changes), plural(len(v.Changes), "verdict"))
	if written != "" {
		fmt.Fprintf(&b, "Wrote %s.\n", esc(written))
	}
	io.WriteString(w, b.String())
}

// slicesSorted returns names in the order they have in all.
func slicesSorted(names, all []string) []string {
	at := map[string]int{}
	for i, n := range all {
		at[n] = i
	}
	out := append([]string{}, names...)
	sort.SliceStable(out, func(i, j int) bool { return at[out[i]] < at[out[j]] })
	return out
}
