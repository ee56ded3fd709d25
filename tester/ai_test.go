package tester_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

func ExampleAI() {
	src := tester.NewSource("robots.txt", []byte(`User-agent: *
Disallow: /admin/
Content-Usage: train-ai=n

User-agent: GPTBot
Disallow: /

User-agent: ClaudeBot
Allow: /
`))
	rep, err := tester.AI(src, &tester.AIOptions{Crawlers: []string{"Googlebot", "GPTBot", "ClaudeBot"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range rep.Crawlers {
		a := c.Answers[0]
		train := "-"
		if a.Usage != nil {
			train = a.Usage.TrainAI
		}
		fmt.Println(c.Section, c.Name, a.Allowed, a.Line, train)
	}
	for _, f := range rep.Findings {
		fmt.Println(f.Severity, f.Code, f.Crawlers)
	}
	// Output:
	// search Googlebot true 0 n
	// ai-training GPTBot false 6 -
	// ai-training ClaudeBot true 9 unknown
	// error train-ai-contradiction [ClaudeBot]
	// info star-rules-dropped [ClaudeBot]
}

// aiReport asks AI about body, failing the test on an error.
func aiReport(t *testing.T, body string, o *tester.AIOptions) *tester.AIReport {
	t.Helper()
	rep, err := tester.AI(tester.NewSource("robots.txt", []byte(body)), o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// crawlerOf returns the report's entry for name.
func crawlerOf(t *testing.T, rep *tester.AIReport, name string) *tester.AICrawler {
	t.Helper()
	for i := range rep.Crawlers {
		if rep.Crawlers[i].Name == name {
			return &rep.Crawlers[i]
		}
	}
	t.Fatalf("no %s in the report", name)
	return nil
}

// TestAIDefaultCrawlers: without names, the report holds the curated set
// and every crawler the file names, section by section in the order of
// the purposes, each crawler in the section of its first purpose by
// priority.
func TestAIDefaultCrawlers(t *testing.T) {
	rep := aiReport(t, "User-agent: *\nDisallow: /x\n\nUser-agent: FooBot\nUser-agent: YandexBot\nDisallow: /\n", nil)
	want := tester.DefaultAICrawlers()
	for _, n := range want {
		crawlerOf(t, rep, n)
	}
	if got := len(rep.Crawlers); got != len(want)+2 {
		t.Errorf("%d crawlers, want %d", got, len(want)+2)
	}
	foo := crawlerOf(t, rep, "FooBot")
	if foo.Known || foo.Section != "unknown" || foo.Line != 4 || foo.Answers[0].Allowed {
		t.Errorf("FooBot: %+v", foo)
	}
	if y := crawlerOf(t, rep, "YandexBot"); y.Dialect != "yandex" || y.Line != 5 || y.Section != "search" {
		t.Errorf("YandexBot: %+v", y)
	}
	for name, section := range map[string]string{"Bytespider": "ai-training", "Applebot": "ai-search", "Google-Extended": "token-only",
		"ChatGPT-User": "user-fetch", "Google-Agent": "agent", "Googlebot": "search"} {
		if got := crawlerOf(t, rep, name).Section; got != section {
			t.Errorf("%s in section %s, want %s", name, got, section)
		}
	}
	var order []string
	at := 0
	for _, s := range rep.Sections {
		order = append(order, s.Purpose)
		for _, n := range s.Crawlers {
			if rep.Crawlers[at].Name != n || rep.Crawlers[at].Section != s.Purpose {
				t.Fatalf("crawler %d is %s in %s, want %s in %s", at, rep.Crawlers[at].Name, rep.Crawlers[at].Section, n, s.Purpose)
			}
			at++
		}
		if s.Title == "" {
			t.Errorf("section %s has no title", s.Purpose)
		}
	}
	if want := []string{"search", "ai-training", "ai-search", "user-fetch", "agent", "token-only", "unknown"}; !slices.Equal(order, want) {
		t.Errorf("sections %v, want %v", order, want)
	}
	if rep.Others.Name != "*" || rep.Others.Token != "*" || rep.Others.Group.Kind != "global" || !rep.Others.Answers[0].Allowed {
		t.Errorf("others: %+v", rep.Others)
	}
	if rep.URLs[0] != "/" || len(rep.URLs) != 1 {
		t.Errorf("URLs %v, want [/]", rep.URLs)
	}
}

// TestAIFileCrawlersBounded: a file naming many crawlers adds at most
// MaxFileRows of them, with a note; --all takes every one.
func TestAIFileCrawlersBounded(t *testing.T) {
	var b strings.Builder
	for i := range tester.MaxFileRows + 5 {
		fmt.Fprintf(&b, "User-agent: Bot%c%c\n", 'a'+i/26, 'a'+i%26)
	}
	b.WriteString("Disallow: /\n")
	rep := aiReport(t, b.String(), nil)
	if n := len(rep.Crawlers); n != len(tester.DefaultAICrawlers())+tester.MaxFileRows {
		t.Errorf("%d crawlers", n)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "names 5 more crawlers") {
		t.Errorf("notes %q", rep.Notes)
	}
	all := aiReport(t, b.String(), &tester.AIOptions{All: true})
	if n := len(all.Crawlers); n != len(robotstxt.Crawlers())+tester.MaxFileRows+5 {
		t.Errorf("--all: %d crawlers, want the catalogue's %d and the file's %d", n, len(robotstxt.Crawlers()), tester.MaxFileRows+5)
	}
}

// TestAIAnswers: the verdict, its line and the preferences, URL by URL,
// each crawler in its own dialect with its fallbacks.
func TestAIAnswers(t *testing.T) {
	body := `User-agent: *
Disallow: /private/
Content-Usage: train-ai=n
Content-Usage: /blog/ train-ai=y, search=y, foo=n
Content-Signal: search=yes, ai-train=no, use=x

User-agent: Googlebot
Disallow: /nogoogle/

User-agent: Baiduspider
Disallow: /a
Allow: /a/b
`
	rep := aiReport(t, body, &tester.AIOptions{URLs: []string{"/", "/blog/post", "/private/x", "https://example.com/a/b/c"},
		Crawlers: []string{"GPTBot", "Googlebot-Image", "Baiduspider"}})
	if rep.UsageLines != 2 || rep.SignalLines != 1 {
		t.Errorf("usage lines %d, signal lines %d", rep.UsageLines, rep.SignalLines)
	}
	gpt := crawlerOf(t, rep, "GPTBot")
	if a := gpt.Answers[0]; !a.Allowed || a.Usage == nil || a.Usage.TrainAI != "n" || a.Usage.Search != "unknown" || !slices.Equal(a.Usage.Lines, []int{3}) {
		t.Errorf("GPTBot at /: %+v %+v", a, a.Usage)
	}
	if a := gpt.Answers[1]; a.Usage == nil || a.Usage.TrainAI != "y" || a.Usage.Search != "y" || a.Usage.Other["foo"] != "n" || !slices.Equal(a.Usage.Lines, []int{4}) {
		t.Errorf("GPTBot at /blog/post: %+v", a.Usage)
	}
	if a := gpt.Answers[2]; a.Allowed || a.Line != 2 || a.Rule != "Disallow: /private/" || a.Usage != nil {
		t.Errorf("GPTBot at /private/x: %+v", a)
	}
	if s := gpt.Signals; s == nil || s.Line != 5 || s.Search != "yes" || s.AITrain != "no" || s.AIInput != "" || s.Use != "" || s.Text != "search=yes, ai-train=no, use=x" {
		t.Errorf("GPTBot's signals: %+v", s)
	}
	// Googlebot-Image falls back to Googlebot's group, which has no
	// preference and no signal.
	img := crawlerOf(t, rep, "Googlebot-Image")
	if img.Group.Kind != "specific" || img.Group.Token != "Googlebot" || !slices.Equal(img.Group.Lines, []int{7}) || img.Signals != nil {
		t.Errorf("Googlebot-Image: %+v", img)
	}
	if a := img.Answers[0]; a.Usage == nil || a.Usage.TrainAI != "unknown" || len(a.Usage.Lines) != 0 {
		t.Errorf("Googlebot-Image's usage: %+v", a.Usage)
	}
	// Baiduspider reads by first match: /a blocks /a/b/c.
	if a := crawlerOf(t, rep, "Baiduspider").Answers[3]; a.Allowed || a.Line != 11 || a.URL != "https://example.com/a/b/c" {
		t.Errorf("Baiduspider at /a/b/c: %+v", a)
	}
	if crawlerOf(t, rep, "Baiduspider").Dialect != "baidu" {
		t.Error("Baiduspider not in its dialect")
	}
}

// finding is what a test expects of a finding.
type finding struct {
	code, severity string
	crawlers       []string
	lines          []int
}

// TestAISignalUse: the use= level of Cloudflare's managed Content-Signal
// line is in the report, and in its JSON only when the line has one.
func TestAISignalUse(t *testing.T) {
	body := "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n\nUser-agent: GPTBot\nContent-Signal: ai-train=no\nDisallow: /\n"
	rep := aiReport(t, body, &tester.AIOptions{Crawlers: []string{"GPTBot"}})
	if s := rep.Others.Signals; s == nil || s.Use != "reference" || s.Search != "yes" || s.AITrain != "no" {
		t.Errorf("the * row's signals: %+v", s)
	}
	if s := crawlerOf(t, rep, "GPTBot").Signals; s == nil || s.Use != "" {
		t.Errorf("GPTBot's signals: %+v", s)
	}
	b, err := json.Marshal(rep.Others.Signals)
	if err != nil || !strings.Contains(string(b), `"use":"reference"`) {
		t.Errorf("JSON %s, %v", b, err)
	}
	b, _ = json.Marshal(crawlerOf(t, rep, "GPTBot").Signals)
	if strings.Contains(string(b), `"use"`) {
		t.Errorf("JSON of a line without use=: %s", b)
	}
}

func TestAIFindings(t *testing.T) {
	tests := []struct {
		name string
		body string
		urls []string
		want []finding
	}{
		{"clean", "User-agent: *\nDisallow: /admin/\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n", nil, nil},
		{"no file", "", nil, nil},
		{"blocked by name, * says y",
			"User-agent: *\nDisallow: /admin/\nContent-Usage: train-ai=y\n\nUser-agent: GPTBot\nDisallow: /\n", nil,
			[]finding{{tester.AITrainContradiction, "warning", []string{"GPTBot"}, []int{3, 5, 6}}}},
		{"Google reads a * group with no rule and the next user-agent line as one group",
			"User-agent: *\nContent-Usage: train-ai=y\n\nUser-agent: GPTBot\nDisallow: /\n", nil,
			[]finding{{tester.AISearchBlocked, "warning", []string{"Googlebot", "Bingbot", "DuckDuckBot", "Applebot"}, []int{1, 5}}}},
		{"own group lets it in, * says n",
			"User-agent: *\nDisallow: /admin/\nContent-Usage: train-ai=n\n\nUser-agent: ClaudeBot\nDisallow: /admin/\n", nil,
			[]finding{{tester.AITrainContradiction, "error", []string{"ClaudeBot"}, []int{3, 5}}}},
		{"own group states its own preference",
			"User-agent: *\nDisallow: /admin/\nContent-Usage: train-ai=n\n\nUser-agent: ClaudeBot\nDisallow: /admin/\nContent-Usage: train-ai=y\n", nil, nil},
		{"a token that fetches nothing let in by its own group",
			"User-agent: *\nDisallow: /admin/\nContent-Usage: train-ai=n\n\nUser-agent: Google-Extended\nAllow: /\n", nil,
			[]finding{{tester.AITrainContradiction, "error", []string{"Google-Extended"}, []int{3, 5}},
				{tester.AITokenOnlyRules, "info", []string{"Google-Extended"}, []int{5, 6}}}},
		{"usage and signal not inherited",
			"User-agent: *\nDisallow: /admin/\nContent-Usage: search=y\nContent-Signal: search=yes\n\nUser-agent: Bingbot\nDisallow: /admin/\n", nil,
			[]finding{{tester.AIUsageNotInherited, "warning", []string{"Bingbot"}, []int{3, 6}},
				{tester.AISignalNotInherited, "warning", []string{"Bingbot"}, []int{4, 6}}}},
		{"not inherited by a crawler that may fetch nothing",
			"User-agent: *\nContent-Signal: ai-train=no\n\nUser-agent: SemrushBot\nDisallow: /\n", nil, nil},
		{"not inherited, nobody who weighs",
			"User-agent: *\nDisallow: /x\nContent-Signal: ai-train=no\n\nUser-agent: SemrushBot\nDisallow: /x\n", []string{"/"},
			[]finding{{tester.AISignalNotInherited, "info", []string{"SemrushBot"}, []int{3, 5}}}},
		{"star rules dropped",
			"User-agent: *\nDisallow: /search\nDisallow: /cart/\n\nUser-agent: Bingbot\nDisallow: /private/\n", nil,
			[]finding{{tester.AIStarRulesDropped, "info", []string{"Bingbot"}, []int{2, 3, 5}}}},
		{"star rules dropped, at a URL asked",
			"User-agent: *\nDisallow: /*.pdf$\n\nUser-agent: Bingbot\nDisallow: /private/\n", []string{"/docs/a.pdf"},
			[]finding{{tester.AIStarRulesDropped, "info", []string{"Bingbot"}, []int{2, 4}}}},
		{"an allow-list is no drop",
			"User-agent: *\nDisallow: /\n\nUser-agent: Bingbot\nDisallow: /private/\n", nil, nil},
		// lint's rule, which the AI report shares (issue 35): "Allow: /"
		// is less specific than the * rule it drops, so it is reported;
		// an allow as specific, or an empty Disallow, is deliberate.
		{"Allow: / drops the * rules, as lint says",
			"User-agent: *\nDisallow: /search\n\nUser-agent: Bingbot\nAllow: /\n", nil,
			[]finding{{tester.AIStarRulesDropped, "info", []string{"Bingbot"}, []int{2, 4}}}},
		{"an allow as specific is deliberate",
			"User-agent: *\nDisallow: /search\n\nUser-agent: Bingbot\nAllow: /search\n", nil, nil},
		{"an empty Disallow is deliberate",
			"User-agent: *\nDisallow: /search\n\nUser-agent: Bingbot\nDisallow:\n", nil, nil},
		{"search crawler in the AI group",
			"User-agent: *\nDisallow: /admin/\n\nUser-agent: GPTBot\nUser-agent: Googlebot\nUser-agent: Applebot\nDisallow: /\n", nil,
			[]finding{{tester.AISearchBlocked, "error", []string{"Googlebot", "Applebot"}, []int{4, 5, 6, 7}}}},
		{"search crawler with Google-Extended",
			"User-agent: Googlebot\nUser-agent: Google-Extended\nDisallow: /\n", nil,
			[]finding{{tester.AISearchBlocked, "error", []string{"Googlebot"}, []int{1, 2, 3}},
				{tester.AITokenOnlyRules, "info", []string{"Google-Extended"}, []int{2, 3}}}},
		{"the * group closes the site, AI crawlers named",
			"User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n", nil,
			[]finding{{tester.AISearchBlocked, "warning", []string{"Googlebot", "Bingbot", "DuckDuckBot", "Applebot"}, []int{1, 2}}}},
		{"the * group closes the site, no AI crawler named",
			"User-agent: *\nDisallow: /\n", nil, nil},
		{"a search crawler blocked alone is deliberate",
			"User-agent: Googlebot\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n", nil, nil},
		{"token-only paths",
			"User-agent: Applebot-Extended\nDisallow: /private/\n", nil,
			[]finding{{tester.AITokenOnlyRules, "info", []string{"Applebot-Extended"}, []int{1, 2}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := aiReport(t, tt.body, &tester.AIOptions{URLs: tt.urls})
			var got []finding
			for _, f := range rep.Findings {
				var lines []int
				for _, l := range f.Lines {
					lines = append(lines, l.Line)
					if l.Text == "" {
						t.Errorf("%s: line %d without its text", f.Code, l.Line)
					}
				}
				got = append(got, finding{f.Code, f.Severity, f.Crawlers, lines})
				if f.Message == "" {
					t.Errorf("%s without a message", f.Code)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("findings\n got %v\nwant %v", got, tt.want)
				for _, f := range rep.Findings {
					t.Log(f.Message)
				}
			}
			errs, warns, infos := 0, 0, 0
			for _, f := range tt.want {
				switch f.severity {
				case "error":
					errs++
				case "warning":
					warns++
				default:
					infos++
				}
			}
			if rep.Errors != errs || rep.Warnings != warns || rep.Infos != infos {
				t.Errorf("counts %d/%d/%d, want %d/%d/%d", rep.Errors, rep.Warnings, rep.Infos, errs, warns, infos)
			}
		})
	}
}

// TestAIFindingMessages: the messages say what the lines mean and what to
// do.
func TestAIFindingMessages(t *testing.T) {
	rep := aiReport(t, "User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: Google-Extended\nDisallow: /\n", nil)
	var msgs []string
	for _, f := range rep.Findings {
		msgs = append(msgs, f.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		"the * group closes the site to every crawler no group names (line 2: Disallow: /), search engines too",
		"Google-Extended fetches nothing: Google's crawlers (Googlebot and the others) fetch under their own tokens",
		"Disallow: / refuses that use for the whole site; they stop no crawl",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no message says %q:\n%s", want, all)
		}
	}
}

// TestAIOptionsErrors: bad input is an *Error naming the field.
func TestAIOptionsErrors(t *testing.T) {
	src := tester.NewSource("robots.txt", []byte("User-agent: FooBot\nDisallow: /\n"))
	for _, tt := range []struct {
		src   *tester.Source
		o     *tester.AIOptions
		field string
		index int
	}{
		{nil, nil, "robots", 0},
		{src, &tester.AIOptions{URLs: []string{"/", "nopath"}}, "urls", 1},
		{src, &tester.AIOptions{Crawlers: []string{"GPTBot", "NoSuchBot"}}, "crawlers", 1},
	} {
		_, err := tester.AI(tt.src, tt.o)
		var e *tester.Error
		if !errors.As(err, &e) || e.Field != tt.field || e.Index != tt.index {
			t.Errorf("%+v: error %v, want field %s index %d", tt.o, err, tt.field, tt.index)
		}
	}
	// A token the file names is taken, as the file names it.
	rep, err := tester.AI(src, &tester.AIOptions{Crawlers: []string{"foobot", "gptbot"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Crawlers) != 2 || rep.Crawlers[1].Name != "FooBot" || rep.Crawlers[1].Known || rep.Crawlers[1].Answers[0].Allowed {
		t.Errorf("crawlers %+v", rep.Crawlers)
	}
}

// TestAIFetched: for a live file with no rules (a 404), each crawler gets
// its engine's fetch policy, no preference, and no finding.
func TestAIFetched(t *testing.T) {
	info := &tester.FetchInfo{Origin: "https://example.com", RobotsURL: "https://example.com/robots.txt", Dialect: "google",
		Policy: "allow-all", Source: "network", Reason: "404 Not Found: no robots.txt, everything is allowed", Status: 404}
	src := tester.FetchedSource(nil, info, robotstxt.DefaultDialect)
	rep, err := tester.AI(src, &tester.AIOptions{Crawlers: []string{"GPTBot", "Baiduspider"}, URLs: []string{"/", "https://other.example/x"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Fetch == nil || rep.File != "https://example.com/robots.txt" || len(rep.Findings) != 0 {
		t.Errorf("report %+v", rep)
	}
	for _, c := range rep.Crawlers {
		for _, a := range c.Answers {
			if !a.Allowed || a.Policy != "allow-all" || a.Usage != nil || c.Signals != nil {
				t.Errorf("%s at %s: %+v", c.Name, a.URL, a)
			}
		}
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "https://other.example/x is not on https://example.com") {
		t.Errorf("notes %q", rep.Notes)
	}
}

// TestAIJSON: the JSON form has every field, empty lists as [], and null
// for what does not apply.
func TestAIJSON(t *testing.T) {
	rep := aiReport(t, "User-agent: GPTBot\nDisallow: /\n", &tester.AIOptions{Crawlers: []string{"GPTBot"}})
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"file", "urls", "usage_lines", "signal_lines", "others", "crawlers", "sections", "findings", "errors", "warnings", "infos"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, b)
		}
	}
	c := m["crawlers"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "token", "purposes", "section", "known", "obeys_robots", "dialect", "group", "answers", "signals"} {
		if _, ok := c[k]; !ok {
			t.Errorf("no %q in the crawler %v", k, c)
		}
	}
	a := c["answers"].([]any)[0].(map[string]any)
	if a["usage"] != nil || c["signals"] != nil {
		t.Errorf("a blocked answer's usage and signals should be null: %v", c)
	}
	if f := m["findings"].([]any); len(f) != 0 {
		t.Errorf("findings %v", f)
	}
}
