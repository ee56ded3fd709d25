package audit

import (
	"container/heap"
	"slices"
)

// topK counts the most frequent keys of a stream in bounded memory: the
// Space-Saving algorithm (Metwally, Agrawal and El Abbadi, 2005). It
// keeps at most size counters; a new key past that takes the counter of
// the least frequent one, inheriting its count as its possible error. A
// key whose true count exceeds n/size (n the stream's length) is always
// kept, and each kept count overestimates the true one by at most its
// error.
type topK struct {
	size int
	m    map[string]*counter
	h    counterHeap
}

// counter is one kept key: count is an upper bound of its occurrences,
// count-err a lower bound. version and line say what judged it (the
// disallowed paths' top-k).
type counter struct {
	key     string
	count   int64
	err     int64
	i       int // in the heap
	version int
	line    int
	text    string
}

func newTopK(size int) *topK {
	return &topK{size: size, m: make(map[string]*counter, min(size, 1024))}
}

// add counts one occurrence of key, and returns its counter and whether
// it is new (then the caller fills in its details).
func (t *topK) add(key []byte) (*counter, bool) {
	if c, ok := t.m[string(key)]; ok {
		c.count++
		heap.Fix(&t.h, c.i)
		return c, false
	}
	if len(t.h) < t.size {
		c := &counter{key: string(key), count: 1}
		t.m[c.key] = c
		heap.Push(&t.h, c)
		return c, true
	}
	c := t.h[0]
	delete(t.m, c.key)
	c.key = string(key)
	c.err = c.count
	c.count++
	t.m[c.key] = c
	heap.Fix(&t.h, 0)
	return c, true
}

// top returns the n counters with the highest counts, highest first (ties
// by key).
func (t *topK) top(n int) []*counter {
	out := slices.Clone([]*counter(t.h))
	slices.SortFunc(out, func(a, b *counter) int {
		if a.count != b.count {
			if a.count > b.count {
				return -1
			}
			return 1
		}
		if a.key < b.key {
			return -1
		}
		if a.key > b.key {
			return 1
		}
		return 0
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

type counterHeap []*counter

func (h counterHeap) Len() int           { return len(h) }
func (h counterHeap) Less(i, j int) bool { return h[i].count < h[j].count }
func (h counterHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].i = i
	h[j].i = j
}
func (h *counterHeap) Push(x any) {
	c := x.(*counter)
	c.i = len(*h)
	*h = append(*h, c)
}
func (h *counterHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
