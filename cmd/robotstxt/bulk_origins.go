package main

import (
	"container/list"
	"context"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
	"weak"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// The answers of a run's origins are kept for the URLs that follow, in a
// table bounded by count and by weight: the weight of an answer is what its
// parsed file keeps (robotstxt.Robots.Footprint, as the cache's parsed
// files are weighed) plus the origin's own texts and questions. A hostile
// 500 KiB file weighs up to about 8 MB: by count alone, 500 such origins
// took gigabytes.
//
// The table is not the only holder of answers. A URL waiting to be written
// would hold its origin's answer too, and a slow origin at the head of the
// input holds back thousands of them. So a URL's results are formatted as
// soon as its origin's answer is there, by the origin's fetch for the URLs
// read before it came (the waiters) and by the batch's worker for the
// others; from then on the URL holds its formatted results only. What the
// run holds of answers is then the table's, those being fetched
// (--concurrency) and those of the batches the workers have not reached.

// bulkOriginBytes is the default bound of the weight of the answers a run
// keeps; bulkParsedBytes bounds the cache's parsed files in a bulk run (the
// table above keeps the recent ones: the cache's are for the origins it
// dropped).
const (
	bulkOriginBytes = 64 << 20
	bulkParsedBytes = 32 << 20
)

// originWeight is what an origin's state weighs besides its parsed file:
// the state, its texts, its answer and a question a subject, roughly.
const originWeight = 1 << 10

// originState is what a run knows of one origin. The fields up to ready are
// set by the origin's fetch before ready; done is closed after it.
type originState struct {
	origin    fetch.Origin
	firstLine int // the line whose question asked for it: its results give the source
	done      chan struct{}
	answer    *cache.Answer
	err       error
	// The texts every result of the origin writes, made once: the
	// origin, and with an answer its policy and its sources (the first
	// result's, and the later ones').
	originText, originJSON           string
	policyText, policyJSON           string
	sourceFirstJSON, sourceLaterJSON string
	sourceFirstText, sourceLaterText string
	// deciders holds one prepared question a subject (cfg.subjects),
	// made with the answer: the group choice is made once an origin, not
	// once a URL.
	deciders []*cache.Decider
	ready    atomic.Bool // the answer (or err) is there
	gone     atomic.Bool // out of the table (set under origins.mu)

	// Under origins.mu:
	finished bool          // ready, as the table sees it
	weight   int64         // with finished
	waiters  []bulkWaiter  // items that wait for the answer
	elem     *list.Element // in origins.lru, once finished and kept
}

// bulkWaiter is an item waiting for its origin's answer, and its batch.
type bulkWaiter struct {
	b  *bulkBatch
	it *bulkItem
}

// bulkQuery is the question of subject s, as a bulk result asks it (the
// URL aside).
func bulkQuery(cfg *bulkConfig, s *bulkSubject) robotstxt.Query {
	q := robotstxt.Query{Crawler: s.crawler, Agents: s.agents, Dialect: cfg.dialect}
	if s.crawler == nil && cfg.dialect == robotstxt.DefaultDialect {
		q.Dialect = robotstxt.Google
	}
	return q
}

// prepare makes the origin's deciders, one a subject, from its answer.
func (st *originState) prepare(cfg *bulkConfig) {
	if cfg == nil || st.answer == nil {
		return
	}
	st.deciders = make([]*cache.Decider, len(cfg.subjects))
	for i := range cfg.subjects {
		st.deciders[i] = st.answer.Decider(bulkQuery(cfg, &cfg.subjects[i]))
	}
}

// setAnswer records the answer (or err) and the texts it gives.
func (st *originState) setAnswer(a *cache.Answer, err error) {
	st.answer, st.err = a, err
	if a == nil {
		return
	}
	st.policyText = a.Policy.String()
	st.policyJSON = bulkQuote(st.policyText)
	st.sourceFirstText = a.Source.String()
	st.sourceLaterText = st.sourceFirstText
	if a.Source == cache.Network {
		st.sourceLaterText = cache.Cached.String()
	}
	st.sourceFirstJSON = bulkQuote(st.sourceFirstText)
	st.sourceLaterJSON = bulkQuote(st.sourceLaterText)
}

// weigh returns the state's weight, once its answer is there and its
// questions prepared.
func (st *originState) weigh() int64 {
	w := int64(originWeight + unsafe.Sizeof(*st))
	if st.answer != nil {
		w += int64(len(st.answer.Reason))
		if r := st.answer.Robots; r != nil {
			w += r.Footprint()
		}
	}
	return w
}

// bulkQuote returns s as a JSON string, the names of policies and sources
// without an allocation.
func bulkQuote(s string) string {
	switch s {
	case "rules":
		return `"rules"`
	case "allow-all":
		return `"allow-all"`
	case "disallow-all":
		return `"disallow-all"`
	case "network":
		return `"network"`
	case "cache":
		return `"cache"`
	case "stale-cache":
		return `"stale-cache"`
	}
	return string(appendJSONString(nil, s))
}

// origins keeps the answers of recently seen origins, at most max and at
// most maxBytes by weight, so that the URLs of one origin are answered
// without asking the cache again. The reader looks origins up; their
// fetches finish them, and evict the least recently used answers when the
// table is over its bounds.
type origins struct {
	mu       sync.Mutex
	max      int
	maxBytes int64
	bytes    int64                         // the weights of the states in lru
	m        map[fetch.Origin]*originState // every state in the table, finished or not
	lru      list.List                     // the finished states kept, most recently used first
	last     *originState                  // the state the reader last moved to the front (the reader's)

	sem     chan struct{}
	c       *cache.Cache
	ctx     context.Context
	cfg     *bulkConfig   // the subjects each origin's deciders are prepared for
	timeout time.Duration // a fetch's budget on its slotClock; 0: none
	seen    atomic.Int64  // origins looked up
	fails   atomic.Int64  // looked up with no answer (interrupted)
	done    *atomic.Int64 // URLs whose results are formatted
	wake    chan struct{} // a waiter's results are ready (capacity 1)
	anyq    *anyQueue     // with --order any, where the waiters go when ready
}

func newOrigins(ctx context.Context, cfg *bulkConfig, max int, maxBytes int64) *origins {
	s := &origins{max: max, maxBytes: maxBytes, m: map[fetch.Origin]*originState{},
		sem: make(chan struct{}, cfg.concurrency), c: cfg.cache, ctx: ctx, cfg: cfg,
		timeout: cfg.timeout, done: cfg.done, wake: make(chan struct{}, 1)}
	s.lru.Init()
	if s.done == nil {
		s.done = new(atomic.Int64)
	}
	if cfg.anyOrder {
		s.anyq = &anyQueue{}
	}
	return s
}

// fresh reports whether a finished state still answers at time now.
func fresh(st *originState, now time.Time) bool {
	return st.answer != nil && now.Before(st.answer.ExpiresAt)
}

// lookup gives item it of batch b its origin's state, starting its fetch
// when it is new, and makes it a waiter when the answer is not there yet.
// Only the reader calls it. hint, when not nil, is where the caller keeps
// the state last given for o: when it is still current, o is not looked up
// in the map; it is updated.
func (s *origins) lookup(o fetch.Origin, hint *weak.Pointer[originState], now time.Time, b *bulkBatch, it *bulkItem) {
	var st *originState
	if hint != nil {
		st = hint.Value()
		// The common case, without the lock: the same origin as the last
		// URL's, answered.
		if st != nil && st == s.last && st.ready.Load() && !st.gone.Load() && fresh(st, now) {
			it.state = st
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st == nil || st.gone.Load() {
		st = s.m[o]
	}
	if st != nil {
		switch {
		case !st.finished:
			st.waiters = append(st.waiters, bulkWaiter{b, it})
			it.state, it.waiting = st, true
			setHint(hint, st)
			return
		case fresh(st, now):
			if st != s.last {
				s.lru.MoveToFront(st.elem)
				s.last = st
			}
			it.state = st
			setHint(hint, st)
			return
		}
		s.removeLocked(st) // expired
	}
	st = &originState{origin: o, firstLine: it.lineNo, done: make(chan struct{}), originText: o.String()}
	st.originJSON = string(appendJSONString(nil, st.originText))
	st.waiters = []bulkWaiter{{b, it}}
	it.state, it.waiting = st, true
	s.m[o] = st
	s.seen.Add(1)
	s.evictLocked()
	setHint(hint, st)
	go s.fetch(st)
}

// setHint points hint at st. The hint does not keep st alive: the table and
// the items waiting for it do.
func setHint(hint *weak.Pointer[originState], st *originState) {
	if hint != nil && hint.Value() != st {
		*hint = weak.Make(st)
	}
}

// fetch asks the cache for the origin's answer, at most cfg.concurrency at
// once, then finishes the state.
func (s *origins) fetch(st *originState) {
	select {
	case s.sem <- struct{}{}:
	case <-s.ctx.Done():
		st.err = s.ctx.Err()
		s.finish(st)
		return
	}
	ctx := s.ctx
	if s.timeout > 0 {
		ctx = withSlotClock(ctx, s.timeout)
	}
	a, err := s.c.GetOrigin(ctx, st.origin)
	<-s.sem
	st.setAnswer(a, err)
	st.prepare(s.cfg)
	s.finish(st)
}

// finish records that the state's answer is there: the table keeps it
// (evicting others to stay within its bounds) unless it has no answer or
// weighs more than the whole bound alone, and its waiters' results are
// formatted.
func (s *origins) finish(st *originState) {
	if st.err != nil {
		s.fails.Add(1)
	}
	w := st.weigh()
	s.mu.Lock()
	st.finished, st.weight = true, w
	st.ready.Store(true)
	if !st.gone.Load() {
		if st.answer == nil || w > s.maxBytes {
			s.removeLocked(st)
		} else {
			st.elem = s.lru.PushFront(st)
			s.bytes += w
			s.evictLocked()
		}
	}
	waiters := st.waiters
	st.waiters = nil
	s.mu.Unlock()
	close(st.done)
	s.formatWaiters(st, waiters)
}

// removeLocked takes st out of the table.
func (s *origins) removeLocked(st *originState) {
	if s.m[st.origin] == st {
		delete(s.m, st.origin)
	}
	if st.elem != nil {
		s.lru.Remove(st.elem)
		st.elem = nil
		s.bytes -= st.weight
	}
	st.gone.Store(true)
}

// evictLocked drops the least recently used finished states until the
// table is within its bounds.
func (s *origins) evictLocked() {
	for s.lru.Len() > 0 && (len(s.m) > s.max || s.bytes > s.maxBytes) {
		s.removeLocked(s.lru.Back().Value.(*originState))
	}
}

// formatWaiters formats the results of the items that waited for st, into
// one buffer, and tells the writer. With no answer because the run was
// interrupted, they stay unformatted: the writer stops.
func (s *origins) formatWaiters(st *originState, ws []bulkWaiter) {
	if len(ws) == 0 || st.answer == nil && s.ctx.Err() != nil {
		return
	}
	var buf []byte
	ends := make([]int, len(ws))
	for i, w := range ws {
		buf = bulkResults(buf, s.cfg, w.it)
		ends[i] = len(buf)
	}
	start := 0
	for i, w := range ws {
		w.it.own = buf[start:ends[i]:ends[i]]
		start = ends[i]
		w.it.state = nil
		w.it.ready.Store(true)
	}
	s.done.Add(int64(len(ws)))
	if s.anyq != nil {
		s.anyq.push(ws)
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// anyQueue holds the waiters whose results are ready, for the writer of
// --order any.
type anyQueue struct {
	mu    sync.Mutex
	ready []bulkWaiter
}

func (q *anyQueue) push(ws []bulkWaiter) {
	q.mu.Lock()
	q.ready = append(q.ready, ws...)
	q.mu.Unlock()
}

// take returns the waiters ready, reusing buf for the next call.
func (q *anyQueue) take(buf []bulkWaiter) []bulkWaiter {
	q.mu.Lock()
	defer q.mu.Unlock()
	ws := q.ready
	q.ready = buf[:0]
	return ws
}
