package robotstxt

import "slices"

// Growing and clipping the lists a reading builds (the builder's, the
// extension fields').

// grow returns s with room for one more element. A small list doubles; a
// list of 256 elements or more is given the room bound says it can ever
// need, so that its arrays add up to little more than the last.
func grow[T any](s []T, bound func() int) []T {
	switch {
	case len(s) < cap(s):
		return s
	case cap(s) < 256:
		return slices.Grow(s, max(len(s), 4))
	}
	return slices.Grow(s, max(bound()-len(s), len(s)/4, 1))
}

// clipSlice returns s, copied into an array of its length when more than
// a quarter of its capacity is unused: parsing sizes lists for the most
// lines they can take.
func clipSlice[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/4+4 {
		return s
	}
	if len(s) == 0 {
		return nil
	}
	return append([]T(nil), s...)
}
