// Package verify tells whether a request that claims to come from a known
// crawler does: from the operator's published address lists, and by
// forward-confirmed reverse DNS against the domains the crawler catalogue
// names (robotstxt.Crawler's IPRanges and ReverseDNS).
//
// A claim has one of three outcomes:
//
//   - Verified: the address is in the crawler's published ranges, or its
//     reverse DNS name ends in one of the crawler's domains
//     ("crawl-66-249-66-1.googlebot.com") and that name resolves back to
//     the address.
//   - Spoofed: neither, and a check said no: the crawler's ranges are
//     loaded and the address is outside them, or DNS answered and did not
//     confirm (no name, a name in another domain, or a name that does not
//     resolve back to the address).
//   - Unverified: no data either way: no ranges loaded for the crawler,
//     and no DNS answer (DNS off, the crawler has no domains, or the
//     lookups failed or timed out).
//
// A Verifier looks each address up once (its answers are cached for its
// life, and in a store across runs when one is given), runs at most
// Options.Concurrency lookups at once, and bounds each by a timeout.
package verify

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/webbotauth"
)

// Outcome is what a check of a claimed identity found: one type for every
// method, the signatures' (webbotauth) and the addresses'.
type Outcome = webbotauth.Outcome

// The outcomes.
const (
	Unverified = webbotauth.Unverified
	Verified   = webbotauth.Verified
	Spoofed    = webbotauth.Spoofed
)

// Result is the outcome of a check, with how it was reached.
type Result struct {
	Outcome Outcome
	// Method is what decided: "ip-ranges", "reverse-dns", or "" when
	// nothing did (Unverified).
	Method string
	// Name is the address's reverse DNS name, when DNS gave one.
	Name string
	// Reason says why, in words.
	Reason string
}

// Defaults of Options.
const (
	DefaultTimeout     = 3 * time.Second
	DefaultConcurrency = 16
	// DefaultCacheTTL is how long a DNS answer is kept in the store.
	DefaultCacheTTL = 24 * time.Hour
	// MaxCached bounds the answers a Verifier keeps in memory: past it,
	// the oldest half is forgotten (an address looked up again then costs
	// a second lookup).
	MaxCached = 1 << 20
	// maxNames bounds the reverse names of one address that are
	// forward-checked.
	maxNames = 4
)

// Options configures a Verifier. The zero value works: DNS on through
// the system's resolver.
type Options struct {
	// NoDNS turns reverse DNS off: only the address lists decide.
	NoDNS bool
	// Resolver is the DNS server, "host:port" (":53" is added to a bare
	// host); "" uses the system's.
	Resolver string
	// Timeout bounds each lookup (default DefaultTimeout).
	Timeout time.Duration
	// Concurrency bounds the lookups at once (default DefaultConcurrency).
	Concurrency int
	// Budget bounds the time the Verifier's DNS work may take, from its
	// first lookup (0: no bound): past it, lookups in flight are cut and
	// no address is looked up any more; their claims are unverified, and
	// Stats.Skipped counts the addresses not looked up. A silent resolver
	// otherwise costs Timeout per address (over Concurrency at once).
	Budget time.Duration
	// Store, when not nil, keeps DNS answers across runs (key "fcrdns
	// ADDR") for CacheTTL (default DefaultCacheTTL).
	Store    store.Store
	CacheTTL time.Duration
}

// Verifier checks claimed crawler identities. It is safe for concurrent
// use; it starts no goroutines of its own.
type Verifier struct {
	opts     Options
	resolver *net.Resolver
	sem      chan struct{}

	mu     sync.Mutex
	ranges map[string][]*Ranges // crawler name (lower case) -> lists
	cache  map[netip.Addr]*dnsEntry
	old    map[netip.Addr]*dnsEntry
	stats  Stats
	// end is when the DNS budget is spent, set at the first lookup
	// (zero: not started, or no budget).
	end time.Time
}

// Stats counts a Verifier's DNS work.
type Stats struct {
	Lookups   int64 `json:"lookups"`   // addresses looked up (PTR and forward)
	Cached    int64 `json:"cached"`    // answers taken from the store
	Failures  int64 `json:"failures"`  // lookups that gave no answer (timeouts, errors)
	Addresses int64 `json:"addresses"` // distinct addresses asked about
	// Skipped counts the addresses not looked up because the DNS budget
	// (Options.Budget) was spent: their claims are unverified.
	Skipped int64 `json:"skipped"`
}

// dnsEntry is one address's DNS answer; done closes when it is in.
type dnsEntry struct {
	done chan struct{}
	ans  dnsAnswer
}

// dnsAnswer is what DNS said of an address: its reverse names, each
// forward-confirmed or not. Definite is false when the lookups failed
// (no data).
type dnsAnswer struct {
	Names     []string `json:"names,omitempty"`
	Confirmed []bool   `json:"confirmed,omitempty"`
	Definite  bool     `json:"definite"`
}

// New returns a verifier with opts (nil: the defaults).
func New(opts *Options) *Verifier {
	v := &Verifier{ranges: map[string][]*Ranges{}, cache: map[netip.Addr]*dnsEntry{}}
	if opts != nil {
		v.opts = *opts
	}
	if v.opts.Timeout <= 0 {
		v.opts.Timeout = DefaultTimeout
	}
	if v.opts.Concurrency <= 0 {
		v.opts.Concurrency = DefaultConcurrency
	}
	if v.opts.CacheTTL <= 0 {
		v.opts.CacheTTL = DefaultCacheTTL
	}
	v.sem = make(chan struct{}, v.opts.Concurrency)
	v.resolver = net.DefaultResolver
	if addr := v.opts.Resolver; addr != "" {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			addr = net.JoinHostPort(strings.Trim(addr, "[]"), "53")
		}
		v.resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}}
	}
	return v
}

// AddRanges adds a published address list to the crawler name's (a
// catalogue name or token, any case). A crawler's ranges are the union
// of those added.
func (v *Verifier) AddRanges(crawler string, r *Ranges) {
	v.mu.Lock()
	defer v.mu.Unlock()
	k := strings.ToLower(crawler)
	v.ranges[k] = append(v.ranges[k], r)
}

// HasRanges reports whether address lists were added for the crawler.
func (v *Verifier) HasRanges(crawler string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.ranges[strings.ToLower(crawler)]) > 0
}

// NeedsDNS reports whether checking c at ip may look DNS up: DNS is on,
// c has domains, and ip is not in c's ranges. Callers use it to keep the
// checks that answer at once off their worker pools.
func (v *Verifier) NeedsDNS(ip netip.Addr, c *robotstxt.Crawler) bool {
	if v.opts.NoDNS || len(c.ReverseDNS) == 0 {
		return false
	}
	in, _ := v.inRanges(ip, c)
	return !in
}

func (v *Verifier) inRanges(ip netip.Addr, c *robotstxt.Crawler) (in, have bool) {
	var buf [64]byte
	v.mu.Lock()
	rs := v.ranges[string(lowerASCII(buf[:0], c.Name))]
	v.mu.Unlock()
	for _, r := range rs {
		if r.Contains(ip) {
			return true, true
		}
	}
	return false, len(rs) > 0
}

// Check tells whether a request from ip comes from crawler c. It may
// look DNS up (once per address for the Verifier's life: concurrent
// checks of one address wait for the one lookup).
func (v *Verifier) Check(ctx context.Context, ip netip.Addr, c *robotstxt.Crawler) Result {
	ip = ip.Unmap()
	in, have := v.inRanges(ip, c)
	if in {
		return inRangesResult(c)
	}
	var ans *dnsAnswer
	if !v.opts.NoDNS && len(c.ReverseDNS) > 0 {
		a := v.lookup(ctx, ip)
		ans = &a
	}
	return judge(ip, c, have, ans)
}

// inRangesResult is the result of an address in c's ranges.
func inRangesResult(c *robotstxt.Crawler) Result {
	return Result{Outcome: Verified, Method: MethodRanges, Reason: "in " + c.Name + "'s published address ranges"}
}

// judge decides a claim that the address lists did not verify: have says
// whether c has lists (so ip is outside them), ans is what DNS said of ip
// (nil: DNS not asked).
func judge(ip netip.Addr, c *robotstxt.Crawler, have bool, ans *dnsAnswer) Result {
	var res Result
	dnsNo := false
	if ans != nil {
		for i, n := range ans.Names {
			if inDomains(n, c.ReverseDNS) {
				if ans.Confirmed[i] {
					return Result{Outcome: Verified, Method: MethodDNS, Name: n, Reason: n + " resolves back to " + ip.String()}
				}
				res.Name = n
				res.Reason = n + " is in " + c.Name + "'s domain but does not resolve back to " + ip.String()
			}
		}
		if ans.Definite {
			dnsNo = true
			if res.Reason == "" {
				switch {
				case len(ans.Names) == 0:
					res.Reason = "no reverse DNS name"
				default:
					res.Name = ans.Names[0]
					res.Reason = "reverse DNS name " + ans.Names[0] + " is not in " + strings.Join(c.ReverseDNS, ", ")
				}
			}
		}
	}
	switch {
	case have:
		res.Outcome, res.Method = Spoofed, MethodRanges
		if res.Reason != "" {
			res.Reason = "outside the published ranges; " + res.Reason
		} else {
			res.Reason = "outside " + c.Name + "'s published address ranges"
		}
	case dnsNo:
		res.Outcome, res.Method = Spoofed, MethodDNS
	default:
		res = Result{Outcome: Unverified, Reason: "no address list and no DNS answer"}
	}
	return res
}

// lowerASCII appends s in lower case (ASCII) to buf: a map indexed by
// string(lowerASCII(...)) does not allocate.
func lowerASCII(buf []byte, s string) []byte {
	for i := range len(s) {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		buf = append(buf, b)
	}
	return buf
}

// inDomains reports whether name is one of domains or under one, in any
// case (without allocating: it runs on every cached answer).
func inDomains(name string, domains []string) bool {
	name = strings.TrimSuffix(name, ".")
	for _, d := range domains {
		d = strings.Trim(d, ".")
		switch {
		case d == "":
		case len(name) == len(d) && strings.EqualFold(name, d):
			return true
		case len(name) > len(d) && name[len(name)-len(d)-1] == '.' && strings.EqualFold(name[len(name)-len(d):], d):
			return true
		}
	}
	return false
}

// Stats returns the counts of DNS work so far.
func (v *Verifier) Stats() Stats {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.stats
}

// lookup returns ip's DNS answer: from memory, the store, or DNS.
func (v *Verifier) lookup(ctx context.Context, ip netip.Addr) dnsAnswer {
	v.mu.Lock()
	e, ok := v.cache[ip]
	if !ok {
		if e, ok = v.old[ip]; ok {
			v.cache[ip] = e
		}
	}
	if ok {
		v.mu.Unlock()
		select {
		case <-e.done:
			return e.ans
		case <-ctx.Done():
			return dnsAnswer{}
		}
	}
	if len(v.cache) >= MaxCached/2 {
		v.old, v.cache = v.cache, map[netip.Addr]*dnsEntry{}
	}
	e = &dnsEntry{done: make(chan struct{})}
	v.cache[ip] = e
	v.stats.Addresses++
	v.mu.Unlock()
	defer close(e.done)
	key := "fcrdns " + ip.String()
	if st := v.opts.Store; st != nil {
		if b, ok, err := st.Get(ctx, key); err == nil && ok && json.Unmarshal(b, &e.ans) == nil && len(e.ans.Names) == len(e.ans.Confirmed) {
			v.count(func(s *Stats) { s.Cached++ })
			return e.ans
		}
	}
	ctx, cancel, ok := v.budget(ctx)
	if !ok {
		v.count(func(s *Stats) { s.Skipped++ })
		return e.ans
	}
	defer cancel()
	select {
	case v.sem <- struct{}{}:
	case <-ctx.Done():
		v.count(func(s *Stats) { s.Skipped++ })
		return e.ans
	}
	e.ans = v.resolve(ctx, ip)
	<-v.sem
	if st := v.opts.Store; st != nil && e.ans.Definite {
		if b, err := json.Marshal(e.ans); err == nil {
			_ = st.Put(ctx, key, b, v.opts.CacheTTL)
		}
	}
	return e.ans
}

// budget returns ctx bounded by the end of the DNS budget (started now
// if it is the first lookup), or false when the budget is spent.
func (v *Verifier) budget(ctx context.Context) (context.Context, context.CancelFunc, bool) {
	if v.opts.Budget <= 0 {
		return ctx, func() {}, true
	}
	v.mu.Lock()
	if v.end.IsZero() {
		v.end = time.Now().Add(v.opts.Budget)
	}
	end := v.end
	v.mu.Unlock()
	if !time.Now().Before(end) {
		return ctx, nil, false
	}
	ctx, cancel := context.WithDeadline(ctx, end)
	return ctx, cancel, true
}

func (v *Verifier) count(f func(*Stats)) {
	v.mu.Lock()
	f(&v.stats)
	v.mu.Unlock()
}

// resolve does the lookups: PTR, then each name's addresses.
func (v *Verifier) resolve(ctx context.Context, ip netip.Addr) dnsAnswer {
	v.count(func(s *Stats) { s.Lookups++ })
	cctx, cancel := context.WithTimeout(ctx, v.opts.Timeout)
	names, err := v.resolver.LookupAddr(cctx, ip.String())
	cancel()
	if err != nil {
		var de *net.DNSError
		if errors.As(err, &de) && de.IsNotFound {
			return dnsAnswer{Definite: true}
		}
		v.count(func(s *Stats) { s.Failures++ })
		return dnsAnswer{}
	}
	if len(names) > maxNames {
		names = names[:maxNames]
	}
	ans := dnsAnswer{Definite: true}
	for _, n := range names {
		n = strings.TrimSuffix(n, ".")
		cctx, cancel := context.WithTimeout(ctx, v.opts.Timeout)
		addrs, err := v.resolver.LookupNetIP(cctx, "ip", n)
		cancel()
		if err != nil {
			var de *net.DNSError
			if !(errors.As(err, &de) && de.IsNotFound) {
				// No answer for this name: it may still confirm.
				v.count(func(s *Stats) { s.Failures++ })
				ans.Definite = false
			}
		}
		ok := false
		for _, a := range addrs {
			if a.Unmap() == ip {
				ok = true
				break
			}
		}
		ans.Names = append(ans.Names, n)
		ans.Confirmed = append(ans.Confirmed, ok)
	}
	return ans
}
