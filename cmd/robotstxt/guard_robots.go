package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/guard"
	"github.com/seed53c283f5/robotstxt/server"
	"github.com/seed53c283f5/robotstxt/store"
)

// robotsNow is the robots.txt a guard enforces at this moment, the same
// for every host it fronts: the parsed file, the name of its version, and
// when it was read. A new version is a new value: the guard prepares each
// value's readings once.
type robotsNow = guard.Rules

// versionName names a body's version as the history does ("sha256:" and
// the hash GET /v1/history/version takes).
func versionName(body []byte) string { return "sha256:" + server.VersionHash(body) }

// maxRobotsFileBytes bounds what --robots FILE reads; the parser reads the
// first 500 KiB of it, as crawlers do.
const maxRobotsFileBytes = 1 << 20

// fileRobots is --robots FILE: read at the start, and read again when the
// file changes (its size, time or inode), checked every pollEvery. A file
// that cannot be read later keeps the last version in force, with a
// warning.
type fileRobots struct {
	path string
	log  *slog.Logger
	cur  atomic.Pointer[robotsNow]
	seen os.FileInfo
}

// guardPollEvery is how often --robots FILE and --policy FILE are checked
// for changes.
var guardPollEvery = time.Second

func newFileRobots(path string, log *slog.Logger) (*fileRobots, error) {
	f := &fileRobots{path: path, log: log}
	if _, err := f.reload(); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *fileRobots) current() *robotsNow { return f.cur.Load() }

// reload reads the file when it changed since the last read; changed says
// whether a new version is now in force.
func (f *fileRobots) reload() (changed bool, err error) {
	fh, err := os.Open(f.path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return false, err
	}
	if fi.IsDir() {
		return false, fmt.Errorf("%s is a directory", f.path)
	}
	if f.seen != nil && os.SameFile(fi, f.seen) && fi.Size() == f.seen.Size() && fi.ModTime().Equal(f.seen.ModTime()) {
		return false, nil
	}
	body, err := io.ReadAll(io.LimitReader(fh, maxRobotsFileBytes))
	if err != nil {
		return false, fmt.Errorf("%s: %v", f.path, err)
	}
	f.seen = fi
	v := versionName(body)
	if old := f.cur.Load(); old != nil && old.Version == v {
		return false, nil
	}
	r := robotstxt.Parse(body)
	r.Compile()
	f.cur.Store(&robotsNow{Robots: r, Version: v, Fetched: time.Now()})
	return true, nil
}

// watch checks the file every guardPollEvery until ctx ends.
func (f *fileRobots) watch(ctx context.Context) {
	t := time.NewTicker(guardPollEvery)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		changed, err := f.reload()
		switch {
		case err != nil && !failing:
			f.log.Warn("robots.txt file not read; the last version stays in force", "file", f.path, "err", err)
			failing = true
		case err == nil:
			failing = false
			if changed {
				f.log.Info("robots.txt file changed", "file", f.path, "version", f.current().Version)
			}
		}
	}
}

// upstreamRobots is the upstream's own /robots.txt, fetched through the
// cache package (the HTTP rules of docs/protocol.md: a failed refresh
// keeps the last good copy) and fetched again every `every`, conditionally.
// Each new version goes into the history (server.History) in the cache's
// store, so that the version a decision names can be read back. The
// upstream is the operator's own site, usually on loopback or a private
// network: its fetches do not go through the service's address guard.
type upstreamRobots struct {
	cache   *cache.Cache
	origin  fetch.Origin
	history *server.History
	every   time.Duration
	log     *slog.Logger
	cur     atomic.Pointer[robotsNow]
}

// newUpstreamRobots makes the source and fetches the file once; an
// upstream that cannot be reached now is not an error (the cache's answer
// says what that means, and the next refresh tries again).
func newUpstreamRobots(ctx context.Context, upstream *url.URL, st store.Store, every, timeout time.Duration, log *slog.Logger) (*upstreamRobots, error) {
	o, err := fetch.OriginOf(upstream.String())
	if err != nil {
		return nil, err
	}
	dialer := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	fetcher := &fetch.Fetcher{
		// No proxy from the environment and no address guard: the
		// upstream is where the operator said it is.
		Transport: &http.Transport{DialContext: dialer.DialContext, MaxIdleConns: 2, IdleConnTimeout: 90 * time.Second,
			TLSHandshakeTimeout: timeout, ResponseHeaderTimeout: timeout},
		Timeout: timeout,
	}
	minTTL := time.Minute
	if every < minTTL {
		minTTL = every
	}
	u := &upstreamRobots{
		cache: cache.New(&cache.Options{Store: st, Fetcher: fetcher, TTL: every, MinTTL: minTTL, MaxTTL: every,
			RetryMin: minTTL, KeyPrefix: "guard "}),
		origin: o, history: server.NewHistory(st, 0, 0), every: every, log: log,
	}
	u.refresh(ctx, false)
	return u, nil
}

func (u *upstreamRobots) current() *robotsNow { return u.cur.Load() }

// refresh asks the cache for the origin's answer (with force, a new fetch
// whatever it holds) and puts it in force.
func (u *upstreamRobots) refresh(ctx context.Context, force bool) {
	get := u.cache.GetOrigin
	if force {
		get = u.cache.RefreshOrigin
	}
	a, err := get(ctx, u.origin)
	if err != nil {
		if ctx.Err() == nil {
			u.log.Warn("upstream robots.txt not fetched", "origin", u.origin.String(), "err", err)
		}
		return
	}
	if a.Source == cache.Network && a.Err == nil && a.Status != 0 {
		if err := u.history.Record(ctx, a); err != nil {
			u.log.Warn("robots.txt history not recorded", "origin", u.origin.String(), "err", err)
		}
	}
	now := answerRobots(a)
	if old := u.cur.Load(); old != nil && old.Version == now.Version {
		return // the same rules: the guard keeps its prepared readings
	}
	u.log.Info("upstream robots.txt in force", "origin", u.origin.String(), "version", now.Version,
		"status", a.Status, "policy", a.Policy.String())
	now.Robots.Compile()
	u.cur.Store(now)
}

// watch refreshes the file every u.every until ctx ends.
func (u *upstreamRobots) watch(ctx context.Context) {
	t := time.NewTicker(u.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			u.refresh(ctx, true)
		}
	}
}

// answerRobots is a cache answer as the robots.txt in force. A file is
// itself, named by its hash. An answer with no file to obey (a 4xx: no
// robots.txt, everything allowed; a site unreachable with no copy:
// everything disallowed) is the file that says the same, named by what
// the fetch got, so that a decision shows why.
func answerRobots(a *cache.Answer) *robotsNow {
	switch {
	case a.Policy == fetch.Rules && a.Robots != nil:
		return &robotsNow{Robots: a.Robots, Version: versionName([]byte(a.Robots.Body())), Fetched: a.FetchedAt}
	case a.Policy == fetch.AllowAll:
		return &robotsNow{Robots: robotstxt.Parse(nil), Version: policyVersion(a), Fetched: a.FetchedAt}
	default:
		return &robotsNow{Robots: robotstxt.Parse(disallowAllBody), Version: policyVersion(a), Fetched: a.FetchedAt}
	}
}

var disallowAllBody = []byte("User-agent: *\nDisallow: /\n")

// policyVersion names an answer that is a policy, not a file:
// "allow-all (status 404)", "disallow-all (unreachable: ...)".
func policyVersion(a *cache.Answer) string {
	var b bytes.Buffer
	b.WriteString(a.Policy.String())
	if a.Status != 0 {
		fmt.Fprintf(&b, " (status %d)", a.Status)
	} else if a.Reason != "" {
		fmt.Fprintf(&b, " (%s)", a.Reason)
	}
	return b.String()
}
