package bulk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/termesc"
	"github.com/seed53c283f5/robotstxt/store"
)

// TestOriginCacheAgrees checks that bulk's remembered origins give what
// fetch.OriginOf gives, origin and error, for URLs that share starts with
// URLs seen before, whatever the order.
func TestOriginCacheAgrees(t *testing.T) {
	starts := []string{
		"http://example.com", "HTTP://Example.COM", "https://example.com:443", "http://example.com:8080",
		"http://example.com:0", "http://example.com:99999", "http://example.com:x", "ftp://example.com",
		"gopher://example.com", "http://", "http://user:pw@example.com", "http://[::1]:81", "http://[::1",
		"http://127.0.0.1", "http://0x7f.1", "http://ex%41mple.com", "http://ex%zzmple.com", "http://bücher.de",
		"http://xn--bcher-kva.de", "http://a b.com", "http:x://example.com", " http://example.com",
		"http://example.com\x00", "1http://example.com", "http://example.com.", "http://exa mple.com",
		"http://example.com:", "http://%E4%BE%8B.jp", "http://ex\\ample.com", "h%41ttp://example.com",
	}
	rests := []string{
		"", "/", "/a/b?c=d#e", "?q", "#f", "/%41%42", "/%4", "/%zz", "/%", "?%zz", "#%zz", "/a b", "/\x7f",
		"/\x01", "/ü", "/a:b", "//x", "/?#", "/%25", "#a#b", "??", "/;p=1", "/robots.txt",
	}
	var urls []string
	for _, s := range starts {
		for _, r := range rests {
			urls = append(urls, s+r)
		}
	}
	rnd := rand.New(rand.NewPCG(7, 8))
	for round := range 20 {
		rnd.Shuffle(len(urls), func(i, j int) { urls[i], urls[j] = urls[j], urls[i] })
		c := originCache{m: map[string]*originHint{}}
		for _, u := range urls {
			got, _, gerr := c.originOf(u)
			want, werr := fetch.OriginOf(u)
			if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Fatalf("round %d: %q: got %v, %v; want %v, %v", round, u, got, gerr, want, werr)
			}
		}
	}
}

// TestOriginCacheBounded checks that the remembered origins stay bounded.
func TestOriginCacheBounded(t *testing.T) {
	c := originCache{m: map[string]*originHint{}}
	for i := range originCacheMax + 10 {
		if _, _, err := c.originOf(fmt.Sprintf("http://s%d.test/", i)); err != nil {
			t.Fatal(err)
		}
		if len(c.m) > originCacheMax {
			t.Fatalf("%d origins remembered, want at most %d", len(c.m), originCacheMax)
		}
	}
}

// TestOriginsLookupHint checks that a state kept by the reader is used only
// while the run's table holds it: after it is evicted, or once its answer
// expired, the origin is asked for again. The table evicts the least
// recently used answer, but for one used since it was put in (a second
// chance).
func TestOriginsLookupHint(t *testing.T) {
	cfg := memoryConfig(store.NewMemory(nil), false)
	org := newOrigins(context.Background(), &cfg, 2, 1<<30)
	hosts := originCache{m: map[string]*originHint{}}
	now := time.Now()
	ask := func(u string) *originState {
		o, hint, err := hosts.originOf(u)
		if err != nil {
			t.Fatal(err)
		}
		b := newBulkBatch()
		b.items = append(b.items, bulkItem{lineNo: 1})
		org.lookup(o, hint, now, b, &b.items[0])
		st := *hint // the item's, which the origin's fetch clears once it formatted it
		<-st.done
		return st
	}
	a := ask("http://s1.test/x")
	if ask("http://s1.test/y") != a || org.seen.Load() != 1 {
		t.Fatalf("the second URL of an origin asked again: %d origins", org.seen.Load())
	}
	b := ask("http://s2.test/")
	ask("http://s3.test/") // evicts s2: s1 was used again
	if a.gone.Load() || !b.gone.Load() || b.ans.Load() != nil {
		t.Fatalf("s1 evicted %v, s2 evicted %v (its answer dropped: %v); want s2 alone", a.gone.Load(), b.gone.Load(), b.ans.Load() == nil)
	}
	ask("http://s4.test/") // evicts s1, whose second chance is spent
	if !a.gone.Load() {
		t.Fatal("s1 was not evicted")
	}
	a2 := ask("http://s1.test/z")
	if a2 == a || org.seen.Load() != 5 {
		t.Fatalf("an evicted origin's state was reused (%d origins asked)", org.seen.Load())
	}
	now = a2.ans.Load().answer.ExpiresAt
	if a3 := ask("http://s1.test/z"); a3 == a2 || org.seen.Load() != 6 {
		t.Fatalf("an expired answer was reused (%d origins asked)", org.seen.Load())
	}
}

// TestBulkQuote checks the quoted names against appendJSONString.
func TestBulkQuote(t *testing.T) {
	for _, s := range []string{"rules", "allow-all", "disallow-all", "network", "cache", "stale-cache", "policy(9)", `a"b`} {
		if got, want := bulkQuote(s), string(appendJSONString(nil, s)); got != want {
			t.Errorf("bulkQuote(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestAppendJSONStringLikeEncodingJSON checks bulk's JSON strings against
// encoding/json's with DEL and C1 rewritten as \u escapes (termesc.JSON),
// as the robotstxt commands write JSON through their jsonWriter
// JSON (DEL and C1 as \u escapes), byte for byte (encoding/json writes \b
// and \f short; bulk writes them as \u0008 and \u000c, both valid JSON),
// over every byte value at every position of a short string and random
// strings.
func TestAppendJSONStringLikeEncodingJSON(t *testing.T) {
	ref := func(s string) string {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		if err := e.Encode(s); err != nil {
			t.Fatal(err)
		}
		out := strings.TrimSuffix(string(termesc.JSON(b.Bytes())), "\n")
		return strings.NewReplacer(`\\`, `\\`, `\b`, `\u0008`, `\f`, `\u000c`).Replace(out)
	}
	check := func(s string) {
		if got, want := string(appendJSONString(nil, s)), ref(s); got != want {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
	for c := range 256 {
		for pos := range 3 {
			b := []byte("ab")
			check(string(slices.Insert(b, pos, byte(c))))
		}
	}
	for _, s := range []string{"\u2028", "x\u2029y", "é", "\xe2\x80", "http://example.com/a?b=c#d", "\u0080\u009f\u00a0\x7f", "\x1b]0;x\x07"} {
		check(s)
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "/", "\"", "\\", "\n", "\x00", "\x7f", "é", "\u2028", "\xff", "<", "&", " ", "\u0085", "\u009b", "\xc2"}
	for range 2000 {
		var sb strings.Builder
		for range rnd.IntN(12) {
			sb.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		check(sb.String())
	}
}

// TestBulkWritesLastResult checks that the last result is written when it
// filled the writer's batch exactly: a result of 64 KiB or more is handed to
// the buffered writer at once, and the end of the run must flush it (it was

// BenchmarkOriginOf reads the origins of URLs of 50 hosts, as the reader
// does for each input line: a remembered head, found by the URL's scheme
// and authority alone.
func BenchmarkOriginOf(b *testing.B) {
	var urls []string
	for i := range 1000 {
		urls = append(urls, fmt.Sprintf("https://s%d.example.com/some/path/to/page-%d.html?q=%d&r=x", i%50, i, i))
	}
	c := originCache{m: map[string]*originHint{}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, _, err := c.originOf(urls[i%len(urls)]); err != nil {
			b.Fatal(err)
		}
	}
}
