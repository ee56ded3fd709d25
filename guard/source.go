package guard

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt"
)

// RobotsSource gives the robots.txt in force for a host and the version
// that names it ("sha256:..." or a history id). It is asked on every
// request that claims a crawler, so it answers from memory: a source that
// fetches keeps its copy current in the background (the cache package's
// way). It returns the same *Rules for the same version: the guard
// prepares each crawler's reading of a Rules once.
type RobotsSource interface {
	Robots(ctx context.Context, host string) (*Rules, error)
}

// Rules is a robots.txt in force: the parsed file, the version that names
// it, and when it was fetched.
type Rules struct {
	Robots  *robotstxt.Robots
	Version string
	Fetched time.Time
}

// NewRules parses body into Rules; version "" names it by its digest
// ("sha256:" and the first 16 hex digits).
func NewRules(body []byte, version string, fetched time.Time) *Rules {
	if version == "" {
		sum := sha256.Sum256(body)
		version = "sha256:" + hex.EncodeToString(sum[:8])
	}
	r := robotstxt.Parse(body)
	r.Compile()
	return &Rules{Robots: r, Version: version, Fetched: fetched}
}

// Static is a RobotsSource of one file for every host, which Set replaces
// at once (the next request reads the new file).
type Static struct {
	p atomic.Pointer[Rules]
}

// NewStatic returns a source of body for every host (version as NewRules
// takes it).
func NewStatic(body []byte, version string) *Static {
	s := &Static{}
	s.Set(body, version)
	return s
}

// Set makes body the file in force.
func (s *Static) Set(body []byte, version string) {
	s.p.Store(NewRules(body, version, time.Now()))
}

// SetRules makes r the rules in force.
func (s *Static) SetRules(r *Rules) { s.p.Store(r) }

// Robots returns the rules in force, whatever the host.
func (s *Static) Robots(context.Context, string) (*Rules, error) { return s.p.Load(), nil }

// SourceFunc is a function as a RobotsSource.
type SourceFunc func(ctx context.Context, host string) (*Rules, error)

// Robots calls f.
func (f SourceFunc) Robots(ctx context.Context, host string) (*Rules, error) { return f(ctx, host) }
