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
type parsedLRU struct {
	mu    sync.Mutex
	max   int
	items map[string]*list.Element
	order list.List
}

type parsedItem struct {
	key    string
	robots *robotstxt.Robots
}

func newParsedLRU(max int) *parsedLRU {
	p := &parsedLRU{max: max, items: map[string]*list.Element{}}
	p.order.Init()
	return p
}

func (p *parsedLRU) get(origin string, id uint64, body []byte, st *counters) *robotstxt.Robots {
	key := origin + " " + strconv.FormatUint(id, 16)
	p.mu.Lock()
	if e, ok := p.items[key]; ok {
		p.order.MoveToFront(e)
		r := e.Value.(*parsedItem).robots
		p.mu.Unlock()
		return r
	}
	p.mu.Unlock()
	// Parse outside the lock: two goroutines may both parse a new copy,
	// which is harmless.
	r := robotstxt.ParseWith(body, &robotstxt.ParseOptions{MaxBytes: -1})
	st.parses.Add(1)
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.items[key]; ok {
		return e.Value.(*parsedItem).robots
	}
	p.items[key] = p.order.PushFront(&parsedItem{key: key, robots: r})
	for p.order.Len() > p.max {
		old := p.order.Remove(p.order.Back()).(*parsedItem)
		delete(p.items, old.key)
	}
	return r
}
