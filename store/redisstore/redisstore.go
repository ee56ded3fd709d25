// Package redisstore keeps the robots.txt cache in Redis, so that a fleet of
// crawler processes shares one cache and one set of leases: one process
// fetches an origin's robots.txt while the others wait for the result.
//
// It uses go-redis (github.com/redis/go-redis/v9), the client the Redis
// project maintains. Entries live under two key names per origin:
//
//	robotstxt:entry:https://example.com   the value, with its ttl (SET ... PX)
//	robotstxt:lease:https://example.com   the lease holder, with its ttl
//
// On a Redis Cluster (OpenCluster, or New with a ClusterClient) the key is a
// hash tag, "robotstxt:entry:{https://example.com}", so that an origin's
// entry and lease live in one slot.
//
// "robotstxt:" is the default prefix (Options.Prefix, or ?prefix= in the
// URL), so that several caches can share a server. Time to live is Redis's
// own (PX, in milliseconds, a ttl under a millisecond rounded up to one), so
// it is measured on the server's clock: every process of a fleet sees an
// entry expire at the same moment. A lease is taken with one Lua script
// (take it if nobody holds it or the caller does, with SET PX), and given up
// with another (delete it if the caller holds it), so no two owners ever hold
// one.
//
// Calls never hang on a server that has gone away: unless the URL says
// otherwise, a connection is given a second to open and each reply a second
// to arrive, with one retry on a fresh connection (a server that restarted
// has closed the old ones). Wrap the store in a store.Fallback (package
// storeopen does) to keep answering from memory while the server is down.
//
// go-redis writes some connection failures to its own logger, standard error
// by default; a program that wants it quiet calls redis.SetLogger (for
// example with logging.VoidLogger from go-redis's logging package). This
// package does not change that setting, which is the program's.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed53c283f5/robotstxt/store"
)

// DefaultPrefix starts the names of the keys the store writes.
const DefaultPrefix = "robotstxt:"

// Options tune Open and New. The zero value, or nil, takes the defaults.
type Options struct {
	// Prefix starts every key name the store writes (default
	// DefaultPrefix). A "prefix" parameter in the URL given to Open takes
	// precedence.
	Prefix string
	// DialTimeout, ReadTimeout and WriteTimeout bound each connection
	// attempt and each reply or request (default 1 s each). A value given
	// in the URL (dial_timeout=, read_timeout=, write_timeout=) takes
	// precedence. New ignores them: the client passed has its own.
	DialTimeout, ReadTimeout, WriteTimeout time.Duration
}

// Store is a store.Store, store.Leaser and store.Reporter kept in Redis. It
// is safe for concurrent use.
type Store struct {
	client    redis.UniversalClient
	ownClient bool
	prefix    string
	name      string
	hashTag   bool        // key names carry the key in {}: a cluster
	mapped    atomic.Bool // a call on the cluster has answered: the client knows its layout
	closed    atomic.Bool
}

var (
	_ store.Store    = (*Store)(nil)
	_ store.Leaser   = (*Store)(nil)
	_ store.Reporter = (*Store)(nil)
	_ store.Parted   = (*Store)(nil)
)

// Open returns a store on the Redis server rawURL names, in the forms
// go-redis reads: redis://[user:password@]host[:port][/db][?options],
// rediss:// for TLS, unix:///path/to/socket. One more option is read here:
// prefix, the start of every key name. Open does not connect; the first
// operation, or Ping, does. opts may be nil.
func Open(rawURL string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the URL, password included
		}
		return nil, fmt.Errorf("redisstore: invalid Redis URL: %v", err)
	}
	takePrefix(u, &o)
	ro, err := redis.ParseURL(u.String())
	if err != nil {
		return nil, fmt.Errorf("redisstore: invalid Redis URL %s: %v", u.Redacted(), err)
	}
	o.timeouts(&ro.DialTimeout, &ro.ReadTimeout, &ro.WriteTimeout, &ro.PoolTimeout)
	if ro.MaxRetries == 0 {
		ro.MaxRetries = 1
	}
	if ro.DialerRetries == 0 {
		ro.DialerRetries = 1
	}
	ro.ContextTimeoutEnabled = true // the caller's deadline bounds a call too
	s := New(redis.NewClient(ro), &o)
	s.ownClient = true
	return s, nil
}

// takePrefix moves the prefix option, which go-redis does not know, from
// u's query into o.
func takePrefix(u *url.URL, o *Options) {
	q := u.Query()
	if q.Has("prefix") {
		o.Prefix = q.Get("prefix")
		q.Del("prefix")
		u.RawQuery = q.Encode()
	}
}

// timeouts fills the timeouts a URL left unset: dial, read and write from
// o (or the defaults), the pool's a second past the read timeout.
func (o *Options) timeouts(dial, read, write, pool *time.Duration) {
	if *dial == 0 {
		*dial = orDefault(o.DialTimeout)
	}
	if *read == 0 {
		*read = orDefault(o.ReadTimeout)
	}
	if *write == 0 {
		*write = orDefault(o.WriteTimeout)
	}
	if *pool == 0 {
		*pool = *read + time.Second
	}
}

func orDefault(d time.Duration) time.Duration {
	if d == 0 {
		return time.Second
	}
	return d
}

// New returns a store on a client the caller made (a redis.Client, a
// ClusterClient, a Ring). Closing the store does not close the client. Only
// opts.Prefix is read. The client's own timeouts apply.
func New(client redis.UniversalClient, opts *Options) *Store {
	prefix := DefaultPrefix
	if opts != nil && opts.Prefix != "" {
		prefix = opts.Prefix
	}
	name := "redis"
	switch c := client.(type) {
	case *redis.Client:
		o := c.Options()
		name = "redis " + o.Addr
		if o.DB != 0 {
			name += fmt.Sprintf(" db %d", o.DB)
		}
	case *redis.ClusterClient:
		name = "redis cluster " + strings.Join(c.Options().Addrs, ",")
	}
	_, cluster := client.(*redis.ClusterClient)
	return &Store{client: client, prefix: prefix, name: name, hashTag: cluster}
}

// Health implements store.Reporter: Name is "redis" and the server's
// address ("redis 127.0.0.1:6379"). Degraded is never set: the store does not
// know it is down until a call fails, with an error; a store.Fallback
// around it reports that.
func (s *Store) Health() store.Health { return store.Health{Name: s.name} }

// Prefix returns the start of every key name the store writes.
func (s *Store) Prefix() string { return s.prefix }

// entryKey and leaseKey name a key's value and lease. On a cluster the key
// is a hash tag, so that both live in one slot.
func (s *Store) entryKey(key string) string { return s.prefix + "entry:" + s.tag(key) }
func (s *Store) leaseKey(key string) string { return s.prefix + "lease:" + s.tag(key) }

func (s *Store) tag(key string) string {
	if s.hashTag {
		return "{" + key + "}"
	}
	return key
}

func (s *Store) check(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := store.CheckKey(key); err != nil {
		return err
	}
	if s.closed.Load() {
		return store.ErrClosed
	}
	return nil
}

// Error is the error of a Redis command that failed: the server could not
// be reached, or answered with an error.
type Error struct {
	Op   string // the command: "GET", "SET", "DEL", "lease", "release", "PING"
	Key  string // the store's key, not the prefixed name; empty for PING
	Addr string // "redis 127.0.0.1:6379"
	Err  error
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("redisstore: %s on %s: %v", e.Op, e.Addr, e.Err)
	}
	return fmt.Sprintf("redisstore: %s %q on %s: %v", e.Op, e.Key, e.Addr, e.Err)
}

// Unwrap returns the client's error.
func (e *Error) Unwrap() error { return e.Err }

func (s *Store) fail(ctx context.Context, op, key string, err error) error {
	switch {
	case errors.Is(err, redis.ErrClosed) || s.closed.Load():
		return store.ErrClosed
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		return ctx.Err()
	}
	if what := refusal(err); what != "" {
		err = &refusedError{what: what, err: err}
	}
	return &Error{Op: op, Key: key, Addr: s.name, Err: err}
}

// refusal says how the server refused the client when err is such a
// reply: an authentication, a permission or a database error; "" for other
// errors.
func refusal(err error) string {
	var re redis.Error
	if !errors.As(err, &re) {
		return ""
	}
	msg := re.Error()
	switch {
	case strings.HasPrefix(msg, "NOAUTH"), strings.HasPrefix(msg, "WRONGPASS"),
		strings.HasPrefix(msg, "ERR invalid password"), strings.HasPrefix(msg, "ERR AUTH"),
		strings.HasPrefix(msg, "ERR Client sent AUTH"), strings.Contains(msg, "invalid username-password"):
		return "authentication failed"
	case strings.HasPrefix(msg, "NOPERM"):
		return "permission denied"
	case strings.Contains(msg, "DB index"), strings.Contains(msg, "invalid DB"), strings.Contains(msg, "SELECT is not allowed"):
		return "no such database"
	}
	return ""
}

// refusedError is a reply of the server refusing the client; it matches
// store.ErrRefused.
type refusedError struct {
	what string // "authentication failed", ...
	err  error
}

func (e *refusedError) Error() string        { return e.what + ": " + e.err.Error() }
func (e *refusedError) Unwrap() error        { return e.err }
func (e *refusedError) Is(target error) bool { return target == store.ErrRefused }

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := s.check(ctx, key); err != nil {
		return nil, false, err
	}
	v, err := s.client.Get(ctx, s.entryKey(key)).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		s.answered()
		return nil, false, nil
	case err != nil:
		return nil, false, s.fail(ctx, "GET", key, err)
	}
	s.answered()
	if v == nil {
		v = []byte{}
	}
	return v, true, nil
}

// px is ttl in whole milliseconds, rounded up.
func px(ttl time.Duration) time.Duration {
	return (ttl + time.Millisecond - 1) / time.Millisecond * time.Millisecond
}

// Put implements store.Store.
func (s *Store) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := s.check(ctx, key); err != nil {
		return err
	}
	var exp time.Duration // 0: no expiry
	if ttl > 0 {
		exp = px(min(ttl, 1<<62)) // far beyond any real ttl, short of overflowing
	}
	if err := s.client.Set(ctx, s.entryKey(key), value, exp).Err(); err != nil {
		return s.fail(ctx, "SET", key, err)
	}
	s.answered()
	return nil
}

// Delete implements store.Store.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := s.check(ctx, key); err != nil {
		return err
	}
	if err := s.client.Del(ctx, s.entryKey(key)).Err(); err != nil {
		return s.fail(ctx, "DEL", key, err)
	}
	s.answered()
	return nil
}

// leaseScript takes the lease KEYS[1] for owner ARGV[1] for ARGV[2]
// milliseconds, unless another owner holds it.
var leaseScript = redis.NewScript(`
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then
	return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`)

// releaseScript deletes the lease KEYS[1] if owner ARGV[1] holds it.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	redis.call('DEL', KEYS[1])
end
return 0
`)

// Lease implements store.Leaser.
func (s *Store) Lease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := s.check(ctx, key); err != nil {
		return false, err
	}
	if err := store.CheckLease(key, owner, ttl); err != nil {
		return false, err
	}
	ms := px(min(ttl, 1<<62)).Milliseconds()
	got, err := leaseScript.Run(ctx, s.client, []string{s.leaseKey(key)}, owner, ms).Int()
	if err != nil {
		return false, s.fail(ctx, "lease", key, err)
	}
	s.answered()
	return got == 1, nil
}

// Release implements store.Leaser.
func (s *Store) Release(ctx context.Context, key, owner string) error {
	if err := s.check(ctx, key); err != nil {
		return err
	}
	if err := store.CheckRelease(key, owner); err != nil {
		return err
	}
	if err := releaseScript.Run(ctx, s.client, []string{s.leaseKey(key)}, owner).Err(); err != nil {
		return s.fail(ctx, "release", key, err)
	}
	s.answered()
	return nil
}

// Ping asks the server whether it answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return store.ErrClosed
	}
	if err := s.client.Ping(ctx).Err(); err != nil {
		return s.fail(ctx, "PING", "", err)
	}
	s.answered()
	return nil
}

// Close implements store.Store. It closes the client when Open made it.
// Closing a closed store does nothing.
func (s *Store) Close() error {
	if s.closed.Swap(true) || !s.ownClient {
		return nil
	}
	if err := s.client.Close(); err != nil && !errors.Is(err, redis.ErrClosed) {
		return fmt.Errorf("redisstore: closing the client of %s: %w", s.name, err)
	}
	return nil
}

// Apply implements store.Batcher: every op in one MULTI/EXEC. On a
// cluster, whose keys live in slots of their own, a batch of more than one
// key fails with store.ErrNoBatch, nothing written.
func (s *Store) Apply(ctx context.Context, ops []store.Op) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return store.ErrClosed
	}
	if err := store.CheckOps(ops); err != nil {
		return err
	}
	if len(ops) == 0 {
		return nil
	}
	if s.hashTag && len(ops) > 1 {
		return fmt.Errorf("redisstore: %w (a cluster keeps each key in a slot of its own)", store.ErrNoBatch)
	}
	_, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, op := range ops {
			if op.Delete {
				p.Del(ctx, s.entryKey(op.Key))
				continue
			}
			var exp time.Duration
			if op.TTL > 0 {
				exp = px(min(op.TTL, 1<<62))
			}
			p.Set(ctx, s.entryKey(op.Key), op.Value, exp)
		}
		return nil
	})
	if err != nil {
		return s.fail(ctx, "MULTI/EXEC", ops[0].Key, err)
	}
	s.answered()
	return nil
}

// globEscape escapes the characters SCAN's MATCH pattern gives a meaning.
func globEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch c {
		case '*', '?', '[', ']', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Scan implements store.Batcher with SCAN ... MATCH (on each master of a
// cluster), then a GET of each key found.
func (s *Store) Scan(ctx context.Context, prefix string, limit int) ([]store.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.closed.Load() {
		return nil, store.ErrClosed
	}
	head := s.prefix + "entry:"
	if s.hashTag {
		head += "{"
	}
	pattern := globEscape(head+prefix) + "*"
	var names []string
	scan := func(ctx context.Context, c redis.UniversalClient) error {
		it := c.Scan(ctx, 0, pattern, 1000).Iterator()
		for it.Next(ctx) {
			names = append(names, it.Val())
		}
		return it.Err()
	}
	var err error
	if cc, ok := s.client.(*redis.ClusterClient); ok {
		var mu sync.Mutex
		err = cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
			var part []string
			it := c.Scan(ctx, 0, pattern, 1000).Iterator()
			for it.Next(ctx) {
				part = append(part, it.Val())
			}
			mu.Lock()
			names = append(names, part...)
			mu.Unlock()
			return it.Err()
		})
	} else {
		err = scan(ctx, s.client)
	}
	if err != nil {
		return nil, s.fail(ctx, "SCAN", prefix, err)
	}
	keys := make([]string, 0, len(names))
	for _, n := range names {
		key := strings.TrimPrefix(n, head)
		if s.hashTag {
			key = strings.TrimSuffix(key, "}")
		}
		keys = append(keys, key)
	}
	sort.Strings(keys)
	keys = slices.Compact(keys)
	var out []store.Entry
	for _, key := range keys {
		v, err := s.client.Get(ctx, s.entryKey(key)).Bytes()
		if errors.Is(err, redis.Nil) {
			continue // gone since the SCAN
		}
		if err != nil {
			return nil, s.fail(ctx, "GET", key, err)
		}
		out = append(out, store.Entry{Key: key, Value: append([]byte{}, v...)})
		if limit > 0 && len(out) >= limit {
			break
		}
	}
	s.answered()
	return out, nil
}
