package cache

import (
	"container/list"
	"strconv"
	"sync"

	"github.com/seed53c283f5/robotstxt"
)

// parsedLRU keeps the parsed form of recent copies, so that repeated
// questions about an origin do not parse its body again. A copy is named by
// its origin and ID: a new copy gets a new ID, and its old parse simply ages
// out.
//
// It is bounded by count and by bytes: each parse weighs what
// robotstxt.Robots.Footprint says it keeps, however it is asked, in the
// reading Google, Bing and Yandex share. A parse is weighed again whenever
// it is found, since questions in the RFC 9309 or original draft dialects
// add a reading to it. A parse heavier than the whole budget is not kept:
// its questions are answered, with a parse each.
type parsedLRU struct {
	mu       sync.Mutex
	max      int
	maxBytes int64
	bytes    int64 // the weights of the items
	items    map[string]*list.Element
	order    list.List
}

type parsedItem struct {
	key    string
	robots *robotstxt.Robots
	weight int64
}

func newParsedLRU(max int, maxBytes int64) *parsedLRU {
	p := &parsedLRU{max: max, maxBytes: maxBytes, items: map[string]*list.Element{}}
	p.order.Init()
	return p
}

func (p *parsedLRU) get(origin string, id uint64, body []byte, st *counters) *robotstxt.Robots {
	key := origin + " " + strconv.FormatUint(id, 16)
	p.mu.Lock()
	if e, ok := p.items[key]; ok {
		p.order.MoveToFront(e)
		it := e.Value.(*parsedItem)
		if w := it.robots.Footprint(); w != it.weight {
			p.bytes += w - it.weight
			it.weight = w
			p.evict()
		}
		p.mu.Unlock()
		return it.robots
	}
	p.mu.Unlock()
	// Parse and weigh outside the lock: two goroutines may both parse a new
	// copy, which is harmless.
	r := robotstxt.ParseWith(body, &robotstxt.ParseOptions{MaxBytes: -1})
	w := r.Footprint()
	st.parses.Add(1)
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.items[key]; ok {
		return e.Value.(*parsedItem).robots
	}
	if w > p.maxBytes {
		return r
	}
	p.items[key] = p.order.PushFront(&parsedItem{key: key, robots: r, weight: w})
	p.bytes += w
	p.evict()
	return r
}

// evict drops the least recently used parses until the count and the bytes
// are within bounds.
func (p *parsedLRU) evict() {
	for p.order.Len() > 0 && (p.order.Len() > p.max || p.bytes > p.maxBytes) {
		old := p.order.Remove(p.order.Back()).(*parsedItem)
		delete(p.items, old.key)
		p.bytes -= old.weight
	}
}

// usage returns how many parses are kept and what they weigh.
func (p *parsedLRU) usage() (n int, bytes int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.order.Len(), p.bytes
}
