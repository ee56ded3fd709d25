package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
)

// defaultSweepEvery is how often serve deletes the expired entries of a
// bbolt cache file, unless --sweep-every says otherwise.
const defaultSweepEvery = time.Hour

// sweeper is a store that deletes its expired entries when asked (a bbolt
// file, see boltstore.Store.Sweep). The other stores need no sweeping:
// Redis expires its keys itself, and the memory store is bounded in size.
type sweeper interface {
	Sweep(ctx context.Context) (int, error)
}

// startSweeper deletes the expired entries of st every interval, in the
// background, until ctx ends or the returned stop is called; stop returns
// once a sweep under way has stopped, so st can be closed after it. It
// does nothing (and stop nothing) when st cannot sweep or every is 0.
//
// A bbolt file deletes an expired entry only when a question reads it, so
// a service that meets many sites once (bulk checks over a crawl's
// origins) would otherwise keep every one of them on disk for good.
func startSweeper(ctx context.Context, st store.Store, every time.Duration, logger *slog.Logger) (stop func()) {
	sw, ok := st.(sweeper)
	if !ok || every <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			start := time.Now()
			n, err := sw.Sweep(ctx)
			took := time.Since(start).Round(time.Millisecond)
			switch {
			case err != nil && ctx.Err() != nil:
				return // stopping: the sweep was cut short on purpose
			case err != nil:
				logger.Warn("sweeping the cache failed; the next sweep tries again", "err", err, "deleted", n, "took", took)
			case n > 0:
				logger.Info("swept the cache", "deleted", n, "took", took)
			default:
				logger.Debug("swept the cache", "deleted", 0, "took", took)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
