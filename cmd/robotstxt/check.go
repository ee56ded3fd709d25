package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

const checkHelp = `Usage: robotstxt check (-f FILE | -u URL [--store STORE] [--cached])
                       [-c CRAWLER]... [-a TOKEN]... [--agents A,B]...
                       [-d DIALECT] [-v] [--json | --csv | --markdown] URL...

Says, for each URL and each crawler, whether the crawler may fetch the URL,
which line decided, which group applied and why. With -v it also lists the
other rules that matched and why they lost.

  -f FILE       the robots.txt file ("-" for standard input)
  -u URL        instead of -f: fetch the live robots.txt of URL's origin
                now, once, as robotstxt fetch --refresh does (the request is
                conditional when the cache holds a copy); each row reads
                the answer with its crawler's own fetch policy (-d: one for
                all). For Google a missing robots.txt (4xx) allows
                everything and an unreachable one (5xx, network error)
                disallows everything; for Baidu 401/403 disallow
                everything; for Yandex anything but 200, or a file over
                500 KB, allows everything: each row says which, and why.
                A URL on another origin gets a note: the file does not
                govern it
  --store STORE
                the cache's store, with -u: memory (this run only), a bbolt
                file path, or a redis:// URL (default: robotstxt/cache.db in
                the user's cache directory)
  --cached      with -u: use the cache's copy while it is fresh (up to 24 h,
                as crawlers use it) instead of fetching now; the note says
                when it was fetched
  -c CRAWLER    a crawler from the table (repeatable): its fallback tokens,
                whether it ignores the * group, and its engine's dialect apply
  -a TOKEN      a product token asked about as given (repeatable), with
                Google's semantics, in the google dialect unless -d says.
                For both, the crawl-delay the polite client waits (the
                crawler's group's, else '*''s) is shown, unless the crawler
                ignores it: Google's, Yandex's and Baidu's do
                (docs/protocol.md, "Crawl-delay")
  --agents A,B  one crawler that obeys several tokens at once (Google's
                semantics: every group naming any of them applies; repeatable)
  -d DIALECT    google, rfc9309, bing, yandex, baidu or original: wins over
                each crawler's own dialect (with -u, its fetch policy too)
  -v            also list the rules that matched and lost, with the reason
  --json        JSON output (see docs/cli.md: "check --json")
  --csv         CSV output, one row a URL and crawler: url, crawler, dialect,
                verdict, line, rule, policy (a field that starts with = + - @
                is written after a ')
  --markdown    the same rows as a Markdown table
  --crawlers    list the known crawlers and exit
  URL           absolute URLs or paths starting with /; "-" reads URLs from
                standard input, one a line (not with -f -). Typed URLs are
                normalised as crawlers normalise them (non-ASCII bytes and
                spaces percent-encoded), and the output says so.
Without -c, -a or --agents the question is asked for Googlebot.

Exit status: 0 when every answer is "allowed", 1 when any URL is blocked,
2 on bad usage or input.

Examples:
  robotstxt check -f robots.txt https://example.com/private/a
  robotstxt check -u https://example.com/ -c Bingbot /private/a /search?q=x
  robotstxt check -f robots.txt -c Googlebot -c Bingbot -c Baiduspider \
    -v /private/press/
  robotstxt check -f robots.txt -a MyBot -d rfc9309 /search?q=x
  robotstxt check -f robots.txt --agents googlebot-news,googlebot /news/a
  sed 's/^/https:\/\/example.com/' paths.txt |
    robotstxt check -f robots.txt -c Bingbot -
`

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("check")
	file := fs.String("f", "", "robots.txt file")
	dialect := fs.String("d", "", "dialect")
	verbose := fs.Bool("v", false, "show the rules that lost")
	jsonOut := fs.Bool("json", false, "JSON output")
	csvOut := fs.Bool("csv", false, "CSV output")
	mdOut := fs.Bool("markdown", false, "Markdown output")
	listCrawlers := fs.Bool("crawlers", false, "list the known crawlers")
	src := addSourceFlags(fs)
	var crawlerNames, tokens, agentLists stringList
	fs.Var(&crawlerNames, "c", "crawler (repeatable)")
	fs.Var(&tokens, "a", "product token (repeatable)")
	fs.Var(&agentLists, "agents", "comma-separated tokens of one crawler (repeatable)")
	urls, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "check", checkHelp, args, err)
	}
	fail := func(format string, a ...any) int {
		complain(stderr, "check", format, a...)
		return 2
	}
	if err := outputFlags(*jsonOut, *csvOut, *mdOut); err != nil {
		return fail("%v", err)
	}
	if *listCrawlers {
		writeCrawlerTable(stdout)
		return 0
	}
	if err := src.check(fs, *file != "", "-f"); err != nil {
		return fail("%v", err)
	}
	if *file == "" && src.URL == "" {
		return fail("-f FILE or -u URL is required (the robots.txt to check: a file, - for standard input, or a site's)")
	}
	d, err := parseDialectFlag(*dialect)
	if err != nil {
		return fail("%v", err)
	}
	req := &tester.CheckRequest{Subjects: tester.Subjects{Crawlers: crawlerNames, Agents: tokens, AgentSets: agentSets(agentLists)}, Dialect: d}
	if err := req.Subjects.Validate(); err != nil {
		return fail("%v", cliError(err, agentLists))
	}
	fromStdin := 0
	for _, u := range urls {
		if u == "-" {
			fromStdin++
		}
	}
	if fromStdin > 0 && *file == "-" {
		return fail("-f - and URL - both read standard input: give one of them a file")
	}
	if fromStdin > 1 {
		return fail("URL - given twice")
	}
	var all []string
	for _, u := range urls {
		if u != "-" {
			all = append(all, u)
			continue
		}
		list, err := readURLList(stdin, "standard input")
		if err != nil {
			return fail("%v", err)
		}
		all = append(all, list...)
	}
	if len(all) == 0 {
		return fail("no URL to check (give URLs, or - to read them from standard input)")
	}
	for _, u := range all {
		if err := checkURL(u); err != nil {
			return fail("%v", err)
		}
	}
	var f *robotsFile
	if src.URL != "" {
		f, err = src.load(context.Background(), d, stderr)
	} else {
		f, err = loadRobots(*file, stdin)
	}
	if err != nil {
		return fail("%v", err)
	}
	req.Source, req.URLs = f, all
	rep, err := tester.Check(req)
	if err != nil {
		return fail("%v", cliError(err, agentLists))
	}
	if *jsonOut || *csvOut || *mdOut {
		if err := writeReport(stdout, rep, tester.CheckTable, *csvOut, *mdOut); err != nil {
			complain(stderr, "check", "%v", err)
			return 2
		}
	} else {
		writeCheck(stdout, rep, len(all), *verbose, useColor(stdout))
	}
	if rep.Blocked > 0 {
		return 1
	}
	return 0
}

// writeReport writes rep as CSV or Markdown (the rows table makes), else
// as JSON.
func writeReport[R any](w io.Writer, rep R, table func(R) *tester.Table, csv, markdown bool) error {
	switch {
	case csv:
		return table(rep).WriteCSV(w)
	case markdown:
		return table(rep).WriteMarkdown(w)
	}
	return writeJSON(w, rep)
}

// outputFlags checks that at most one of --json, --csv and --markdown is
// given.
func outputFlags(json, csv, markdown bool) error {
	n := 0
	for _, b := range []bool{json, csv, markdown} {
		if b {
			n++
		}
	}
	if n > 1 {
		return errors.New("give one of --json, --csv and --markdown")
	}
	return nil
}

// writeCheck writes the report of a check of nURLs URLs: its rows come URL
// by URL, one per crawler asked about, and each URL given (the same URL
// twice, or two that normalise to one, included) gets a heading.
func writeCheck(w io.Writer, rep *tester.CheckReport, nURLs int, verbose, color bool) {
	var b strings.Builder
	b.WriteString(fitLine(esc(rep.File), "robots.txt: ", "    "))
	for _, n := range rep.Notes {
		b.WriteString(fitLine(esc(n), "note: ", "      "))
	}
	whoW, dW := 0, 0
	for _, res := range rep.Results {
		whoW = max(whoW, len(esc(res.Who)))
		dW = max(dW, len(res.Dialect))
	}
	perURL := max(len(rep.Results)/max(nURLs, 1), 1)
	for i := range rep.Results {
		res := &rep.Results[i]
		if i%perURL == 0 {
			head := esc(res.URL)
			if res.Input != "" {
				head += fmt.Sprintf("  (normalised from %s)", esc(res.Input))
			}
			b.WriteString("\n" + fitLine(head, "", "  "))
		}
		verdict := paint(color, "allowed", "32")
		if !res.Allowed {
			verdict = paint(color, "BLOCKED", "31;1")
		}
		first := fmt.Sprintf("  %s  %-*s  %-*s  ", verdict, whoW, esc(res.Who), dW, res.Dialect)
		ind := strings.Repeat(" ", 2+7+2)
		var what string
		switch {
		case res.Policy != "" && rep.PerRow:
			what = fmt.Sprintf("%s (%s fetch policy): %s", strings.ReplaceAll(res.Policy, "-", " "), res.FetchPolicy, res.Reason)
		case res.Policy == "disallow-all":
			what = "disallow all: the site's robots.txt gives no rules (see above)"
		case res.Policy == "allow-all":
			what = "allow all: the site's robots.txt gives no rules (see above)"
		case strings.HasPrefix(res.Reason, robotstxt.OversizedReason):
			what = res.Reason
		case res.Line > 0:
			what = fmt.Sprintf("line %d: %s", res.Line, esc(strings.TrimSpace(res.Rule)))
		case strings.HasPrefix(res.Reason, "/robots.txt"):
			what = esc(res.Reason)
		case res.Group.Kind == "none":
			what = "no group applies"
		default:
			what = "no rule matches"
		}
		b.WriteString(fitLine(what, first, ind+"  "))
		if res.Policy == "" {
			b.WriteString(fitLine(esc(res.Group.Reason), ind+"group: ", ind+"  "))
		}
		if verbose {
			if res.Line > 0 {
				b.WriteString(fitLine(esc(res.Reason), ind+"why: ", ind+"  "))
			}
			if res.Path != robotstxt.PathParamsQuery(res.URL) {
				b.WriteString(fitLine(esc(res.Path), ind+"matched against: ", ind+"  "))
			}
			for _, m := range res.Matches {
				if m.Lost == "" {
					continue
				}
				text := strings.TrimSpace(m.Text)
				if m.Implicit {
					text += fmt.Sprintf(" (implicit %s)", esc(m.Pattern))
				}
				b.WriteString(fitLine(fmt.Sprintf("also matched line %d %q, lost: %s", m.Line, text, m.Lost), ind, ind+"  "))
			}
		}
		if res.CrawlDelay != nil {
			fmt.Fprintf(&b, "%scrawl-delay: %gs (line %d)\n", ind, *res.CrawlDelay, res.CrawlDelayLine)
		}
	}
	fmt.Fprintf(&b, "\n%d allowed, %d blocked\n", rep.Allowed, rep.Blocked)
	io.WriteString(w, b.String())
}

// writeCrawlerTable lists the known crawlers, each column as wide as its
// widest cell (a crawler's name, token or operator can be long:
// cohere-training-data-crawler, Allen Institute for AI).
func writeCrawlerTable(w io.Writer) {
	rows := [][]string{{"crawler", "token", "dialect", "operator", "notes"}}
	for _, c := range robotstxt.Crawlers() {
		var notes []string
		if len(c.Fallbacks) > 0 {
			notes = append(notes, "falls back to "+strings.Join(c.Fallbacks, ", "))
		}
		if c.IgnoresGlobal {
			notes = append(notes, "ignores the * group")
		}
		if c.Control {
			notes = append(notes, "control token, fetches nothing")
		}
		notes = append(notes, c.Purpose)
		op := c.Operator
		if op == "" {
			op = "-" // not known
		}
		rows = append(rows, []string{c.Name, c.Token, c.Dialect.String(), op, strings.Join(notes, "; ")})
	}
	io.WriteString(w, alignColumns(rows))
}

// alignColumns lays rows out in columns two spaces apart, each as wide as
// its widest cell in display width; the last column is not padded.
func alignColumns(rows [][]string) string {
	var widths []int
	for _, cells := range rows {
		for i, c := range cells {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	var b strings.Builder
	for _, cells := range rows {
		for i, c := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-displayWidth(c)))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// writeJSON writes v as indented JSON without HTML escaping, and with no
// control character written raw (see jsonWriter).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(jsonWriter{w})
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// tokenWarning says why t, asked about as a product token, is not one, with
// the token a User-Agent header t would name; "" for a valid or empty token.
func tokenWarning(what, t string) string {
	if t == "" || robotstxt.ValidToken(t) {
		return ""
	}
	bad := t[len(robotstxt.ExtractToken(t)):]
	var c string
	switch r := []rune(bad)[0]; r {
	case '/':
		c = "'/'"
	case ' ':
		c = "a space"
	default:
		c = strconv.QuoteRune(r)
	}
	w := fmt.Sprintf("%s %q holds %s, which a product token cannot", what, t, c)
	if pt := robotstxt.ProductToken(t); pt != "" {
		w += fmt.Sprintf(" (the product token of this User-Agent is %q)", pt)
	}
	return w
}

// checkReport is the result of check, also its JSON form.
type checkReport = tester.CheckReport
