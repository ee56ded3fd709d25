package server

import (
	"context"
	"errors"
	"testing"
	"time"
)

type ctxKey struct{}

// A request's lazy deadline behaves as context.WithTimeout's: its
// deadline, values, expiry, the contexts derived from it, its parent's
// cancellation, and its end.
func TestDeadlineContext(t *testing.T) {
	parent := context.WithValue(context.Background(), ctxKey{}, "v")
	c := newDeadlineContext(parent, 50*time.Millisecond)
	if d, ok := c.Deadline(); !ok || time.Until(d) > 50*time.Millisecond || time.Until(d) < 0 {
		t.Fatalf("deadline %v %v", d, ok)
	}
	if c.Value(ctxKey{}) != "v" || c.started.Load() {
		t.Fatal("a value is not the parent's, or asking for it started the timer")
	}
	child, cancelChild := context.WithCancel(c)
	defer cancelChild()
	select {
	case <-child.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the derived context did not end at the deadline")
	}
	if !errors.Is(c.Err(), context.DeadlineExceeded) || !errors.Is(child.Err(), context.DeadlineExceeded) {
		t.Fatalf("errors %v, %v", c.Err(), child.Err())
	}
	if c.Value(ctxKey{}) != "v" {
		t.Fatal("a value is lost once started")
	}
	c.stop()
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Fatalf("after stop, %v", c.Err())
	}

	// Never waited on: stop ends it as cancel does, without a timer.
	c = newDeadlineContext(parent, time.Hour)
	c.stop()
	if c.cancel != nil || !errors.Is(c.Err(), context.Canceled) || c.Value(ctxKey{}) != "v" {
		t.Fatalf("stopped unused: cancel %v, err %v", c.cancel != nil, c.Err())
	}
	select {
	case <-c.Done():
	default:
		t.Fatal("a stopped context is not done")
	}

	// The parent's cancellation ends it, and an earlier parent deadline wins.
	p, cancel := context.WithTimeout(context.Background(), time.Minute)
	c = newDeadlineContext(p, time.Hour)
	if d, _ := c.Deadline(); time.Until(d) > time.Minute {
		t.Fatalf("deadline %v later than the parent's", d)
	}
	done := c.Done()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the parent's cancellation did not reach it")
	}
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("err %v", c.Err())
	}
	c.stop()
}
