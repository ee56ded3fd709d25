package server

import (
	"encoding/json"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/testdata"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/tester"
)

func marshalled(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hostile are strings json.Marshal escapes: every ASCII byte, HTML, line
// separators, invalid UTF-8.
func hostile() []string {
	var out []string
	for c := range 256 {
		out = append(out, string([]byte{byte(c)}), "a"+string([]byte{byte(c)})+"b")
	}
	return append(out, "", "<script>alert('x')</script> & co", "\u2028\u2029\u2027\u202a", "\xe2\x80", "\xed\xa0\x80",
		"Disallow: /é/你好/🤖", "\xff\xfe", "a\x00b\x1fc\x7fd", `\"\\`, strings.Repeat("ü<", 100))
}

func TestAppendStringEqualsMarshal(t *testing.T) {
	for _, s := range hostile() {
		if got, want := string(appendString(nil, s)), marshalled(t, s); got != want {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range hostile() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendString(nil, s)), marshalled(t, s); got != want {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}

func TestAppendFloatEqualsMarshal(t *testing.T) {
	for _, f := range []float64{0, 1, 0.5, 5, 10, 1e-6, 1e-7, 9.99e-7, 1e20, 1e21, 1.5e21, 123456789.125, 1e-300, -3, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1 + 0.2} {
		if got, want := string(appendFloat(nil, f)), marshalled(t, f); got != want {
			t.Errorf("%v: got %s, want %s", f, got, want)
		}
	}
}

// TestCheckReportEqualsMarshal: the answer written by hand is json.Marshal's,
// byte for byte, on check reports of a spread of the corpus (every 40th
// file), with crawlers, tokens, hostile URLs, crawl-delays and fetched
// sources, and on the corner cases of nil lists.
func TestCheckReportEqualsMarshal(t *testing.T) {
	shared := testdata.MustRoot(t)
	dir := filepath.Join(shared, "corpus", "real")
	names, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(names) == 0 {
		t.Fatalf("no corpus in %s", dir)
	}
	slices.Sort(names)
	urls := []string{"/", "/private/a", "/search?q=<x>&y=1", "https://example.com/a b", "/\u2028", "/%E4%BD%A0/x", "/wp-admin/", "/x.php$", "http://other.example/a"}
	subs := tester.Subjects{Crawlers: []string{"Googlebot", "Bingbot", "YandexBot", "Baiduspider", "GPTBot"}, Agents: []string{"MyBot", "Slurp"}}
	n := 0
	check := func(name string, rep *tester.CheckReport) {
		t.Helper()
		got, ok := appendCheckReport(nil, rep)
		if want := marshalled(t, rep); !ok || string(got) != want {
			t.Fatalf("%s: (ok %v)\n got %s\nwant %s", name, ok, got, want)
		}
		n++
	}
	for i := 0; i < len(names); i += 40 {
		body, err := os.ReadFile(names[i])
		if err != nil {
			t.Fatal(err)
		}
		rep, err := tester.Check(&tester.CheckRequest{Source: tester.NewSource(names[i], body), URLs: urls, Subjects: subs})
		if err != nil {
			t.Fatal(err)
		}
		check(names[i], rep)
	}
	// A fetched source: fetch, notes, per-row fetch policies.
	info := &tester.FetchInfo{Origin: "https://example.com", RobotsURL: "https://example.com/robots.txt", Dialect: "google", Policy: "allow-all",
		Source: "network", Reason: "403 <Forbidden>", Status: 403, Trace: []fetch.Request{{URL: "https://example.com/robots.txt", Status: 403}}}
	rep, err := tester.Check(&tester.CheckRequest{Source: tester.FetchedSource(nil, info, 0), URLs: urls, Subjects: subs})
	if err != nil {
		t.Fatal(err)
	}
	check("fetched", rep)
	// Crawl-delays of every size, nil lists.
	rep, _ = tester.Check(&tester.CheckRequest{Source: tester.NewSource("cd", []byte("User-agent: *\nCrawl-delay: 0.000000125\nDisallow: /a\n")), URLs: []string{"/a"}, Subjects: tester.Subjects{Agents: []string{"MyBot"}}})
	for _, cd := range []float64{0.000000125, 1e22, 2.5, 0} {
		rep.Results[0].CrawlDelay = &cd
		check("crawl-delay", rep)
	}
	rep.Results[0].Matches, rep.Results[0].Group.Lines = nil, nil
	check("nil lists", rep)
	rep.Results = nil
	check("nil results", rep)
	nan := math.NaN()
	rep.Results = []tester.CheckResult{{CrawlDelay: &nan}}
	if _, ok := appendCheckReport(nil, rep); ok {
		t.Error("a NaN crawl-delay was written")
	}
	t.Logf("%d reports compared", n)
}

// TestAppendStringEveryOffset: the bytes the eight-byte scan stops at, at
// every place in and across its words, are written as json.Marshal
// writes them.
func TestAppendStringEveryOffset(t *testing.T) {
	for _, special := range []string{`"`, `\`, "<", ">", "&", "\n", "\x00", "\x1f", "\x7f", " ", "é", "\u2028", "\u2029", "\xff", "\xe2\x80", "😀", "!", "=", "?", "[", "|", "~"} {
		for before := range 20 {
			for _, after := range []int{0, 1, 7, 8, 9} {
				s := strings.Repeat("a", before) + special + strings.Repeat("b", after)
				want, _ := json.Marshal(s)
				if got := appendString(nil, s); string(got) != string(want) {
					t.Errorf("%q: got %s, want %s", s, got, want)
				}
			}
		}
	}
}

// TestEncodeCheckEqualsReport: the answer written as the results come is
// the one written from the whole report, byte for byte, on a spread of the
// corpus (every 97th file) and a fetched source.
func TestEncodeCheckEqualsReport(t *testing.T) {
	shared := testdata.MustRoot(t)
	names, _ := filepath.Glob(filepath.Join(shared, "corpus", "real", "*.txt"))
	if len(names) == 0 {
		t.Fatal("no corpus")
	}
	slices.Sort(names)
	urls := []string{"/", "/private/a", "/search?q=<x>&y=1", "https://example.com/a b", "/\u2028", "/%E4%BD%A0/x", "/wp-admin/", "/robots.txt"}
	subs := tester.Subjects{Crawlers: []string{"Googlebot", "Bingbot", "YandexBot", "Baiduspider"}, Agents: []string{"MyBot"}, AgentSets: [][]string{{"a", "b"}}}
	var reqs []*tester.CheckRequest
	for i := 0; i < len(names); i += 97 {
		body, err := os.ReadFile(names[i])
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, &tester.CheckRequest{Source: tester.NewSource(names[i], body), URLs: urls, Subjects: subs})
	}
	info := &tester.FetchInfo{Origin: "https://example.com", RobotsURL: "https://example.com/robots.txt", Dialect: "google", Policy: "disallow-all",
		Source: "network", Reason: "500", Status: 500, Trace: []fetch.Request{{URL: "https://example.com/robots.txt", Status: 500}}}
	reqs = append(reqs, &tester.CheckRequest{Source: tester.FetchedSource(nil, info, 0), URLs: urls, Subjects: subs})
	for _, req := range reqs {
		rep, err := tester.Check(req)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := appendCheckReport(nil, rep)
		if !ok {
			t.Fatalf("%s: not written", req.Source.Name)
		}
		w := httptest.NewRecorder()
		if started, err := writeCheck(w, &checkStream{req: req}, nil, 1<<40, func() bool { return false }); err != nil || !started {
			t.Fatalf("%s: %v", req.Source.Name, err)
		}
		if got := w.Body.String(); got != string(want)+"\n" {
			t.Fatalf("%s:\n got %s\nwant %s", req.Source.Name, got, want)
		}
		// Written in pieces: the same bytes.
		big := &tester.CheckRequest{Source: req.Source, URLs: slices.Repeat(urls, 200), Subjects: req.Subjects}
		rep, err = tester.Check(big)
		if err != nil {
			t.Fatal(err)
		}
		want, _ = appendCheckReport(nil, rep)
		w = httptest.NewRecorder()
		if _, err := writeCheck(w, &checkStream{req: big}, nil, 1<<40, func() bool { return false }); err != nil || w.Body.String() != string(want)+"\n" || len(want) < 2*streamBuffer {
			t.Fatalf("%s, %d bytes: %v, or not the same bytes", req.Source.Name, len(want), err)
		}
	}
	w := httptest.NewRecorder()
	if started, err := writeCheck(w, &checkStream{req: &tester.CheckRequest{URLs: urls}}, nil, 1<<40, func() bool { return false }); started || err == nil || w.Body.Len() > 0 {
		t.Fatalf("a request without a file: %v %v", started, err)
	}
}
