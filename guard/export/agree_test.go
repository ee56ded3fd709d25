package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/testdata"
)

// question is one request asked of an export: a robots.txt, a product
// token, a URL.
type question struct {
	file string // "" for an inline body
	body []byte
	ua   string
	url  string
	// golden is Google's answer for the token alone, when known.
	golden *bool
}

// loadQuestions reads Google's conformance questions and the corpus's
// golden questions.
func loadQuestions(t *testing.T) []question {
	t.Helper()
	conf := filepath.Join(testdata.MustRoot(t), "conformance")
	corpus := filepath.Join(testdata.MustRoot(t), "corpus")
	var out []question
	read := func(name string, each func(map[string]any)) {
		f, err := os.Open(filepath.Join(conf, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			each(m)
		}
	}
	read("google_robots_test.jsonl", func(m map[string]any) {
		a := m["allowed"].(bool)
		out = append(out, question{body: []byte(m["robots"].(string)), ua: m["ua"].(string), url: m["url"].(string), golden: &a})
	})
	bodies := map[string][]byte{}
	read("corpus_golden.jsonl", func(m map[string]any) {
		file := m["file"].(string)
		b, ok := bodies[file]
		if !ok {
			var err error
			if b, err = os.ReadFile(filepath.Join(corpus, file)); err != nil {
				t.Fatal(err)
			}
			bodies[file] = b
		}
		a := m["allowed"].(bool)
		out = append(out, question{file: file, body: b, ua: m["ua"].(string), url: m["url"].(string), golden: &a})
	})
	return out
}

// requestURI is the request-target a crawler sends for url: its path,
// params and query, as Google's matcher reads them.
func requestURI(url string) string { return robotstxt.PathParamsQuery(url) }

// userAgents are the headers a crawler with product token tok sends, in
// both forms the guard reads.
func userAgents(tok string) []string {
	return []string{tok + "/1.0", "Mozilla/5.0 (compatible; " + tok + "/2.1; +https://example.com/about)"}
}

// warnedFor reports whether a warning covers the question: the deciding
// rule's line (the core's or the export's) has one, or a target-wide
// warning's condition holds for the URI.
type warnIndex struct {
	lines  map[int]bool
	wide   []Warning
	target Target
}

func indexWarnings(t Target, ws []Warning) *warnIndex {
	ix := &warnIndex{lines: map[int]bool{}, target: t}
	for _, w := range ws {
		if w.Line > 0 {
			ix.lines[w.Line] = true
		} else {
			ix.wide = append(ix.wide, w)
		}
	}
	return ix
}

func (ix *warnIndex) covers(ref *reference, ua, uri string, refLine, expLine int) string {
	if ix.lines[refLine] {
		return fmt.Sprintf("line %d", refLine)
	}
	if ix.lines[expLine] {
		return fmt.Sprintf("line %d", expLine)
	}
	c, tok := ref.claim(ua)
	for _, w := range ix.wide {
		applies := len(w.Agents) == 0
		for _, a := range w.Agents {
			if c != nil && a == c.Name || a == tok {
				applies = true
			}
		}
		if !applies {
			continue
		}
		switch w.Name {
		case WarnPathOnly:
			if strings.Contains(uri, "?") {
				return w.Name
			}
		case WarnDecodedPath:
			if strings.ContainsAny(uri, "%*$") {
				return w.Name
			}
		case WarnDialect:
			return w.Name
		}
	}
	return ""
}

// sendable reports whether a URI can be sent in a request line as it
// stands.
func sendable(uri string) bool {
	for i := 0; i < len(uri); i++ {
		if c := uri[i]; c <= ' ' || c == 0x7f || c == '#' || c >= 0x80 {
			return false
		}
	}
	return uri != "" && uri[0] == '/'
}

type tally struct {
	questions, asked, warned, disagree, blocked, goldenChecked int
	warnedRules                                                map[string]int
	examples                                                   []string
}

// TestExportsAgree holds every export, read back as its target reads it,
// to the guard's verdict on Google's conformance questions and the
// corpus's golden questions (each token in both User-Agent forms): no
// disagreement on a question no warning covers.
func TestExportsAgree(t *testing.T) {
	// Every conformance question, and the corpus's golden questions of
	// one file in step (ROBOTSTXT_EXPORT_STEP, 20 by default, 1 for all;
	// 60 with -short).
	qs := sample(loadQuestions(t), stepOf(t))
	byBody := map[string][]question{}
	var order []string
	for _, q := range qs {
		k := q.file
		if k == "" {
			k = "inline:" + string(q.body)
		}
		if _, ok := byBody[k]; !ok {
			order = append(order, k)
		}
		byBody[k] = append(byBody[k], q)
	}
	for _, tg := range Targets() {
		t.Run(string(tg), func(t *testing.T) {
			tl := tally{warnedRules: map[string]int{}}
			files := 0
			for _, k := range order {
				group := byBody[k]
				body := group[0].body
				text, ws, err := CompileInput(tg, Input{Robots: body, NamedTokens: true})
				if err != nil {
					t.Fatalf("%s: %v", k, err)
				}
				files++
				for _, w := range ws {
					tl.warnedRules[w.Name]++
				}
				if tg == Anubis {
					if err := checkAnubisSchema(text); err != nil {
						t.Fatalf("%s: %v", k, err)
					}
				}
				in, err := readExport(tg, text)
				if err != nil {
					t.Fatalf("%s: %v", k, err)
				}
				ref := newReference(body, true)
				ix := indexWarnings(tg, ws)
				for _, q := range group {
					tl.questions++
					if !robotstxt.ValidToken(q.ua) {
						continue
					}
					uri := requestURI(q.url)
					for i, ua := range userAgents(q.ua) {
						tl.asked++
						want, refLine := ref.blocked(ua, uri)
						got, expLine := in.verdictOf(ua, uri)
						if want {
							tl.blocked++
						}
						if i == 0 && q.golden != nil {
							if c, tok := ref.claim(ua); c == nil && tok != "" && !ref.rulesPath(uri) {
								tl.goldenChecked++
								if want == *q.golden {
									t.Errorf("%s: %s %q: the reference says blocked=%v, Google allowed=%v", k, q.ua, q.url, want, *q.golden)
								}
							}
						}
						if got == want {
							continue
						}
						if why := ix.covers(ref, ua, uri, refLine, expLine); why != "" {
							tl.warned++
							continue
						}
						tl.disagree++
						if len(tl.examples) < 10 {
							tl.examples = append(tl.examples, fmt.Sprintf("%s: UA %q %q: guard blocked=%v (line %d), %s blocked=%v (line %d)",
								clip(k, 40), ua, uri, want, refLine, tg, got, expLine))
						}
					}
				}
			}
			var names []string
			for n, c := range tl.warnedRules {
				names = append(names, fmt.Sprintf("%s=%d", n, c))
			}
			sort.Strings(names)
			t.Logf("%s: %d files, %d questions, %d requests asked (%d blocked by the guard), %d disagreements under a warning, %d not; warnings: %s; %d named-token answers checked against Google's",
				tg, files, tl.questions, tl.asked, tl.blocked, tl.warned, tl.disagree, strings.Join(names, " "), tl.goldenChecked)
			for _, e := range tl.examples {
				t.Error(e)
			}
			if tl.disagree != 0 {
				t.Errorf("%s: %d disagreements no warning covers", tg, tl.disagree)
			}
			if tl.blocked == 0 {
				t.Errorf("%s: no question was blocked: the test proves nothing", tg)
			}
		})
	}
}

// stepOf is the corpus sampling step.
func stepOf(t *testing.T) int {
	if v := os.Getenv("ROBOTSTXT_EXPORT_STEP"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("ROBOTSTXT_EXPORT_STEP=%q: want a number >= 1", v)
		}
		return n
	}
	if testing.Short() {
		return 60
	}
	return 20
}

// sample keeps the inline questions and those of every step-th corpus
// file.
func sample(qs []question, step int) []question {
	var out []question
	files := map[string]int{}
	for _, q := range qs {
		if q.file != "" {
			if _, ok := files[q.file]; !ok {
				files[q.file] = len(files)
			}
			if files[q.file]%step != 0 {
				continue
			}
		}
		out = append(out, q)
	}
	return out
}
