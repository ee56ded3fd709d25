// Package suggest finds the name a user probably meant: for "did you mean"
// in error messages about a misspelt field, flag, command, crawler or
// dialect.
package suggest

import "strings"

// Nearest returns the name in names closest to s: one equal to s but for
// ASCII case, else the first at the smallest edit distance, if that is at
// most max(1, min(2, len(s)/3)) (so a short word is not matched to anything
// of its length). It returns "" when none is near.
func Nearest(s string, names []string) string {
	limit := min(2, max(1, len(s)/3))
	best, bestD := "", limit+1
	ls := strings.ToLower(s)
	for _, n := range names {
		if strings.EqualFold(n, s) {
			return n
		}
		if d := Distance(ls, strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// Distance is the edit distance of a and b, counted in bytes: the fewest
// insertions, deletions, substitutions and swaps of two neighbours that turn
// a into b (the optimal string alignment distance: "usgae" is one from
// "usage").
func Distance(a, b string) int {
	pp := make([]int, len(b)+1) // the row before prev
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c = min(c, pp[j-2]+1)
			}
			cur[j] = c
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(b)]
}
