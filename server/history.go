package server

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/utc"
	"github.com/seed53c283f5/robotstxt/store"
)

// MaxVersions is how many versions of an origin's robots.txt the history
// keeps: the oldest goes, with its body, when a new one comes. A body is
// at most what a fetch reads (fetch.DefaultMaxBytes, cut there), so an
// origin's history holds at most MaxVersions of them.
const MaxVersions = 20

// The defaults of Options.HistoryTTL and Options.HistoryOrigins.
const (
	// DefaultHistoryTTL is how long a version is kept after it was last
	// seen: the newest is seen again at each live fetch of its origin, an
	// older one was last seen when the next came. The store forgets the
	// keys past it (their time to live), and the list drops the versions.
	DefaultHistoryTTL = 30 * 24 * time.Hour
	// DefaultHistoryOrigins is how many origins a server records the
	// history of before it deletes the history of the origin it fetched
	// least recently.
	DefaultHistoryOrigins = 10_000
)

// Version is one version of an origin's robots.txt in the history: a live
// fetch whose answer differed from the version before it.
type Version struct {
	FetchedAt string `json:"fetched_at"`
	Status    int    `json:"status"`
	Policy    string `json:"policy"`
	Size      int    `json:"size"`
	Hash      string `json:"hash"` // SHA-256 of the body, hexadecimal
	Truncated bool   `json:"truncated"`
}

// HistoryAnswer is the answer of GET /v1/history: newest version first.
type HistoryAnswer struct {
	Origin   string    `json:"origin"`
	Versions []Version `json:"versions"`
}

// VersionAnswer is the answer of GET /v1/history/version.
type VersionAnswer struct {
	Origin string `json:"origin"`
	Version
	// Body is the robots.txt as fetched (bytes that are not UTF-8 read as
	// U+FFFD).
	Body string `json:"body"`
}

// history keeps the versions of each origin in the cache's store: under
// "history ORIGIN" the list (oldest first), under "history-body ORIGIN
// HASH" each body. Servers sharing a store share the history; two of them
// recording the same origin at the same moment may keep one version of
// the two.
//
// It is bounded three ways: MaxVersions an origin; ttl, each key's time to
// live in the store (refreshed when its version is seen again); and
// maxOrigins, the origins this process recorded, the least recently
// fetched forgotten, history and all, past it (the index is the
// process's: after a restart, or for the origins another server of a
// fleet recorded, the time to live does it). A nil *history records
// nothing.
type history struct {
	store      store.Store
	now        func() time.Time
	ttl        time.Duration
	maxOrigins int

	mu      sync.Mutex // one read-modify-write at a time in this process
	origins map[fetch.Origin]*list.Element
	order   list.List // of fetch.Origin, the most recently fetched first
}

func newHistory(st store.Store, now func() time.Time, ttl time.Duration, maxOrigins int) *history {
	if ttl < 0 {
		return nil
	}
	if ttl == 0 {
		ttl = DefaultHistoryTTL
	}
	if maxOrigins <= 0 {
		maxOrigins = DefaultHistoryOrigins
	}
	h := &history{store: st, now: now, ttl: ttl, maxOrigins: maxOrigins, origins: map[fetch.Origin]*list.Element{}}
	h.order.Init()
	return h
}

func listKey(o fetch.Origin) string              { return "history " + o.String() }
func bodyKey(o fetch.Origin, hash string) string { return "history-body " + o.String() + " " + hash }

func hashOf(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

func (h *history) list(ctx context.Context, o fetch.Origin) ([]Version, error) {
	if h == nil {
		return nil, nil
	}
	vs, _, err := h.load(ctx, o)
	return vs, err
}

// load returns the versions of o still kept, and those past their time.
func (h *history) load(ctx context.Context, o fetch.Origin) (kept, expired []Version, err error) {
	b, ok, err := h.store.Get(ctx, listKey(o))
	if err != nil || !ok {
		return nil, nil, err
	}
	var vs []Version
	if err := json.Unmarshal(b, &vs); err != nil {
		// A damaged list is an empty history, not an outage.
		return nil, nil, nil
	}
	// A version older than the newest was last seen when the next came.
	now := h.now()
	for i := 0; i+1 < len(vs); i++ {
		if next, err := time.Parse(time.RFC3339, vs[i+1].FetchedAt); err == nil && now.Sub(next) <= h.ttl {
			return vs[i:], vs[:i], nil
		}
	}
	return vs[len(vs)-1:], vs[:len(vs)-1], nil
}

// recordable reports whether a live fetch's answer is the site's file, for
// the history: the site answered it. A fetch this side refused (the
// address guard), or one that got no answer (a name that does not
// resolve, a connection refused, a timeout) says nothing about the site.
func recordable(a *cache.Answer) bool {
	return a.Source == cache.Network && a.Err == nil && a.Status != 0
}

// record adds the answer of a live fetch when it differs from the newest
// version (in body, status class or policy); when it does not, the newest
// version's keys live another ttl.
func (h *history) record(ctx context.Context, a *cache.Answer, body []byte) error {
	if h == nil || !recordable(a) {
		return nil
	}
	v := Version{
		FetchedAt: utc.RFC3339(a.FetchedAt), Status: a.Status, Policy: a.Policy.String(),
		Size: len(body), Hash: hashOf(body), Truncated: a.Truncated,
	}
	if v.FetchedAt == "" {
		v.FetchedAt = utc.RFC3339(h.now())
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	vs, dropped, err := h.load(ctx, a.Origin)
	if err != nil {
		return err
	}
	if n := len(vs); n == 0 || vs[n-1].Hash != v.Hash || vs[n-1].Policy != v.Policy || vs[n-1].Status != v.Status {
		vs = append(vs, v)
	} // else seen again: the newest version's keys live another ttl

	if len(vs) > MaxVersions {
		dropped = append(dropped, vs[:len(vs)-MaxVersions]...)
		vs = vs[len(vs)-MaxVersions:]
	}
	if err := h.store.Put(ctx, bodyKey(a.Origin, v.Hash), body, h.ttl); err != nil {
		return err
	}
	b, err := json.Marshal(vs)
	if err != nil {
		return err
	}
	if err := h.store.Put(ctx, listKey(a.Origin), b, h.ttl); err != nil {
		return err
	}
	for _, d := range dropped {
		if !hasHash(vs, d.Hash) {
			if err := h.store.Delete(ctx, bodyKey(a.Origin, d.Hash)); err != nil {
				return fmt.Errorf("server: history: %w", err)
			}
		}
	}
	return h.touch(ctx, a.Origin)
}

// touch makes o the origin fetched most recently, and forgets the history
// of the least recent past maxOrigins. h.mu is held.
func (h *history) touch(ctx context.Context, o fetch.Origin) error {
	if e, ok := h.origins[o]; ok {
		h.order.MoveToFront(e)
		return nil
	}
	h.origins[o] = h.order.PushFront(o)
	for h.order.Len() > h.maxOrigins {
		old := h.order.Remove(h.order.Back()).(fetch.Origin)
		delete(h.origins, old)
		if err := h.forget(ctx, old); err != nil {
			return err
		}
	}
	return nil
}

// forget deletes the history of o: its list and every body it names.
func (h *history) forget(ctx context.Context, o fetch.Origin) error {
	kept, expired, err := h.load(ctx, o)
	if err != nil {
		return fmt.Errorf("server: history: %w", err)
	}
	for _, v := range append(kept, expired...) {
		if err := h.store.Delete(ctx, bodyKey(o, v.Hash)); err != nil {
			return fmt.Errorf("server: history: %w", err)
		}
	}
	if err := h.store.Delete(ctx, listKey(o)); err != nil {
		return fmt.Errorf("server: history: %w", err)
	}
	return nil
}

func hasHash(vs []Version, hash string) bool {
	for _, v := range vs {
		if v.Hash == hash {
			return true
		}
	}
	return false
}

// version returns the newest version of o with hash, and its body.
func (h *history) version(ctx context.Context, o fetch.Origin, hash string) (Version, []byte, bool, error) {
	if h == nil {
		return Version{}, nil, false, nil
	}
	vs, err := h.list(ctx, o)
	if err != nil {
		return Version{}, nil, false, err
	}
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].Hash != hash {
			continue
		}
		body, ok, err := h.store.Get(ctx, bodyKey(o, hash))
		if err != nil || !ok {
			return Version{}, nil, false, err
		}
		return vs[i], body, true, nil
	}
	return Version{}, nil, false, nil
}

// History records the versions of origins' robots.txt in a store as the
// service does (GET /v1/history reads them): a process that fetches files
// through its own cache, such as robotstxt guard, keeps their history where
// a server on the same store shows it, each version named by its body's
// SHA-256 (VersionHash).
type History struct{ h *history }

// NewHistory returns the history kept in st, with the bounds of
// Options.HistoryTTL and Options.HistoryOrigins (0: their defaults).
func NewHistory(st store.Store, ttl time.Duration, maxOrigins int) *History {
	return &History{newHistory(st, time.Now, ttl, maxOrigins)}
}

// Record adds the answer of a live fetch when it is a new version, as the
// service records its own; an answer that is not the site's (refused, or
// no answer at all) is not recorded.
func (h *History) Record(ctx context.Context, a *cache.Answer) error {
	var body []byte
	if a.Policy == fetch.Rules && a.Robots != nil {
		body = []byte(a.Robots.Body())
	}
	return h.h.record(ctx, a, body)
}

// VersionHash is the name the history gives the version of a body: its
// SHA-256, in hexadecimal.
func VersionHash(body []byte) string { return hashOf(body) }
