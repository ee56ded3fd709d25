package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
	"github.com/seed53c283f5/robotstxt/server"
)

const crawlersHelp = `Usage: robotstxt crawlers [--purpose P]... [--behaviour B]...
                          [--operator NAME]... [--json] [CRAWLER...]

Lists the crawlers the toolkit knows: what each fetches for, who runs it,
whether its operator says it obeys robots.txt, and (in full, or with --json)
its documentation, the address lists and reverse-DNS domains that tell a
real visit from a borrowed name, and where these facts come from
(docs/crawlers.md).

  --purpose P      only crawlers that fetch for P (repeatable, or several
                   separated by commas; a crawler fetching for any of them
                   is listed): search, ai-training, ai-search, user-fetch,
                   agent, preview, ads, archive, seo-tool, token-only, other
  --behaviour B    only crawlers in behaviour class B, as Cloudflare's 2026
                   taxonomy names them (repeatable, or separated by commas;
                   any of them): search, agent, training, transact,
                   data-collection, security-testing, seo,
                   ads-verification, link-preview, feed-fetching,
                   monitoring; "all" lists every crawler. The list then
                   shows ACCESS (direct or intermediary) and BEHAVIOURS.
                   --behavior is the same flag.
  --operator NAME  only crawlers whose operator's name holds NAME, ignoring
                   case (repeatable, or separated by commas)
  --json           JSON: {"crawlers": [...], "purposes": [...],
                   "behaviours": [...]}
  CRAWLER...       show these crawlers in full (a name, token or alias)

The list shows ROBOTS as the operator states it: yes, no, partly (some rules
or some fetches; the full view says which) or unknown. Purposes are what the
operator says it fetches for; behaviours are the classes an edge operator's
policy acts on (docs/crawlers.md, Behaviours, says how they relate).

Examples:
  robotstxt crawlers --purpose ai-training
  robotstxt crawlers --purpose ai-search,user-fetch --operator openai
  robotstxt crawlers --behaviour training
  robotstxt crawlers --behaviour agent --operator google
  robotstxt crawlers GPTBot Google-Extended
  robotstxt crawlers --json --purpose ai-training | jq -r '.crawlers[].token'
`

// crawlersReport is what --json writes: the crawlers as GET /v1/crawlers
// lists them.
type crawlersReport struct {
	Crawlers []server.CrawlerInfo `json:"crawlers"`
	// Purposes are the purposes' names, for --purpose.
	Purposes []string `json:"purposes"`
	// Behaviours are the behaviour classes' names, for --behaviour.
	Behaviours []string `json:"behaviours"`
}

func runCrawlers(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("crawlers")
	var purposes, behaviours, operators stringList
	fs.Var(&purposes, "purpose", "purposes (repeatable)")
	fs.Var(&behaviours, "behaviour", "behaviour classes (repeatable)")
	fs.Var(&behaviours, "behavior", "behaviour classes (repeatable)")
	fs.Var(&operators, "operator", "operators (repeatable)")
	jsonOut := fs.Bool("json", false, "JSON output")
	names, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "crawlers", crawlersHelp, args, err)
	}
	var want robotstxt.Purpose
	for _, v := range purposes {
		p, err := robotstxt.ParsePurpose(v)
		if err != nil {
			complain(stderr, "crawlers", "--purpose: %s%s", strings.TrimPrefix(err.Error(), "robotstxt: "), nearPurposes(v))
			return 2
		}
		if p == 0 {
			complain(stderr, "crawlers", "--purpose needs a purpose: %s", strings.Join(purposeNames(), ", "))
			return 2
		}
		want |= p
	}
	wantB, byBehaviour, ok := parseBehaviourFlags(stderr, behaviours)
	if !ok {
		return 2
	}
	var ops []string
	for _, v := range operators {
		for _, o := range strings.Split(v, ",") {
			if o = strings.TrimSpace(o); o != "" {
				ops = append(ops, strings.ToLower(o))
			}
		}
	}
	if len(operators) > 0 && len(ops) == 0 {
		complain(stderr, "crawlers", "--operator needs a name")
		return 2
	}

	var list []robotstxt.Crawler
	if len(names) > 0 {
		for _, n := range names {
			c, ok := robotstxt.LookupCrawler(n)
			if !ok {
				did := ""
				if near := nearCrawler(n); near != "" {
					did = "; did you mean " + near + "?"
				}
				complain(stderr, "crawlers", "unknown crawler %q%s (robotstxt crawlers lists the table)", n, did)
				return 2
			}
			list = append(list, c)
		}
	} else {
		list = robotstxt.CrawlersByPurpose(want)
	}
	list = filterCrawlers(list, want, ops)
	if wantB != 0 {
		list = slices.DeleteFunc(list, func(c robotstxt.Crawler) bool { return !c.Behaviours.Any(wantB) })
	}

	if *jsonOut {
		rep := crawlersReport{Crawlers: make([]server.CrawlerInfo, 0, len(list)), Purposes: purposeNames(), Behaviours: behaviourNames()}
		for i := range list {
			rep.Crawlers = append(rep.Crawlers, server.NewCrawlerInfo(&list[i]))
		}
		if err := writeJSON(stdout, rep); err != nil {
			complain(stderr, "crawlers", "%v", err)
			return 2 // output that cannot be written: the exit-status rule's 2
		}
		return 0
	}
	if len(names) > 0 {
		writeCrawlerDetails(stdout, list)
		return 0
	}
	if byBehaviour {
		writeBehaviourList(stdout, list, wantB, ops)
		return 0
	}
	writeCrawlerList(stdout, list, want, ops)
	return 0
}

// parseBehaviourFlags reads the --behaviour flags: the classes asked for,
// whether any flag was given (the list then shows behaviours), and false
// after saying what is wrong. "all" asks for the view without a filter.
func parseBehaviourFlags(stderr io.Writer, flags []string) (robotstxt.Behaviour, bool, bool) {
	var want robotstxt.Behaviour
	all := false
	for _, v := range flags {
		if strings.EqualFold(strings.TrimSpace(v), "all") {
			all = true
			continue
		}
		b, err := robotstxt.ParseBehaviour(v)
		if err != nil {
			complain(stderr, "crawlers", "--behaviour: %s%s", strings.TrimPrefix(err.Error(), "robotstxt: "), nearBehaviours(v))
			return 0, false, false
		}
		if b == 0 {
			complain(stderr, "crawlers", "--behaviour needs a class: %s, or all", strings.Join(behaviourNames(), ", "))
			return 0, false, false
		}
		want |= b
	}
	if all {
		want = 0
	}
	return want, len(flags) > 0, true
}

func behaviourNames() []string {
	var out []string
	for _, b := range robotstxt.AllBehaviours() {
		out = append(out, b.String())
	}
	return out
}

// nearBehaviours suggests a class for the first name of list that is none.
func nearBehaviours(list string) string {
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if _, err := robotstxt.ParseBehaviour(n); err == nil {
			continue
		}
		if near := suggest.Nearest(n, behaviourNames()); near != "" {
			return "; did you mean " + near + "?"
		}
	}
	return ""
}

// writeBehaviourList writes one line a crawler, NAME OPERATOR ACCESS
// BEHAVIOURS, in at most listWidth columns, as writeCrawlerList does.
func writeBehaviourList(w io.Writer, list []robotstxt.Crawler, want robotstxt.Behaviour, ops []string) {
	in := ""
	if want != 0 {
		in = " in " + strings.Join(want.Names(), " or ")
	}
	writeColumns(w, list, listColumns{
		third: "ACCESS", thirdW: len("intermediary"), fourth: "BEHAVIOURS",
		values: func(c *robotstxt.Crawler) (string, string) { return c.Access.String(), behavioursText(c) },
		want:   in, ops: ops, footer: `"robotstxt crawlers NAME" shows one in full, with sources.`,
	})
}

// listColumns are what a crawler list shows beside NAME and OPERATOR.
type listColumns struct {
	third  string // the third column's heading
	thirdW int    // its width
	fourth string // the last column's heading
	values func(*robotstxt.Crawler) (third, fourth string)
	want   string // what the list was narrowed to, for its summary
	ops    []string
	footer string // the last line
}

// writeColumns writes one line a crawler, NAME OPERATOR and the two
// columns of cols, in at most listWidth columns: the operator column takes
// what the others leave and a longer name is cut, ending in "...". Only
// the operators asked for, in the summary, come from outside: they are
// escaped.
func writeColumns(w io.Writer, list []robotstxt.Crawler, cols listColumns) {
	nameW, opLen, lastW := len("NAME"), len("OPERATOR"), len(cols.fourth)
	for i := range list {
		c := &list[i]
		nameW = max(nameW, len(c.Name))
		opLen = max(opLen, len(c.Operator))
		_, last := cols.values(c)
		lastW = max(lastW, len(last))
	}
	opW := max(min(listWidth-nameW-cols.thirdW-lastW-3, opLen), len("OPERATOR"))
	var b strings.Builder
	row := func(name, op, third, last string) {
		line := fmt.Sprintf("%-*s %-*s %-*s %s", nameW, name, opW, cut(op, opW), cols.thirdW, third, last)
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	row("NAME", "OPERATOR", cols.third, cols.fourth)
	for i := range list {
		c := &list[i]
		op := c.Operator
		if op == "" {
			op = "-"
		}
		third, last := cols.values(c)
		row(c.Name, op, third, last)
	}
	summary := fmt.Sprintf("%d %s", len(list), plural(len(list), "crawler")) + cols.want
	if len(cols.ops) > 0 {
		summary += " run by " + esc(strings.Join(cols.ops, " or "))
	}
	if len(list) == 0 {
		io.WriteString(w, wrap(summary+".", listWidth))
		return
	}
	b.WriteByte('\n')
	b.WriteString(wrap(summary+".", listWidth))
	b.WriteString(cols.footer + "\n")
	io.WriteString(w, b.String())
}

// behavioursText is the crawler's behaviour classes as the lists show
// them: "unclassified" for none.
func behavioursText(c *robotstxt.Crawler) string {
	if c.Behaviours == 0 {
		return "unclassified"
	}
	return c.Behaviours.String()
}

// filterCrawlers keeps the crawlers that fetch for a purpose of want (any,
// when want is empty) and whose operator holds one of ops (any, when ops
// is empty).
func filterCrawlers(list []robotstxt.Crawler, want robotstxt.Purpose, ops []string) []robotstxt.Crawler {
	var out []robotstxt.Crawler
	for _, c := range list {
		if want != 0 && !c.Purposes.Any(want) {
			continue
		}
		if len(ops) > 0 && !operatorMatches(c.Operator, ops) {
			continue
		}
		out = append(out, c)
	}
	return out
}

func operatorMatches(operator string, ops []string) bool {
	op := strings.ToLower(operator)
	for _, o := range ops {
		if strings.Contains(op, o) {
			return true
		}
	}
	return false
}

func purposeNames() []string {
	var out []string
	for _, p := range robotstxt.AllPurposes() {
		out = append(out, p.String())
	}
	return out
}

// listWidth is the width the list fits in.
const listWidth = 80

// writeCrawlerList writes one line a crawler, NAME OPERATOR ROBOTS
// PURPOSES, in at most listWidth columns: the operator column takes what
// the others leave and a longer name is cut, ending in "...". Only the
// operators asked for, in the last line, come from outside: they are
// escaped.
func writeCrawlerList(w io.Writer, list []robotstxt.Crawler, want robotstxt.Purpose, ops []string) {
	fetching := ""
	if want != 0 {
		fetching = " fetching for " + strings.Join(want.Names(), " or ")
	}
	writeColumns(w, list, listColumns{
		third: "ROBOTS", thirdW: len("unknown"), fourth: "PURPOSES",
		values: func(c *robotstxt.Crawler) (string, string) { return c.ObeysRobots.String(), purposesText(c) },
		want:   fetching, ops: ops, footer: `"robotstxt crawlers NAME" shows one in full.`,
	})
}

// wrap breaks s into lines of at most width bytes at spaces (a longer
// word stands alone), each ending in a newline.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for _, word := range strings.Fields(s) {
		if n > 0 && n+1+len(word) > width {
			b.WriteByte('\n')
			n = 0
		}
		if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	b.WriteByte('\n')
	return b.String()
}

// purposesText is the crawler's purposes as the list shows them.
func purposesText(c *robotstxt.Crawler) string {
	if c.Purposes == 0 {
		return "unknown"
	}
	return c.Purposes.String()
}

// cut shortens s to n bytes, ending in "..." when it had more.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 3 {
		return s[:n]
	}
	return s[:n-3] + "..."
}

// writeCrawlerDetails writes every field of each crawler, one a line. The
// table's text is the toolkit's own, so it needs no escaping.
func writeCrawlerDetails(w io.Writer, list []robotstxt.Crawler) {
	var b strings.Builder
	for i, c := range list {
		if i > 0 {
			b.WriteByte('\n')
		}
		field := func(name, value string) {
			if value == "" {
				value = "-"
			}
			fmt.Fprintf(&b, "  %-13s %s\n", name, value)
		}
		b.WriteString(c.Name + "\n")
		field("token", strings.Join(c.Tokens(), ", then "))
		field("aliases", strings.Join(c.Aliases, ", "))
		field("operator", c.Operator)
		field("purposes", purposesText(&c)+" ("+c.Purpose+")")
		robots := c.ObeysRobots.String()
		if c.RobotsNote != "" {
			robots += ": " + c.RobotsNote
		}
		field("robots.txt", robots)
		field("behaviours", behavioursText(&c)+"; "+c.Access.String()+" access")
		// The note is prose: wrapped under its value's column.
		note := strings.TrimSuffix(wrap(c.BehaviourNote, listWidth-16), "\n")
		field("  how", strings.ReplaceAll(note, "\n", "\n"+strings.Repeat(" ", 16)))
		field("  from", c.BehaviourSource)
		var reading []string
		reading = append(reading, c.Dialect.String()+" dialect")
		if c.IgnoresGlobal {
			reading = append(reading, "ignores the * group")
		}
		if c.IgnoresCrawlDelay {
			reading = append(reading, "ignores crawl-delay")
		}
		field("reads", strings.Join(reading, ", "))
		field("docs", c.Docs)
		field("ip ranges", strings.Join(c.IPRanges, " "))
		field("reverse DNS", strings.Join(c.ReverseDNS, ", "))
		field("source", c.Source+" (checked "+c.Checked+")")
	}
	io.WriteString(w, b.String())
}
