package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
	"golang.org/x/sync/semaphore"
)

// A request of a few megabytes can ask for an answer of gigabytes: 2,000
// URLs of 800 bytes asked about for 256 agents is 512,000 results of 2 KB.
// The work a request may ask for is bounded three ways, each with an
// answer that names the limit:
//
//   - questions: a question is one URL asked about for one crawler in one
//     reading. A check asks URLs x subjects, a compare URLs x rows x 7 (the
//     row's own reading and the six dialects'), a diff URLs x rows x 2 (one
//     per file), an AI report URLs x (crawlers + 1). Past
//     Options.MaxQuestions: 413.
//   - answer bytes: past Options.MaxAnswerBytes, 413. A check's answer is
//     estimated before any work and then written as the results come, so
//     that its memory is one buffer whatever its size; a result larger than
//     estimated (a URL that thousands of rules match) is cut at the limit
//     (413 before the first byte is sent, else the connection is closed).
//     The other answers are built whole: estimated before, measured after.
//   - memory in flight: every POST, and each live fetch, holds its
//     estimated memory (its body three times over, the files it parses, the
//     answer it builds) while it runs, out of Options.MaxInFlightBytes: a
//     quarter of it for bodies, the rest for answers (see admission). A
//     request that cannot get it waits, for at most half its deadline,
//     then gets 503 with Retry-After; one that needs more than the whole
//     gets 413.
//
// A check's writing stops at the request's deadline too (504 before the
// first byte, else the connection is closed).

// The defaults of the limits of Options, and the least memory in flight
// a server takes: enough for a body of MaxBodyBytes and a live fetch.
const (
	DefaultMaxQuestions     = 100_000
	DefaultMaxAnswerBytes   = 128 << 20
	DefaultMaxInFlightBytes = 256 << 20
	MinInFlightBytes        = 3*MaxBodyBytes + parseFactor*robotstxt.DefaultMaxBytes + streamBuffer + requestOverhead + 4*liveWeight
)

// The estimates of the limits: bytes a request is taken to need.
const (
	// streamBuffer is the most of a check's answer held before it is
	// written (a larger answer goes out in pieces of about this size).
	streamBuffer = 512 << 10
	// requestOverhead is what any request holds beside its body and its
	// answer: buffers, the decoder's state.
	requestOverhead = 256 << 10
	// liveWeight is a live fetch: the body read (at most 500 KiB), its
	// parse and the transport's buffers.
	liveWeight = 4 << 20
	// parseFactor is what parsing a file holds, per byte of the file read.
	parseFactor = 8
	// builtFactor is what an answer built whole holds per byte of its
	// JSON: the values, their encoding and its copy.
	builtFactor = 3
	// Per result of a check, of a compare's cell and of a diff's change,
	// the bytes of JSON beside the URL and the subject's name.
	checkResultBytes  = 420
	usageResultBytes  = 160 // a check result's usage and signals (usage.go)
	compareCellBytes  = 750
	diffChangeBytes   = 300
	lintFindingBytes  = 300
	liveLintBytes     = 4 << 20
	compareReadings   = 7 // the row's own and the six dialects'
	defaultCompareRow = 8 + tester.MaxFileRows
	defaultDiffRows   = 1 + defaultCompareRow // and "*"
)

// admission is the memory in flight, in two weighted semaphores taken in
// this order: bodies, the requests' bodies (and the files they parse),
// held while each is answered; work, what answering holds beyond its body
// (the answer built, a live fetch). A request waits for work holding its
// body's weight, but nothing waits while holding work, so that the
// requests waiting can never hold what the one before them needs.
//
// Each pool is shared fairly between clients (clientOf): one client holds
// at most a quarter of a pool (a request that needs more takes the whole
// quarter, and runs alone for its client), and its requests past that wait
// for its own requests to finish, not in the queue of the others. A body
// is weighed as it arrives (meteredBody), not by the Content-Length it
// announces: a client that announces 8 MiB and sends a byte a second holds
// what it sent.
type admission struct {
	bodies, work *pool
}

// clientShareDivisor: one client holds at most 1/clientShareDivisor of a
// pool.
const clientShareDivisor = 4

// pool is one weighted semaphore, and the share of it each client holds.
type pool struct {
	sem      *semaphore.Weighted
	capacity int64
	share    int64        // what one client holds of it at most
	held     atomic.Int64 // for the metrics
	waiting  atomic.Int64 // requests waiting, for the tests

	mu      sync.Mutex
	clients map[netip.Addr]*clientShare
}

// clientShare is what one client holds of a pool: a semaphore of
// pool.share, and the requests that use it (the entry goes when none does).
type clientShare struct {
	sem  *semaphore.Weighted
	refs int
}

// newAdmission splits total bytes: a quarter for bodies (at least one of
// MaxBodyBytes), the rest for work.
func newAdmission(total int64) *admission {
	bodies := max(total/4, bodyWeight(MaxBodyBytes))
	return &admission{bodies: newSharedPool(bodies, bodies/clientShareDivisor), work: newSharedPool(total-bodies, (total-bodies)/clientShareDivisor)}
}

// newPool is a pool of which one client may hold all.
func newPool(capacity int64) *pool { return newSharedPool(capacity, capacity) }

// newSharedPool is a pool of which one client holds at most share.
func newSharedPool(capacity, share int64) *pool {
	return &pool{sem: semaphore.NewWeighted(capacity), capacity: capacity,
		share: max(1, share), clients: map[netip.Addr]*clientShare{}}
}

// shareOf returns client's share of p, counting one more user; done
// gives it back.
func (p *pool) shareOf(client netip.Addr) *clientShare {
	p.mu.Lock()
	cs := p.clients[client]
	if cs == nil {
		cs = &clientShare{sem: semaphore.NewWeighted(p.share)}
		p.clients[client] = cs
	}
	cs.refs++
	p.mu.Unlock()
	return cs
}

func (p *pool) done(client netip.Addr, cs *clientShare) {
	p.mu.Lock()
	if cs.refs--; cs.refs == 0 && len(p.clients) > maxIdleShares {
		delete(p.clients, client)
	}
	p.mu.Unlock()
}

// maxIdleShares is how many shares of clients that hold nothing a pool
// keeps for their next request (a client's requests one after another
// then make no new share each); past it, a share goes when its last
// request ends.
const maxIdleShares = 1024

// clientCount is how many clients hold or wait for some of p.
func (p *pool) clientCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, cs := range p.clients {
		if cs.refs > 0 {
			n++
		}
	}
	return n
}

// acquire takes n bytes of p for a request, waiting for at most half of
// what is left of ctx's deadline; the error is the request's answer: 413
// when n is more than p holds, 503 when the wait is over, 429 when the
// request's client (clientFrom) holds its share of p and none of its
// requests gave it back in time. release gives them back.
func (s *Server) acquire(ctx context.Context, p *pool, n int64) (release func(), e *Error) {
	release, _, e = s.acquireMore(ctx, p, n, 0)
	return release, e
}

// acquireMore is acquire for a request that holds had of its client's
// share of p already (a body weighed as it arrives): it takes at most the
// rest of the share, and says how much of it it took.
func (s *Server) acquireMore(ctx context.Context, p *pool, n, had int64) (release func(), shared int64, e *Error) {
	if n > p.capacity {
		return nil, 0, &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf(
			"this request needs about %s of memory, more than the server gives all requests at once (%s of --max-inflight-bytes); ask about fewer or shorter URLs, or fewer crawlers, in several requests",
			sizeString(n), sizeString(p.capacity))}
	}
	client, hasClient := clientFrom(ctx)
	var cs *clientShare
	sn := max(0, min(n, p.share-had))
	if hasClient && p.share < p.capacity && sn > 0 {
		cs = p.shareOf(client)
	}
	if cs == nil {
		sn = 0
	}
	gotShare := cs == nil || cs.sem.TryAcquire(sn)
	if gotShare && p.sem.TryAcquire(n) {
		return p.holding(n, client, cs, sn), sn, nil
	}
	wait := s.opts.RequestTimeout / 2
	if d, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(d)/2)
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	s.metrics.admissionWaits.Inc()
	p.waiting.Add(1)
	defer p.waiting.Add(-1)
	// The share first: a client past it waits for its own requests, and
	// stands in nobody's way in the pool's queue.
	if !gotShare {
		if err := cs.sem.Acquire(wctx, sn); err != nil {
			p.done(client, cs)
			s.metrics.admissionRefused.Inc()
			return nil, 0, &Error{Status: http.StatusTooManyRequests, Retry: 1 + int(wait/time.Second), Message: fmt.Sprintf(
				"busy: this client's requests in flight hold its share of the memory (%s, a quarter of the server's %s, --max-inflight-bytes) and none finished in %v; send fewer requests at once, or retry later",
				sizeString(p.share), sizeString(p.capacity), wait.Round(time.Millisecond))}
		}
	}
	if err := p.sem.Acquire(wctx, n); err != nil {
		if cs != nil {
			cs.sem.Release(sn)
			p.done(client, cs)
		}
		s.metrics.admissionRefused.Inc()
		return nil, 0, &Error{Status: http.StatusServiceUnavailable, Retry: 1 + int(wait/time.Second), Message: fmt.Sprintf(
			"busy: the requests in flight hold the memory this one needs (%s of %s, --max-inflight-bytes) and none finished in %v; retry later",
			sizeString(n), sizeString(p.capacity), wait.Round(time.Millisecond))}
	}
	return p.holding(n, client, cs, sn), sn, nil
}

// holding notes n bytes taken of p (sn of them of client's share cs, when
// cs is not nil), and returns their release.
func (p *pool) holding(n int64, client netip.Addr, cs *clientShare, sn int64) func() {
	p.held.Add(n)
	return func() {
		p.held.Add(-n)
		p.sem.Release(n)
		if cs != nil {
			cs.sem.Release(sn)
			p.done(client, cs)
		}
	}
}

// bodyWeight is what a request of n body bytes holds before its body is
// decoded (n < 0: unknown, up to MaxBodyBytes): the body, its strings
// unescaped and the decoder's copy, a file of it parsed, and a check's
// answer buffer.
func bodyWeight(n int64) int64 {
	if n < 0 || n > MaxBodyBytes {
		n = MaxBodyBytes
	}
	return 3*n + parseFactor*min(n, robotstxt.DefaultMaxBytes) + streamBuffer + requestOverhead
}

// bodyStep is how a body is weighed as it arrives: a step of this many
// bytes at a time.
const bodyStep = 64 << 10

// reserveBody holds the memory of r's body while r is answered, weighed
// as the body arrives: the first step (or the whole body, when its
// Content-Length says it is smaller) now, each further step when its
// first byte is read. The handler's reads of r.Body answer an error
// (bodyRefused) when a step cannot be had in time. release gives all of
// it back.
func (s *Server) reserveBody(r *http.Request) (release func(), e *Error) {
	first := int64(bodyStep)
	if r.ContentLength >= 0 {
		first = min(r.ContentLength, bodyStep)
	}
	rel, shared, e := s.acquireMore(r.Context(), s.admit.bodies, bodyWeight(first), 0)
	if e != nil {
		return nil, e
	}
	if first == r.ContentLength {
		// The whole body is weighed: net/http reads no more than its
		// Content-Length.
		return rel, nil
	}
	mb := &meteredBody{ReadCloser: r.Body, s: s, ctx: r.Context(), covered: first, shared: shared, releases: []func(){rel}}
	r.Body = mb
	return mb.release, nil
}

// meteredBody is a request body that takes the memory of each step of
// bytes as it arrives.
type meteredBody struct {
	io.ReadCloser
	s        *Server
	ctx      context.Context
	read     int64 // bytes read
	covered  int64 // bytes whose weight is held
	shared   int64 // of that weight, what the client's share holds
	releases []func()
	err      error
}

func (b *meteredBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if b.read > b.covered && b.covered < MaxBodyBytes {
		next := min(MaxBodyBytes, (b.read+bodyStep-1)/bodyStep*bodyStep)
		rel, shared, e := b.s.acquireMore(b.ctx, b.s.admit.bodies, bodyWeight(next)-bodyWeight(b.covered), b.shared)
		if e != nil {
			b.err = &bodyRefused{e}
			return n, b.err
		}
		b.shared += shared
		b.releases = append(b.releases, rel)
		b.covered = next
	}
	return n, err
}

func (b *meteredBody) release() {
	for _, r := range b.releases {
		r()
	}
	b.releases = nil
}

// bodyRefused is the error of a body read whose memory could not be had:
// e is the request's answer.
type bodyRefused struct{ e *Error }

func (b *bodyRefused) Error() string { return b.e.Message }

// readFailure is the answer to a request whose body could not be read:
// 413 past MaxBodyBytes, the answer of a body whose memory was refused,
// else 400.
func readFailure(err error, hint string) *Error {
	var (
		maxErr  *http.MaxBytesError
		refused *bodyRefused
	)
	switch {
	case errors.As(err, &maxErr):
		return &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("the body is larger than %d bytes (8 MiB)%s", MaxBodyBytes, hint)}
	case errors.As(err, &refused):
		return refused.e
	}
	return &Error{Status: http.StatusBadRequest, Message: "the body cannot be read: " + err.Error()}
}

// sizeString writes n bytes for a person: "512 KiB", "1.5 GiB".
func sizeString(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// cost is what a validated request asks for: its questions, the bytes of
// its answer (an estimate) and the memory it holds beyond its body's
// weight.
type cost struct {
	what      string // "check", "compare", ...
	urls      int
	subjects  int
	questions int64
	answer    int64
	memory    int64
}

// checkLimits answers 413 for a request that asks for more than the limits.
func (s *Server) checkLimits(c cost) *Error {
	if c.questions > int64(s.opts.MaxQuestions) {
		return &Error{Status: http.StatusRequestEntityTooLarge, Field: "urls", Message: fmt.Sprintf(
			"this %s asks %d questions (%d URLs x %d crawlers and agents%s), more than %d (--max-questions); ask about fewer URLs or crawlers, in several requests",
			c.what, c.questions, c.urls, c.subjects, readingsNote(c.what), s.opts.MaxQuestions)}
	}
	if c.answer > s.opts.MaxAnswerBytes {
		return &Error{Status: http.StatusRequestEntityTooLarge, Field: "urls", Message: fmt.Sprintf(
			"the answer to this %s would be about %s, more than %s (--max-answer-bytes); ask about fewer or shorter URLs, or fewer crawlers, in several requests",
			c.what, sizeString(c.answer), sizeString(s.opts.MaxAnswerBytes))}
	}
	return nil
}

func readingsNote(what string) string {
	switch what {
	case "compare":
		return " x 7 readings"
	case "diff":
		return " x 2 files"
	}
	return ""
}

// urlBytes is the length of the URLs together.
func urlBytes(urls []string) int64 {
	var n int64
	for _, u := range urls {
		n += int64(len(u))
	}
	return n
}

// subjectCount is how many rows crawlers and agents make; def when none
// is named.
func subjectCount(crawlers []robotstxt.Crawler, agents []string, def int) (n int, names int64) {
	for _, c := range crawlers {
		names += int64(len(c.Name))
	}
	for _, a := range agents {
		names += int64(len(a))
	}
	if n = len(crawlers) + len(agents); n == 0 {
		return def, 0
	}
	return n, names
}

func parseWeight(files ...[]byte) int64 {
	var n int64
	for _, f := range files {
		n += parseFactor * int64(min(len(f), robotstxt.DefaultMaxBytes))
	}
	return n
}

func liveCost(sub *Subject) int64 {
	if sub.Live != nil {
		return liveWeight
	}
	return 0
}

func checkCost(in *CheckInput) cost {
	s, names := subjectCount(in.Crawlers, in.Agents, 1)
	u := int64(len(in.URLs))
	// The URL twice (normalised, and as given when that differs), the
	// subject's name twice (who, crawler or agents).
	per := int64(checkResultBytes)
	if in.Usage {
		per += usageResultBytes
	}
	answer := int64(s)*(2*urlBytes(in.URLs)+u*per) + 2*u*names
	// Written as it comes: the buffer, not the answer, is held.
	c := cost{what: "check", urls: len(in.URLs), subjects: s, questions: u * int64(s), answer: answer, memory: liveCost(&in.Subject)}
	if in.Usage {
		c.memory += usageBuildCost(in) // usage.go
	}
	return c
}

func compareCost(in *CompareInput) cost {
	s, names := subjectCount(in.Crawlers, in.Agents, defaultCompareRow)
	u, ub := int64(len(in.URLs)), urlBytes(in.URLs)
	if u == 0 {
		u, ub = tester.MaxDerivedURLs, tester.MaxDerivedURLs*64
	}
	answer := int64(s)*(ub+u*compareCellBytes) + ub + names
	return cost{what: "compare", urls: int(u), subjects: s, questions: u * int64(s) * compareReadings, answer: answer,
		memory: liveCost(&in.Subject) + builtFactor*answer}
}

// MaxDerivedDiffRows is how many crawlers and agents a diff that derives
// its URLs from the rules may name. The tester bounds the questions of
// such a diff, not its answer: it lists a change for every row of a
// reading (the rows the same groups apply to) for every probe URL, and a
// few hundred rows of one reading made a 33 KB request an answer of
// hundreds of megabytes. A diff that gives its urls is bounded by
// MaxQuestions instead.
const MaxDerivedDiffRows = 16

// probesPerRule bounds the probe URLs a diff derives from one rule, in one
// reading (see tester.Diff).
const probesPerRule = 24

func (s *Server) diffCost(in *DiffInput) cost {
	rows, names := subjectCount(in.Crawlers, in.Agents, defaultDiffRows)
	c := cost{what: "diff", subjects: rows, memory: parseWeight(in.Old, in.New)}
	if in.URLs == nil {
		// Derived from the rules: at most tester.DiffQuestions probes,
		// and at most so many a rule; the worst case is every probe a
		// change for every row. Not refused on it (an edit changes few),
		// but held, at most all of the work's memory.
		old, new := s.parsed.source(oldName, in.Old), s.parsed.source(newName, in.New)
		n := ruleCount(old.Robots, robotstxt.Google) + ruleCount(new.Robots, robotstxt.Google)
		all := n + ruleCount(old.Robots, robotstxt.Original) + ruleCount(new.Robots, robotstxt.Original)
		probes := int64(min(tester.DiffQuestions(n), 1+probesPerRule*all))
		answer := int64(rows) * probes * (diffChangeBytes + 48)
		c.memory += min(builtFactor*answer, s.admit.work.capacity-c.memory)
		return c
	}
	u := int64(len(in.URLs))
	c.urls, c.questions = len(in.URLs), u*int64(rows)*2
	// At most every (URL, row) changes.
	c.answer = int64(rows)*(urlBytes(in.URLs)+u*diffChangeBytes) + u*names
	c.memory += builtFactor * c.answer
	return c
}

// ruleCount counts the allow and disallow rules of r as dialect d reads it.
func ruleCount(r *robotstxt.Robots, d robotstxt.Dialect) int {
	if r == nil {
		return 0
	}
	n := 0
	for _, g := range r.GroupsFor(d) {
		n += len(g.Rules)
	}
	return n
}

func lintCost(in *LintInput) cost {
	// At most a finding a line of what is read; a live file, not read
	// yet, is taken to be a usual one.
	robots := in.Robots[:min(len(in.Robots), robotstxt.DefaultMaxBytes)]
	answer := int64(bytes.Count(robots, []byte{'\n'})+1) * lintFindingBytes
	if in.Live != nil {
		answer = liveLintBytes
	}
	// Not refused on its estimate: a lint is bounded by the file it reads.
	return cost{what: "lint", memory: liveCost(&in.Subject) + builtFactor*answer}
}
