package robotstxt

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// signingBody is a file that names signing agents, in the form of the Web
// Bot Auth editors' draft (draft-meunier-signature-agent-rep): the lines
// in a user-agent group, after its user-agent lines, before its rules.
const signingBody = `User-agent: *
Signature-Agent: example.com
Signature-Agent: "https://bots.example.org"
Max-Crawl-Rate: 10/m
Max-Crawl-Rate: 99
Disallow: /private

User-agent: FooBot
Signature-Agent: Not A Host
Max-Crawl-Rate: fast
Allow: /
`

// TestSigningAgentsOptIn: without the opt-in, the lines are unknown and
// nothing of the reading changes; with it, they are read into their
// group, in every dialect, and the verdicts are the same.
func TestSigningAgentsOptIn(t *testing.T) {
	plain := ParseString(signingBody)
	opt := ParseWith([]byte(signingBody), &ParseOptions{Extensions: ExtWebBotAuth})
	if plain.Extensions() != 0 || opt.Extensions() != ExtWebBotAuth {
		t.Fatalf("Extensions: %v, %v", plain.Extensions(), opt.Extensions())
	}
	for _, d := range Dialects() {
		for n := 1; n <= plain.NumLines(); n++ {
			a, _ := plain.LineFor(d, n)
			b, _ := opt.LineFor(d, n)
			want := a.Field
			switch n {
			case 2, 3, 9:
				want = FieldSignatureAgent
			case 4, 5, 10:
				want = FieldMaxCrawlRate
			}
			if want != a.Field && a.Field != FieldUnknown {
				t.Errorf("%v line %d without the opt-in: %v, want unknown", d, n, a.Field)
			}
			if b.Field != want {
				t.Errorf("%v line %d with the opt-in: %v, want %v", d, n, b.Field, want)
			}
		}
		// The same lines through the iterator.
		for i, l := range opt.LinesFor(d) {
			if b, _ := opt.LineFor(d, i+1); b.Field != l.Field {
				t.Errorf("%v line %d: LinesFor %v, LineFor %v", d, i+1, l.Field, b.Field)
			}
		}
		for _, tc := range []struct{ agent, path string }{{"BarBot", "/private/x"}, {"BarBot", "/x"}, {"FooBot", "/private/x"}} {
			q := Query{URL: "http://e.com" + tc.path, Agents: []string{tc.agent}, Dialect: d}
			if a, b := plain.Decide(q), opt.Decide(q); a.Allowed != b.Allowed || a.Line() != b.Line() {
				t.Errorf("%v %s %s: %v line %d without, %v line %d with", d, tc.agent, tc.path, a.Allowed, a.Line(), b.Allowed, b.Line())
			}
		}
		if s := plain.SigningAgents(Query{Agents: []string{"BarBot"}, Dialect: d}); len(s.Agents) != 0 || s.Rate.Line != 0 {
			t.Errorf("%v without the opt-in: %+v", d, s)
		}
		s := opt.SigningAgents(Query{Agents: []string{"BarBot"}, Dialect: d})
		var got []string
		for _, a := range s.Agents {
			got = append(got, fmt.Sprintf("%d:%s", a.Line, a.Host))
		}
		if want := []string{"2:example.com", "3:bots.example.org"}; !slices.Equal(got, want) {
			t.Errorf("%v BarBot's agents %v, want %v", d, got, want)
		}
		if s.Rate != (CrawlRate{Requests: 10, Per: time.Minute, Line: 4}) {
			t.Errorf("%v BarBot's rate %+v", d, s.Rate)
		}
		// FooBot's lines are malformed: listed (with no host), no rate.
		s = opt.SigningAgents(Query{Agents: []string{"FooBot"}, Dialect: d})
		if len(s.Agents) != 1 || s.Agents[0].Host != "" || s.Agents[0].Value != "Not A Host" || s.Rate.Line != 0 {
			t.Errorf("%v FooBot: %+v", d, s)
		}
	}
	// The groups as written carry them too.
	g := opt.Groups()
	if len(g) != 2 || len(g[0].SignatureAgents) != 2 || g[0].MaxCrawlRate.Line != 4 || g[1].MaxCrawlRate.Line != 0 || len(g[1].SignatureAgents) != 1 {
		t.Errorf("Groups: %+v", g)
	}
	if g := plain.Groups(); len(g[0].SignatureAgents) != 0 || g[0].MaxCrawlRate.Line != 0 {
		t.Errorf("Groups without the opt-in: %+v", g)
	}
	// Google's parsing report knows none of them.
	if l, _ := opt.Line(2); l.GoogleTag() != "Unknown" {
		t.Errorf("GoogleTag %q", l.GoogleTag())
	}
}

// TestSigningAgentsPlacement: a line before any user-agent line belongs to
// no group; a line without its colon is not read; the lines never start or
// end a group, so a user-agent line after them joins the group.
func TestSigningAgentsPlacement(t *testing.T) {
	body := "Signature-Agent: early.example\nUser-agent: a\nSignature-Agent: a.example\nUser-agent: b\nSignature-Agent b.example\nDisallow: /x\n"
	r := ParseWith([]byte(body), &ParseOptions{Extensions: ExtWebBotAuth})
	g := r.Groups()
	if len(g) != 1 || len(g[0].Agents) != 2 {
		t.Fatalf("groups %+v", g)
	}
	if len(g[0].SignatureAgents) != 1 || g[0].SignatureAgents[0].Line != 3 {
		t.Errorf("the group's agents %+v", g[0].SignatureAgents)
	}
	for _, agent := range []string{"a", "b"} {
		if s := r.SigningAgents(Query{Agents: []string{agent}}); len(s.Agents) != 1 || s.Agents[0].Host != "a.example" {
			t.Errorf("%s: %+v", agent, s)
		}
	}
}

// TestParseSignatureAgentLine: the forms the draft shows (a bare host, and
// its grammar's quoted https URL), and what is refused.
func TestParseSignatureAgentLine(t *testing.T) {
	for _, tc := range []struct{ v, host string }{
		{"example.com", "example.com"},
		{`"https://example.com"`, "example.com"},
		{"https://example.com", "example.com"},
		{`"https://bots.example.com/"`, "bots.example.com"},
		{"Example.COM", "example.com"},
		{"a_b-c.example", "a_b-c.example"},
		{"x1.example", "x1.example"},
		{"", ""},
		{"exa mple.com", ""},
		{"http://example.com", ""},
		{`"https://example.com`, ""},
		{"https://example.com/path", ""},
		{"https://example.com:8443", ""},
		{"example..com", ""},
		{".example.com", ""},
		{"*.example.com", ""},
		{"ex!ample.com", ""},
	} {
		host, ok := ParseSignatureAgentLine(tc.v)
		if host != tc.host || ok != (tc.host != "") {
			t.Errorf("ParseSignatureAgentLine(%q) = %q, %v, want %q", tc.v, host, ok, tc.host)
		}
	}
}

// TestSignatureAgentMatches: a line names a signing agent when its host
// is the agent's host or a domain above it (the draft's "FQDN suffix"),
// whatever form the request's Signature-Agent value has.
func TestSignatureAgentMatches(t *testing.T) {
	a := SignatureAgent{Value: "example.com", Host: "example.com"}
	for _, tc := range []struct {
		header string
		want   bool
	}{
		{"crawler.example.com", true},
		{`"https://crawler.example.com"`, true},
		{"https://example.com/.well-known/http-message-signatures-directory", true},
		{"https://EXAMPLE.com", true},
		{"badexample.com", false},
		{"example.com.evil.net", false},
		{"", false},
		{"https://crawler.example.com:8443", true},
	} {
		if got := a.Matches(tc.header); got != tc.want {
			t.Errorf("Matches(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
	if (SignatureAgent{Value: "Not A Host"}).Matches("example.com") {
		t.Error("a malformed line matches")
	}
}

// TestParseMaxCrawlRate: requests, then an optional unit (s, m, h, d, w;
// seconds when none), as the draft's grammar says.
func TestParseMaxCrawlRate(t *testing.T) {
	for _, tc := range []struct {
		v    string
		n    int
		per  time.Duration
		good bool
	}{
		{"10", 10, time.Second, true},
		{"10/s", 10, time.Second, true},
		{"10 / m", 10, time.Minute, true},
		{"3/h", 3, time.Hour, true},
		{"1000/d", 1000, 24 * time.Hour, true},
		{"5/W", 5, 7 * 24 * time.Hour, true},
		{"0", 0, time.Second, true},
		{"", 0, 0, false},
		{"fast", 0, 0, false},
		{"10/", 0, 0, false},
		{"10/y", 0, 0, false},
		{"-1", 0, 0, false},
		{"1.5", 0, 0, false},
		{"10/m extra", 0, 0, false},
		{"1234567890", 0, 0, false},
	} {
		r, ok := ParseMaxCrawlRate(tc.v)
		if ok != tc.good || ok && (r.Requests != tc.n || r.Per != tc.per) {
			t.Errorf("ParseMaxCrawlRate(%q) = %+v, %v", tc.v, r, ok)
		}
	}
}

// FuzzWebBotAuth: the extension changes no verdict and no deciding line in
// any dialect, changes a line's field only from unknown to its own, and
// its questions never panic.
func FuzzWebBotAuth(f *testing.F) {
	f.Add([]byte(signingBody))
	f.Add([]byte("Signature-Agent: a\nUser-agent: *\nsignature-agent b.example\nMAX-CRAWL-RATE: 3 / D\nDisallow: /\n"))
	f.Add([]byte("User-agent: a\nMax-Crawl-Rate:\nSignature-Agent: \"https://x\"\nUser-agent: b\n\nDisallow: /p\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<14 {
			return
		}
		plain := Parse(body)
		opt := ParseWith(body, &ParseOptions{Extensions: ExtWebBotAuth})
		lines := collectLines(plain.Lines())
		for _, d := range Dialects() {
			optLines := collectLines(opt.LinesFor(d))
			for i, l := range collectLines(plain.LinesFor(d)) {
				o := optLines[i]
				if o.Field != l.Field && (l.Field != FieldUnknown || o.Field != FieldSignatureAgent && o.Field != FieldMaxCrawlRate) {
					t.Fatalf("%v line %d: %v without the extension, %v with", d, i+1, l.Field, o.Field)
				}
			}
			for _, u := range fuzzURLs(lines) {
				for _, a := range fuzzAgents(lines) {
					q := Query{URL: u, Agents: a, Dialect: d}
					x, y := plain.Decide(q), opt.Decide(q)
					if x.Allowed != y.Allowed || x.Line() != y.Line() {
						t.Fatalf("%v %v %q: %v line %d without, %v line %d with", d, a, u, x.Allowed, x.Line(), y.Allowed, y.Line())
					}
					s := opt.SigningAgents(q)
					for _, sa := range s.Agents {
						_ = sa.Matches(sa.Value)
					}
				}
			}
			_ = opt.GroupsFor(d)
		}
	})
}
