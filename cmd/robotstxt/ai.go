package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

const aiHelp = `Usage: robotstxt ai [FILE | -u URL [--store STORE] [--cached]] [--url PATH]...
                    [--crawler NAME]... [--all] [--json]

Shows who may use a site's content: for each crawler, grouped by purpose
(search, ai-training, ai-search, user-fetch, agent, token-only...), whether
it may fetch each URL and which line decided, with the usage preferences
that apply to it (Content-Usage: train-ai and search, with their lines;
the Content-Signal line of its group). Each crawler is asked in its own
engine's dialect, with its fallback tokens. Then it reports the
contradictions in the file (see docs/ai.md): a training crawler blocked
by name while * says train-ai=y, or let in by a group of its own while *
says train-ai=n; * group lines that crawlers with their own groups never
read; named groups that drop the * rules; search crawlers blocked with the
AI crawlers; rules for tokens that fetch nothing (Google-Extended).

  FILE            the robots.txt file ("-" for standard input); without FILE
                  or -u, the example file bundled with robotstxt
  -u URL          instead of FILE: fetch the live robots.txt of URL's origin
                  now (conditionally when the cache holds a copy); each
                  crawler reads the answer with its own fetch policy
  --store STORE   the cache's store, with -u: memory (this run only), a
                  bbolt file path, or a redis:// URL (default:
                  robotstxt/cache.db in the user's cache directory)
  --cached        with -u: use the cache's copy while it is fresh
  --url PATH      a URL or path to ask about (repeatable); default: /
  --crawler NAME  a crawler from the catalogue, or a token the file names
                  (repeatable, or comma separated; -c NAME too); the default
                  set is the major crawlers of each purpose (Googlebot,
                  Bingbot, DuckDuckBot, Applebot, GPTBot, ClaudeBot, CCBot,
                  Bytespider, Meta-ExternalAgent, Amazonbot, OAI-SearchBot,
                  Claude-SearchBot, PerplexityBot, ChatGPT-User, Claude-User,
                  Perplexity-User, Meta-ExternalFetcher, Google-Agent,
                  Google-Extended, Applebot-Extended) and every crawler the
                  file names (at most 32 more)
  --all           every crawler of the catalogue, and every token the file
                  names
  --json          JSON output (see docs/ai.md)

Exit status: 0 when no finding is an error, 1 when one is, 2 on bad usage
or input.

Examples:
  robotstxt ai robots.txt
  robotstxt ai robots.txt --url /blog/post --url /private/a
  robotstxt ai -u https://example.com/ --crawler GPTBot,ClaudeBot
  robotstxt ai --all --json robots.txt
`

// aiWidth is the width text output fits in.
const aiWidth = 80

func runAI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("ai")
	jsonOut := fs.Bool("json", false, "JSON output")
	all := fs.Bool("all", false, "the whole catalogue")
	var urls, crawlerNames stringList
	fs.Var(&urls, "url", "URL or path (repeatable)")
	fs.Var(&crawlerNames, "crawler", "crawler (repeatable)")
	fs.Var(&crawlerNames, "c", "crawler (repeatable), as check and compare name it")
	src := addSourceFlags(fs)
	files, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "ai", aiHelp, args, err)
	}
	fail := func(format string, a ...any) int {
		complain(stderr, "ai", format, a...)
		return 2
	}
	if err := src.check(fs, len(files) > 0, "a file argument"); err != nil {
		return fail("%v", err)
	}
	if len(files) > 1 {
		return fail("one robots.txt at a time, got %d files", len(files))
	}
	for _, u := range urls {
		if err := checkURL(u); err != nil {
			return fail("--url: %v", err)
		}
	}
	var names []string
	for _, n := range crawlerNames {
		for _, part := range strings.Split(n, ",") {
			if part = strings.TrimSpace(part); part != "" {
				names = append(names, part)
			}
		}
	}
	f := tester.NewSource("example.robots.txt (bundled)", exampleRobots)
	switch {
	case src.URL != "":
		f, err = src.load(context.Background(), robotstxt.DefaultDialect, stderr)
	case len(files) == 1:
		f, err = loadRobots(files[0], stdin)
	}
	if err != nil {
		return fail("%v", err)
	}
	rep, err := tester.AI(f, &tester.AIOptions{URLs: urls, Crawlers: names, All: *all})
	if err != nil {
		var e *tester.Error
		if errors.As(err, &e) && e.Field == "crawlers" {
			did := ""
			if near := nearCrawler(e.Value); near != "" {
				did = "; did you mean " + near + "?"
			}
			return fail("unknown crawler %q%s (robotstxt crawlers lists the catalogue; a token the file names is taken too)", e.Value, did)
		}
		return fail("%v", cliError(err, nil))
	}
	if *jsonOut {
		if err := writeJSON(stdout, rep); err != nil {
			complain(stderr, "ai", "%v", err)
			return 2
		}
	} else {
		writeAI(stdout, rep, useColor(stdout))
	}
	if rep.Errors > 0 {
		return 1
	}
	return 0
}

// writeAI writes the report as text, in aiWidth columns: the summary, a
// line a purpose; the crawlers section by section, each with its group, its verdict at each URL, and
// the preferences that apply; then the findings.
func writeAI(w io.Writer, rep *tester.AIReport, color bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "robots.txt: %s\n", esc(rep.File))
	for _, n := range rep.Notes {
		b.WriteString(aiWrap(esc(n), "note: ", "      ", aiWidth))
	}
	one := len(rep.URLs) == 1
	if one {
		b.WriteString(aiWrap(esc(rep.URLs[0]), "URL: ", "     ", aiWidth))
	} else {
		b.WriteString("URLs:\n")
		for _, u := range rep.URLs {
			b.WriteString(aiWrap(esc(u), "  ", "  ", aiWidth))
		}
	}
	switch {
	case rep.UsageLines == 0 && rep.SignalLines == 0:
		b.WriteString("The file states no usage preference (no Content-Usage or Content-Signal line).\n")
	default:
		b.WriteString(aiWrap(fmt.Sprintf("Usage preferences: %d Content-Usage and %d Content-Signal %s. Content-Usage applies only to URLs a crawler may fetch; unknown categories are not shown.",
			rep.UsageLines, rep.SignalLines, plural(rep.SignalLines, "line")), "", "", aiWidth))
	}
	// The answer first: a line a purpose (tester.AISummary), the table
	// after.
	if len(rep.Summary) > 0 {
		b.WriteString("\nIn short:\n")
		for _, l := range rep.Summary {
			b.WriteString(aiWrap(esc(l.Text), "  ", "      ", aiWidth))
		}
		b.WriteString("\nCrawler by crawler:\n")
	}
	// Column widths: the names and the groups, over every crawler.
	rows := append([]tester.AICrawler{rep.Others}, rep.Crawlers...)
	nameW, groupW := 0, 0
	for i := range rows {
		nameW = max(nameW, displayWidth(aiName(&rows[i])))
		groupW = max(groupW, len(aiGroupText(&rows[i])))
	}
	nameW, groupW = min(nameW, 22), min(groupW, 20)
	urlW := 0
	for _, u := range rep.URLs {
		urlW = max(urlW, displayWidth(esc(u)))
	}
	urlW = min(urlW, 24)
	writeRow := func(c *tester.AICrawler) {
		name, group := aiName(c), aiGroupText(c)
		head := fmt.Sprintf("  %s%s  %s", esc(name), pad(displayWidth(esc(name)), nameW), group)
		var prefs []string // what applies whatever the URL
		if one {
			head += pad(len(group), groupW) + "  " + aiVerdict(&c.Answers[0], color)
			b.WriteString(aiClip(head, aiWidth) + "\n")
			if u := aiUsageText(rep, &c.Answers[0]); u != "" {
				prefs = append(prefs, u)
			}
		} else {
			b.WriteString(aiClip(head, aiWidth) + "\n")
			for i := range c.Answers {
				a := &c.Answers[i]
				u := esc(a.URL)
				line := "    " + u + pad(displayWidth(u), urlW) + "  " + aiVerdict(a, color)
				if displayWidth(u) > urlW {
					line = "    " + u + "\n    " + strings.Repeat(" ", urlW) + "  " + aiVerdict(a, color)
				}
				b.WriteString(aiClip(line, aiWidth) + "\n")
				if u := aiUsageText(rep, a); u != "" {
					b.WriteString(aiWrap(u, "      ", "        ", aiWidth))
				}
			}
		}
		if rep.SignalLines > 0 && c.Answers[0].Policy == "" {
			s := "signal: none"
			if c.Signals != nil {
				s = fmt.Sprintf("signal: %s (line %d)", esc(c.Signals.Text), c.Signals.Line)
			}
			prefs = append(prefs, s)
		}
		if c.ObeysRobots == "no" || c.ObeysRobots == "partly" {
			note := c.RobotsNote
			if note == "" {
				note = "its operator says so"
			}
			prefs = append(prefs, "obeys robots.txt: "+c.ObeysRobots+" ("+esc(note)+")")
		}
		if len(prefs) > 0 {
			ind := "      " // under the crawler's line
			if !one {
				ind = "    " // with the URLs
			}
			b.WriteString(aiWrap(strings.Join(prefs, "; "), ind, ind+"  ", aiWidth))
		}
	}
	b.WriteString("\nany other crawler: what the * group says to a crawler no group names\n")
	writeRow(&rep.Others)
	at := 0
	for _, s := range rep.Sections {
		fmt.Fprintf(&b, "\n")
		b.WriteString(aiWrap(s.Purpose+": "+s.Title, "", "  ", aiWidth))
		for range s.Crawlers {
			writeRow(&rep.Crawlers[at])
			at++
		}
	}
	if len(rep.Findings) == 0 {
		fmt.Fprintf(&b, "\n%d %s: no contradiction found.\n", len(rep.Crawlers), plural(len(rep.Crawlers), "crawler"))
		io.WriteString(w, b.String())
		return
	}
	b.WriteString("\nFindings:\n")
	for _, f := range rep.Findings {
		sev := f.Severity
		switch sev {
		case "error":
			sev = paint(color, sev, "31;1")
		case "warning":
			sev = paint(color, sev, "33")
		}
		var lines []string
		for _, l := range f.Lines {
			lines = append(lines, fmt.Sprint(l.Line))
		}
		where := ""
		if len(lines) > 0 {
			where = " " + plural(len(lines), "line") + " " + strings.Join(lines, ", ")
		}
		fmt.Fprintf(&b, "\n  %s[%s]%s\n", sev, f.Code, where)
		b.WriteString(aiWrap(esc(f.Message), "    ", "    ", aiWidth))
	}
	var counts []string
	for _, c := range []struct {
		n    int
		word string
	}{{rep.Errors, "error"}, {rep.Warnings, "warning"}, {rep.Infos, "info"}} {
		if c.n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", c.n, pick(c.n == 1 || c.word == "info", c.word, c.word+"s")))
		}
	}
	fmt.Fprintf(&b, "\n%d %s; %d %s: %s\n", len(rep.Crawlers), plural(len(rep.Crawlers), "crawler"),
		len(rep.Findings), plural(len(rep.Findings), "finding"), strings.Join(counts, ", "))
	io.WriteString(w, b.String())
}

// aiName is how a crawler is shown: its name, "*" for the others, with
// its token when the line that names it says something else.
func aiName(c *tester.AICrawler) string {
	if c.Name == "*" {
		return "*"
	}
	return c.Name
}

// aiGroupText says which group applies to c, in a few words.
func aiGroupText(c *tester.AICrawler) string {
	g := &c.Group
	line := ""
	if len(g.Lines) > 0 {
		line = fmt.Sprintf(", line %d", g.Lines[0])
	}
	switch {
	case len(c.Answers) > 0 && c.Answers[0].Policy != "":
		return "no rules"
	case g.Kind == "global":
		return "* group" + line
	case g.Kind == "specific" && !strings.EqualFold(g.Token, c.Token):
		return esc(g.Token) + "'s group" + line
	case g.Kind == "specific":
		return "own group" + line
	case c.Name != "*" && strings.Contains(g.Reason, "ignores"):
		return "none (ignores *)"
	}
	return "no group"
}

// aiVerdict is an answer's verdict and what decided it.
func aiVerdict(a *tester.AIAnswer, color bool) string {
	v := paint(color, "allowed", "32")
	if !a.Allowed {
		v = paint(color, "BLOCKED", "31;1")
	}
	switch {
	case a.Policy != "":
		return v + "  " + strings.ReplaceAll(a.Policy, "-", " ") + ": the site gives no rules (see above)"
	case a.Line > 0:
		return fmt.Sprintf("%s  line %d: %s", v, a.Line, esc(strings.TrimSpace(a.Rule)))
	}
	return v + "  no rule matches"
}

// aiUsageText says which Content-Usage preferences apply to an answer:
// "" when the file has no Content-Usage line or the URL may not be
// fetched; the categories stated, each with its preference, and the
// deciding rules' lines.
func aiUsageText(rep *tester.AIReport, a *tester.AIAnswer) string {
	if rep.UsageLines == 0 || a.Usage == nil {
		return ""
	}
	u := a.Usage
	if len(u.Lines) == 0 {
		return "usage: none"
	}
	// The vocabulary's categories in its order (ai-use, of -08, is among
	// the report's others), then the other labels by name.
	var parts []string
	aiUse, ok := u.Other[robotstxt.UsageAIUse]
	if !ok {
		aiUse = "unknown"
	}
	for _, k := range [][2]string{{robotstxt.UsageTrainAI, u.TrainAI}, {robotstxt.UsageAIUse, aiUse}, {robotstxt.UsageSearch, u.Search}} {
		if k[1] != "unknown" {
			parts = append(parts, k[0]+"="+k[1])
		}
	}
	keys := make([]string, 0, len(u.Other))
	for k := range u.Other {
		if k != robotstxt.UsageAIUse {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, esc(k)+"="+u.Other[k])
	}
	stated := strings.Join(parts, ", ")
	if stated == "" {
		stated = "nothing stated"
	}
	var lines []string
	for _, n := range u.Lines {
		lines = append(lines, fmt.Sprint(n))
	}
	return fmt.Sprintf("usage: %s (%s %s)", stated, plural(len(lines), "line"), strings.Join(lines, ", "))
}

// pad is the spaces that bring a text of width w to width n.
func pad(w, n int) string {
	if w >= n {
		return ""
	}
	return strings.Repeat(" ", n-w)
}

// aiClip cuts a line to width columns, ending it in "..." when cut. The
// colour codes (which take no column) are kept whole.
func aiClip(s string, width int) string {
	if displayWidth(s) <= width {
		return s
	}
	var b strings.Builder
	w := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			j := strings.IndexByte(s[i:], 'm')
			if j < 0 {
				break
			}
			b.WriteString(s[i : i+j+1])
			i += j + 1
			continue
		}
		r := []rune(s[i:])[0]
		n := len(string(r))
		cw := displayWidth(string(r))
		if w+cw > width-3 {
			break
		}
		b.WriteString(s[i : i+n])
		w += cw
		i += n
	}
	if strings.Contains(s, "\x1b[") && !strings.HasSuffix(b.String(), "\x1b[0m") {
		b.WriteString("\x1b[0m")
	}
	return b.String() + "..."
}

// aiWrap breaks s into lines of at most width columns at spaces, the
// first after first, the others after ind; each ends in a newline. A
// word longer than a line is broken into pieces that fit.
func aiWrap(s, first, ind string, width int) string {
	var b strings.Builder
	b.WriteString(first)
	n := len(first)
	start := true
	for _, word := range aiWords(s, width-max(len(first), len(ind))) {
		ww := displayWidth(word)
		if !start && n+1+ww > width {
			b.WriteString("\n" + ind)
			n = len(ind)
			start = true
		}
		if !start {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += ww
		start = false
	}
	b.WriteByte('\n')
	return b.String()
}

// pick is a if cond, else b.
func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}

// aiWords splits s at spaces into words of at most n columns, a longer
// word cut into pieces of n columns.
func aiWords(s string, n int) []string {
	n = max(n, 8)
	var out []string
	for _, w := range strings.Fields(s) {
		for displayWidth(w) > n {
			cut, cols := 0, 0
			for i, r := range w {
				c := displayWidth(string(r))
				if cols+c > n {
					break
				}
				cols += c
				cut = i + len(string(r))
			}
			out = append(out, w[:cut])
			w = w[cut:]
		}
		out = append(out, w)
	}
	return out
}
