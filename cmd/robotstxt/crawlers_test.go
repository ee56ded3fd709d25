package main

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

// listedNames returns the names in the list's rows: its lines between the
// header and the blank line. Names may hold spaces, so a row is matched
// against the table's names rather than split.
func listedNames(t *testing.T, out string) []string {
	t.Helper()
	ls := lines(out)
	if len(ls) < 3 || !strings.HasPrefix(ls[0], "NAME ") {
		t.Fatalf("no list:\n%s", out)
	}
	var names []string
	for _, l := range ls[1:] {
		if l == "" {
			break
		}
		found := ""
		for _, c := range robotstxt.Crawlers() {
			if strings.HasPrefix(l, c.Name+" ") && len(c.Name) > len(found) {
				found = c.Name
			}
		}
		if found == "" {
			t.Fatalf("row %q names no crawler", l)
		}
		names = append(names, found)
	}
	return names
}

func tableNames(cs []robotstxt.Crawler) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func TestCrawlersList(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"--purpose", "ai-training"},
		{"--purpose", "ai-search,user-fetch"},
		{"--purpose", "token-only"},
		{"--operator", "google"},
		{"--purpose", "agent", "--operator", "amazon"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"crawlers"}, args...)...)
		if code != 0 || stderr != "" {
			t.Fatalf("%q: exit %d, %s", args, code, stderr)
		}
		for _, l := range lines(out) {
			if len(l) > 80 {
				t.Errorf("%q: a line of %d columns: %q", args, len(l), l)
			}
		}
		names := listedNames(t, out)
		if len(args) == 0 {
			if want := tableNames(robotstxt.Crawlers()); !slices.Equal(names, want) {
				t.Errorf("the list is not the table:\n%q\n%q", names, want)
			}
			if !strings.Contains(out, "\n"+strconv.Itoa(len(names))+" crawlers.\n\"robotstxt crawlers NAME\" shows one in full.\n") {
				t.Errorf("no count:\n%s", out)
			}
		}
		if len(names) == 0 {
			t.Errorf("%q: nothing listed", args)
		}
	}
	_, out, _ := runCmd(t, "", "crawlers", "--purpose", "ai-training")
	if want := tableNames(robotstxt.CrawlersByPurpose(robotstxt.PurposeAITraining)); !slices.Equal(listedNames(t, out), want) {
		t.Errorf("ai-training:\n%s", out)
	}
	if !strings.Contains(out, "\nGPTBot ") || strings.Contains(out, "\nGooglebot ") {
		t.Errorf("ai-training:\n%s", out)
	}
	// Repeated or comma separated: the same.
	_, a, _ := runCmd(t, "", "crawlers", "--purpose", "ai-search", "--purpose", "user-fetch", "--operator", "OpenAI", "--operator", "meta")
	_, b, _ := runCmd(t, "", "crawlers", "--purpose", "ai-search, user-fetch", "--operator", "openai,Meta")
	if a != b || !strings.Contains(a, "ChatGPT-User") || !strings.Contains(a, "Meta-ExternalFetcher") || strings.Contains(a, "GPTBot") {
		t.Errorf("repeated:\n%s\ncomma separated:\n%s", a, b)
	}
	code, out, _ := runCmd(t, "", "crawlers", "--operator", "no such operator")
	if code != 0 || out != "0 crawlers run by no such operator.\n" {
		t.Errorf("nothing found: exit %d, %q", code, out)
	}
}

func TestCrawlersJSON(t *testing.T) {
	code, out, _ := runCmd(t, "", "crawlers", "--json")
	var rep crawlersReport
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	table := robotstxt.Crawlers()
	if len(rep.Crawlers) != len(table) || len(rep.Purposes) != len(robotstxt.AllPurposes()) {
		t.Fatalf("%d crawlers, %d purposes", len(rep.Crawlers), len(rep.Purposes))
	}
	for i, e := range rep.Crawlers {
		c := table[i]
		p, err := robotstxt.ParsePurpose(strings.Join(e.Purposes, ","))
		if e.Name != c.Name || e.Token != c.Token || err != nil || p != c.Purposes || e.ObeysRobots != c.ObeysRobots.String() ||
			e.Checked != c.Checked || e.Source != c.Source || !slices.Equal(e.IPRanges, c.IPRanges) || e.Fallbacks == nil || e.ReverseDNS == nil {
			t.Errorf("entry %d: %+v\ntable: %+v", i, e, c)
		}
	}
	_, out, _ = runCmd(t, "", "crawlers", "--json", "--purpose", "token-only")
	rep = crawlersReport{}
	json.Unmarshal([]byte(out), &rep)
	if len(rep.Crawlers) != 2 || rep.Crawlers[0].Name != "Google-Extended" || !rep.Crawlers[0].Control {
		t.Errorf("token-only: %s", out)
	}
	_, out, _ = runCmd(t, "", "crawlers", "--json", "gptbot")
	rep = crawlersReport{}
	json.Unmarshal([]byte(out), &rep)
	if len(rep.Crawlers) != 1 || rep.Crawlers[0].IPRanges[0] != "https://openai.com/gptbot.json" {
		t.Errorf("one crawler: %s", out)
	}
}

func TestCrawlersDetails(t *testing.T) {
	code, out, _ := runCmd(t, "", "crawlers", "googlebot-image", "Brightbot 1.0")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"Googlebot-Image\n  token         Googlebot-Image, then Googlebot\n",
		"  reverse DNS   googlebot.com\n",
		"  ip ranges     https://developers.google.com/static/crawling/ipranges/common-crawlers.json\n",
		"\n\nBrightbot\n",
		"  aliases       Brightbot 1.0\n",
		"  robots.txt    unknown\n",
		"(checked 2026-11-25)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	_, out, _ = runCmd(t, "", "crawlers", "AdsBot-Google")
	if !strings.Contains(out, "  robots.txt    partly: obeys groups naming it; ignores the '*' group\n") || !strings.Contains(out, "ignores the * group, ignores crawl-delay") {
		t.Errorf("AdsBot-Google:\n%s", out)
	}
	// A filter applies to the crawlers named too.
	_, out, _ = runCmd(t, "", "crawlers", "--purpose", "search", "GPTBot", "Googlebot")
	if strings.Contains(out, "GPTBot") || !strings.Contains(out, "Googlebot\n") {
		t.Errorf("filtered details:\n%s", out)
	}
}

func TestCrawlersErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--purpose", "nope"}, `robotstxt crawlers: --purpose: unknown purpose "nope" (want one of search, ai-training,`},
		{[]string{"--purpose", " , "}, "robotstxt crawlers: --purpose needs a purpose: search, ai-training,"},
		{[]string{"--operator", ","}, "robotstxt crawlers: --operator needs a name\n"},
		{[]string{"Nobot"}, `robotstxt crawlers: unknown crawler "Nobot" (robotstxt crawlers lists the table)` + "\n"},
		{[]string{"bad\x1b[2Jname"}, `robotstxt crawlers: unknown crawler "bad\x1b[2Jname"`},
		{[]string{"--nosuch"}, "robotstxt crawlers: unknown flag --nosuch (robotstxt crawlers -h lists the flags)\n"},
		{[]string{"--purpose"}, "robotstxt crawlers: --purpose needs a value"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"crawlers"}, tt.args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "\x1b") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tt.args, code, out, stderr, tt.want)
		}
	}
	// What the user typed is escaped in the output too.
	_, out, _ := runCmd(t, "", "crawlers", "--operator", "x\x1b]0;title\a")
	if strings.ContainsAny(out, "\x1b\a") {
		t.Errorf("raw control characters: %q", out)
	}
	code, _, stderr := runCmd(t, "", "crawlers", "-h")
	if code != 0 || !strings.Contains(stderr, "--purpose P") || !strings.Contains(stderr, "token-only, other") {
		t.Errorf("-h: exit %d\n%s", code, stderr)
	}
}

func TestWrap(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 10, "\n"},
		{"a b c", 10, "a b c\n"},
		{"aaaa bbbb cccc", 9, "aaaa bbbb\ncccc\n"},
		{"aaaaaaaaaaaa b", 5, "aaaaaaaaaaaa\nb\n"},
	} {
		if got := wrap(tt.in, tt.n); got != tt.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
	if got := cut("Allen Institute for AI", 10); got != "Allen I..." {
		t.Errorf("cut: %q", got)
	}
	if got := cut("abcdef", 3); got != "abc" {
		t.Errorf("cut: %q", got)
	}
}

// TestCrawlersBehaviour checks --behaviour: the filter is the catalogue's
// (CrawlersByBehaviour), the view shows access and classes in 80 columns,
// "all" lists the table, and the details and JSON carry the columns.
func TestCrawlersBehaviour(t *testing.T) {
	for _, args := range [][]string{
		{"--behaviour", "training"},
		{"--behavior", "agent", "--operator", "google"},
		{"--behaviour", "AI Crawler,search"},
		{"--behaviour", "all"},
		{"--behaviour", "link-preview", "--purpose", "preview"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"crawlers"}, args...)...)
		if code != 0 || stderr != "" {
			t.Fatalf("%q: exit %d, %s", args, code, stderr)
		}
		for _, l := range lines(out) {
			if len(l) > 80 {
				t.Errorf("%q: a line of %d columns: %q", args, len(l), l)
			}
		}
		if !strings.HasPrefix(out, "NAME ") || !strings.Contains(lines(out)[0], " ACCESS ") || !strings.HasSuffix(lines(out)[0], " BEHAVIOURS") {
			t.Errorf("%q: header %q", args, lines(out)[0])
		}
		if len(listedNames(t, out)) == 0 {
			t.Errorf("%q: nothing listed", args)
		}
	}
	_, out, _ := runCmd(t, "", "crawlers", "--behaviour", "training")
	if want := tableNames(robotstxt.CrawlersByBehaviour(robotstxt.BehaviourTraining)); !slices.Equal(listedNames(t, out), want) {
		t.Errorf("training:\n%s", out)
	}
	if !strings.Contains(out, "\nGPTBot ") || strings.Contains(out, "\nOAI-SearchBot ") || !strings.Contains(out, " crawlers in training.\n") {
		t.Errorf("training:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "crawlers", "--behaviour", "all")
	if !slices.Equal(listedNames(t, out), tableNames(robotstxt.Crawlers())) || !strings.Contains(out, " unclassified\n") {
		t.Errorf("all:\n%s", out)
	}
	// A filter and the named crawlers.
	_, out, _ = runCmd(t, "", "crawlers", "--behaviour", "agent", "GPTBot", "ChatGPT-User")
	if strings.Contains(out, "GPTBot") || !strings.Contains(out, "  behaviours    agent; direct access\n") ||
		!strings.Contains(out, "    from        https://developers.cloudflare.com/ai-crawl-control/reference/bots/\n") {
		t.Errorf("filtered details:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "crawlers", "FirecrawlAgent")
	for _, l := range lines(out) {
		if len(l) > 80 && !strings.Contains(l, "https://") {
			t.Errorf("a detail line of %d columns: %q", len(l), l)
		}
	}
	if !strings.Contains(out, "  behaviours    search; intermediary access\n    how         a scraping") {
		t.Errorf("FirecrawlAgent:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "crawlers", "--json", "--behaviour", "agent,transact")
	var rep crawlersReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Behaviours) != len(robotstxt.AllBehaviours()) {
		t.Fatalf("%v\n%s", err, out)
	}
	buy := false
	for _, e := range rep.Crawlers {
		b, err := robotstxt.ParseBehaviour(strings.Join(e.Behaviours, ","))
		if err != nil || !b.Any(robotstxt.BehaviourAgent|robotstxt.BehaviourTransact) || e.Access == "" || e.BehaviourSource == "" {
			t.Errorf("%+v", e)
		}
		buy = buy || e.Name == "AmazonBuyForMe" && slices.Equal(e.Behaviours, []string{"agent", "transact"})
	}
	if !buy {
		t.Errorf("AmazonBuyForMe is not agent and transact:\n%s", out)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--behaviour", "trainig"}, `robotstxt crawlers: --behaviour: unknown behaviour "trainig" (want one of search, agent, training,`},
		{[]string{"--behaviour", ","}, "robotstxt crawlers: --behaviour needs a class: search, agent,"},
		{[]string{"--behaviour"}, "robotstxt crawlers: --behaviour needs a value"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"crawlers"}, tt.args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tt.args, code, out, stderr, tt.want)
		}
	}
	if _, _, stderr := runCmd(t, "", "crawlers", "--behaviour", "trainig"); !strings.HasSuffix(stderr, "did you mean training?\n") {
		t.Errorf("no suggestion: %q", stderr)
	}
}
