// This file gives robotstxt guard verify.Identifier: signatures, then the
// address lists (kept current), then reverse DNS in the background.

package main

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"

	"github.com/seed53c283f5/robotstxt/verify"
)

// identifierIdentity is verify.Identifier as the guard's identity check.
// Its lookups are bounded goroutines that end on their own.
type identifierIdentity struct{ *verify.Identifier }

func (identifierIdentity) close() {}

// newGuardIdentity reads --ip-ranges (files now; URLs through the address
// guard, fetched at the start and kept current by the Identifier) and the
// DNS flags. Web Bot Auth signatures are always checked, their key
// directories fetched through the address guard too. A list URL of
// --ip-ranges that cannot be had at the start is an error; with published,
// the operators' own lists are added, and one of them that cannot be had
// is a warning (the others still verify, and it is tried again later).
func newGuardIdentity(ctx context.Context, specs []string, published, dnsOn bool, resolver string, log *slog.Logger) (guardIdentityChecker, error) {
	v := verify.New(&verify.Options{NoDNS: !dnsOn, Resolver: resolver})
	var lists []verify.IdentifierList
	named := map[string]bool{} // the URLs --ip-ranges names
	for _, spec := range specs {
		targets, src, err := rangesTargets(spec)
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
			lists = append(lists, verify.IdentifierList{URL: src, Crawlers: targets})
			named[src] = true
			continue
		}
		r, err := verify.LoadRanges(ctx, src, nil, nil)
		if err != nil {
			return nil, errors.New(strings.TrimPrefix(err.Error(), "verify: "))
		}
		for _, t := range targets {
			v.AddRanges(t, r)
		}
	}
	var (
		mu       sync.Mutex
		starting = true
		failed   []string
	)
	id := verify.NewIdentifier(verify.IdentifierOptions{
		Verifier: v, Client: guardFetchClient, Lists: lists, Published: published,
		Warn: func(url, msg string) {
			mu.Lock()
			defer mu.Unlock()
			if starting && named[url] {
				failed = append(failed, url+": "+strings.TrimPrefix(msg, "verify: "))
				return
			}
			log.Warn("address list", "url", url, "problem", msg)
		},
	})
	id.Refresh(ctx)
	mu.Lock()
	starting = false
	errs := failed
	mu.Unlock()
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "; "))
	}
	return identifierIdentity{id}, nil
}
