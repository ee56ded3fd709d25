package robotstxt

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/testdata"

	"github.com/seed53c283f5/robotstxt/internal/hostile"
)

// parseShape is a body of about 500 KiB built to make the parser keep or
// allocate as much as it can per input byte.
type parseShape struct {
	name string
	body string
}

// repeatTo repeats line until the body is n bytes long (the last copy cut).
func repeatTo(head, line string, n int) string {
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteString(head)
	for sb.Len() < n {
		sb.WriteString(line)
	}
	return sb.String()[:n]
}

// numbered builds lines from f(i) until the body is n bytes long.
func numbered(head string, n int, f func(i int) string) string {
	var sb strings.Builder
	sb.Grow(n + 64)
	sb.WriteString(head)
	for i := 0; sb.Len() < n; i++ {
		sb.WriteString(f(i))
	}
	return sb.String()[:n]
}

// keyStatement is a statement of n distinct keys, each n.
func keyStatement(n int) string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = itoa26(i) + "=n"
	}
	return strings.Join(keys, ",")
}

func itoa26(i int) string {
	var b []byte
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}

func parseShapes() []parseShape {
	const n = DefaultMaxBytes
	return []parseShape{
		{"one-token-lines", repeatTo("", "a\n", n)},
		{"newlines", repeatTo("", "\n", n)},
		{"cr-lines", repeatTo("", "\r", n)},
		{"crlf-lines", repeatTo("", "\r\n", n)},
		{"empty-keys", repeatTo("", ":\n", n)},
		{"unknown-keys", repeatTo("", "a:\n", n)},
		{"wild-rules", repeatTo("user-agent: *\n", "Disallow: /*a\n", n)},
		{"short-rules", repeatTo("user-agent: *\n", "allow:\n", n)},
		{"literal-rules", numbered("user-agent: *\n", n, func(i int) string { return "disallow:/" + itoa26(i) + "\n" })},
		{"index-htm-rules", repeatTo("user-agent: *\n", "allow:/index.htm\n", n)},
		{"escaped-rules", repeatTo("user-agent: *\n", "allow:/\xe9\n", n)},
		{"agent-lines", repeatTo("", "useragent:\n", n)},
		{"agent-tokens", numbered("", n, func(i int) string { return "user-agent:" + itoa26(i) + "\n" })},
		{"groups", repeatTo("", "useragent:\nallow:\n", n)},
		{"groups-g", repeatTo("", "useragent:g\nallow:\n", n)},
		{"groups-indented", repeatTo("", " useragent:\r allow:\r", n)},
		{"groups-rules", repeatTo("", "useragent:\nallow:\nallow:\n", n)},
		{"token-groups", numbered("", n, func(i int) string { return "user-agent:" + itoa26(i) + "\nallow:/\n" })},
		{"star-groups", repeatTo("", "user-agent:*\nallow:\n", n)},
		{"shared-token-groups", numbered("", n, func(i int) string { return "user-agent:a\nuser-agent:b\nuser-agent:" + itoa26(i) + "\nallow:/\n" })},
		{"crawl-delays", repeatTo("", "useragent:\ncrawl-delay:1\n", n)},
		{"request-rates", repeatTo("", "useragent:\nrequest-rate:1/1\nvisit-time:0000-0100\n", n)},
		{"sitemaps", repeatTo("", "sitemap:x\n", n)},
		{"hosts", repeatTo("", "host:x\n", n)},
		{"clean-params", repeatTo("", "clean-param:a\n", n)},
		{"clean-param-list", repeatTo("", "clean-param:"+strings.Repeat("a&", 8000)+"\n", n)},
		{"long-line", repeatTo("disallow:/", "a", n)},
		{"long-lines", repeatTo("user-agent:*\n", "disallow:/"+strings.Repeat("a*", 8000)+"\n", n)},
		{"nul-lines", repeatTo("user-agent:*\n", "allow:/\x00\n", n)},
		// Content-Usage and Content-Signal lines: the table the first
		// usage question builds (issue 34).
		{"usage-paths", numbered("user-agent: *\n", n, func(i int) string { return "content-usage: /p" + itoa26(i) + "/ train-ai=n\n" })},
		{"usage-short", repeatTo("user-agent:*\n", "content-usage:/\n", n)},
		{"usage-anypath", repeatTo("user-agent:*\n", "content-usage:a\n", n)},
		{"usage-keys", repeatTo("user-agent:*\n", "content-usage:"+keyStatement(3000)+"\n", n)},
		{"usage-key-lines", numbered("user-agent:*\n", n, func(i int) string { return "content-usage:/" + itoa26(i) + " a,b,c,d,e,f,g,h,i,j,k,l\n" })},
		{"usage-wild", numbered("user-agent:*\n", n, func(i int) string { return "content-usage:/*" + itoa26(i) + "*\xe9 y=n\n" })},
		{"usage-groups", numbered("", n, func(i int) string { return "user-agent:" + itoa26(i) + "\ncontent-usage:/a y=n\ncontent-usage:b\n" })},
		{"signals", repeatTo("", "user-agent:*\ncontent-signal:A=yes,B=no,C,D,E\n", n)},
	}
}

// memUse measures what f allocates and what stays reachable after it: the
// live heap after a collection, less the live heap before.
func memUse(f func() any) (alloc, kept int64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	x := f()
	runtime.ReadMemStats(&after)
	alloc = int64(after.TotalAlloc - before.TotalAlloc)
	runtime.GC()
	runtime.ReadMemStats(&after)
	kept = int64(after.HeapAlloc) - int64(before.HeapAlloc)
	runtime.KeepAlive(x)
	return alloc, kept
}

// quadraticTokens is a file in which many tokens each name a different run
// of groups, so that the rule sets of the tokens, each holding the rules
// of all its groups, add up to many times the rules: what Footprint must
// bound although no question ever builds more than one of them at a time.
func quadraticTokens() string {
	var sb strings.Builder
	const groups = 120
	for g := 0; g < groups; g++ {
		for tok := 0; tok <= g; tok++ {
			sb.WriteString("user-agent:" + itoa26(tok) + "\n")
		}
		for i := 0; i < 100; i++ {
			sb.WriteString("allow:/" + itoa26(i) + "\n")
		}
	}
	return sb.String()
}

// The targets of issue 9: per byte of input, Parse allocates at most 8
// bytes and keeps at most 4, for any input.
const (
	maxParseAlloc = 8
	maxParseKept  = 4
	maxLinesAlloc = 32
)

func TestParseMemory(t *testing.T) {
	for _, s := range parseShapes() {
		body := []byte(s.body)
		var r *Robots
		alloc, kept := memUse(func() any { r = Parse(body); return r })
		runtime.KeepAlive(body)
		n := float64(len(body))
		t.Logf("%-20s Parse allocates %4.1fx, keeps %4.1fx", s.name, float64(alloc)/n, float64(kept)/n)
		if float64(alloc) > maxParseAlloc*n && !raceEnabled {
			t.Errorf("%s: Parse allocated %d bytes for %d, more than %dx", s.name, alloc, len(body), maxParseAlloc)
		}
		if float64(kept) > maxParseKept*n {
			t.Errorf("%s: Parse kept %d bytes for %d, more than %dx", s.name, kept, len(body), maxParseKept)
		}
	}
}

func TestLinesMemory(t *testing.T) {
	for _, s := range parseShapes() {
		r := ParseString(s.body)
		var count int
		alloc, kept := memUse(func() any {
			for range r.Lines() {
				count++
			}
			for _, d := range []Dialect{RFC9309, Original} {
				for range r.LinesFor(d) {
				}
			}
			for n := 1; n <= r.NumLines(); n++ {
				r.Line(n)
			}
			return r
		})
		n := float64(len(s.body))
		t.Logf("%-20s the line report allocates %4.1fx, keeps %4.1fx", s.name, float64(alloc)/n, float64(kept)/n)
		if count != r.NumLines() {
			t.Errorf("%s: Lines gave %d lines, NumLines %d", s.name, count, r.NumLines())
		}
		if float64(alloc) > maxLinesAlloc*n && !raceEnabled || float64(kept) > maxLinesAlloc*n {
			t.Errorf("%s: the line report allocated %d bytes and kept %d for %d, more than %dx", s.name, alloc, kept, len(s.body), maxLinesAlloc)
		}
	}
}

func TestLinesBreak(t *testing.T) {
	r := ParseString("a\nb\nc\nd\n")
	var got []string
	for i, l := range r.Lines() {
		got = append(got, l.Text)
		if i == 1 {
			break
		}
	}
	if strings.Join(got, ",") != "a,b" {
		t.Errorf("Lines with a break gave %q", got)
	}
	if r.NumLines() != 5 {
		t.Errorf("NumLines = %d, want 5", r.NumLines())
	}
	if l, ok := r.LineFor(RFC9309, 3); !ok || l.Text != "c" || l.Number != 3 || l.Offset != 4 {
		t.Errorf("LineFor(RFC9309, 3) = %+v, %v", l, ok)
	}
}

// useFully asks r every question that builds something it keeps: every
// rule set of every reading, the line index.
func useFully(r *Robots, dialects ...Dialect) {
	r.Compile()
	for _, d := range dialects {
		// The usage table, and the index of its large groups, which
		// questions build once they cost more than building it.
		for _, agent := range []string{"foo", "a", "b"} {
			p := r.Decider(Query{Agents: []string{agent}, Dialect: d})
			for i := range 64 {
				p.Usage("/p" + itoa26(i) + "/x")
			}
		}
		r.GroupsFor(d)
		r.Decide(Query{URL: "/x", Agents: []string{"foo"}, Dialect: d, Explain: true})
		// Crawlers named otherwise than by a token, and the draft's
		// substring match, build indexes of the user-agent lines.
		for _, name := range []string{"Baiduspider", "Slurp", "Googlebot"} {
			cr, _ := LookupCrawler(name)
			r.Decide(Query{URL: "/x", Crawler: &cr, Dialect: d, Explain: true})
		}
	}
	r.Line(1)
}

// TestFootprint checks that Footprint bounds what a parsed file keeps
// however it is used, in the google reading first, then in every reading.
func TestFootprint(t *testing.T) {
	shapes := append(parseShapes(), parseShape{"quadratic-tokens", quadraticTokens()},
		parseShape{"small", "user-agent: *\ndisallow: /x\nallow: /x/index.html\n"}, parseShape{"empty", ""})
	// The matcher's worst cases too: their sets carry a wildcard index.
	for _, h := range hostile.Shapes() {
		shapes = append(shapes, parseShape{"match-" + h.Name, h.Body})
	}
	for i, s := range shapes {
		if i%shortStep(4) != 0 {
			continue // every shape is checked without -short
		}
		body := []byte(s.body)
		var r *Robots
		var fp, fpAll int64
		_, kept := memUse(func() any { r = Parse(body); fp = r.Footprint(); useFully(r, Google); return r })
		_, more := memUse(func() any { useFully(r, RFC9309, Original); fpAll = r.Footprint(); return r })
		runtime.KeepAlive(body)
		n := float64(max(len(body), 1))
		t.Logf("%-20s google reading: footprint %6.1fx, kept %6.1fx; all readings: footprint %6.1fx, kept %6.1fx",
			s.name, float64(fp)/n, float64(kept)/n, float64(fpAll)/n, float64(kept+more)/n)
		// The heap moves by a few KiB between two collections whatever
		// the test does (the runtime's and the testing package's own
		// objects): a little slack.
		const slack = 16 << 10
		if kept > fp+slack {
			t.Errorf("%s: Footprint() = %d, but the parsed file keeps %d once every google question is asked", s.name, fp, kept)
		}
		if kept+more > fpAll+slack {
			t.Errorf("%s: Footprint() = %d once every reading is built, but the parsed file keeps %d", s.name, fpAll, kept+more)
		}
		if fp > fpAll {
			t.Errorf("%s: Footprint() went down from %d to %d", s.name, fp, fpAll)
		}
	}
}

// maxUsageKept bounds what a file keeps per input byte once usage
// questions are asked in the google reading: the parse and the usage
// table (issue 34; docs/performance.md states the measures).
const maxUsageKept = 16

// TestUsageMemory checks that what the usage table keeps is bounded per
// input byte, on the shapes that make it keep the most.
func TestUsageMemory(t *testing.T) {
	for _, s := range parseShapes() {
		if !strings.HasPrefix(s.name, "usage-") && s.name != "signals" {
			continue
		}
		body := []byte(s.body)
		var r *Robots
		var grown int64
		_, kept := memUse(func() any {
			r = Parse(body)
			fp := r.Footprint()
			for _, agent := range []string{"foo", "a", "b"} {
				p := r.Decider(Query{Agents: []string{agent}})
				for i := range 64 {
					p.Usage("/p" + itoa26(i) + "/x")
				}
			}
			grown = r.Footprint() - fp
			return r
		})
		runtime.KeepAlive(body)
		n := float64(len(body))
		t.Logf("%-20s parsed and asked about usage: keeps %4.1fx, footprint %4.1fx", s.name, float64(kept)/n, float64(r.Footprint())/n)
		if float64(kept) > maxUsageKept*n {
			t.Errorf("%s: the parse and its usage table keep %d bytes for %d, more than %dx", s.name, kept, len(body), maxUsageKept)
		}
		if grown != 0 {
			t.Errorf("%s: Footprint grew by %d on usage questions in the google reading: it counts the table from the parse", s.name, grown)
		}
	}
}

// corpusBodies reads the real corpus (with -short, every tenth file), or
// skips.
func corpusBodies(t *testing.T) (bodies [][]byte, parsed float64) {
	dir := testdata.MustCorpus(t)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Skip(err)
	}
	for i, e := range ents {
		if testing.Short() && i%10 != 0 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, b)
		parsed += float64(min(len(b), DefaultMaxBytes))
	}
	return bodies, parsed
}

// TestCorpusMemory measures the real corpus as TestParseMemory and
// TestFootprint measure hostile files, over the whole corpus at once.
func TestCorpusMemory(t *testing.T) {
	bodies, n := corpusBodies(t)
	rs := make([]*Robots, len(bodies))
	alloc, kept := memUse(func() any {
		for i, b := range bodies {
			rs[i] = Parse(b)
		}
		return rs
	})
	var fp int64
	for _, r := range rs {
		fp += r.Footprint()
	}
	_, used := memUse(func() any {
		for _, r := range rs {
			useFully(r, Google)
		}
		return rs
	})
	var count int
	lalloc, _ := memUse(func() any {
		for _, r := range rs {
			for range r.Lines() {
				count++
			}
		}
		return rs
	})
	runtime.KeepAlive(bodies)
	t.Logf("corpus (%d files, %.0f bytes): Parse allocates %.2fx, keeps %.2fx; footprint %.2fx, kept once used %.2fx; Lines allocates %.2fx",
		len(bodies), n, float64(alloc)/n, float64(kept)/n, float64(fp)/n, float64(kept+used)/n, float64(lalloc)/n)
	if float64(alloc) > maxParseAlloc*n && !raceEnabled || float64(kept) > maxParseKept*n {
		t.Errorf("corpus: Parse allocated %.2fx and kept %.2fx", float64(alloc)/n, float64(kept)/n)
	}
	if kept+used > fp {
		t.Errorf("corpus: Footprint sums to %d, but the parsed files keep %d once used", fp, kept+used)
	}
}
