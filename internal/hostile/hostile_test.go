package hostile

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
)

// TestShapesPinned checks that the shapes keep their exact bytes: the
// root package's work and memory bounds were set on them.
func TestShapesPinned(t *testing.T) {
	want := []struct{ name, agent, alphabet, sum string }{
		{"shortfail", "Googlebot", "abcdefghijklmnopqrstuvwxyz/", "b076e152e53db7c9ab9a2de96b8fc0cfccbfed99a1cef3ecf2eef5e4b2b1e362"},
		{"stars", "Googlebot", "aaaaaaab/", "ffce8593e2aaa4ea05cd373f39310cc1d6e52db1cda778b089869509fc666b9c"},
		{"dollars", "Googlebot", "$ab$cde$fgh/", "92eee98d6cd5e9f773d2d4e3ec3505d1869de4858cf06b4f06377e2df428dac9"},
		{"groups", "FooBot", "abcdefghijklmnopqrstuvwxyz/", "b291848500afbb7cd07e1f8cdd01ce1c21fb0fc508cceffa256d3eb5764498be"},
	}
	got := Shapes()
	if len(got) != len(want) {
		t.Fatalf("%d shapes, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		sum := fmt.Sprintf("%x", sha256.Sum256([]byte(g.Body)))
		if g.Name != w.name || g.Agent != w.agent || g.Alphabet != w.alphabet || sum != w.sum {
			t.Errorf("shape %d: %s %s %q sha256 %s, want %s %s %q sha256 %s",
				i, g.Name, g.Agent, g.Alphabet, sum, w.name, w.agent, w.alphabet, w.sum)
		}
		if len(g.Body) > Size || len(g.Body) < Size-100 {
			t.Errorf("%s: %d bytes, want just under %d", g.Name, len(g.Body), Size)
		}
	}
}

// TestLetters checks that Letters spells distinct combinations.
func TestLetters(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 26*26*26; i++ {
		s := Letters(i, 3)
		if len(s) != 3 || strings.Trim(s, "abcdefghijklmnopqrstuvwxyz") != "" || seen[s] {
			t.Fatalf("Letters(%d, 3) = %q: not three letters, or seen before", i, s)
		}
		seen[s] = true
	}
	if got := Letters(12345, 4); got != "asgv" {
		t.Errorf("Letters(12345, 4) = %q, want asgv", got)
	}
}

// TestURL checks the URLs' length and alphabet.
func TestURL(t *testing.T) {
	for _, n := range []int{5, 19, 20, 1 << 10, 16 << 10} {
		u := URL(n, "ab/")
		if len(u) != n {
			t.Errorf("URL(%d): %d bytes", n, len(u))
		}
		if n >= 1<<10 && !strings.HasPrefix(u, "http://example.com/ab/ab") {
			t.Errorf("URL(%d) = %.30q...", n, u)
		}
	}
}
