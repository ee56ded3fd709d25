package store

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Fallback keeps a cache answering when its primary store cannot be reached
// (a Redis server down or unreachable): it sends every operation to the
// primary, and when the primary fails it answers from memory instead, says so
// through Health, and tries the primary again after an interval. When the
// primary answers again, it is used again and Health clears.
//
// While the primary works, Fallback keeps in memory a copy of what was
// recently read or written, bounded by FallbackOptions.Memory, so that an
// outage still finds the origins the process was busy with. The primary stays
// the authority: a value missing there is dropped from memory too.
//
// Writes made while the primary is away go to memory only, and are
// remembered. When the primary is back, such a key is written back to the
// primary (with what is left of its ttl) the first time a Get finds the
// primary without it; a key deleted during the outage is deleted from the
// primary the first time a Get finds it there. Keys nobody reads again after
// the outage stay in this process's memory only. A value the primary holds
// is never overwritten by one written here during the outage: another
// process may have written a fresher one.
//
// A primary made of parts that fail apart, such as the masters of a Redis
// Cluster, says which part holds a key (Parted). Fallback then keeps the
// state of each part apart: a part that fails sends its keys to memory, and
// only those, while the keys of the other parts stay on the primary; each
// failing part is tried again on its own. KeyDegraded says, for one key,
// what Health says for the store.
//
// Leases go to the primary when it implements Leaser and answers; otherwise
// Fallback grants them itself, for this process only (a fleet cut off from
// its shared store cannot agree on anything, and each process then fetches
// for itself).
//
// Fallback starts no goroutine: the primary is tried again by the first
// operation after the interval, while the others keep answering from memory.
// Errors that say the caller gave up (its context is done) or asked for
// something impossible (ErrInvalidKey, ErrInvalidTTL) are returned as they
// are and do not count as the primary failing; every other error from the
// primary does.
type Fallback struct {
	primary    Store
	parted     Parted // the primary, when it has parts; nil otherwise
	mem        *Memory
	leases     *leaseTable
	now        func() time.Time
	retryAfter time.Duration
	maxDirty   int

	mu      sync.Mutex
	closed  bool
	failing map[string]*failure // by part; "" is the primary as a whole
	dirty   map[string]dirtyKey
}

// Parted is implemented by a primary store made of parts that fail apart,
// such as the masters of a Redis Cluster, so that a Fallback around it
// sends to memory only the keys of a part that fails.
type Parted interface {
	// Part names the part of the store that holds key now, in a few words
	// for a message ("master 10.0.0.7:6379"), or returns "" when it
	// cannot tell: the store as a whole. It must answer at once, without
	// asking a server.
	Part(key string) string
}

// KeyReporter is implemented by stores whose keys can be degraded apart,
// as a Fallback's are on a primary with parts.
type KeyReporter interface {
	// KeyDegraded reports whether key is answered from a fallback now,
	// the store it belongs to failing.
	KeyDegraded(key string) bool
}

// failure is a part of the primary found failing.
type failure struct {
	since   time.Time // when it was first found failing
	last    time.Time // when it last failed
	lastErr error     // its last failure
	nextTry time.Time // when it may be tried again
}

// dirtyKey is a key written or deleted in memory while the primary was away.
type dirtyKey struct {
	deleted bool
	expires time.Time // zero: no limit
}

// FallbackOptions tune a Fallback. The zero value, or nil, takes the
// defaults.
type FallbackOptions struct {
	// Memory bounds the copies kept in memory (default: 10,000 entries,
	// 64 MiB). Its Now is ignored: the Fallback's Now is used.
	Memory *MemoryOptions
	// RetryAfter is how long, after the primary failed, operations answer
	// from memory without trying it (default 5 s).
	RetryAfter time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// NewFallback returns a store that uses primary while it answers and memory
// while it does not. Closing the Fallback closes primary.
func NewFallback(primary Store, opts *FallbackOptions) *Fallback {
	var o FallbackOptions
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RetryAfter <= 0 {
		o.RetryAfter = 5 * time.Second
	}
	mo := MemoryOptions{MaxEntries: 10_000, MaxBytes: 64 << 20}
	if o.Memory != nil {
		if o.Memory.MaxEntries > 0 {
			mo.MaxEntries = o.Memory.MaxEntries
		}
		if o.Memory.MaxBytes > 0 {
			mo.MaxBytes = o.Memory.MaxBytes
		}
	}
	mo.Now = o.Now
	parted, _ := primary.(Parted)
	return &Fallback{
		primary:    primary,
		parted:     parted,
		mem:        NewMemory(&mo),
		leases:     newLeaseTable(),
		now:        o.Now,
		retryAfter: o.RetryAfter,
		maxDirty:   mo.MaxEntries,
		failing:    map[string]*failure{},
		dirty:      map[string]dirtyKey{},
	}
}

// part names the part of the primary that holds key: "" for the whole.
func (f *Fallback) part(key string) string {
	if f.parted == nil {
		return ""
	}
	return f.parted.Part(key)
}

// usePrimary reports whether an operation on part should go to the
// primary: always while the part works; once an interval after it failed,
// for the one operation that tries it again.
func (f *Fallback) usePrimary(part string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	fl := f.failing[part]
	if fl == nil {
		return true
	}
	now := f.now()
	if now.Before(fl.nextTry) {
		return false
	}
	fl.nextTry = now.Add(f.retryAfter)
	return true
}

// settle records what the primary answered for part and reports whether
// that answer stands (true), or the operation is to be answered from memory
// (false). An answer clears the part's failure, and that of the primary as
// a whole, which has answered.
func (f *Fallback) settle(ctx context.Context, part string, err error) bool {
	if err == nil {
		f.mu.Lock()
		delete(f.failing, part)
		delete(f.failing, "")
		f.mu.Unlock()
		return true
	}
	if ctx.Err() != nil || errors.Is(err, ErrInvalidKey) || errors.Is(err, ErrInvalidTTL) {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	fl := f.failing[part]
	if fl == nil {
		fl = &failure{since: now, nextTry: now.Add(f.retryAfter)}
		f.failing[part] = fl
	}
	fl.last, fl.lastErr = now, err
	return false
}

// KeyDegraded implements KeyReporter: it reports whether the part of the
// primary that holds key is failing, so that key is answered from memory.
func (f *Fallback) KeyDegraded(key string) bool {
	part := f.part(key)
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failing[part] != nil
}

func (f *Fallback) check(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := CheckKey(key); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return ErrClosed
	}
	return nil
}

func (f *Fallback) markDirty(key string, d dirtyKey) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.dirty[key]; ok || len(f.dirty) < f.maxDirty {
		f.dirty[key] = d
	}
}

func (f *Fallback) takeDirty(key string) (dirtyKey, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, ok := f.dirty[key]
	if ok {
		delete(f.dirty, key)
	}
	return d, ok
}

func (f *Fallback) clearDirty(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.dirty, key)
}

// Get implements Store.
func (f *Fallback) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := f.check(ctx, key); err != nil {
		return nil, false, err
	}
	part := f.part(key)
	if f.usePrimary(part) {
		v, ok, err := f.primary.Get(ctx, key)
		if f.settle(ctx, part, err) {
			if err != nil {
				return nil, false, err
			}
			return f.reconcile(ctx, key, part, v, ok)
		}
	}
	return f.mem.Get(ctx, key)
}

// reconcile brings memory in line with what the primary answered for key,
// writing back to the primary what was written here while it was away.
func (f *Fallback) reconcile(ctx context.Context, key, part string, v []byte, ok bool) ([]byte, bool, error) {
	d, dirty := f.takeDirty(key)
	switch {
	case dirty && d.deleted && ok:
		// Deleted here while the primary was away.
		if err := f.primary.Delete(ctx, key); err != nil {
			f.markDirty(key, d)
			f.settle(ctx, part, err)
		}
		return nil, false, nil
	case dirty && !d.deleted && !ok:
		// Written here while the primary was away, and nobody wrote it
		// there since: write it back.
		mv, mok := f.mem.peek(key)
		if !mok {
			return nil, false, nil
		}
		var ttl time.Duration
		if !d.expires.IsZero() {
			ttl = d.expires.Sub(f.now())
			if ttl <= 0 {
				return nil, false, nil
			}
		}
		if err := f.primary.Put(ctx, key, mv, ttl); err != nil {
			f.markDirty(key, d)
			f.settle(ctx, part, err)
		}
		return mv, true, nil
	case ok:
		f.mem.mirror(key, v)
		return v, true, nil
	default:
		f.mem.forget(key)
		return nil, false, nil
	}
}

// Put implements Store.
func (f *Fallback) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := f.check(ctx, key); err != nil {
		return err
	}
	if part := f.part(key); f.usePrimary(part) {
		err := f.primary.Put(ctx, key, value, ttl)
		if f.settle(ctx, part, err) {
			if err == nil {
				f.clearDirty(key)
				_ = f.mem.Put(ctx, key, value, ttl)
			}
			return err
		}
	}
	d := dirtyKey{}
	if ttl > 0 {
		d.expires = f.now().Add(ttl)
	}
	if err := f.mem.Put(ctx, key, value, ttl); err != nil {
		return err
	}
	f.markDirty(key, d)
	return nil
}

// Delete implements Store.
func (f *Fallback) Delete(ctx context.Context, key string) error {
	if err := f.check(ctx, key); err != nil {
		return err
	}
	if part := f.part(key); f.usePrimary(part) {
		err := f.primary.Delete(ctx, key)
		if f.settle(ctx, part, err) {
			if err == nil {
				f.clearDirty(key)
				f.mem.forget(key)
			}
			return err
		}
	}
	if err := f.mem.Delete(ctx, key); err != nil {
		return err
	}
	f.markDirty(key, dirtyKey{deleted: true})
	return nil
}

// Lease implements Leaser: on the primary when it is a Leaser and answers,
// for this process alone otherwise.
func (f *Fallback) Lease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := f.check(ctx, key); err != nil {
		return false, err
	}
	if err := CheckLease(key, owner, ttl); err != nil {
		return false, err
	}
	if pl, ok := f.primary.(Leaser); ok {
		if part := f.part(key); f.usePrimary(part) {
			got, err := pl.Lease(ctx, key, owner, ttl)
			if f.settle(ctx, part, err) {
				return got, err
			}
		}
	}
	return f.leases.lease(f.now(), key, owner, ttl), nil
}

// Release implements Leaser. It gives up the lease on the primary and any
// lease taken in this process while the primary was away.
func (f *Fallback) Release(ctx context.Context, key, owner string) error {
	if err := f.check(ctx, key); err != nil {
		return err
	}
	if err := CheckRelease(key, owner); err != nil {
		return err
	}
	f.leases.release(key, owner)
	if pl, ok := f.primary.(Leaser); ok {
		if part := f.part(key); f.usePrimary(part) {
			err := pl.Release(ctx, key, owner)
			if f.settle(ctx, part, err) {
				return err
			}
		}
	}
	return nil
}

// Ping asks the primary whether it answers, when it can be asked (it has a
// method Ping(context.Context) error, as the Redis store has), and records
// the answer for the primary as a whole, as an operation on a key it cannot
// place in a part would: a failure makes the Fallback degraded, a success
// clears that. It returns the primary's error, or nil.
func (f *Fallback) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p, ok := f.primary.(interface{ Ping(context.Context) error })
	if !ok {
		return nil
	}
	err := p.Ping(ctx)
	f.settle(ctx, "", err)
	return err
}

// Close closes the primary and drops what memory holds. Operations after
// Close return ErrClosed.
func (f *Fallback) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	f.dirty = nil
	f.mu.Unlock()
	_ = f.mem.Close()
	return f.primary.Close()
}

// Health implements Reporter. Name is the primary's; when the primary is
// failing, Degraded is true and Message says how (unreachable, or refusing
// this client when the error matches ErrRefused), since when, its last
// error, and that answers come from memory. When only parts of the primary
// fail, Message names them first: "redis cluster ...: master 10.0.0.7:6379
// unreachable since 09:30:00: ...; answering its keys from memory".
func (f *Fallback) Health() Health {
	h := Health{Name: fmt.Sprintf("%T", f.primary)}
	if r, ok := f.primary.(Reporter); ok {
		h = r.Health()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.failing) == 0 {
		return h
	}
	h.Degraded = true
	now := f.now()
	if whole := f.failing[""]; whole != nil {
		h.Message = fmt.Sprintf("%s %s since %s: %v; answering from memory",
			h.Name, failState(whole.lastErr), clockTime(whole.since, now), whole.lastErr)
		return h
	}
	parts := make([]string, 0, len(f.failing))
	var since time.Time
	var latest *failure
	for p, fl := range f.failing {
		parts = append(parts, p)
		if since.IsZero() || fl.since.Before(since) {
			since = fl.since
		}
		if latest == nil || fl.last.After(latest.last) {
			latest = fl
		}
	}
	sort.Strings(parts)
	whose := "its"
	if len(parts) > 1 {
		whose = "their"
	}
	if len(parts) > 3 {
		parts = append(parts[:3], fmt.Sprintf("%d more", len(parts)-3))
	}
	h.Message = fmt.Sprintf("%s: %s %s since %s: %v; answering %s keys from memory",
		h.Name, strings.Join(parts, ", "), failState(latest.lastErr), clockTime(since, now), latest.lastErr, whose)
	return h
}

// failState says how a store that failed with err fails.
func failState(err error) string {
	if errors.Is(err, ErrRefused) {
		return "refuses this client"
	}
	return "unreachable"
}

// clockTime writes t as a time of day, with the date when it is not now's.
func clockTime(t, now time.Time) string {
	if y, m, d := t.Date(); now.Year() == y && now.Month() == m && now.Day() == d {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04:05")
}

// leaseTable holds leases for one process.
type leaseTable struct {
	mu        sync.Mutex
	m         map[string]heldLease
	swept     int // len(m) after the last sweep of expired leases
	sweepFrom int
}

type heldLease struct {
	owner   string
	expires time.Time
}

func newLeaseTable() *leaseTable {
	return &leaseTable{m: map[string]heldLease{}, sweepFrom: 1024}
}

func (l *leaseTable) lease(now time.Time, key, owner string, ttl time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h, ok := l.m[key]; ok && h.owner != owner && now.Before(h.expires) {
		return false
	}
	l.m[key] = heldLease{owner: owner, expires: now.Add(ttl)}
	if len(l.m) >= l.sweepFrom && len(l.m) >= 2*l.swept {
		for k, h := range l.m {
			if !now.Before(h.expires) {
				delete(l.m, k)
			}
		}
		l.swept = len(l.m)
	}
	return true
}

func (l *leaseTable) release(key, owner string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h, ok := l.m[key]; ok && h.owner == owner {
		delete(l.m, key)
	}
}

// Apply implements Batcher: on the primary when it is a Batcher and its
// part (all the keys' part) answers, in memory otherwise, as Put and
// Delete are. A primary that is no Batcher makes Apply fail with
// ErrNoBatch.
func (f *Fallback) Apply(ctx context.Context, ops []Op) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := CheckOps(ops); err != nil {
		return err
	}
	f.mu.Lock()
	closed := f.closed
	f.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if len(ops) == 0 {
		return nil
	}
	pb, ok := f.primary.(Batcher)
	if !ok {
		return ErrNoBatch
	}
	part := f.part(ops[0].Key)
	for _, op := range ops[1:] {
		if f.part(op.Key) != part {
			return fmt.Errorf("store: %w (on parts %q and %q)", ErrNoBatch, part, f.part(op.Key))
		}
	}
	if f.usePrimary(part) {
		err := pb.Apply(ctx, ops)
		if errors.Is(err, ErrNoBatch) {
			return err // a refusal of the batch, not a failure of the primary
		}
		if f.settle(ctx, part, err) {
			if err == nil {
				for _, op := range ops {
					f.clearDirty(op.Key)
				}
				_ = f.mem.Apply(ctx, ops)
			}
			return err
		}
	}
	if err := f.mem.Apply(ctx, ops); err != nil {
		return err
	}
	for _, op := range ops {
		d := dirtyKey{deleted: op.Delete}
		if !op.Delete && op.TTL > 0 {
			d.expires = f.now().Add(op.TTL)
		}
		f.markDirty(op.Key, d)
	}
	return nil
}

// Scan implements Batcher: the primary's keys when it is a Batcher and
// answers, memory's otherwise (what this process wrote or read lately).
func (f *Fallback) Scan(ctx context.Context, prefix string, limit int) ([]Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if pb, ok := f.primary.(Batcher); ok && f.usePrimary("") {
		out, err := pb.Scan(ctx, prefix, limit)
		if f.settle(ctx, "", err) {
			return out, err
		}
	}
	return f.mem.Scan(ctx, prefix, limit)
}
