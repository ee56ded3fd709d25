//go:build !guardidentifier

package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/verify"
)

// guardIdentity checks the crawlers' claims for the guard without making
// a request wait on DNS: the address lists of --ip-ranges answer at once;
// a claim that needs reverse DNS is unverified until its lookup, started
// in the background (guardLookups at once, one per address and crawler),
// has answered, and later requests get the answer (kept guardIdentityTTL,
// guardIdentityMax answers at most).
//
// It stands in for verify.Identifier (signatures first, lists kept
// current) until that package is merged: guard_identity_identifier.go,
// built with the tag guardidentifier, uses it instead.
type guardIdentity struct {
	v   *verify.Verifier
	log *slog.Logger
	sem chan struct{}

	mu      sync.Mutex
	known   map[idKey]verify.Evidence
	pending map[idKey]bool
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

type idKey struct {
	ip      netip.Addr
	crawler string
}

// The bounds of guardIdentity.
const (
	guardLookups     = 16
	guardIdentityMax = 1 << 16
	guardIdentityTTL = time.Hour
)

// newGuardIdentity reads --ip-ranges (files, and URLs through the address
// guard) and the DNS flags. With no list and DNS off it returns nil:
// every claim is unverified.
func newGuardIdentity(ctx context.Context, specs []string, dnsOn bool, resolver string, log *slog.Logger) (guardIdentityChecker, error) {
	if len(specs) == 0 && !dnsOn {
		return nil, nil
	}
	v := verify.New(&verify.Options{NoDNS: !dnsOn, Resolver: resolver})
	for _, spec := range specs {
		targets, src, err := rangesTargets(spec)
		if err != nil {
			return nil, err
		}
		r, err := verify.LoadRanges(ctx, src, guardFetchClient, nil)
		if err != nil {
			return nil, errors.New(strings.TrimPrefix(err.Error(), "verify: "))
		}
		for _, t := range targets {
			v.AddRanges(t, r)
		}
	}
	lctx, cancel := context.WithCancel(context.Background())
	return &guardIdentity{v: v, log: log, sem: make(chan struct{}, guardLookups),
		known: map[idKey]verify.Evidence{}, pending: map[idKey]bool{}, ctx: lctx, cancel: cancel}, nil
}

// Identify answers at once: from the lists, from a lookup already made,
// or unverified while the lookup runs.
func (gi *guardIdentity) Identify(ctx context.Context, _ *http.Request, ip netip.Addr, c *robotstxt.Crawler) verify.Evidence {
	if !gi.v.NeedsDNS(ip, c) {
		return gi.v.Decide(ctx, ip, c)
	}
	k := idKey{ip, c.Name}
	now := time.Now()
	gi.mu.Lock()
	if e, ok := gi.known[k]; ok && now.Sub(e.Checked) < guardIdentityTTL {
		gi.mu.Unlock()
		return e
	}
	start := !gi.pending[k]
	if start {
		select {
		case gi.sem <- struct{}{}:
			gi.pending[k] = true
		default:
			start = false // guardLookups at once: a later request asks again
		}
	}
	gi.mu.Unlock()
	if start {
		gi.wg.Add(1)
		go gi.lookup(k, c)
	}
	return verify.Evidence{Crawler: c.Name, IP: ip.String(), Outcome: verify.Unverified.String(), Method: verify.MethodNone,
		Reason: "reverse DNS under way: unverified until it answers", Checked: now}
}

func (gi *guardIdentity) lookup(k idKey, c *robotstxt.Crawler) {
	defer gi.wg.Done()
	defer func() { <-gi.sem }()
	e := gi.v.Decide(gi.ctx, k.ip, c)
	gi.mu.Lock()
	defer gi.mu.Unlock()
	delete(gi.pending, k)
	if gi.ctx.Err() != nil {
		return
	}
	if len(gi.known) >= guardIdentityMax {
		gi.known = map[idKey]verify.Evidence{}
	}
	gi.known[k] = e
}

// close stops the lookups under way and waits for them.
func (gi *guardIdentity) close() {
	gi.cancel()
	gi.wg.Wait()
}
