package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/hostile"
)

// TestIndexAgreesWithScan checks the index that large rule sets use against
// a plain scan of every rule, on random files and paths built from a small
// alphabet so that prefixes, duplicates and ties are frequent.
func TestIndexAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteByte("ab/*$#c"[rng.IntN(6)])
		}
		return b.String()
	}
	for file := 0; file < 300/shortStep(10); file++ {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		nrules := hotMax + 1 + rng.IntN(100)
		var paths []string
		for i := 0; i < nrules; i++ {
			kind := "Disallow"
			if rng.IntN(2) == 0 {
				kind = "Allow"
			}
			p := "/" + word(rng.IntN(6))
			if rng.IntN(3) == 0 {
				// Long shared prefixes: keys that agree on their first
				// eight or sixteen bytes, or more, are told apart by
				// their second word or as strings.
				p = "/" + longPrefixes[rng.IntN(len(longPrefixes))] + word(rng.IntN(6))
			}
			switch rng.IntN(8) {
			case 0:
				p = ""
			case 1:
				p += "$"
			}
			fmt.Fprintf(&body, "%s: %s\n", kind, p)
			paths = append(paths, strings.NewReplacer("*", "ab", "$", "").Replace(p))
		}
		for i := 0; i < 50; i++ {
			paths = append(paths, "/"+strings.NewReplacer("*", "", "$", "").Replace(word(rng.IntN(8))))
			paths = append(paths, "/"+longPrefixes[rng.IntN(len(longPrefixes))]+strings.NewReplacer("*", "", "$", "").Replace(word(rng.IntN(8))))
		}
		r := ParseString(body.String())
		c := r.compiledFor(Google)
		set := c.set(c.global)
		if !set.big {
			t.Fatalf("file %d: %d rules but the set is not indexed", file, nrules)
		}
		for _, p := range paths {
			for _, q := range []string{p, p + "a", p + "/", strings.TrimSuffix(p, "/"), p + "\x00a"} {
				if q == "" {
					continue
				}
				got, want := set.eval(q), set.scan(q, 0)
				if got != want {
					t.Fatalf("file %d, path %q: index gives %+v, scan %+v\n%s", file, q, got, want, body.String())
				}
			}
		}
	}
}

// longPrefixes are path beginnings of 7 to 23 bytes (with the leading '/'
// added): around the eight and sixteen bytes an index compares as words.
var longPrefixes = []string{"html/A", "html/A4", "html/A44", "detail/Case-Toh", "detail/Case-Toh-", "detail/Case-Toh-B", "detail/Case-Toh-Banta-H"}

// TestCompile checks that Compile compiles every rule set and changes no
// answer.
func TestCompile(t *testing.T) {
	body := "User-agent: a\nDisallow: /a\n\nUser-agent: b\nUser-agent: a\nAllow: /a/b\n\nUser-agent: *\nDisallow: /\n"
	lazy, eager := ParseString(body), ParseString(body)
	eager.Compile()
	for i := range eager.google.fast {
		if s := eager.google.fast[i].set; !eager.google.set(s).ready.Load() {
			t.Errorf("set %d (token %q) not compiled", s, eager.google.toks[i].tok)
		}
	}
	if !eager.google.sets[eager.google.starIdx].ready.Load() {
		t.Error("the * set is not compiled")
	}
	for _, ua := range []string{"a", "b", "c"} {
		for _, u := range []string{"/a", "/a/b", "/c"} {
			if lazy.Allowed(ua, u) != eager.Allowed(ua, u) {
				t.Errorf("%s %s: lazy and compiled answers differ", ua, u)
			}
		}
	}
}

// TestBigGroupsAreIndexed checks that the fuzz tests' large seeds reach the
// index, whatever bigSet and hotMax are.
func TestBigGroupsAreIndexed(t *testing.T) {
	for i, body := range bigGroups() {
		r := ParseString(body)
		r.Compile()
		big := r.google.sets[r.google.starIdx].big
		for j := range r.google.sets {
			big = big || r.google.sets[j].big
		}
		if !big {
			t.Errorf("seed %d: no set is indexed", i)
		}
	}
}

// TestSortKeyItems checks the radix sort of an index's keys against a
// comparison sort, on keys that share long prefixes and repeat.
func TestSortKeyItems(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 5, 63, 64, 65, 300, 2000} {
		keys := make([]string, n)
		for i := range keys {
			k := "/" + strings.Repeat("ab", rng.IntN(12)) + hostile.Letters(rng.IntN(40), 2)
			if rng.IntN(4) == 0 {
				k = k[:rng.IntN(len(k)+1)]
			}
			if rng.IntN(8) == 0 {
				// Any byte but NUL (a value ends at one, and the words
				// pad keys with it), the highest included.
				b := []byte(k)
				for j := rng.IntN(3); j >= 0 && len(b) > 0; j-- {
					b[rng.IntN(len(b))] = []byte{0x01, 0x7F, 0x80, 0xFE, 0xFF}[rng.IntN(5)]
				}
				k = string(b)
			}
			keys[i] = k
		}
		checkSortKeys(t, fmt.Sprintf("%d keys", n), keys)
	}
}

// checkSortKeys checks that sortKeyItems puts the items of keys in the
// order a comparison sort of the strings gives (equal keys by position).
func checkSortKeys(t *testing.T, name string, keys []string) {
	t.Helper()
	items := make([]keyItem, len(keys))
	for i, k := range keys {
		items[i] = newKeyItem(k, int32(i))
	}
	// Called for keys whose 24 first bytes are the same.
	tie := func(a, b keyItem) int {
		ka, kb := keys[a.id], keys[b.id]
		if a.w != b.w {
			t.Fatalf("%s: tie called for %q and %q, whose words differ", name, ka, kb)
		}
		if d := strings.Compare(ka[min(24, len(ka)):], kb[min(24, len(kb)):]); d != 0 {
			return d
		}
		if d := len(ka) - len(kb); d != 0 {
			return d
		}
		return int(a.id - b.id)
	}
	want := slices.Clone(items)
	slices.SortFunc(want, func(a, b keyItem) int {
		if d := strings.Compare(keys[a.id], keys[b.id]); d != 0 {
			return d
		}
		return int(a.id - b.id)
	})
	sortKeyItems(items, tie)
	if !slices.Equal(items, want) {
		for i := range items {
			if items[i] != want[i] {
				t.Fatalf("%s: at %d of %d, %q where %q sorts", name, i, len(keys), keys[items[i].id], keys[want[i].id])
			}
		}
	}
}

// TestSortKeyItemsLarge checks sortKeyItems on sets the size of the
// largest real ones (fee563ab38b87910 has 20,452 literal rules), in shapes
// real files have and the radix sort must get right: product codes that
// share a long start (with a few keys that do not), two sections of a
// site, a shared start that ends past 16 bytes (the third word decides),
// words all the same (only the tie sorts), keys that prefix each other
// and repeat, and the lowest and highest bytes.
func TestSortKeyItemsLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	randStr := func(n int, alphabet string) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	shapes := map[string]func(i int) string{
		"product codes": func(i int) string {
			if i%500 == 0 {
				return "/gp/video/" + randStr(rng.IntN(12), alnum)
			}
			return "/dp/B0" + randStr(8, alnum)
		},
		"two sections": func(i int) string {
			if i%2 == 0 {
				return "/products/category/" + randStr(rng.IntN(20), "abc/")
			}
			return "/blog/20" + randStr(2, "0123456789") + "/" + randStr(rng.IntN(30), "xyz-")
		},
		"shared 20 bytes": func(i int) string {
			return "/aaaaaaaaaaaaaaaaaaa" + randStr(rng.IntN(12), "ab")
		},
		"shared 30 bytes": func(i int) string {
			return "/bbbbbbbbbbbbbbbbbbbbbbbbbbbbb" + randStr(rng.IntN(6), "ab")
		},
		"prefixes and repeats": func(i int) string {
			k := "/" + strings.Repeat("a/", rng.IntN(16))
			return k[:rng.IntN(len(k))+1]
		},
		"low and high bytes": func(i int) string {
			return "/" + randStr(rng.IntN(14), "\x01\x7f\x80\xfe\xffa")
		},
	}
	for name, gen := range shapes {
		for _, n := range []int{1000, 3000, 20000} {
			keys := make([]string, n)
			for i := range keys {
				keys[i] = gen(i)
			}
			checkSortKeys(t, fmt.Sprintf("%s, %d keys", name, n), keys)
		}
	}
}

// TestLazyIndex checks when a large set builds its index: not on its first
// questions about short paths, which try every rule (with the answers of
// the index), but once they have cost about coldScans scans; at once for a
// long path among wildcard rules (the hostile shapes) and on Compile; and
// that every question after that point allocates nothing.
func TestLazyIndex(t *testing.T) {
	file := func(n int, wild bool) string {
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		for i := 0; i < n; i++ {
			if wild && i%2 == 0 {
				fmt.Fprintf(&b, "Allow: /%s*%s\n", hostile.Letters(i, 2), hostile.Letters(i*7, 2))
				continue
			}
			fmt.Fprintf(&b, "Disallow: /%s\n", hostile.Letters(i, 3))
		}
		return b.String()
	}
	set := func(r *Robots) *ruleSet { return r.google.coldSet(r.google.global) }

	// Short paths: scanned, then indexed; the same answers all along.
	body := file(hotMax+100, true)
	r, ref := ParseString(body), ParseString(body)
	r.google.prepare() // past the first answers, read from the lines (see TestFirstAnswers)
	ref.Compile()
	if s := set(ref); !s.big || !s.indexed.Load() {
		t.Fatalf("Compile: the set of %d rules is not indexed", s.nmatch)
	}
	paths := []string{"/aab", "/abc", "/zzz", "/baxyz", "/", "/aa/ab"}
	for q := 0; q <= coldScans; q++ {
		p := paths[q%len(paths)]
		if got, want := r.Allowed("FooBot", p), ref.Allowed("FooBot", p); got != want {
			t.Errorf("question %d, %s: %v, indexed %v", q, p, got, want)
		}
		s := set(r)
		if want := q >= coldScans; s.indexed.Load() != want {
			t.Fatalf("after %d questions, indexed is %v, want %v", q+1, s.indexed.Load(), want)
		}
	}
	if n := testing.AllocsPerRun(20, func() { benchSinkBool = r.Allowed("FooBot", "/abc") }); n != 0 && !benchRaceEnabled() && testing.CoverMode() == "" {
		t.Errorf("indexed set: Allowed allocates %v times", n)
	}

	// A long path among many wildcard rules: indexed on the first question.
	r = ParseString(body)
	r.Allowed("FooBot", "/"+strings.Repeat("ab", 8<<10))
	if !set(r).indexed.Load() {
		t.Error("a 16 KiB path: the set of wildcard rules is scanned")
	}

	// Literal rules only: a long path costs no more than a short one.
	r = ParseString(file(hotMax+100, false))
	r.Allowed("FooBot", "/"+strings.Repeat("ab", 8<<10))
	if set(r).indexed.Load() {
		t.Error("literal rules, a 16 KiB path: indexed on the first question")
	}

	// Hostile shapes asked about a 1 KiB URL: indexed on the first
	// question (a scan would try every wildcard rule along the path).
	for _, sh := range hostile.Shapes() {
		r := ParseString(sh.Body)
		url := hostile.URL(1<<10, sh.Alphabet)
		got := r.Allowed(sh.Agent, url)
		c := r.compiledFor(Google)
		_, ids := c.choose(Query{Agents: []string{sh.Agent}}, Google)
		if s := c.coldSet(ids[0]); !s.indexed.Load() {
			t.Errorf("%s: the set of %d rules is not indexed on its first question", sh.Name, s.nmatch)
		}
		if want := r.Decide(Query{URL: url, Agents: []string{sh.Agent}}).Allowed; got != want {
			t.Errorf("%s: Allowed %v, Decide %v", sh.Name, got, want)
		}
	}
}

// TestLazyIndexConcurrent asks a large set from several goroutines at once
// across the point where its index is built (run it with -race): every
// answer is the indexed set's.
func TestLazyIndexConcurrent(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; i < hotMax+200; i++ {
		if i%3 == 0 {
			fmt.Fprintf(&b, "Allow: /%s*%s\n", hostile.Letters(i, 2), hostile.Letters(i*7, 2))
			continue
		}
		fmt.Fprintf(&b, "Disallow: /%s\n", hostile.Letters(i, 3))
	}
	ref := ParseString(b.String())
	ref.Compile()
	paths := []string{"/aab", "/abc", "/zzz", "/baxyz", "/", "/aa/ab", "/aca", "/ab/ab"}
	for round := 0; round < 20; round++ {
		r := ParseString(b.String())
		errs := make(chan string, 8)
		done := make(chan struct{})
		for g := 0; g < 4; g++ {
			go func() {
				defer func() { done <- struct{}{} }()
				for q := 0; q < 2*coldScans; q++ {
					p := paths[(g+q)%len(paths)]
					if got, want := r.Allowed("FooBot", p), ref.Allowed("FooBot", p); got != want {
						select {
						case errs <- fmt.Sprintf("%s: %v, indexed %v", p, got, want):
						default:
						}
					}
				}
			}()
		}
		for range 4 {
			<-done
		}
		close(errs)
		for e := range errs {
			t.Error(e)
		}
		if !r.google.sets[r.google.starIdx].indexed.Load() {
			t.Fatalf("round %d: %d questions and the set is not indexed", round, 8*coldScans)
		}
	}
}
