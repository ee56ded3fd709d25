package robotstxt

// Benchmarks of parsing and matching over a fixed sample of the real corpus
// in testdata/, plus generated pathological inputs.
// They assert nothing about time. Run them with
//
//	go test -run '^$' -bench . -benchmem
//
// Every helper here is prefixed with "bench" so that it cannot collide with
// the other test files of the package.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/hostile"
)

// benchSampleSize is how many corpus files the benchmarks use. The bench/
// module picks the same files the same way.
const benchSampleSize = 1000

// benchFile is one corpus file of the sample.
type benchFile struct {
	name string // relative to corpus/, as in corpus_golden.jsonl
	body []byte // the whole file, as stored
}

// benchQuestion is one golden question about a sample file.
type benchQuestion struct {
	file    int // index into benchCorpus.files
	ua, url string
	allowed bool
}

type benchCorpus struct {
	files       []benchFile
	questions   []benchQuestion
	parsedBytes int64 // bytes Parse reads of the sample: each file cut to DefaultMaxBytes
	inputBytes  int64 // the files' whole sizes
}

var (
	benchCorpusOnce sync.Once
	benchCorpusData *benchCorpus
	benchCorpusErr  error
)

// errBenchNoData says the shared data is not there.
var errBenchNoData = errors.New("shared corpus not found")

// benchSharedDir returns the test data directory: the repository's
// testdata/ folder.
func benchSharedDir() string {
	return "testdata"
}

// benchSampleNames picks n names out of the sorted list: the files at
// positions floor(i*len/n), i = 0..n-1, which spreads them evenly over the
// corpus and skips none by size.
func benchSampleNames(sorted []string, n int) []string {
	if len(sorted) <= n {
		return sorted
	}
	out := make([]string, n)
	for i := range out {
		out[i] = sorted[i*len(sorted)/n]
	}
	return out
}

func benchLoadCorpus() (*benchCorpus, error) {
	dir := benchSharedDir()
	realDir := filepath.Join(dir, "corpus", "real")
	entries, err := os.ReadDir(realDir)
	if err != nil {
		return nil, fmt.Errorf("%w in %s: %v", errBenchNoData, realDir, err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".txt") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	if len(names) < benchSampleSize {
		return nil, fmt.Errorf("%w: %s holds %d files, want at least %d", errBenchNoData, realDir, len(names), benchSampleSize)
	}
	c := &benchCorpus{}
	index := make(map[string]int)
	for _, name := range benchSampleNames(names, benchSampleSize) {
		body, err := os.ReadFile(filepath.Join(realDir, name))
		if err != nil {
			return nil, err
		}
		rel := "real/" + name
		index[rel] = len(c.files)
		c.files = append(c.files, benchFile{name: rel, body: body})
		c.inputBytes += int64(len(body))
		c.parsedBytes += int64(min(len(body), DefaultMaxBytes))
	}

	golden := filepath.Join(dir, "conformance", "corpus_golden.jsonl")
	f, err := os.Open(golden)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errBenchNoData, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rec struct {
			File    string `json:"file"`
			UA      string `json:"ua"`
			URL     string `json:"url"`
			Allowed bool   `json:"allowed"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s: %v", golden, err)
		}
		if i, ok := index[rec.File]; ok {
			c.questions = append(c.questions, benchQuestion{file: i, ua: rec.UA, url: rec.URL, allowed: rec.Allowed})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(c.questions) == 0 {
		return nil, fmt.Errorf("%s has no question about the sample", golden)
	}
	return c, nil
}

// benchData returns the sample, loaded once. It skips the benchmark or test
// when the shared data is absent and fails it when the data is unreadable.
func benchData(tb testing.TB) *benchCorpus {
	tb.Helper()
	benchCorpusOnce.Do(func() { benchCorpusData, benchCorpusErr = benchLoadCorpus() })
	if errors.Is(benchCorpusErr, errBenchNoData) {
		tb.Skipf("skipping: %v", benchCorpusErr)
	}
	if benchCorpusErr != nil {
		tb.Fatal(benchCorpusErr)
	}
	return benchCorpusData
}

// benchParsed parses every sample file once, outside any timing.
func benchParsed(c *benchCorpus) []*Robots {
	out := make([]*Robots, len(c.files))
	for i, f := range c.files {
		out[i] = Parse(f.body)
	}
	return out
}

// Package-level sinks keep results alive so that the compiler cannot drop
// the calls being measured.
var (
	benchSinkRobots *Robots
	benchSinkBool   bool
)

// BenchmarkParseCorpus parses the 1,000 sample files; one op is the whole
// sample. MB/s counts the bytes Parse reads (each file cut to
// DefaultMaxBytes, as Parse cuts it).
func BenchmarkParseCorpus(b *testing.B) {
	c := benchData(b)
	b.SetBytes(c.parsedBytes)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range c.files {
			benchSinkRobots = Parse(f.body)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(c.files)), "ns/file")
}

// BenchmarkAllowedCorpus asks the golden questions about the sample, each
// file parsed once beforehand, cycling through the questions; one op is one
// question.
func BenchmarkAllowedCorpus(b *testing.B) {
	c := benchData(b)
	parsed := benchParsed(c)
	type q struct {
		r       *Robots
		ua, url string
	}
	qs := make([]q, len(c.questions))
	for i, x := range c.questions {
		qs[i] = q{parsed[x.file], x.ua, x.url}
		if got := parsed[x.file].Allowed(x.ua, x.url); got != x.allowed {
			b.Fatalf("%s: Allowed(%q, %q) = %v, golden %v", c.files[x.file].name, x.ua, x.url, got, x.allowed)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		x := &qs[i]
		benchSinkBool = x.r.Allowed(x.ua, x.url)
		if i++; i == len(qs) {
			i = 0
		}
	}
}

// BenchmarkDecideCorpus is BenchmarkAllowedCorpus through Decide, which says
// what decided and allocates.
func BenchmarkDecideCorpus(b *testing.B) {
	c := benchData(b)
	parsed := benchParsed(c)
	type q struct {
		r *Robots
		q Query
	}
	qs := make([]q, len(c.questions))
	for i, x := range c.questions {
		qs[i] = q{parsed[x.file], Query{URL: x.url, Agents: []string{x.ua}}}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		x := &qs[i]
		benchSinkBool = x.r.Decide(x.q).Allowed
		if i++; i == len(qs) {
			i = 0
		}
	}
}

// BenchmarkParseMemory measures what a parsed file keeps on the heap: the
// live heap held by the parsed sample, after a collection, divided by the
// bytes parsed (each file cut to DefaultMaxBytes). Parse keeps a copy of the
// body, so the figure is at least 1.
func BenchmarkParseMemory(b *testing.B) {
	c := benchData(b)
	parsed := make([]*Robots, len(c.files))
	var retained, inputs float64
	var before, after runtime.MemStats
	for b.Loop() {
		clear(parsed)
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i, f := range c.files {
			parsed[i] = Parse(f.body)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(parsed)
		retained += float64(int64(after.HeapAlloc) - int64(before.HeapAlloc))
		inputs += float64(c.parsedBytes)
	}
	b.ReportMetric(retained/inputs, "B/inputB")
	b.ReportMetric(retained/float64(b.N)/float64(len(c.files)), "B/file")
}

// benchPathological builds a robots.txt of about 500 KiB (under
// DefaultMaxBytes, so all of it is parsed) whose rules are all wildcard
// heavy: many short literal segments between '*'s, half of them anchored
// with '$', plus long patterns with a '*' every few bytes. Every rule is in
// the group that Googlebot falls back to, so every question has to try
// them.
func benchPathological() []byte {
	const size = 500 * 1000
	const letters = "abcdefghijklmnopqrstuvwxyz"
	var sb strings.Builder
	sb.WriteString("# generated: wildcard-heavy rules\nUser-agent: FooBot\nUser-agent: *\n")
	for i := 0; sb.Len() < size-2100; i++ {
		var line strings.Builder
		switch i % 5 {
		case 0, 1, 2:
			// Disallow: /*c*d*e*...$ : 8 to 26 one-letter segments.
			if i%2 == 0 {
				line.WriteString("Disallow: /*")
			} else {
				line.WriteString("Disallow: *")
			}
			n := 8 + i%19
			for k := 0; k < n; k++ {
				line.WriteByte(letters[(i+k)%26])
				line.WriteByte('*')
			}
			if i%4 < 2 {
				line.WriteString("q$")
			} else {
				line.WriteString("zz")
			}
		case 3:
			// Allow: /*abc*bcde*...*.php$ : words of 3 to 8 letters.
			line.WriteString("Allow: /*")
			for k := 0; k < 6; k++ {
				w := 3 + (i+k)%6
				start := (i*7 + k*3) % 26
				for j := 0; j < w; j++ {
					line.WriteByte(letters[(start+j)%26])
				}
				line.WriteByte('*')
			}
			line.WriteString(".php$")
		case 4:
			// A long pattern: 500 to 2,000 bytes with a '*' every 2 to 4 bytes.
			line.WriteString("Disallow: /")
			n := 500 + (i*37)%1500
			for k := 0; line.Len() < n; k++ {
				if k%(2+i%3) == 0 {
					line.WriteByte('*')
				} else {
					line.WriteByte(letters[(i+k)%26])
				}
			}
			if i%2 == 0 {
				line.WriteByte('$')
			}
		}
		sb.WriteString(line.String())
		sb.WriteByte('\n')
	}
	return []byte(sb.String())
}

const (
	// benchAllLetters makes a path in which the long wildcard rules of
	// benchPathological find a match early.
	benchAllLetters = "abcdefghijklmnopqrstuvwxyz/"
	// benchFewLetters makes a path that almost no rule of
	// benchPathological matches, but only after searching all of it: the
	// worst case, every rule scanning the whole URL.
	benchFewLetters = "abcdefghijklmnop/"
)

// benchNormalURLs are everyday URLs to ask about.
var benchNormalURLs = []string{
	"http://example.com/",
	"http://example.com/index.html",
	"http://example.com/products/shoes/running/item-12345.html",
	"http://example.com/search?q=robots+txt&page=2&sort=desc",
	"http://example.com/wp-admin/admin-ajax.php",
	"http://example.com/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q",
}

// BenchmarkParsePathological parses the generated wildcard-heavy file.
func BenchmarkParsePathological(b *testing.B) {
	body := benchPathological()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		benchSinkRobots = Parse(body)
	}
}

// BenchmarkAllowedPathological asks Googlebot about normal URLs (one op
// asks about all of them: see the ns/url metric) and about 16 KiB URLs
// against the generated file: one that a long rule matches early
// (url=16KiB-match) and one that no rule matches (url=16KiB-nomatch).
func BenchmarkAllowedPathological(b *testing.B) {
	r := Parse(benchPathological())
	b.Run("url=normal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, u := range benchNormalURLs {
				benchSinkBool = r.Allowed("Googlebot", u)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(benchNormalURLs)), "ns/url")
	})
	for _, v := range []struct{ name, alphabet string }{
		{"16KiB-match", benchAllLetters},
		{"16KiB-nomatch", benchFewLetters},
	} {
		long := hostile.URL(16<<10, v.alphabet)
		b.Run("url="+v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchSinkBool = r.Allowed("Googlebot", long)
			}
		})
	}
}

// benchTypicalFile picks a typical file of the sample: the median-sized one
// among those with at least 10 allow/disallow lines, some with wildcards.
func benchTypicalFile(tb testing.TB, c *benchCorpus) benchFile {
	var cands []benchFile
	for _, f := range c.files {
		s := strings.ToLower(string(f.body))
		if strings.Count(s, "allow") >= 10 && strings.Contains(s, "*") {
			cands = append(cands, f)
		}
	}
	slices.SortFunc(cands, func(a, b benchFile) int {
		if d := len(a.body) - len(b.body); d != 0 {
			return d
		}
		return strings.Compare(a.name, b.name)
	})
	if len(cands) == 0 {
		tb.Skip("skipping: no file of the sample has 10 rules and a wildcard")
	}
	return cands[len(cands)/2]
}

// BenchmarkAllowedLongURL asks about a 16 KiB URL against a typical file.
func BenchmarkAllowedLongURL(b *testing.B) {
	c := benchData(b)
	f := benchTypicalFile(b, c)
	r := Parse(f.body)
	long := hostile.URL(16<<10, benchAllLetters)
	b.Logf("typical file: %s (%d bytes)", f.name, len(f.body))
	b.Run("file=typical", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchSinkBool = r.Allowed("Googlebot", long)
		}
	})
}

// benchRaceEnabled reports whether the test binary was built with -race,
// which can make values escape that otherwise stay on the stack.
func benchRaceEnabled() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" && s.Value == "true" {
				return true
			}
		}
	}
	return false
}

// TestAllowedDoesNotAllocate checks that Allowed allocates nothing, on a
// few fixed cases and, when the shared corpus is there, on a sample of its
// golden questions.
func TestAllowedDoesNotAllocate(t *testing.T) {
	if testing.CoverMode() != "" || benchRaceEnabled() {
		t.Skip("allocation counts are not meaningful under -cover or -race")
	}
	check := func(name string, r *Robots, ua, url string) {
		t.Helper()
		// The first questions are answered from the lines, the next
		// compile the crawler's rules and, for a large set, its index
		// (after coldScans questions): past them.
		for range firstAnswers + coldScans + 1 {
			benchSinkBool = r.Allowed(ua, url)
		}
		if n := testing.AllocsPerRun(20, func() { benchSinkBool = r.Allowed(ua, url) }); n != 0 {
			t.Errorf("%s: Allowed(%q, %q) allocates %v times", name, ua, url, n)
		}
	}
	fixed := Parse([]byte("User-agent: FooBot\nDisallow: /private\nAllow: /private/ok$\n\nUser-agent: *\nDisallow: /*.php$\nAllow: /index.html\n"))
	check("fixed", fixed, "FooBot", "http://example.com/private/x")
	check("fixed", fixed, "foobot", "https://example.com/private/ok")
	check("fixed", fixed, "Googlebot", "http://example.com/a/b.php")
	check("fixed", fixed, "Googlebot", "/index.html?x=1#frag")
	check("fixed", fixed, "Googlebot", "http://example.com?q=1")
	check("fixed", fixed, "", "")
	check("pathological", Parse(benchPathological()), "Googlebot", hostile.URL(16<<10, benchFewLetters))

	// A URL with no path: "/" + its query or params is built on the stack.
	check("fixed", fixed, "Googlebot", "http://example.com?"+strings.Repeat("q", 40))
	check("fixed", fixed, "Googlebot", "http://example.com;"+strings.Repeat("p", 300))

	if _, err := os.Stat(filepath.Join(benchSharedDir(), "corpus", "real")); err != nil {
		t.Logf("no shared corpus in %s: checked the fixed cases only", benchSharedDir())
		return
	}
	c := benchData(t)
	parsed := benchParsed(c)
	// Every 7th question: about 850 of them, over all kinds of file.
	n := 0
	for i := 0; i < len(c.questions); i += 7 {
		x := c.questions[i]
		check(c.files[x.file].name, parsed[x.file], x.ua, x.url)
		n++
	}
	t.Logf("%d corpus questions and the fixed cases: no allocation", n)
}

// BenchmarkBuildIndex builds the indexes of the sample's three costliest
// files to index again and again: fee563ab38b87910 (one set of 20,452
// rules, mostly literal), 7cb5e464a2e6d26b (6,481) and d73a0320e527ea40
// (wildcard-heavy sets). One op is every indexed set of the file;
// ns/rule divides by their rules.
func BenchmarkBuildIndex(b *testing.B) {
	c := benchData(b)
	for _, name := range []string{"fee563ab38b87910", "7cb5e464a2e6d26b", "d73a0320e527ea40"} {
		i := slices.IndexFunc(c.files, func(f benchFile) bool { return strings.Contains(f.name, name) })
		if i < 0 {
			b.Fatalf("%s is not in the sample", name)
		}
		r := Parse(c.files[i].body)
		r.Compile()
		var sets []*ruleSet
		rules := 0
		for k := range r.google.sets {
			if s := &r.google.sets[k]; s.idx != nil {
				sets = append(sets, s)
				rules += int(s.nmatch)
			}
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range sets {
					s.buildIndex()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rules), "ns/rule")
		})
	}
}

// BenchmarkCompileBudget splits a Parse + Compile pass over the sample into
// its stages, on two parts of the sample: "typical", the files with no set
// large enough to be indexed (961 of the 1,000), and "indexed", the others.
// Each stage does the stages before it again, so each stage's own cost is
// its time less the previous one's:
//
//   - parse: Parse alone;
//   - prepare: Parse, then the token table and the list of sets every
//     question reads first (what the first question builds, whatever it
//     asks);
//   - compile: Parse, then Compile (every set compiled, and the large ones
//     indexed).
//
// One op is the part's every file; MB/s counts the bytes Parse reads
// (each file cut to DefaultMaxBytes). It shows what the issue-13 target of
// 500 MB/s for Parse + Compile leaves for compiling (see README.md).
func BenchmarkCompileBudget(b *testing.B) {
	c := benchData(b)
	var typical, indexed [][]byte
	var typicalBytes, indexedBytes int64
	for _, f := range c.files {
		r := Parse(f.body)
		r.Compile()
		big := false
		for k := range r.google.sets {
			big = big || r.google.sets[k].idx != nil
		}
		n := int64(min(len(f.body), DefaultMaxBytes))
		if big {
			indexed, indexedBytes = append(indexed, f.body), indexedBytes+n
		} else {
			typical, typicalBytes = append(typical, f.body), typicalBytes+n
		}
	}
	stages := []struct {
		name string
		run  func(body []byte)
	}{
		{"parse", func(body []byte) { benchSinkRobots = Parse(body) }},
		{"prepare", func(body []byte) {
			benchSinkRobots = Parse(body)
			benchSinkRobots.compiledFor(Google)
		}},
		{"compile", func(body []byte) {
			benchSinkRobots = Parse(body)
			benchSinkRobots.Compile()
		}},
	}
	for _, part := range []struct {
		name  string
		files [][]byte
		bytes int64
	}{{"typical", typical, typicalBytes}, {"indexed", indexed, indexedBytes}} {
		for _, st := range stages {
			b.Run("files="+part.name+"/stage="+st.name, func(b *testing.B) {
				b.SetBytes(part.bytes)
				b.ReportAllocs()
				for b.Loop() {
					for _, body := range part.files {
						st.run(body)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(part.files)), "ns/file")
			})
		}
	}
}
