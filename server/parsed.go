package server

import (
	"bytes"
	"container/list"
	"hash/maphash"
	"sync"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

// DefaultParsedBytes bounds the inline files the server keeps parsed
// (Options.ParsedBytes), as robotstxt.Robots.Footprint weighs them.
const DefaultParsedBytes = 64 << 20

// sourceLRU keeps the recent inline files parsed, keyed by their bytes:
// a site owner's page and a crawler fleet send the same file again and
// again, and parsing it is most of the work of a check of a few URLs.
//
// It is bounded by bytes: each file weighs what tester.Source.Footprint
// says it keeps (its body, its parse with what questions build, the usage
// table included, and the deciders it keeps), weighed again when it is
// found and after each request that used it (questions in another dialect
// add a reading, new askers a decider). A file past the
// size limit (cut as crawlers cut it) or heavier than the budget is parsed
// each time and not kept. A nil *sourceLRU keeps nothing.
type sourceLRU struct {
	seed     maphash.Seed
	mu       sync.Mutex
	maxBytes int64
	bytes    int64
	items    map[sourceKey]*list.Element
	order    list.List
}

type sourceKey struct {
	name string
	hash uint64
	size int
}

type sourceItem struct {
	key    sourceKey
	src    *tester.Source
	weight int64
}

func newSourceLRU(maxBytes int64) *sourceLRU {
	if maxBytes <= 0 {
		return nil
	}
	p := &sourceLRU{seed: maphash.MakeSeed(), maxBytes: maxBytes, items: map[sourceKey]*list.Element{}}
	p.order.Init()
	return p
}

func (it *sourceItem) measure() int64 {
	return it.src.Footprint()
}

// source returns the source of body named name: the one kept for the same
// name and bytes, or a new one, kept. A Source answers many goroutines at
// once, so one is shared.
func (p *sourceLRU) source(name string, body []byte) *tester.Source {
	if p == nil || len(body) > robotstxt.DefaultMaxBytes {
		return tester.NewSource(name, body)
	}
	key := sourceKey{name: name, hash: maphash.Bytes(p.seed, body), size: len(body)}
	p.mu.Lock()
	if e, ok := p.items[key]; ok {
		it := e.Value.(*sourceItem)
		if bytes.Equal(it.src.Body, body) {
			p.order.MoveToFront(e)
			if w := it.measure(); w != it.weight {
				p.bytes += w - it.weight
				it.weight = w
				p.evict()
			}
			p.mu.Unlock()
			return it.src
		}
	}
	p.mu.Unlock()
	// Parse outside the lock: two requests may both parse a new file,
	// which is harmless. The body is copied: the request's buffer is not
	// kept.
	src := tester.NewSource(name, bytes.Clone(body))
	it := &sourceItem{key: key, src: src}
	it.weight = it.measure()
	if it.weight > p.maxBytes {
		return src
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.items[key]; ok {
		p.bytes -= e.Value.(*sourceItem).weight
		p.order.Remove(e)
	}
	p.items[key] = p.order.PushFront(it)
	p.bytes += it.weight
	p.evict()
	return src
}

// reweigh weighs src again, if it is kept, after a request used it: what
// the request built on it (a reading, deciders) is counted from now on,
// and the least recently used files make room for it.
func (p *sourceLRU) reweigh(src *tester.Source) {
	if p == nil || src == nil || len(src.Body) > robotstxt.DefaultMaxBytes {
		return
	}
	key := sourceKey{name: src.Name, hash: maphash.Bytes(p.seed, src.Body), size: len(src.Body)}
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.items[key]
	if !ok {
		return
	}
	it := e.Value.(*sourceItem)
	if it.src != src {
		return
	}
	if w := it.measure(); w != it.weight {
		p.bytes += w - it.weight
		it.weight = w
		p.evict()
	}
}

// evict drops the least recently used files until the bytes are within
// the budget.
func (p *sourceLRU) evict() {
	for p.order.Len() > 0 && p.bytes > p.maxBytes {
		old := p.order.Remove(p.order.Back()).(*sourceItem)
		delete(p.items, old.key)
		p.bytes -= old.weight
	}
}

// usage returns how many files are kept and what they weigh.
func (p *sourceLRU) usage() (n int, bytes int64) {
	if p == nil {
		return 0, 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.order.Len(), p.bytes
}
