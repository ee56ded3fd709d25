package server

import (
	"context"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// deadlineContext is a request's context with its deadline, whose timer
// is made only when something waits for the deadline (Done or Err): most
// answers (a check of an inline file) never do, and a timer per request
// costs the runtime a lock and a clock reading on every schedule. Until
// then it answers Value from its parent; once started, it is a
// context.WithDeadline of the parent in all but name, so that contexts
// derived from it are cancelled with it without a goroutine each. It
// carries the request's client (clientFrom), kept in place of a
// context.WithValue of its own.
type deadlineContext struct {
	parent   context.Context
	deadline time.Time
	client   netip.Addr
	once     sync.Once
	started  atomic.Bool
	ctx      context.Context // set by once: the real context
	cancel   context.CancelFunc
}

func newDeadlineContext(parent context.Context, timeout time.Duration) *deadlineContext {
	return &deadlineContext{parent: parent, deadline: time.Now().Add(timeout)}
}

// start makes the real context, with its timer, the first time.
func (c *deadlineContext) start() context.Context {
	c.once.Do(func() {
		c.ctx, c.cancel = context.WithDeadline(c.parent, c.deadline)
		c.started.Store(true)
	})
	return c.ctx
}

// stop ends the context, as the cancel of context.WithTimeout would: it is
// done and its Err is context.Canceled from then on (unless it ended
// before).
func (c *deadlineContext) stop() {
	c.once.Do(func() {
		c.ctx = stoppedContext{c.parent}
		c.started.Store(true)
	})
	if c.cancel != nil {
		c.cancel()
	}
}

// Deadline returns the earlier of the request's deadline and its parent's.
func (c *deadlineContext) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

func (c *deadlineContext) Done() <-chan struct{} { return c.start().Done() }
func (c *deadlineContext) Err() error            { return c.start().Err() }

func (c *deadlineContext) Value(key any) any {
	if _, ok := key.(clientCtxKey); ok {
		return &c.client
	}
	if c.started.Load() {
		return c.ctx.Value(key)
	}
	return c.parent.Value(key)
}

// stoppedContext is a request's context after its answer, when nothing
// waited for its deadline: done, canceled.
type stoppedContext struct{ context.Context }

var closedDone = func() chan struct{} { ch := make(chan struct{}); close(ch); return ch }()

func (stoppedContext) Done() <-chan struct{} { return closedDone }
func (stoppedContext) Err() error            { return context.Canceled }

// expired reports whether ctx is done, without making a timer when ctx is
// a request's deadlineContext that nothing waited on yet: a loop asks it
// often.
func expired(ctx context.Context) bool {
	if c, ok := ctx.(*deadlineContext); ok && !c.started.Load() {
		return c.parent.Err() != nil || !time.Now().Before(c.deadline)
	}
	return ctx.Err() != nil
}
