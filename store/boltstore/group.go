package boltstore

import (
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// Group commit. Each bbolt transaction ends with an fsync, which costs
// far more than the write itself, and bbolt runs one writer at a time. So
// writes that arrive while a transaction commits wait, and the next
// transaction applies them all under one fsync. A lone writer commits at
// once: unlike bbolt's Batch there is no timer, so a single caller never
// waits for company. The leader that commits a batch gets its own result
// and hands the lead to the first write still waiting, so no caller keeps
// committing other callers' writes for long.

// groupWrite is one write waiting for a transaction.
type groupWrite struct {
	apply func(tx *bolt.Tx) error // must be idempotent: it may run twice
	done  chan groupResult        // capacity 1
}

type groupResult struct {
	err  error
	lead bool // the write's goroutine now commits the pending batch
}

// writeGroup gathers the writes waiting for a transaction.
type writeGroup struct {
	mu      sync.Mutex
	pending []*groupWrite
	busy    bool         // a leader is committing
	commits atomic.Int64 // transactions committed for batches, for tests
}

// update runs apply in a read-write transaction, together with the writes
// of other goroutines that arrive meanwhile, and returns its own error.
func (s *Store) update(apply func(tx *bolt.Tx) error) error {
	w := &groupWrite{apply: apply, done: make(chan groupResult, 1)}
	g := &s.group
	g.mu.Lock()
	g.pending = append(g.pending, w)
	if g.busy {
		g.mu.Unlock()
		r := <-w.done
		if !r.lead {
			return r.err
		}
		// Our write is still pending and it is ours to commit.
		g.mu.Lock()
	}
	g.busy = true
	batch := g.pending
	g.pending = nil
	g.mu.Unlock()

	s.commit(batch)

	g.mu.Lock()
	if len(g.pending) > 0 {
		g.pending[0].done <- groupResult{lead: true}
	} else {
		g.busy = false
	}
	g.mu.Unlock()
	return (<-w.done).err
}

// commit applies batch in one transaction and tells each write its result.
// When the transaction fails, each write is tried again alone, so that one
// bad write does not fail the others.
func (s *Store) commit(batch []*groupWrite) {
	s.group.commits.Add(1)
	err := s.updateAlone(func(tx *bolt.Tx) error {
		for _, w := range batch {
			if err := w.apply(tx); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil || len(batch) == 1 {
		for _, w := range batch {
			w.done <- groupResult{err: err}
		}
		return
	}
	for _, w := range batch {
		w.done <- groupResult{err: s.updateAlone(w.apply)}
	}
}
