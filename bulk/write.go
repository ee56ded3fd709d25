package bulk

import (
	"bufio"
	"context"
)

// bulkWriter writes the items' results and counts them in the summary: in
// input order (the default), or each as soon as it is ready (AnyOrder).
type bulkWriter struct {
	w        *bufio.Writer
	buf      []byte
	err      error
	tally    bulkTally
	subjects int64
}

// item appends the results of it, of batch b, and counts them.
func (bw *bulkWriter) item(b *bulkBatch, it *bulkItem) {
	bw.buf = append(bw.buf, it.bytes(b)...)
	it.own = nil
	bw.tally.add(&it.stats, bw.subjects)
	if len(bw.buf) >= 64<<10 && bw.err == nil {
		_, bw.err = bw.w.Write(bw.buf)
		bw.buf = bw.buf[:0]
	}
}

// flush writes what is buffered; it is called before the writer waits, so
// that a slow input or a slow origin never holds results back.
func (bw *bulkWriter) flush() {
	if bw.err != nil || len(bw.buf) == 0 && bw.w.Buffered() == 0 {
		return
	}
	if _, bw.err = bw.w.Write(bw.buf); bw.err == nil {
		bw.err = bw.w.Flush()
	}
	bw.buf = bw.buf[:0]
}

// release gives the batch's output buffer back, once the items the worker
// formatted are written.
func (bw *bulkWriter) release(b *bulkBatch) {
	if out := b.out; out != nil && cap(out) <= 1<<20 { // a batch of huge lines' buffer is not kept
		bulkBufs.Put(&out)
	}
	b.out = nil
}

// inOrder writes the batches' results in input order until order is
// closed, a write fails or ctx is done (interrupted). The writer waits for
// an item that is not ready, and wake says when one may be.
func (bw *bulkWriter) inOrder(ctx context.Context, order <-chan *bulkBatch, wake <-chan struct{}) (interrupted bool) {
	for bw.err == nil {
		var b *bulkBatch
		var ok bool
		select {
		case b, ok = <-order:
		default:
			bw.flush()
			select {
			case b, ok = <-order:
			case <-ctx.Done():
				return true
			}
		}
		if !ok {
			return false
		}
		select {
		case <-b.done:
		case <-ctx.Done():
			return true
		}
		for i := range b.items {
			it := &b.items[i]
			for !it.ready.Load() {
				bw.flush()
				select {
				case <-wake:
				case <-ctx.Done():
					// The answer may never come: stop before this line.
					return true
				}
			}
			bw.item(b, it)
			if bw.err != nil {
				return false
			}
		}
		bw.release(b)
		if ctx.Err() != nil {
			return true
		}
	}
	return false
}

// anyOrder writes each item's results as soon as they are ready: the items
// the workers formatted when their batch is through, the waiters when their
// origin's fetch has formatted them (q). At most maxOpen batches whose
// items are not all written are taken from order; past them the reader
// waits, so that the URLs in flight stay bounded.
func (bw *bulkWriter) anyOrder(ctx context.Context, order <-chan *bulkBatch, wake <-chan struct{}, q *anyQueue, maxOpen int) (interrupted bool) {
	open := 0 // batches taken, not all written
	var ready []bulkWaiter
	// wrote counts an item of b written, and closes b when it is the last.
	// b.taken is tested first: until the writer takes b from order, the
	// reader may still be appending to b.items (a waiter's origin can be
	// fetched before its batch is full), so len(b.items) is read only
	// after the channel handed b over.
	wrote := func(b *bulkBatch) {
		if b.written++; b.taken && b.written == len(b.items) {
			open--
		}
	}
	for bw.err == nil {
		if ctx.Err() != nil {
			return true
		}
		ready = q.take(ready)
		for _, w := range ready {
			bw.item(w.b, w.it)
			wrote(w.b)
		}
		if len(ready) > 0 {
			clear(ready)
			continue
		}
		if order == nil && open == 0 {
			return false
		}
		in := order
		if open >= maxOpen {
			in = nil
		}
		var b *bulkBatch
		var ok, got bool
		select {
		case b, ok = <-in:
			got = true
		default:
			bw.flush()
			select {
			case b, ok = <-in:
				got = true
			case <-wake:
			case <-ctx.Done():
				return true
			}
		}
		if !got {
			continue
		}
		if !ok {
			order = nil
			continue
		}
		select {
		case <-b.done:
		case <-ctx.Done():
			return true
		}
		b.taken = true
		open++
		if b.written == len(b.items) { // every item a waiter, all written already
			open--
		}
		for i := range b.items {
			if it := &b.items[i]; !it.waiting && it.ready.Load() {
				bw.item(b, it)
				wrote(b)
			}
		}
		bw.release(b)
	}
	return false
}
