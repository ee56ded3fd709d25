package robotstxt

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// usageText renders an answer's usage for comparison: "n/a" when the URL
// may not be fetched, else "train-ai=X search=Y [other=Z...] lines=[...]".
func usageText(a UsageAnswer) string {
	if !a.Allowed {
		return "n/a"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "train-ai=%v search=%v", a.Usage.TrainAI(), a.Usage.Search())
	for _, p := range a.Usage.Prefs {
		if p.Key != UsageTrainAI && p.Key != UsageSearch {
			fmt.Fprintf(&b, " %s=%v", p.Key, p.Pref)
		}
	}
	fmt.Fprintf(&b, " lines=%v", a.Usage.Lines)
	return b.String()
}

// The example of draft-ietf-aipref-attach, Section 3.4, and its table.
const aiprefExample = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`

func TestUsageDraftExample(t *testing.T) {
	r := ParseString(aiprefExample)
	for _, d := range Dialects() {
		never := "n/a"
		if d.FirstMatch() {
			// The draft's first match: "Allow: /" comes first.
			never = "train-ai=n search=unknown lines=[4]"
		}
		for _, tc := range []struct{ agent, path, want string }{
			{"FooBot", "/test", "train-ai=n search=unknown lines=[4]"},
			{"FooBot", "/never/test", never},
			{"FooBot", "/ai-ok/test", "train-ai=y search=unknown lines=[5]"},
			{"ExampleBot", "/test", "train-ai=y search=unknown lines=[9]"},
			{"ExampleBot", "/never/test", "train-ai=y search=unknown lines=[9]"},
		} {
			a := r.Usage(Query{URL: "https://example.com" + tc.path, Agents: []string{tc.agent}, Dialect: d})
			if got := usageText(a); got != tc.want {
				t.Errorf("%v: %s %s: %s, want %s", d, tc.agent, tc.path, got, tc.want)
			}
		}
	}
}

func TestParseUsagePreference(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		want string // key=pref, in order
	}{
		{"train-ai=y, search=n", true, "train-ai=y search=n"},
		{"train-ai=n", true, "train-ai=n"},
		{"", true, ""},
		{"   ", true, ""},
		// The vocabulary draft's examples (Section 6.6).
		{`train-ai=y, train-ai, search=n, search="n"`, true, "train-ai=unknown search=unknown"},
		{"Train-AI=y", false, ""},
		{"train-ai;allow=n, train-ai=y", true, "train-ai=y"},
		// Its last example ends in ';', which RFC 9651 does not parse:
		// unknown all the same.
		{`train-ai;has;parameters="?";`, false, ""},
		{`train-ai;has;parameters="?"`, true, "train-ai=unknown"},
		// Only the Tokens y and n.
		{"train-ai=Y, search=yes", true, "train-ai=unknown search=unknown"},
		{"train-ai=?1, search=1, x=1.5, y=:AAE=:, z=@123, w=%\"caf%c3%a9\"", true,
			"train-ai=unknown search=unknown x=unknown y=unknown z=unknown w=unknown"},
		{"train-ai=(y n), search=n", true, "train-ai=unknown search=n"},
		{"train-ai=y;p=1;q, search=n;x=\"a\"", true, "train-ai=y search=n"},
		{"train-ai=y,search=n", true, "train-ai=y search=n"},
		{"train-ai=y,\tsearch=n", true, "train-ai=y search=n"},
		{"*=n, a.b_c-1*=y", true, "*=n a.b_c-1*=y"},
		// The last value of a key counts, at its first place.
		{"train-ai=n, search=y, train-ai=y", true, "train-ai=y search=y"},
		// Failures: the whole statement expresses nothing.
		{"train-ai=y,", false, ""},
		{"train-ai = y", false, ""},
		{"train-ai=y search=n", false, ""},
		{"\ttrain-ai=y", false, ""},
		{"1train=y", false, ""},
		{"train-ai=\"unterminated", false, ""},
		{"train-ai=(y", false, ""},
		{"train-ai=1.2345", false, ""},
		{"train-ai=1234567890123456", false, ""},
		{"train-ai=%\"%C3\"", false, ""},
		{"train-ai=%\"%ff\"", false, ""},
		{"train-ai=:a*b:", false, ""},
		{"train-ai=y;", false, ""},
		{"train-ai=é", false, ""},
	} {
		prefs, ok := ParseUsagePreference(tc.in)
		var got []string
		for _, p := range prefs {
			got = append(got, p.Key+"="+p.Pref.String())
		}
		if ok != tc.ok || strings.Join(got, " ") != tc.want {
			t.Errorf("ParseUsagePreference(%q) = %q, %v; want %q, %v", tc.in, strings.Join(got, " "), ok, tc.want, tc.ok)
		}
		if ok && prefs == nil {
			t.Errorf("ParseUsagePreference(%q): nil prefs for a statement that parsed", tc.in)
		}
	}
}

func TestCombineUsage(t *testing.T) {
	got := CombineUsage(
		[]UsagePref{{"train-ai", PrefAllow}, {"search", PrefUnknown}, {"x", PrefAllow}},
		nil,
		[]UsagePref{{"search", PrefAllow}, {"train-ai", PrefDisallow}},
		[]UsagePref{{"x", PrefUnknown}, {"search", PrefUnknown}},
	)
	want := []UsagePref{{"train-ai", PrefDisallow}, {"search", PrefAllow}, {"x", PrefAllow}}
	if !slices.Equal(got, want) {
		t.Errorf("CombineUsage = %v, want %v", got, want)
	}
}

// TestUsageRules checks the Content-Usage rule's reading and semantics, in
// Google's reading unless a case says otherwise.
func TestUsageRules(t *testing.T) {
	for _, tc := range []struct {
		name, body, agent, path, want string
		d                             Dialect
	}{
		{name: "label case and white space",
			body:  "User-agent: *\n  CONTENT-usage \t:\t train-ai=n, search=y\n",
			agent: "FooBot", path: "/a", want: "train-ai=n search=y lines=[2]"},
		{name: "the value ends at #",
			body:  "User-agent: *\nContent-Usage: train-ai=n # , search=y\n",
			agent: "FooBot", path: "/a", want: "train-ai=n search=unknown lines=[2]"},
		{name: "no colon: not read",
			body:  "User-agent: *\nContent-Usage train-ai=n\n",
			agent: "FooBot", path: "/a", want: "train-ai=unknown search=unknown lines=[]"},
		{name: "the longest path decides, its whole statement",
			body:  "User-agent: *\nContent-Usage: train-ai=n, search=n\nContent-Usage: /docs/ train-ai=y\n",
			agent: "FooBot", path: "/docs/x", want: "train-ai=y search=unknown lines=[3]"},
		{name: "a path that does not match",
			body:  "User-agent: *\nContent-Usage: train-ai=n, search=n\nContent-Usage: /docs/ train-ai=y\n",
			agent: "FooBot", path: "/doc", want: "train-ai=n search=n lines=[2]"},
		{name: "identical paths combine key by key",
			body:  "User-agent: *\nContent-Usage: /p/ train-ai=y, x=y\nAllow: /\nContent-Usage: /p/ train-ai=n, search=y\n",
			agent: "FooBot", path: "/p/1", want: "train-ai=n search=y x=y lines=[2 4]"},
		{name: "paths of one length combine",
			body:  "User-agent: *\nContent-Usage: /a* train-ai=y\nContent-Usage: /ab train-ai=n\n",
			agent: "FooBot", path: "/abc", want: "train-ai=n search=unknown lines=[2 3]"},
		{name: "wildcards and anchors as for Allow",
			body:  "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: train-ai=y\n",
			agent: "FooBot", path: "/x/y.pdf", want: "train-ai=n search=unknown lines=[2]"},
		{name: "the anchor holds",
			body:  "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: train-ai=y\n",
			agent: "FooBot", path: "/x/y.pdf?q", want: "train-ai=y search=unknown lines=[3]"},
		{name: "paths are percent-encoded as Allow's",
			body:  "User-agent: *\nContent-Usage: /ü/ train-ai=n\n",
			agent: "FooBot", path: "/%C3%BC/x", want: "train-ai=n search=unknown lines=[2]"},
		{name: "a tab separates the path",
			body:  "User-agent: *\nContent-Usage: /a/\t\ttrain-ai=n\n",
			agent: "FooBot", path: "/a/b", want: "train-ai=n search=unknown lines=[2]"},
		{name: "a path alone states nothing",
			body:  "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /free/\n",
			agent: "FooBot", path: "/free/x", want: "train-ai=unknown search=unknown lines=[3]"},
		{name: "a value not starting with / has no path",
			body:  "User-agent: *\nContent-Usage: *.pdf train-ai=n\nContent-Usage: search=y\n",
			agent: "FooBot", path: "/a.pdf", want: "train-ai=unknown search=y lines=[2 3]"},
		{name: "a statement that fails to parse still decides, stating nothing",
			body:  "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /x/ Train-AI=y\n",
			agent: "FooBot", path: "/x/1", want: "train-ai=unknown search=unknown lines=[3]"},
		{name: "disallowed: no preferences",
			body:  "User-agent: *\nDisallow: /private\nContent-Usage: train-ai=y\n",
			agent: "FooBot", path: "/private/a", want: "n/a"},
		{name: "a named group replaces *",
			body:  "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n\nUser-agent: FooBot\nAllow: /\n",
			agent: "FooBot", path: "/a", want: "train-ai=unknown search=unknown lines=[]"},
		// Google's library ignores content-usage lines: a user-agent
		// line after one, with no allow or disallow between, joins the
		// group, and so its preferences.
		{name: "Google: a user-agent line after content-usage joins the group",
			body:  "User-agent: *\nContent-Usage: train-ai=n\n\nUser-agent: FooBot\nAllow: /\n",
			agent: "FooBot", path: "/a", want: "train-ai=n search=unknown lines=[2]"},
		// RFC 9309 as the draft updates it: content-usage is a rule,
		// which ends the group's user-agent lines.
		{name: "RFC 9309: a content-usage rule ends the user-agent lines", d: RFC9309,
			body:  "User-agent: *\nContent-Usage: train-ai=n\n\nUser-agent: FooBot\nAllow: /\n",
			agent: "FooBot", path: "/a", want: "train-ai=unknown search=unknown lines=[]"},
		{name: "RFC 9309: content-signal is no rule", d: RFC9309,
			body:  "User-agent: *\nContent-Signal: ai-train=no\nUser-agent: FooBot\nContent-Usage: train-ai=n\n",
			agent: "FooBot", path: "/a", want: "train-ai=n search=unknown lines=[4]"},
		{name: "groups naming the crawler merge",
			body:  "User-agent: FooBot\nContent-Usage: train-ai=n\n\nUser-agent: BarBot\nDisallow: /x\n\nUser-agent: FooBot\nContent-Usage: /a train-ai=y\n",
			agent: "FooBot", path: "/a", want: "train-ai=y search=unknown lines=[8]"},
		{name: "a content-usage line does not end the user-agent lines",
			body:  "User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n",
			agent: "b", path: "/y", want: "train-ai=n search=unknown lines=[2]"},
		{name: "before any user-agent line: no group",
			body:  "Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n",
			agent: "FooBot", path: "/y", want: "train-ai=unknown search=unknown lines=[]"},
		{name: "order carries no meaning",
			body:  "User-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: train-ai=n\nDisallow: /b\n",
			agent: "FooBot", path: "/a/1", want: "train-ai=y search=unknown lines=[2]"},
		{name: "the draft's records end at a blank line", d: Original,
			body:  "User-agent: *\nAllow: /\n\nContent-Usage: train-ai=n\n",
			agent: "FooBot", path: "/y", want: "train-ai=unknown search=unknown lines=[]"},
		{name: "the draft reads no wildcards", d: Original,
			body:  "User-agent: *\nContent-Usage: /*.pdf train-ai=n\nContent-Usage: train-ai=y\n",
			agent: "FooBot", path: "/a.pdf", want: "train-ai=y search=unknown lines=[3]"},
		{name: "RFC 9309 reads the same", d: RFC9309,
			body:  "User-agent: *\nContent-Usage: /a/ train-ai=n\nContent-Usage: train-ai=y\n",
			agent: "FooBot", path: "/a/b", want: "train-ai=n search=unknown lines=[2]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ParseString(tc.body)
			q := Query{URL: "http://example.com" + tc.path, Agents: []string{tc.agent}, Dialect: tc.d}
			a := r.Usage(q)
			if got := usageText(a); got != tc.want {
				t.Errorf("%s\ngot  %s\nwant %s", tc.body, got, tc.want)
			}
			// A decider answers the same, and the crawl answer is Decide's.
			d := r.Decider(q)
			if b := d.Usage(q.URL); usageText(b) != usageText(a) || b.Line != a.Line {
				t.Errorf("Decider.Usage = %s (line %d); Robots.Usage %s (line %d)", usageText(b), b.Line, usageText(a), a.Line)
			}
			if dec := r.Decide(q); dec.Allowed != a.Allowed || dec.Line() != a.Line {
				t.Errorf("Usage: allowed %v line %d; Decide %v line %d", a.Allowed, a.Line, dec.Allowed, dec.Line())
			}
		})
	}
}

func TestContentSignal(t *testing.T) {
	body := "User-agent: *\nContent-Signal: search=yes, ai-train=no, AI-Input=Yes, use=x\nContent-Signal: ai-train=yes\nDisallow: /private\n\n" +
		"User-agent: GPTBot\nDisallow: /\n\nUser-agent: Bingbot\nContent-Signal: search=yes\n"
	r := ParseString(body)
	for _, tc := range []struct {
		agent, path string
		want        string
	}{
		// The first line of the group counts; a disallowed URL has its
		// signals too (they are not a crawl permission).
		{"FooBot", "/a", "line 2: search=yes ai-input=yes ai-train=no pairs=[{search yes} {ai-train no} {ai-input Yes} {use x}]"},
		{"FooBot", "/private/a", "line 2: search=yes ai-input=yes ai-train=no pairs=[{search yes} {ai-train no} {ai-input Yes} {use x}]"},
		{"GPTBot", "/a", "none"},
		{"bingbot", "/a", "line 10: search=yes ai-input= ai-train= pairs=[{search yes}]"},
	} {
		s := r.Usage(Query{URL: "http://e.com" + tc.path, Agents: []string{tc.agent}}).Signals
		got := "none"
		if s.Line != 0 {
			got = fmt.Sprintf("line %d: search=%v ai-input=%v ai-train=%v pairs=%v", s.Line, s.Search, s.AIInput, s.AITrain, s.Pairs)
		}
		if got != tc.want {
			t.Errorf("%s %s: %s, want %s", tc.agent, tc.path, got, tc.want)
		}
	}
	if s := ParseContentSignal("search = no ,ai-train= maybe, , junk"); s.Search != SignalNo || s.AITrain != SignalUnset || len(s.Pairs) != 3 {
		t.Errorf("ParseContentSignal: %+v", s)
	}
}

// TestUsageLinesReport: Google's parsing report tags both fields "Unused"
// (reporting_robots.cc's unsupported tags), as it does request-rate,
// visit-time, domain and revisit-after.
func TestUsageLinesReport(t *testing.T) {
	body := "User-agent: *\nContent-Usage: train-ai=n\ncontent-signal: search=yes\nRequest-rate: 1/5\nVisit-time: 0600-0845\ndomain: x\nrevisit-after: 2\nunicorns: 1\n"
	r := ParseString(body)
	want := []string{"UserAgent", "Unused", "Unused", "Unused", "Unused", "Unused", "Unused", "Unknown"}
	fields := []Field{FieldUserAgent, FieldContentUsage, FieldContentSignal}
	for i, l := range r.Lines() {
		if i < len(want) && l.GoogleTag() != want[i] {
			t.Errorf("line %d (%q): %s, want %s", l.Number, l.Text, l.GoogleTag(), want[i])
		}
		if i < len(fields) && l.Field != fields[i] {
			t.Errorf("line %d: field %v, want %v", l.Number, l.Field, fields[i])
		}
	}
	if FieldContentUsage.String() != "content-usage" || FieldContentSignal.String() != "content-signal" {
		t.Error("field names")
	}
}

// TestUsageAllocs: a decider answers usage questions without allocating
// once its file's usage table is built, when one rule decides.
func TestUsageAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	r := ParseString(aiprefExample)
	d := r.Decider(Query{Agents: []string{"FooBot"}})
	d.Usage("https://example.com/ai-ok/x")
	n := testing.AllocsPerRun(200, func() {
		if a := d.Usage("https://example.com/ai-ok/x"); a.Usage.TrainAI() != PrefAllow {
			t.Fatal("wrong answer")
		}
	})
	if n != 0 {
		t.Errorf("Decider.Usage allocates %v times a question", n)
	}
}

// BenchmarkUsage is the usage answer for a warm file: a decider's question
// about one URL, beside Allowed's (the crawl answer alone) on the same
// file and URLs, for the ratio on a noisy machine.
func BenchmarkUsage(b *testing.B) {
	r := ParseString(aiprefExample)
	d := r.Decider(Query{Agents: []string{"FooBot"}})
	urls := []string{"https://example.com/ai-ok/x", "https://example.com/test/page.html", "https://example.com/never/x"}
	d.Usage(urls[0])
	r.Compile()
	b.Run("usage", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			d.Usage(urls[i%len(urls)])
		}
	})
	b.Run("allowed", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			r.Allowed("FooBot", urls[i%len(urls)])
		}
	})
}

// FuzzUsage checks usage answers on any file: no panic; preferences only
// for URLs that may be fetched; the crawl answer Decide's; deciding lines
// ascending, each a content-usage line of the file.
func FuzzUsage(f *testing.F) {
	f.Add(aiprefExample, "FooBot", "/ai-ok/x")
	f.Add("User-agent: *\nContent-Usage: /a* train-ai=y\nContent-Usage: /ab train-ai=n\nContent-Signal: search=yes\n", "x", "/abc")
	f.Add("User-agent: a\ncontent-usage:/x\ttrain-ai=(y n);q=\"\\\"\", search=?1\nUser-agent: b\n", "b", "/x")
	f.Fuzz(func(t *testing.T, body, agent, path string) {
		r := ParseString(body)
		lines := collectLines(r.Lines())
		for _, d := range Dialects() {
			q := Query{URL: "http://example.com/" + path, Agents: []string{agent}, Dialect: d}
			a := r.Usage(q)
			dec := r.Decide(q)
			if a.Allowed != dec.Allowed || a.Line != dec.Line() {
				t.Fatalf("%v: usage allowed %v line %d; Decide %v line %d", d, a.Allowed, a.Line, dec.Allowed, dec.Line())
			}
			if !a.Allowed && (len(a.Usage.Lines) > 0 || len(a.Usage.Prefs) > 0) {
				t.Fatalf("%v: preferences for a disallowed URL: %+v", d, a.Usage)
			}
			if !slices.IsSorted(a.Usage.Lines) {
				t.Fatalf("%v: lines %v", d, a.Usage.Lines)
			}
			for _, n := range a.Usage.Lines {
				if n < 1 || n > len(lines) || lines[n-1].Field != FieldContentUsage {
					t.Fatalf("%v: line %d is not a content-usage line", d, n)
				}
			}
			if s := a.Signals; s.Line != 0 && (s.Line > len(lines) || lines[s.Line-1].Field != FieldContentSignal) {
				t.Fatalf("%v: signals line %d is not a content-signal line", d, s.Line)
			}
		}
	})
}

// FuzzUsagePreference checks the statement parser on any bytes: no panic,
// keys as RFC 9651 allows them, each once.
func FuzzUsagePreference(f *testing.F) {
	for _, s := range []string{"train-ai=y, search=n", `a;b="c", d=(1 2);e, f=:AA==:`, "x=%\"%c3%a9\"", "*=?0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prefs, ok := ParseUsagePreference(s)
		if !ok {
			if prefs != nil {
				t.Fatalf("failed parse with prefs %v", prefs)
			}
			return
		}
		seen := map[string]bool{}
		for _, p := range prefs {
			if p.Key == "" || seen[p.Key] || p.Key[0] != '*' && !isLCAlpha(p.Key[0]) {
				t.Fatalf("%q: bad or repeated key %q in %v", s, p.Key, prefs)
			}
			seen[p.Key] = true
		}
	})
}

// TestUsagePath: the path Usage matches is decisionPath's, for every
// dialect, on the golden questions' URLs and on URLs that test the edges.
func TestUsagePath(t *testing.T) {
	urls := []string{"http://h", "http://h?q", "http://h;p", "http://h#f", "http://h/a#f", "http://h/a\x00b", "/a#b",
		"https://h:80/a/b?c=d#e", "HTTP://H/A", "ftp://h/x", "//h/x", "", "?", "/", "http://user@h/x?y#z", "http://h/%7e#"}
	for i, c := range readGolden(t) {
		if i%50 == 0 {
			urls = append(urls, c.URL)
		}
	}
	for _, d := range Dialects() {
		for _, u := range urls {
			if got, want := usagePath(u, d), decisionPath(u, d); got != want {
				t.Errorf("%v: usagePath(%q) = %q, decisionPath %q", d, u, got, want)
			}
		}
	}
}
