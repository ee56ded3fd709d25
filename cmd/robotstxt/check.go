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
)

const checkHelp = `Usage: robotstxt check (-f FILE | -u URL [--store SPEC]) [-c CRAWLER]... [-a TOKEN]...
                       [--agents A,B]... [-d DIALECT] [-v] [--json] URL...

Says, for each URL and each crawler, whether the crawler may fetch the URL,
which line decided, which group applied and why. With -v it also lists the
other rules that matched and why they lost.

  -f FILE       the robots.txt file ("-" for standard input)
  -u URL        instead of -f: fetch the live robots.txt of URL's origin
                once, through the cache, as robotstxt fetch does; each row
                reads the answer with its crawler's own fetch policy (-d:
                one for all). For Google a missing robots.txt (4xx) allows
                everything and an unreachable one (5xx, network error)
                disallows everything; for Baidu 401/403 disallow
                everything; for Yandex anything but 200, or a file over
                500 KB, allows everything: each row says which, and why.
                A URL on another origin gets a note: the file does not
                govern it
  --store SPEC  the cache's store, with -u: memory (this run only), a bbolt
                file path, or a redis:// URL (default: robotstxt/cache.db in
                the user's cache directory)
  -c CRAWLER    a crawler from the table (repeatable): its fallback tokens,
                whether it ignores the * group, and its engine's dialect apply
  -a TOKEN      a product token asked about as given (repeatable), with
                Google's semantics, in the google dialect unless -d says;
                its crawl-delay (its group's, else '*''s) is shown, as the
                polite client paces a custom crawler by it (not for the
                tokens of Google's crawlers, which ignore it)
  --agents A,B  one crawler that obeys several tokens at once (Google's
                semantics: every group naming any of them applies; repeatable)
  -d DIALECT    google, rfc9309, bing, yandex, baidu or original: wins over
                each crawler's own dialect (with -u, its fetch policy too)
  -v            also list the rules that matched and lost, with the reason
  --json        JSON output (see README: "check --json")
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
  robotstxt check -f robots.txt -c Googlebot -c Bingbot -c Baiduspider -v /private/press/
  robotstxt check -f robots.txt -a MyBot -d rfc9309 /search?q=x
  robotstxt check -f robots.txt --agents googlebot-news,googlebot /news/a
  sed 's/^/https:\/\/example.com/' paths.txt | robotstxt check -f robots.txt -c Bingbot -
`

// checkSubject is who a check asks about: a known crawler or tokens.
type checkSubject struct {
	label   string
	crawler *robotstxt.Crawler
	agents  []string
	token   bool // from -a: a custom crawler, paced by crawl-delay
}

// checkReport is the result of check, also its JSON form.
type checkReport struct {
	File    string        `json:"file"`
	Fetch   *fetchInfo    `json:"fetch,omitempty"` // with -u
	Notes   []string      `json:"notes,omitempty"`
	Results []checkResult `json:"results"`
	Allowed int           `json:"allowed"`
	Blocked int           `json:"blocked"`
	// perRow is set when the rows read the fetched answer with fetch
	// policies that differ: each row's text says which it used.
	perRow bool
}

type checkResult struct {
	URL            string          `json:"url"`
	Input          string          `json:"input,omitempty"` // the URL as typed, when normalising changed it
	Who            string          `json:"who"`
	Crawler        string          `json:"crawler,omitempty"`
	Agents         []string        `json:"agents,omitempty"`
	Dialect        string          `json:"dialect"`
	Allowed        bool            `json:"allowed"`
	Path           string          `json:"path"`
	Line           int             `json:"line"`
	Rule           string          `json:"rule"`
	Reason         string          `json:"reason"`
	Group          checkGroup      `json:"group"`
	CrawlDelay     *float64        `json:"crawl_delay,omitempty"`
	CrawlDelayLine int             `json:"crawl_delay_line,omitempty"`
	Matches        []checkRuleJSON `json:"matches"`
	// Policy is set when no rules applied: a fetch policy ("allow-all",
	// "disallow-all") decided.
	Policy string `json:"policy,omitempty"`
	// FetchPolicy is, with -u and no -d, the dialect whose fetch policy
	// read the site's answer for this row: the crawler's own.
	FetchPolicy string `json:"fetch_policy,omitempty"`
}

type checkGroup struct {
	Kind   string `json:"kind"` // specific, global or none
	Token  string `json:"token,omitempty"`
	Lines  []int  `json:"lines"`
	Reason string `json:"reason"`
}

type checkRuleJSON struct {
	Line     int    `json:"line"`
	Allow    bool   `json:"allow"`
	Pattern  string `json:"pattern"`
	Text     string `json:"text"`
	Implicit bool   `json:"implicit,omitempty"`
	Lost     string `json:"lost,omitempty"`
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("check")
	file := fs.String("f", "", "robots.txt file")
	dialect := fs.String("d", "", "dialect")
	verbose := fs.Bool("v", false, "show the rules that lost")
	jsonOut := fs.Bool("json", false, "JSON output")
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
	subjects, err := checkSubjects(crawlerNames, tokens, agentLists)
	if err != nil {
		return fail("%v", err)
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
	rep := check(f, subjects, d, all)
	if *jsonOut {
		if err := writeJSON(stdout, rep); err != nil {
			complain(stderr, "check", "%v", err)
			return 2
		}
	} else {
		writeCheck(stdout, rep, *verbose, useColor(stdout))
	}
	if rep.Blocked > 0 {
		return 1
	}
	return 0
}

// checkSubjects turns -c, -a and --agents into the subjects asked about, in
// that order; none means Googlebot.
func checkSubjects(crawlerNames, tokens, agentLists []string) ([]checkSubject, error) {
	var out []checkSubject
	crawlers, err := lookupCrawlers(crawlerNames)
	if err != nil {
		return nil, err
	}
	for i := range crawlers {
		out = append(out, checkSubject{label: crawlers[i].Name, crawler: &crawlers[i]})
	}
	valid := func(t string) error {
		if !robotstxt.ValidToken(t) {
			msg := fmt.Sprintf("%q is not a product token: tokens are letters, '-' and '_' only (Googlebot, not Googlebot/2.1)", t)
			if pt := robotstxt.ProductToken(t); pt != "" && !strings.EqualFold(pt, "Mozilla") {
				msg += "; did you mean -a " + pt + "?"
			}
			return errors.New(msg)
		}
		return nil
	}
	for _, t := range tokens {
		if err := valid(t); err != nil {
			return nil, err
		}
		out = append(out, checkSubject{label: t, agents: []string{t}, token: !ignoresCrawlDelay(t)})
	}
	for _, l := range agentLists {
		var toks []string
		for _, t := range strings.Split(l, ",") {
			t = strings.TrimSpace(t)
			if t == "" {
				continue
			}
			if err := valid(t); err != nil {
				return nil, err
			}
			toks = append(toks, t)
		}
		if len(toks) == 0 {
			return nil, fmt.Errorf("--agents %q names no token", l)
		}
		out = append(out, checkSubject{label: strings.Join(toks, "+"), agents: toks})
	}
	if len(out) == 0 {
		c, _ := robotstxt.LookupCrawler("Googlebot")
		out = append(out, checkSubject{label: c.Name, crawler: &c})
	}
	return out, nil
}

func check(f *robotsFile, subjects []checkSubject, d robotstxt.Dialect, urls []string) *checkReport {
	var ds []robotstxt.Dialect
	for _, s := range subjects {
		ds = append(ds, rowDialect(robotstxt.Query{Crawler: s.crawler, Dialect: d}))
	}
	rep := &checkReport{File: f.Name, Fetch: f.Fetched, Notes: f.fetchNotes(ds...), Results: []checkResult{}, perRow: f.mixed(ds)}
	rep.Notes = append(rep.Notes, f.fileNotes()...)
	rep.Notes = append(rep.Notes, f.originNotes(urls)...)
	for _, u := range urls {
		n := robotstxt.NormalizeURL(u)
		for _, s := range subjects {
			q := robotstxt.Query{URL: n, Crawler: s.crawler, Agents: s.agents, Dialect: d, Explain: true}
			if s.crawler == nil && d == robotstxt.DefaultDialect {
				q.Dialect = robotstxt.Google
			}
			a := f.answer(rowDialect(q))
			dec := a.Decide(q)
			policy := a.Policy.String()
			res := checkResult{URL: n, Who: s.label, Agents: s.agents, Dialect: dec.Dialect.String(),
				Allowed: dec.Allowed, Path: dec.Path, Line: dec.Line(), Reason: dec.Reason,
				Group:   checkGroup{Kind: dec.Group.Kind.String(), Token: dec.Group.Token, Lines: dec.Group.Lines, Reason: dec.Group.Reason},
				Matches: []checkRuleJSON{}}
			if res.Group.Lines == nil {
				res.Group.Lines = []int{}
			}
			if n != u {
				res.Input = u
			}
			if policy != "rules" && dec.Path != "/robots.txt" {
				res.Policy = policy
			}
			if f.perRow() {
				res.FetchPolicy = a.Dialect.String()
			}
			if s.crawler != nil {
				res.Crawler = s.crawler.Name
			}
			if dec.HasRule() {
				res.Rule = dec.Rule.Text
			}
			if dec.HasCrawlDelay && dec.Dialect.HonoursCrawlDelay() {
				cd := dec.CrawlDelay
				res.CrawlDelay, res.CrawlDelayLine = &cd, dec.CrawlDelayLine
			} else if s.token && policy == "rules" && a.Robots != nil {
				// A token is a custom crawler: it honours crawl-delay
				// whatever the dialect, as the polite client paces it
				// (its group's, else '*''s).
				if p := a.Robots.CrawlDelay(q); p.CrawlDelayLine != 0 {
					cd := p.CrawlDelay
					res.CrawlDelay, res.CrawlDelayLine = &cd, p.CrawlDelayLine
				}
			}
			for _, m := range dec.Matches {
				res.Matches = append(res.Matches, checkRuleJSON{Line: m.Line, Allow: m.Allow, Pattern: m.Pattern, Text: m.Text, Implicit: m.Implicit, Lost: m.Lost})
			}
			if dec.Allowed {
				rep.Allowed++
			} else {
				rep.Blocked++
			}
			rep.Results = append(rep.Results, res)
		}
	}
	return rep
}

func writeCheck(w io.Writer, rep *checkReport, verbose, color bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "robots.txt: %s\n", esc(rep.File))
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note: %s\n", esc(n))
	}
	whoW, dW := 0, 0
	for _, res := range rep.Results {
		whoW = max(whoW, len(esc(res.Who)))
		dW = max(dW, len(res.Dialect))
	}
	last := ""
	for _, res := range rep.Results {
		if res.URL != last || last == "" {
			last = res.URL
			b.WriteString("\n" + esc(res.URL))
			if res.Input != "" {
				fmt.Fprintf(&b, "  (normalised from %s)", esc(res.Input))
			}
			b.WriteString("\n")
		}
		verdict := paint(color, "allowed", "32")
		if !res.Allowed {
			verdict = paint(color, "BLOCKED", "31;1")
		}
		fmt.Fprintf(&b, "  %s  %-*s  %-*s  ", verdict, whoW, esc(res.Who), dW, res.Dialect)
		switch {
		case res.Policy != "" && rep.perRow:
			fmt.Fprintf(&b, "%s (%s fetch policy): %s\n", strings.ReplaceAll(res.Policy, "-", " "), res.FetchPolicy, res.Reason)
		case res.Policy == "disallow-all":
			b.WriteString("disallow all: the site's robots.txt gives no rules (see above)\n")
		case res.Policy == "allow-all":
			b.WriteString("allow all: the site's robots.txt gives no rules (see above)\n")
		case strings.HasPrefix(res.Reason, robotstxt.OversizedReason):
			b.WriteString(res.Reason + "\n")
		case res.Line > 0:
			fmt.Fprintf(&b, "line %d: %s\n", res.Line, esc(strings.TrimSpace(res.Rule)))
		case strings.HasPrefix(res.Reason, "/robots.txt"):
			b.WriteString(esc(res.Reason) + "\n")
		case res.Group.Kind == "none":
			b.WriteString("no group applies\n")
		default:
			b.WriteString("no rule matches\n")
		}
		ind := strings.Repeat(" ", 2+7+2)
		if res.Policy == "" {
			fmt.Fprintf(&b, "%sgroup: %s\n", ind, esc(res.Group.Reason))
		}
		if verbose {
			if res.Line > 0 {
				fmt.Fprintf(&b, "%swhy: %s\n", ind, esc(res.Reason))
			}
			if res.Path != robotstxt.PathParamsQuery(res.URL) {
				fmt.Fprintf(&b, "%smatched against: %s\n", ind, esc(res.Path))
			}
			for _, m := range res.Matches {
				if m.Lost == "" {
					continue
				}
				text := strings.TrimSpace(m.Text)
				if m.Implicit {
					text += fmt.Sprintf(" (implicit %s)", esc(m.Pattern))
				}
				fmt.Fprintf(&b, "%salso matched line %d %q, lost: %s\n", ind, m.Line, text, m.Lost)
			}
		}
		if res.CrawlDelay != nil {
			fmt.Fprintf(&b, "%scrawl-delay: %gs (line %d)\n", ind, *res.CrawlDelay, res.CrawlDelayLine)
		}
	}
	fmt.Fprintf(&b, "\n%d allowed, %d blocked\n", rep.Allowed, rep.Blocked)
	io.WriteString(w, b.String())
}

// writeCrawlerTable lists the known crawlers.
func writeCrawlerTable(w io.Writer) {
	var b strings.Builder
	fmt.Fprintf(&b, "%-24s %-22s %-9s %-10s %s\n", "crawler", "token", "dialect", "operator", "notes")
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
		fmt.Fprintf(&b, "%-24s %-22s %-9s %-10s %s\n", c.Name, c.Token, c.Dialect, c.Operator, strings.Join(notes, "; "))
	}
	io.WriteString(w, b.String())
}

// writeJSON writes v as indented JSON without HTML escaping, and with no
// control character written raw (see jsonWriter).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(jsonWriter{w})
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// ignoresCrawlDelay reports whether token is the token of a known crawler
// that ignores crawl-delay (Google's).
func ignoresCrawlDelay(token string) bool {
	c, ok := robotstxt.LookupCrawler(token)
	return ok && c.IgnoresCrawlDelay
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
