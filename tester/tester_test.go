package tester

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

const sample = "User-agent: *\nDisallow: /private/\n\nUser-agent: Baiduspider\nDisallow: /\n"

// TestErrorsNameTheField: every bad input is an *Error naming the request
// field (and the place in its list), as the service answers it.
func TestErrorsNameTheField(t *testing.T) {
	src := NewSource("r.txt", []byte(sample))
	check := func(r CheckRequest) error { _, err := Check(&r); return err }
	tests := []struct {
		name  string
		err   error
		field string
		index int
		value string
	}{
		{"unknown crawler", check(CheckRequest{Source: src, URLs: []string{"/"}, Subjects: Subjects{Crawlers: []string{"Googlebot", "NoSuchBot"}}}), "crawlers", 1, "NoSuchBot"},
		{"bad token", check(CheckRequest{Source: src, URLs: []string{"/"}, Subjects: Subjects{Agents: []string{"a b"}}}), "agents", 0, "a b"},
		{"bad token in a set", check(CheckRequest{Source: src, URLs: []string{"/"}, Subjects: Subjects{AgentSets: [][]string{{"A"}, {"B", "x/1"}}}}), "agent_sets", 1, "x/1"},
		{"empty set", check(CheckRequest{Source: src, URLs: []string{"/"}, Subjects: Subjects{AgentSets: [][]string{{}}}}), "agent_sets", 0, ""},
		{"bad URL", check(CheckRequest{Source: src, URLs: []string{"/", "example"}}), "urls", 1, "example"},
		{"no URL", check(CheckRequest{Source: src}), "urls", 0, ""},
		{"no source", check(CheckRequest{URLs: []string{"/"}}), "robots", 0, ""},
		{"compare: bad URL", func() error { _, err := Compare(&CompareRequest{Source: src, URLs: []string{"x"}}); return err }(), "urls", 0, "x"},
		{"compare: no source", func() error { _, err := Compare(&CompareRequest{}); return err }(), "robots", 0, ""},
		{"diff: unknown crawler after *", func() error {
			_, err := Diff(&DiffRequest{Old: src, New: src, Subjects: Subjects{Crawlers: []string{"*", "Googlebot", "Nope"}}})
			return err
		}(), "crawlers", 2, "Nope"},
		{"lint: unknown code", func() error { _, err := Lint(src, &LintOptions{Disable: []string{"bom", "nope"}}); return err }(), "disable", 1, "nope"},
		{"dialect", func() error { _, err := ParseDialect("klingon"); return err }(), "dialect", 0, "klingon"},
	}
	for _, tt := range tests {
		var e *Error
		if !errors.As(tt.err, &e) {
			t.Errorf("%s: error %v, want an *Error", tt.name, tt.err)
			continue
		}
		if e.Field != tt.field || e.Index != tt.index || e.Value != tt.value || !strings.HasPrefix(e.Error(), "tester: ") {
			t.Errorf("%s: %+v (%q), want field %s, index %d, value %q", tt.name, e, e.Error(), tt.field, tt.index, tt.value)
		}
	}
	if _, err := ParseDialect(""); err != nil {
		t.Errorf("ParseDialect(\"\"): %v", err)
	}
}

// fetched is the source of a live answer with status and body, fetched
// with Google's policy, read by each crawler with its own.
func fetched(status int, body string) *Source {
	p := fetch.Response{Status: status, Body: []byte(body)}.Interpret(robotstxt.Google)
	info := &FetchInfo{Origin: "https://example.com", RobotsURL: "https://example.com/robots.txt", Dialect: "google",
		Policy: p.Policy.String(), Source: "network", Reason: p.Reason, Status: status, Trace: []fetch.Request{}}
	if p.Policy != fetch.Rules {
		body = ""
	}
	return FetchedSource([]byte(body), info, robotstxt.DefaultDialect)
}

// TestFetchedPerDialect: a 403 allows Google's crawlers and blocks Baidu's
// (each reads the answer with its engine's fetch policy), row by row.
func TestFetchedPerDialect(t *testing.T) {
	src := fetched(403, "")
	rep, err := Check(&CheckRequest{Source: src, URLs: []string{"/a"}, Subjects: Subjects{Crawlers: []string{"Googlebot", "Baiduspider"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.PerRow || len(rep.Results) != 2 {
		t.Fatalf("per row %v, %d results", rep.PerRow, len(rep.Results))
	}
	g, b := rep.Results[0], rep.Results[1]
	if !g.Allowed || g.Policy != "allow-all" || g.FetchPolicy != "google" || b.Allowed || b.Policy != "disallow-all" || b.FetchPolicy != "baidu" {
		t.Errorf("googlebot %+v\nbaiduspider %+v", g, b)
	}
	// With one dialect for all, one policy for all.
	src = FetchedSource(nil, src.Fetched, robotstxt.Baidu)
	rep, _ = Check(&CheckRequest{Source: src, URLs: []string{"/a"}, Subjects: Subjects{Crawlers: []string{"Googlebot"}}, Dialect: robotstxt.Baidu})
	if rep.PerRow || rep.Results[0].FetchPolicy != "" {
		t.Errorf("one dialect: %+v", rep.Results[0])
	}
}

// TestLintUnreachable: an origin that cannot be read has nothing to lint:
// an *Error naming the origin, the notes kept.
func TestLintUnreachable(t *testing.T) {
	rep, err := Lint(fetched(503, ""), nil)
	var e *Error
	if !errors.As(err, &e) || e.Field != "origin" || !strings.Contains(e.Msg, "cannot be read") {
		t.Fatalf("error %v", err)
	}
	if len(rep.Files) != 0 || len(rep.Notes) == 0 || rep.Fetch == nil {
		t.Errorf("report %+v", rep)
	}
	rep, err = Lint(fetched(404, ""), nil)
	if err != nil || len(rep.Files) != 1 || len(rep.Findings) != 0 {
		t.Errorf("a missing file: %v, %+v", err, rep)
	}
	rep, err = Lint(fetched(200, "User-agent: *\nDisalow: /x\n"), &LintOptions{Disable: []string{"unknown-field"}})
	if err != nil || rep.Warnings != 1 || rep.Findings[0].Code != "accepted-typo" || rep.Findings[0].File != "https://example.com/robots.txt" {
		t.Errorf("a fetched file: %v, %+v", err, rep)
	}
}

// TestDiffURLs: nil URLs are derived from the rules; an empty list asks
// about none.
func TestDiffURLs(t *testing.T) {
	old, new := NewSource("old", []byte("User-agent: *\nDisallow: /a\n")), NewSource("new", []byte("User-agent: *\nDisallow: /b\n"))
	subs := Subjects{Crawlers: []string{"Googlebot"}}
	rep, err := Diff(&DiffRequest{Old: old, New: new, Subjects: subs})
	if err != nil || !rep.Derived || rep.URLs == 0 || len(rep.Changes) == 0 {
		t.Errorf("derived: %v, %+v", err, rep)
	}
	rep, err = Diff(&DiffRequest{Old: old, New: new, Subjects: subs, URLs: []string{}})
	if err != nil || rep.Derived || rep.URLs != 0 || len(rep.Changes) != 0 {
		t.Errorf("no URL: %v, %+v", err, rep)
	}
}

// TestSourceConcurrent: one fetched source answers many questions at once
// (run with -race).
func TestSourceConcurrent(t *testing.T) {
	src := fetched(200, sample)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Compare(&CompareRequest{Source: src, URLs: []string{"/private/a", "/b"}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
}

// TestCheckSharedSourceEqualsFresh: a Source asked again and again (its
// prepared questions kept) answers as a fresh one does, whoever asks in
// whichever dialect.
func TestCheckSharedSourceEqualsFresh(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nUser-agent: Googlebot\nUser-agent: bingbot\nDisallow: /g/\nAllow: /g/ok\n\nUser-agent: Baiduspider\nDisallow: /\n"
	shared := NewSource("r.txt", []byte(body))
	urls := []string{"/", "/private/x", "/g/x", "/g/ok", "/robots.txt"}
	subjects := []Subjects{
		{}, {Crawlers: []string{"Googlebot", "Bingbot", "Baiduspider", "GPTBot"}},
		{Agents: []string{"googlebot"}}, {Agents: []string{"otherbot", "bingbot"}},
		{AgentSets: [][]string{{"googlebot", "bingbot"}}}, {AgentSets: [][]string{{"bingbot", "googlebot"}}},
		{AgentSets: [][]string{{"googlebot"}}, Agents: []string{"googlebot"}},
	}
	dialects := []robotstxt.Dialect{robotstxt.DefaultDialect, robotstxt.Google, robotstxt.Bing, robotstxt.RFC9309, robotstxt.Original, robotstxt.Baidu, robotstxt.Yandex}
	for round := range 2 {
		for _, sub := range subjects {
			for _, d := range dialects {
				got, err := Check(&CheckRequest{Source: shared, URLs: urls, Subjects: sub, Dialect: d})
				if err != nil {
					t.Fatal(err)
				}
				want, err := Check(&CheckRequest{Source: NewSource("r.txt", []byte(body)), URLs: urls, Subjects: sub, Dialect: d})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d, %+v, %v:\n got %+v\nwant %+v", round, sub, d, got, want)
				}
			}
		}
	}
}

// TestCheckKeepsNoCallerString: what a Source keeps between checks holds
// none of the caller's strings: a token read from a buffer the caller
// writes again later (a service's request body) leaves no trace.
func TestCheckKeepsNoCallerString(t *testing.T) {
	src := NewSource("r.txt", []byte("User-agent: mybot\nDisallow: /x\n"))
	buf := []byte("mybot")
	token := unsafe.String(&buf[0], len(buf))
	if _, err := Check(&CheckRequest{Source: src, URLs: []string{"/x"}, Subjects: Subjects{Agents: []string{token}}}); err != nil {
		t.Fatal(err)
	}
	copy(buf, "XXXXX")
	got, err := Check(&CheckRequest{Source: src, URLs: []string{"/x"}, Subjects: Subjects{Agents: []string{"mybot"}}})
	if err != nil {
		t.Fatal(err)
	}
	if tok := got.Results[0].Group.Token; tok != "mybot" {
		t.Errorf("group token %q, want mybot", tok)
	}
}

// TestCheckStreamEqualsCheck: the results handed out one by one are
// Check's, in its order, after the report's head; the counts are Check's.
func TestCheckStreamEqualsCheck(t *testing.T) {
	body := "User-agent: *\nDisallow: /private/\nAllow: /private/ok\nCrawl-delay: 2\n\nUser-agent: Googlebot\nDisallow: /g/\n"
	for _, sub := range []Subjects{{}, {Crawlers: []string{"Googlebot", "Bingbot", "YandexBot"}, Agents: []string{"mybot"}, AgentSets: [][]string{{"a", "googlebot"}}}} {
		for _, d := range []robotstxt.Dialect{robotstxt.DefaultDialect, robotstxt.RFC9309, robotstxt.Original} {
			req := &CheckRequest{Source: NewSource("r.txt", []byte(body)), URLs: []string{"/", "/private/x", "/private/ok", "/g/x", "http://h/a b", "/robots.txt"}, Subjects: sub, Dialect: d}
			want, err := Check(req)
			if err != nil {
				t.Fatal(err)
			}
			var head *CheckReport
			var got []CheckResult
			rep, err := CheckStream(req, func(r *CheckReport) { head = r }, func(r *CheckResult) {
				if head == nil {
					t.Fatal("a result before the head")
				}
				c := *r
				c.Matches = slices.Clone(r.Matches)
				got = append(got, c)
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Results != nil || head != rep {
				t.Fatalf("the report holds results or is not the head's")
			}
			rep.Results = got
			if !reflect.DeepEqual(rep, want) {
				t.Fatalf("%+v %v:\n got %+v\nwant %+v", sub, d, rep, want)
			}
		}
	}
	if _, err := CheckStream(&CheckRequest{URLs: []string{"/"}}, nil, func(*CheckResult) { t.Fatal("a result for a bad request") }); err == nil {
		t.Fatal("no error for a request without a file")
	}
}
