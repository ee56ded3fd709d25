package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
)

// MaxVersions is how many versions of an origin's robots.txt the history
// keeps: the oldest goes when a new one comes.
const MaxVersions = 20

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
type history struct {
	store store.Store
	now   func() time.Time
	mu    sync.Mutex // one read-modify-write at a time in this process
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
	b, ok, err := h.store.Get(ctx, listKey(o))
	if err != nil || !ok {
		return nil, err
	}
	var vs []Version
	if err := json.Unmarshal(b, &vs); err != nil {
		// A damaged list is an empty history, not an outage.
		return nil, nil
	}
	return vs, nil
}

// record adds the answer of a live fetch when it differs from the newest
// version (in body, status class or policy).
func (h *history) record(ctx context.Context, a *cache.Answer, body []byte) error {
	v := Version{
		FetchedAt: rfc3339(a.FetchedAt), Status: a.Status, Policy: a.Policy.String(),
		Size: len(body), Hash: hashOf(body), Truncated: a.Truncated,
	}
	if v.FetchedAt == "" {
		v.FetchedAt = rfc3339(h.now())
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	vs, err := h.list(ctx, a.Origin)
	if err != nil {
		return err
	}
	if n := len(vs); n > 0 && vs[n-1].Hash == v.Hash && vs[n-1].Policy == v.Policy && vs[n-1].Status == v.Status {
		return nil
	}
	if err := h.store.Put(ctx, bodyKey(a.Origin, v.Hash), body, 0); err != nil {
		return err
	}
	vs = append(vs, v)
	var dropped []Version
	if len(vs) > MaxVersions {
		dropped = append(dropped, vs[:len(vs)-MaxVersions]...)
		vs = vs[len(vs)-MaxVersions:]
	}
	b, err := json.Marshal(vs)
	if err != nil {
		return err
	}
	if err := h.store.Put(ctx, listKey(a.Origin), b, 0); err != nil {
		return err
	}
	for _, d := range dropped {
		if !hasHash(vs, d.Hash) {
			if err := h.store.Delete(ctx, bodyKey(a.Origin, d.Hash)); err != nil {
				return fmt.Errorf("server: history: %w", err)
			}
		}
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

// rfc3339 formats t in UTC, or gives "" for the zero time.
func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
