package robotstxt

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/testdata"
)

// sharedDir is where the project's test data lives: the repository's
// testdata/ folder (conformance/ and corpus/real/).
func sharedDir(t testing.TB) string {
	t.Helper()
	return testdata.MustRoot(t)
}

// readJSONL decodes every line of a JSON Lines file into a map.
func readJSONL(t testing.TB, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func robotsOf(t testing.TB, rec map[string]any) []byte {
	if b64, ok := rec["robots_b64"].(string); ok {
		b, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return []byte(rec["robots"].(string))
}

func TestGoogleSuite(t *testing.T) {
	recs := readJSONL(t, filepath.Join(sharedDir(t), "conformance", "google_robots_test.jsonl"))
	if len(recs) != 145 {
		t.Fatalf("got %d cases, want 145", len(recs))
	}
	pass := 0
	for _, rec := range recs {
		r := Parse(robotsOf(t, rec))
		ua, url, want := rec["ua"].(string), rec["url"].(string), rec["allowed"].(bool)
		got := r.Allowed(ua, url)
		dec := r.Decide(Query{URL: url, Agents: []string{ua}})
		if got != want || dec.Allowed != want {
			t.Errorf("%s: Allowed(%q, %q) = %v, Decide = %v, want %v\nrobots.txt:\n%s", rec["name"], ua, url, got, dec.Allowed, want, rec["robots"])
			continue
		}
		pass++
	}
	t.Logf("%d/%d of Google's suite", pass, len(recs))
}

func TestGoogleOtherRecords(t *testing.T) {
	recs := readJSONL(t, filepath.Join(sharedDir(t), "conformance", "google_other_tests.jsonl"))
	if len(recs) != 85 {
		t.Fatalf("got %d records, want 85", len(recs))
	}
	pass := 0
	for _, rec := range recs {
		name := rec["name"].(string)
		ok := true
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf(name+": "+format, args...)
			ok = false
		}
		switch rec["kind"] {
		case "valid_user_agent":
			if got := ValidToken(rec["ua"].(string)); got != rec["valid"].(bool) {
				fail("ValidToken(%q) = %v", rec["ua"], got)
			}
		case "path_params_query":
			if got := PathParamsQuery(rec["url"].(string)); got != rec["path"].(string) {
				fail("PathParamsQuery(%q) = %q, want %q", rec["url"], got, rec["path"])
			}
		case "escape_pattern":
			if got := EscapePattern(rec["pattern"].(string)); got != rec["escaped"].(string) {
				fail("EscapePattern(%q) = %q, want %q", rec["pattern"], got, rec["escaped"])
			}
		case "parse_stats":
			r := Parse(robotsOf(t, rec))
			got := parseStat(r, rec["stat"].(string))
			if !equalJSON(got, rec["expected"]) {
				fail("stat %s = %v, want %v", rec["stat"], got, rec["expected"])
			}
		case "report_stats":
			r := Parse(robotsOf(t, rec))
			got := reportStat(r, rec["stat"].(string))
			if !equalJSON(got, rec["expected"]) {
				fail("stat %s = %v, want %v", rec["stat"], got, rec["expected"])
			}
		case "report_line":
			r := Parse(robotsOf(t, rec))
			n := int(rec["line_num"].(float64))
			l, found := r.Line(n)
			if !found {
				fail("no line %d", n)
				break
			}
			want := rec["expected"].(map[string]any)
			got := map[string]any{
				"tag_name":                   l.GoogleTag(),
				"is_typo":                    l.Typo,
				"is_empty":                   l.Empty,
				"has_comment":                l.HasComment,
				"is_comment":                 l.Comment,
				"has_directive":              l.HasDirective,
				"is_acceptable_typo":         l.Typo,
				"is_line_too_long":           l.TooLong,
				"is_missing_colon_separator": l.MissingColon,
			}
			for k, v := range want {
				if got[k] != v {
					fail("line %d: %s = %v, want %v", n, k, got[k], v)
				}
			}
		default:
			fail("unknown kind %v", rec["kind"])
		}
		if ok {
			pass++
		}
	}
	t.Logf("%d/%d other records", pass, len(recs))
}

func equalJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// parseStat computes the counts Google's robots_test.cc gathers from the
// parser's callbacks.
func parseStat(r *Robots, stat string) any {
	valid, unknown, last := 0, 0, 0
	var sitemaps strings.Builder
	for _, l := range r.Lines() {
		if !l.HasDirective {
			continue
		}
		last = l.Number
		switch l.Field {
		case FieldUserAgent, FieldAllow, FieldDisallow:
			valid++
		case FieldSitemap:
			valid++
			sitemaps.WriteString(l.Value)
		default:
			unknown++
		}
	}
	switch stat {
	case "valid_directives":
		return valid
	case "unknown_directives":
		return unknown
	case "last_directive_line":
		return last
	case "sitemap":
		return sitemaps.String()
	}
	return nil
}

// reportStat computes the totals of Google's reporting module.
func reportStat(r *Robots, stat string) any {
	lines := r.Lines()
	switch stat {
	case "valid_directives":
		n := 0
		for _, l := range lines {
			if tag := l.GoogleTag(); l.HasDirective && tag != "Unknown" && tag != "Unused" {
				n++
			}
		}
		return n
	case "last_line_seen", "parsed_line_count":
		return r.NumLines()
	}
	return nil
}

type goldenCase struct {
	File    string `json:"file"`
	UA      string `json:"ua"`
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
}

func readGolden(t testing.TB) []goldenCase {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedDir(t), "conformance", "corpus_golden.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []goldenCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var c goldenCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func TestCorpusGolden(t *testing.T) {
	dir := sharedDir(t)
	cases := readGolden(t)
	if len(cases) != 52698 {
		t.Fatalf("got %d cases, want 52698", len(cases))
	}
	parsed := map[string]*Robots{}
	pass, failed := 0, 0
	for _, c := range cases {
		r := parsed[c.File]
		if r == nil {
			body, err := os.ReadFile(filepath.Join(dir, "corpus", c.File))
			if err != nil {
				t.Fatal(err)
			}
			r = Parse(body)
			parsed[c.File] = r
		}
		got := r.Allowed(c.UA, c.URL)
		dec := r.Decide(Query{URL: c.URL, Agents: []string{c.UA}})
		if got != c.Allowed || dec.Allowed != c.Allowed || dec.Line() != c.Line {
			failed++
			if failed <= 20 {
				t.Errorf("%s ua=%q url=%q: Allowed=%v Decide=%v line %d; want %v line %d", c.File, c.UA, c.URL, got, dec.Allowed, dec.Line(), c.Allowed, c.Line)
			}
			continue
		}
		pass++
	}
	t.Logf("%d/%d corpus answers with the same deciding line (%d files)", pass, len(cases), len(parsed))
}
