// Package storeopen opens the robots.txt cache's store from one string, as a
// command-line flag or a configuration file gives it:
//
//	memory                         in memory, for this run only
//	/var/cache/robots.db           a bbolt file (created, with its directories)
//	""                             the default bbolt file, DefaultFile()
//	redis://host:6379/0            Redis, shared by a fleet; also rediss:// (TLS)
//	redis://host:6379/0?prefix=a:  and unix:///run/redis.sock; see redisstore
//	redis-cluster://h1:7000,h2:7001  a Redis Cluster (also rediss-cluster://)
//
// A value is a file path unless it looks like a kind or a URL mistyped, so
// that a slip never silently makes a cache file named "Memory" or
// "redis:" in the current directory. These are errors (ErrUnknownStore),
// which name the kinds and, where they can, what was meant:
//
//	Memory, MEMORY, " memory"       a kind's name in another case, or with spaces
//	memroy, mem, redis              two edits from a kind's name at most, or its start
//	redis:/host:6379, redis:host    a known scheme without "//" (memory: too)
//	http:/x, localhost:6379         another SCHEME: not ending in .db
//	127.0.0.1:6379, [::1]:6379      host:port with no scheme
//	http://x, memcached://x         a SCHEME:// that is not one of the above
//
// A value with a '/' and no scheme before it, or ending in ".db", is always
// a path: "./Memory", "sub/redis:x", "c:ache.db". So are words far from
// any kind ("cache") and Windows drives ("C:\cache": a scheme has two
// letters at least).
//
// The stores it opens keep working when what they need is missing, and say
// so through store.Reporter (use Health): a bbolt file another process holds
// gives a run on memory, with the message "cache file /x/cache.db is in use
// by another process; using memory for this run"; so does a default file
// that cannot be made or opened (no user cache directory, one that cannot
// be created or written): "cannot use the default cache file
// /x/robotstxt/cache.db: mkdir /x: not a directory; using memory for this
// run". A file the spec names that cannot be made or opened is an error. A
// Redis server that does not answer, now or later, gives answers from
// memory until it does (see store.Fallback); on a Redis Cluster, only the
// keys of the masters that do not answer do. A program shows
// Health().Message when Health().Degraded is true.
//
// A damaged cache file (cut short by a full disk, a page overwritten) never
// crashes the program: boltstore moves it aside, to cache.db.damaged-TIME,
// and starts a new cache; Notice says so in one line, which a program shows
// to its user. The default file is this program's own, so anything there
// that is not a cache is moved aside the same way; a file named by the user
// that is not a cache is refused and left as it is.
//
// This package imports bbolt and go-redis; package store, and a program that
// uses only its memory store, does not.
package storeopen

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
	"github.com/seed53c283f5/robotstxt/store/redisstore"
)

// Options tune Open. The zero value, or nil, takes the defaults.
type Options struct {
	// Now is the clock of the stores opened (default time.Now).
	Now func() time.Time
	// LockTimeout is how long Open waits for a bbolt file that another
	// process holds before running on memory instead (default 1 s).
	LockTimeout time.Duration
	// Memory bounds the memory store of "memory" and of a locked file.
	Memory *store.MemoryOptions
	// Fallback tunes the memory Redis falls back to, and how soon Redis
	// is tried again. Its Now is ignored: Options.Now is used.
	Fallback *store.FallbackOptions
	// Redis tunes the Redis store: key prefix, timeouts.
	Redis *redisstore.Options
	// NoSync skips bbolt's fsync after each write (see boltstore.Options).
	NoSync bool
}

// DefaultFile returns the name of the default cache file: robotstxt/cache.db
// in the user's cache directory (os.UserCacheDir: $XDG_CACHE_HOME or
// ~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on Windows).
func DefaultFile() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("storeopen: no user cache directory for the default cache file: %w", err)
	}
	return filepath.Join(dir, "robotstxt", "cache.db"), nil
}

// Open opens the store spec names (see the package documentation). The
// error is for a spec that names nothing usable: an unknown scheme or a
// value that looks like a mistyped kind or URL (matching ErrUnknownStore),
// a malformed Redis URL, a file named that cannot be created or is not a
// cache file. A file locked by another process, a default file that cannot
// be used (no user cache directory, or one that cannot be made or written),
// or a Redis server that does not answer are not errors: the store returned
// answers from memory and says why in its Health.
func Open(spec string, opts *Options) (store.Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	k, err := parseSpec(spec)
	switch {
	case err != nil:
		return nil, err
	case k == kindMemory:
		return store.NewMemory(memoryOptions(o)), nil
	case k == kindRedis, k == kindCluster:
		return openRedis(spec, k, o)
	}
	path := spec
	if k == kindDefault {
		var err error
		if path, err = DefaultFile(); err != nil {
			return degradedMemory(o, fmt.Sprintf("%v; using memory for this run", err)), nil
		}
	}
	s, err := boltstore.Open(path, &boltstore.Options{LockTimeout: o.LockTimeout, Now: o.Now, NoSync: o.NoSync,
		ReplaceUnreadable: k == kindDefault})
	if errors.Is(err, boltstore.ErrLocked) {
		var le *boltstore.LockedError
		if errors.As(err, &le) {
			path = le.Path
		}
		return degradedMemory(o, fmt.Sprintf("cache file %s is in use by another process; using memory for this run", path)), nil
	}
	if err != nil && k == kindDefault {
		// The default file is a convenience: without it the run goes on
		// in memory. The system's error says what is wrong, and where.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe
		}
		return degradedMemory(o, fmt.Sprintf("cannot use the default cache file %s: %v; using memory for this run", path, err)), nil
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

func openRedis(spec string, k kind, o Options) (store.Store, error) {
	open := redisstore.Open
	if k == kindCluster {
		open = redisstore.OpenCluster
	}
	rs, err := open(spec, o.Redis)
	if err != nil {
		return nil, err
	}
	var fo store.FallbackOptions
	if o.Fallback != nil {
		fo = *o.Fallback
	}
	fo.Now = o.Now
	f := store.NewFallback(rs, &fo)
	// Ask now, so that Health is right from the start; a failure is
	// recorded there, and the store answers from memory meanwhile.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = f.Ping(ctx)
	return f, nil
}

func memoryOptions(o Options) *store.MemoryOptions {
	var mo store.MemoryOptions
	if o.Memory != nil {
		mo = *o.Memory
	}
	mo.Now = o.Now
	return &mo
}

// memory is the memory store Open returns in place of a store it could not
// open: it says why in Health.
type memory struct {
	*store.Memory
	health store.Health
}

// Health implements store.Reporter: degraded, with the reason.
func (m *memory) Health() store.Health { return m.health }

func degradedMemory(o Options, message string) *memory {
	return &memory{
		Memory: store.NewMemory(memoryOptions(o)),
		health: store.Health{Name: "memory", Degraded: true, Message: message},
	}
}

// Notice returns, in one line, what Open did to the store's file that the
// user should know although the store works as asked: a damaged cache file
// moved aside and replaced by a new one. It is "" when there is nothing to
// tell.
func Notice(s store.Store) string {
	if b, ok := s.(*boltstore.Store); ok {
		if d := b.Damage(); d != nil {
			return d.String()
		}
	}
	return ""
}

// Health returns what s says about itself when it is a store.Reporter, and
// its Go type as its name otherwise.
func Health(s store.Store) store.Health {
	if r, ok := s.(store.Reporter); ok {
		return r.Health()
	}
	return store.Health{Name: fmt.Sprintf("%T", s)}
}
