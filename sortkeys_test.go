package robotstxt

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortByKeys checks that sorting rules by their keys gives the order
// sorting them with better's comparison gives, on random sets with ties in
// length and kind.
func TestSortByKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for round := 0; round < 2000; round++ {
		n := 13 + rng.IntN(hotMax-12)
		rs := make([]crule, n)
		lines := rng.Perm(10 * n)
		for i := range rs {
			rs[i] = crule{n: uint32(rng.IntN(6)), line: int32(lines[i] + 1), off: uint32(i), word: rng.Uint64()}
			if rng.IntN(2) == 0 {
				rs[i].flags = ruleAllow
			}
		}
		want := slices.Clone(rs)
		slices.SortFunc(want, precedenceCmp)
		if !sortByKeys(rs) {
			t.Fatal("sortByKeys refused small lengths and lines")
		}
		if !slices.Equal(rs, want) {
			t.Fatalf("round %d: sortByKeys gave %v, want %v", round, rs, want)
		}
	}
	if sortByKeys([]crule{{n: 1 << 20}}) {
		t.Error("sortByKeys took a length too large for its key")
	}
}
