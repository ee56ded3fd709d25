package bulk

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

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
// (Concurrency) and those of the batches the workers have not reached.

// OriginBytes is the default bound of the weight of the answers a run
// keeps (Options.OriginBytes). ParsedBytes is a bound for the parsed files
// of a run's cache (cache.Options.ParsedBytes), as robotstxt bulk sets it:
// the run's table keeps the recent answers, the cache's are for the
// origins the table dropped.
const (
	OriginBytes = 64 << 20
	ParsedBytes = 32 << 20
)

// originWeight is what an origin's answer weighs besides its parsed file:
// its state, texts, answer and a question a subject, roughly.
const originWeight = 1 << 10

// originState is what a run knows of one origin. Once evicted from the
// table it keeps only what names it, and may be kept by the reader's hints
// (originCache): its answer goes.
type originState struct {
	origin     fetch.Origin
	originText string
	originJSON string
	firstLine  int // the line whose question asked for it: its results give the source
	done       chan struct{}
	err        error                        // set before ready, with no answer
	ans        atomic.Pointer[originAnswer] // the answer, while the table keeps it
	ready      atomic.Bool                  // the answer (or err) is there
	gone       atomic.Bool                  // out of the table (set under origins.mu)
	touched    atomic.Bool                  // used since the table last passed it (second chance)

	// Under origins.mu:
	finished bool          // ready, as the table sees it
	weight   int64         // of ans, with finished
	waiters  []bulkWaiter  // items that wait for the answer
	elem     *list.Element // in origins.lru, once finished and kept
}

// originAnswer is an origin's answer and what every result of the origin
// writes, made once: its sources as text and JSON (the first result's,
// and the later ones'), and one prepared question a subject
// (cfg.subjects) with the policy it reads: the group choice is made once
// an origin, not once a URL.
type originAnswer struct {
	answer                           *cache.Answer
	expires                          time.Time // answer.ExpiresAt, one load nearer
	sourceFirstJSON, sourceLaterJSON string
	sourceFirstText, sourceLaterText string
	subjects                         []subjectAnswer
	weight                           int64
	// payment is what the answer said about pay per crawl
	// (fetch.PaymentOfTrace); paymentJSON its member of a JSON result
	// (`,"payment":{...}`) and paymentCSV its CSV field, "" when it said
	// nothing.
	payment                 fetch.Payment
	paymentJSON, paymentCSV string
}

// subjectAnswer is one subject's question of an origin: the decider, and
// the fetch policy it reads the answer with (the subject's own dialect's,
// as check reads a live file: cache.Answer.For) as text and JSON.
type subjectAnswer struct {
	decider                *cache.Decider
	policy                 fetch.Policy
	policyText, policyJSON string
}

// bulkWaiter is an item waiting for its origin's answer, and its batch.
type bulkWaiter struct {
	b  *bulkBatch
	it *bulkItem
}

// bulkQuery is the question of subject s, as a bulk result asks it (the
// URL aside): read in its dialect (Options.Dialect, else the crawler's
// own, else Google's: robotstxt.Query.ReadsIn), with that dialect's fetch
// policy.
func bulkQuery(cfg *config, s *Subject) robotstxt.Query {
	return robotstxt.Query{Crawler: s.Crawler, Agents: s.Agents, Dialect: cfg.dialect}
}

// newOriginAnswer makes the texts and the questions of a, and weighs them.
func newOriginAnswer(a *cache.Answer, cfg *config) *originAnswer {
	oa := &originAnswer{answer: a, expires: a.ExpiresAt}
	oa.sourceFirstText = a.Source.String()
	oa.sourceLaterText = oa.sourceFirstText
	if a.Source == cache.Network {
		oa.sourceLaterText = cache.Cached.String()
	}
	oa.sourceFirstJSON = bulkQuote(oa.sourceFirstText)
	oa.sourceLaterJSON = bulkQuote(oa.sourceLaterText)
	oa.subjects = make([]subjectAnswer, len(cfg.subjects))
	for i := range cfg.subjects {
		d := a.Decider(bulkQuery(cfg, &cfg.subjects[i]))
		p := d.Answer().Policy
		oa.subjects[i] = subjectAnswer{decider: d, policy: p, policyText: p.String()}
		oa.subjects[i].policyJSON = bulkQuote(oa.subjects[i].policyText)
	}
	if oa.payment = fetch.PaymentOfTrace(a.Status, a.Trace); !oa.payment.IsZero() {
		j := oa.payment.JSON()
		b, _ := json.Marshal(j)
		oa.paymentJSON = `,"payment":` + string(b)
		oa.paymentCSV = paymentCSV(j)
	}
	oa.weight = originWeight + int64(len(a.Reason)) + int64(len(oa.paymentJSON)+len(oa.paymentCSV))
	if a.Robots != nil {
		oa.weight += a.Robots.Footprint()
	}
	return oa
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
// fetches finish them, and evict answers when the table is over its
// bounds: the least recently used, nearly (each answer used since the
// last pass gets a second chance, as a CLOCK does: the reader marks it,
// without a lock).
type origins struct {
	mu       sync.Mutex
	max      int
	maxBytes int64
	bytes    int64                         // the weights of the answers in lru
	m        map[fetch.Origin]*originState // every state in the table, finished or not
	lru      list.List                     // the finished states kept, most recently used first

	sem     chan struct{}
	c       *cache.Cache
	ctx     context.Context
	cfg     *config       // the subjects each origin's questions are prepared for
	timeout time.Duration // a fetch's budget on its slotClock; 0: none
	seen    atomic.Int64  // origins looked up
	fails   atomic.Int64  // looked up with no answer (interrupted)
	done    *atomic.Int64 // URLs whose results are formatted
	wake    chan struct{} // a waiter's results are ready (capacity 1)
	anyq    *anyQueue     // with AnyOrder, where the waiters go when ready
}

func newOrigins(ctx context.Context, cfg *config, max int, maxBytes int64) *origins {
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

// current returns st's answer when st is in the table and its answer
// still holds at time now, and marks st used.
func current(st *originState, now time.Time) *originAnswer {
	if st == nil || st.gone.Load() {
		return nil
	}
	a := st.ans.Load()
	if a == nil || !now.Before(a.expires) {
		return nil
	}
	if !st.touched.Load() {
		st.touched.Store(true)
	}
	return a
}

// lookup gives item it of batch b its origin's state, and its answer when
// it is there; otherwise it makes the item a waiter, starting the origin's
// fetch when it is new. Only the reader calls it. hint, when not nil, is
// where the caller keeps the state last given for o: when it is still
// current, o is not looked up in the map; it is updated.
func (s *origins) lookup(o fetch.Origin, hint **originState, now time.Time, b *bulkBatch, it *bulkItem) {
	var st *originState
	if hint != nil {
		st = *hint
		if a := current(st, now); a != nil { // the common case, without the lock
			it.state, it.ans = st, a
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st == nil || st.gone.Load() {
		st = s.m[o]
	}
	if st != nil {
		if !st.finished {
			st.waiters = append(st.waiters, bulkWaiter{b, it})
			it.state, it.waiting = st, true
			if hint != nil {
				*hint = st
			}
			return
		}
		if a := current(st, now); a != nil {
			it.state, it.ans = st, a
			if hint != nil {
				*hint = st
			}
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
	if hint != nil {
		*hint = st
	}
	go s.fetch(st)
}

// fetch asks the cache for the origin's answer, at most cfg.concurrency at
// once, then finishes the state.
func (s *origins) fetch(st *originState) {
	select {
	case s.sem <- struct{}{}:
	case <-s.ctx.Done():
		st.err = s.ctx.Err()
		s.finish(st, nil)
		return
	}
	ctx := s.ctx
	if s.timeout > 0 {
		ctx = withSlotClock(ctx, s.timeout)
	}
	get := s.c.GetOrigin
	if s.cfg.refresh {
		get = s.c.RefreshOrigin // Refresh: fetched now, the copy renewed
	}
	a, err := get(ctx, st.origin)
	<-s.sem
	var oa *originAnswer
	if a != nil {
		oa = newOriginAnswer(a, s.cfg)
	}
	st.err = err
	s.finish(st, oa)
}

// finish records that the state's answer (or err) is there: the table
// keeps it (evicting others to stay within its bounds) unless there is
// none or it weighs more than the whole bound alone, and its waiters'
// results are formatted.
func (s *origins) finish(st *originState, oa *originAnswer) {
	if st.err != nil {
		s.fails.Add(1)
	}
	s.mu.Lock()
	st.finished = true
	if !st.gone.Load() {
		if oa == nil || oa.weight > s.maxBytes {
			s.removeLocked(st)
		} else {
			st.ans.Store(oa)
			st.weight = oa.weight
			st.elem = s.lru.PushFront(st)
			s.bytes += oa.weight
			s.evictLocked()
		}
	}
	st.ready.Store(true)
	waiters := st.waiters
	st.waiters = nil
	s.mu.Unlock()
	close(st.done)
	s.formatWaiters(st, oa, waiters)
}

// removeLocked takes st out of the table, and its answer from it.
func (s *origins) removeLocked(st *originState) {
	if s.m[st.origin] == st {
		delete(s.m, st.origin)
	}
	if st.elem != nil {
		s.lru.Remove(st.elem)
		st.elem = nil
		s.bytes -= st.weight
	}
	st.ans.Store(nil)
	st.gone.Store(true)
}

// evictLocked drops answers until the table is within its bounds, from the
// least recently used end: one used since the last pass goes to the front
// instead, once.
func (s *origins) evictLocked() {
	chances := s.lru.Len()
	for s.lru.Len() > 0 && (len(s.m) > s.max || s.bytes > s.maxBytes) {
		e := s.lru.Back()
		st := e.Value.(*originState)
		if chances > 0 && st.touched.Load() {
			chances--
			st.touched.Store(false)
			s.lru.MoveToFront(e)
			continue
		}
		s.removeLocked(st)
	}
}

// formatWaiters formats the results of the items that waited for st, into
// one buffer, and tells the writer. With no answer because the run was
// interrupted, they stay unformatted: the writer stops.
func (s *origins) formatWaiters(st *originState, oa *originAnswer, ws []bulkWaiter) {
	if len(ws) == 0 || oa == nil && s.ctx.Err() != nil {
		return
	}
	// Formatted into a scratch buffer, kept in one of the exact size.
	scratch := bulkBufs.Get().(*[]byte)
	buf := (*scratch)[:0]
	for _, w := range ws {
		w.it.ans = oa
		w.it.start = len(buf)
		buf = bulkResults(buf, s.cfg, w.it)
		w.it.end = len(buf)
	}
	own := bytes.Clone(buf)
	if cap(buf) <= 1<<20 {
		*scratch = buf
		bulkBufs.Put(scratch)
	}
	for _, w := range ws {
		w.it.own = own[w.it.start:w.it.end:w.it.end]
		w.it.state, w.it.ans = nil, nil
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
// AnyOrder.
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

// paymentCSV is the payment column of a CSV result: "required: USD 0.01",
// "required" (no crawler-price), "required: crawler-price unreadable",
// "charged: USD 0.01"; a crawler-error follows ("; crawler-error: X").
func paymentCSV(j fetch.PaymentJSON) string {
	s := ""
	if j.Status != fetch.NoPayment.String() {
		s = j.Status
		switch {
		case j.PriceError != "" && j.Status == fetch.PaymentCharged.String():
			s += ": crawler-charged unreadable"
		case j.PriceError != "":
			s += ": crawler-price unreadable"
		case j.Price != "":
			s += ": " + j.Price
		}
	}
	if j.CrawlerError != "" {
		if s != "" {
			s += "; "
		}
		s += "crawler-error: " + j.CrawlerError
	}
	return s
}
