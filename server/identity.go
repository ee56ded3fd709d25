package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/verify"
)

// Identity configures the identity checks of POST /v1/audit: the
// address lists and reverse DNS, as robotstxt audit checks them. Without
// it the service's audit calls every claim unverified.
type Identity struct {
	// Lists are the published address lists: each a file (read once, at
	// New) or an http(s) URL (fetched through the SSRF guard, kept in the
	// store, fetched again at most daily, the last good copy kept on any
	// error).
	Lists []IdentityList
	// NoDNS turns reverse DNS off: only the lists verify.
	NoDNS bool
	// Resolver is the DNS server of reverse DNS ("host:port"; "" the
	// system's).
	Resolver string
	// Timeout bounds each DNS lookup (default DefaultIdentityTimeout);
	// Budget all the DNS work of one request (default
	// DefaultIdentityBudget, and never past the request's deadline): past
	// it, the addresses left are unverified.
	Timeout time.Duration
	Budget  time.Duration
}

// IdentityList is an address list and the catalogue crawlers it covers.
type IdentityList struct {
	Crawlers []string
	Source   string
}

// Defaults of Identity.
const (
	DefaultIdentityTimeout = 2 * time.Second
	DefaultIdentityBudget  = 10 * time.Second
	// identityConcurrency bounds one request's DNS lookups at once.
	identityConcurrency = 8
)

// identity is a server's identity checking: the lists read from files,
// and the fetcher of those at URLs.
type identity struct {
	o       Identity
	files   *verify.Verifier // the lists read from files
	fetcher *verify.ListFetcher
	log     func(msg string, args ...any)

	mu     sync.Mutex
	warned map[string]string // URL -> the last warning logged
}

// newIdentity reads o's files and prepares the fetches of its URLs
// through client.
func (s *Server) newIdentity(o *Identity) (*identity, error) {
	id := &identity{o: *o, files: verify.New(&verify.Options{NoDNS: true}), warned: map[string]string{}, log: s.log.Warn}
	if id.o.Timeout <= 0 {
		id.o.Timeout = DefaultIdentityTimeout
	}
	if id.o.Budget <= 0 {
		id.o.Budget = DefaultIdentityBudget
	}
	id.fetcher = verify.NewListFetcher(verify.ListOptions{
		Client: &http.Client{Transport: s.transport, Timeout: verify.DefaultListTimeout},
		Store:  s.store, Now: s.opts.Now,
	})
	for _, l := range id.o.Lists {
		if len(l.Crawlers) == 0 {
			return nil, fmt.Errorf("server: address list %s names no crawler", l.Source)
		}
		if isURL(l.Source) {
			continue
		}
		r, err := verify.LoadRanges(context.Background(), l.Source, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
		for _, c := range l.Crawlers {
			id.files.AddRanges(c, r)
		}
	}
	return id, nil
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// verifier returns the Verifier of one audit request: the lists (URLs
// fetched when their copy is not fresh), reverse DNS bounded by the
// budget and the request's deadline, answers shared through the store.
func (id *identity) verifier(ctx context.Context, st store.Store) *verify.Verifier {
	v := verify.New(&verify.Options{NoDNS: id.o.NoDNS, Resolver: id.o.Resolver, Timeout: id.o.Timeout, Concurrency: identityConcurrency, Store: st})
	v.ShareRanges(id.files)
	for _, l := range id.o.Lists {
		if !isURL(l.Source) {
			continue
		}
		res, err := id.fetcher.Get(ctx, l.Source)
		if err != nil {
			id.warn(l.Source, "an address list could not be had; its crawlers' claims are checked without it", err.Error())
			continue
		}
		if len(res.Warnings) > 0 {
			id.warn(l.Source, "an address list", strings.Join(res.Warnings, "; "))
		}
		for _, c := range l.Crawlers {
			v.AddRanges(c, res.Ranges)
		}
	}
	end := time.Now().Add(id.o.Budget)
	if d, ok := ctx.Deadline(); ok && d.Before(end) {
		end = d
	}
	v.SetDNSDeadline(end)
	return v
}

// warn logs a list's warning when it differs from the last one logged.
func (id *identity) warn(url, msg, detail string) {
	id.mu.Lock()
	same := id.warned[url] == detail
	id.warned[url] = detail
	id.mu.Unlock()
	if !same {
		id.log(msg, "url", url, "detail", detail)
	}
}
