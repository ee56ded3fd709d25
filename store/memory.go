package store

import (
	"bytes"
	"container/list"
	"context"
	"sort"
	"strings"
	"sync"
	"time"
)

// Memory is a bounded in-memory store: when it holds more than its limit of
// entries, or of bytes, it forgets the entries used least recently. The zero
// value is not usable; call NewMemory.
type Memory struct {
	mu         sync.Mutex
	maxEntries int
	maxBytes   int64
	bytes      int64
	now        func() time.Time
	items      map[string]*list.Element
	order      list.List // front: most recently used
	closed     bool
}

type memItem struct {
	key     string
	value   []byte
	expires time.Time // zero: never
}

// MemoryOptions bound a Memory store. Zero fields take the defaults.
type MemoryOptions struct {
	// MaxEntries is the most entries kept (default 100,000).
	MaxEntries int
	// MaxBytes is the most bytes of keys and values kept (default 256 MiB).
	MaxBytes int64
	// Now is the clock used for time to live (default time.Now).
	Now func() time.Time
}

// NewMemory returns an empty in-memory store bounded by opts (nil: defaults).
func NewMemory(opts *MemoryOptions) *Memory {
	m := &Memory{maxEntries: 100_000, maxBytes: 256 << 20, now: time.Now, items: map[string]*list.Element{}}
	if opts != nil {
		if opts.MaxEntries > 0 {
			m.maxEntries = opts.MaxEntries
		}
		if opts.MaxBytes > 0 {
			m.maxBytes = opts.MaxBytes
		}
		if opts.Now != nil {
			m.now = opts.Now
		}
	}
	m.order.Init()
	return m
}

func itemSize(it *memItem) int64 { return int64(len(it.key) + len(it.value) + 64) }

// Get implements Store.
func (m *Memory) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if err := CheckKey(key); err != nil {
		return nil, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, false, ErrClosed
	}
	e, ok := m.items[key]
	if !ok {
		return nil, false, nil
	}
	it := e.Value.(*memItem)
	if !it.expires.IsZero() && !m.now().Before(it.expires) {
		m.remove(e)
		return nil, false, nil
	}
	m.order.MoveToFront(e)
	return append([]byte(nil), it.value...), true, nil
}

// Put implements Store.
func (m *Memory) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := CheckKey(key); err != nil {
		return err
	}
	it := &memItem{key: key, value: append([]byte(nil), value...)}
	if ttl > 0 {
		it.expires = m.now().Add(ttl)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.insert(it)
	return nil
}

// insert stores it, replacing any item under its key, and evicts the least
// recently used items beyond the bounds. m.mu is held.
func (m *Memory) insert(it *memItem) {
	if e, ok := m.items[it.key]; ok {
		m.remove(e)
	}
	m.items[it.key] = m.order.PushFront(it)
	m.bytes += itemSize(it)
	for (len(m.items) > m.maxEntries || m.bytes > m.maxBytes) && m.order.Len() > 1 {
		m.remove(m.order.Back())
	}
}

// peek returns a copy of the live value under key.
func (m *Memory) peek(key string) ([]byte, bool) {
	v, ok, err := m.Get(context.Background(), key)
	return v, ok && err == nil
}

// mirror keeps a copy of v, another store's value for key. When memory holds
// the same bytes, unexpired, they stay with their ttl and only move to the
// front; otherwise v is copied in without a time limit.
func (m *Memory) mirror(key string, v []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	if e, ok := m.items[key]; ok {
		it := e.Value.(*memItem)
		if bytes.Equal(it.value, v) && (it.expires.IsZero() || m.now().Before(it.expires)) {
			m.order.MoveToFront(e)
			return
		}
	}
	m.insert(&memItem{key: key, value: append([]byte(nil), v...)})
}

// forget removes key, if memory holds it.
func (m *Memory) forget(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.items[key]; ok && !m.closed {
		m.remove(e)
	}
}

// Delete implements Store.
func (m *Memory) Delete(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := CheckKey(key); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	if e, ok := m.items[key]; ok {
		m.remove(e)
	}
	return nil
}

func (m *Memory) remove(e *list.Element) {
	it := m.order.Remove(e).(*memItem)
	delete(m.items, it.key)
	m.bytes -= itemSize(it)
}

// Len returns the number of entries held, expired ones included until they
// are next looked at.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.items)
}

// Close implements Store; it drops every entry.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.items = nil
	m.order.Init()
	m.bytes = 0
	return nil
}

// Health implements Reporter.
func (m *Memory) Health() Health { return Health{Name: "memory"} }

// Apply implements Batcher: every op under one lock.
func (m *Memory) Apply(ctx context.Context, ops []Op) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := CheckOps(ops); err != nil {
		return err
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	for _, op := range ops {
		if op.Delete {
			if e, ok := m.items[op.Key]; ok {
				m.remove(e)
			}
			continue
		}
		it := &memItem{key: op.Key, value: append([]byte(nil), op.Value...)}
		if op.TTL > 0 {
			it.expires = now.Add(op.TTL)
		}
		m.insert(it)
	}
	return nil
}

// Scan implements Batcher. It does not count as a use of the keys it
// finds.
func (m *Memory) Scan(ctx context.Context, prefix string, limit int) ([]Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []Entry
	for k, e := range m.items {
		it := e.Value.(*memItem)
		if !strings.HasPrefix(k, prefix) || (!it.expires.IsZero() && !now.Before(it.expires)) {
			continue
		}
		out = append(out, Entry{Key: k, Value: append([]byte(nil), it.value...)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
