package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/seed53c283f5/robotstxt/clientip"
	"github.com/seed53c283f5/robotstxt/server"
	"golang.org/x/net/netutil"
)

const guardHelp = `Usage: robotstxt guard --upstream URL [--addr ADDR]
                       [--mode log|enforce] [--policy FILE] [--robots FILE]
                       [--decisions FILE] [--ip-ranges NAME=SRC]...
                       [--dns=false] [--decide-addr ADDR] [--metrics] [flags]
       robotstxt guard --decide-only --addr ADDR
                       (--upstream URL | --robots FILE) [flags]
       robotstxt guard --check-policy FILE
       robotstxt guard export -h    (the policy as another tool's rules)

Runs a reverse proxy in front of a site that makes the site's robots.txt
hold: each request that claims a known crawler is checked (who it is, what
the file lets it fetch, what its usage preferences allow) and answered by
the policy: passed, or refused with 403, 402, 429 or a slow tarpit. In mode
log (the default) nothing is refused: every decision is recorded. The rules
(/robots.txt, /.well-known/, the sitemaps) are always served.

GET /v1/decide answers the same decision for nginx auth_request, Caddy
forward_auth, Traefik ForwardAuth and Envoy ext_authz, from the forwarded
headers: 200 to pass, else the guard's answer (docs/guard.md has their
configurations). It is served on --decide-addr beside the proxy, or alone
on --addr with --decide-only.

  --upstream URL        the site's root: http://127.0.0.1:3000. Its
                        /robots.txt is the file enforced (unless --robots),
                        fetched by the HTTP rules of the cache, again every
                        --robots-every, each version kept in the store's
                        history
  --addr ADDR           where the proxy listens, HOST:PORT (default
                        127.0.0.1:8081)
  --mode MODE           log or enforce; default the policy's (log)
  --policy FILE         the policy (TOML, docs/guard.md), read again when it
                        changes; default the safe defaults
  --robots FILE         enforce this file instead of the upstream's, read
                        again when it changes
  --robots-every D      how often the upstream's robots.txt is fetched again,
                        conditionally (default 1m)
  --store STORE         the cache and history of the upstream's robots.txt:
                        memory (the default), a bbolt file or a redis:// URL
  --decisions FILE      append the decision log there, a JSON object a line
                        (robotstxt audit reads it); - is standard output
  --ip-ranges NAME=SRC  the crawler NAME's published address list, a JSON
                        file or URL, as audit takes it (repeatable); URLs are
                        fetched through the address guard (no private
                        addresses)
  --published           also the address lists every catalogue crawler's
                        operator publishes (verify's table), fetched in the
                        background through the address guard, at most daily
  --dns=false           no reverse DNS: only address lists and signatures
  --resolver ADDR       the DNS server of reverse DNS (host:port)
  --decide-addr ADDR    serve GET /v1/decide, /healthz and /metrics there
  --decide-only         serve only those, on --addr: no proxy
  --metrics             Prometheus metrics at /metrics of the decide address
  --trusted-proxy LIST  the peers whose X-Forwarded-For and X-Real-IP name
                        the client: addresses or CIDR prefixes, comma-
                        separated (default 127.0.0.0/8,::1/128; none trusts
                        nobody). Others' forwarded headers are ignored
  --max-conns N         connections open at once (default 2048; 0 no bound)
  --max-conns-per-client N
                        of them, from one client (its address, an IPv6 /64;
                        default 64; 0 no bound); a --trusted-proxy peer is
                        bound by --max-conns alone
  --check-policy FILE   explain the policy and exit: 0 valid, 1 errors found
                        (each names its line), 2 not read
  --upstream-timeout D  how long the upstream may take to answer a request's
                        header (default 60s)
  --max-body-bytes N    bytes of a request body (default 32MiB; 413 past it;
                        0 no bound). N takes K, M, G
  --max-header-bytes N  bytes of a request's header (default 64KiB; 431)
  --read-header-timeout D, --read-timeout D, --write-timeout D, --idle-timeout D
                        the server's timeouts (default 5s, 60s, 10m, 120s)
  --shutdown-timeout D  how long to wait for requests in flight (default 30s)
  --log-level LEVEL     debug, info, warn (default), error

Exit status: 0 after a clean shutdown (SIGINT, SIGTERM); 2 when the guard
could not run (bad usage, a policy or robots.txt that cannot be read, the
address in use). --check-policy: 0 valid, 1 errors, 2 not read. export: 0
compiled exactly, 1 with warnings (rules the target cannot express), 2 not
done.

Examples:
  robotstxt guard --upstream http://127.0.0.1:3000 --addr :8080 \
    --decisions /var/log/robotstxt/decisions.jsonl
  robotstxt guard --upstream http://127.0.0.1:3000 --addr :8080 \
    --mode enforce --policy guard.toml --decide-addr 127.0.0.1:9090 --metrics
  robotstxt guard --decide-only --addr 127.0.0.1:9090 --robots robots.txt
  robotstxt guard --check-policy guard.toml
`

// guardFlags are robotstxt guard's flags, read.
type guardFlags struct {
	upstream, addr, mode, policy, robots, storeSpec, decisions  string
	resolver, decideAddr, trusted, checkPolicy, logLevel        string
	maxBody, maxHeader                                          string
	ipRanges                                                    stringList
	dns, decideOnly, metrics, published                         bool
	robotsEvery, upstreamTimeout, readHeader, read, write, idle time.Duration
	shutdown                                                    time.Duration
	maxConns, maxConnsClient                                    int
}

func runGuard(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "export" {
		return runGuardExport(args[1:], stdout, stderr)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(guardGCPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return guardMain(ctx, args, stdout, stderr, nil)
}

// guardGCPercent is the garbage collector's GOGC in robotstxt guard,
// unless GOGC is set. A proxy allocates some 40 KB a request and keeps
// little, so with Go's default (100, and a 4 MB minimum) it collects
// about once every 50 requests, and the guard's ~1 MB of tables
// (the catalogue, the prepared readings) shortens each cycle by a third:
// measured, that cost the proxy a quarter of its throughput against a
// bare httputil.ReverseProxy. At 400 the heap stays under about 20 MB.
const guardGCPercent = 400

// guardMain is robotstxt guard until ctx ends (a signal, or a test).
// ready, when not nil, is told the addresses listened on.
func guardMain(ctx context.Context, args []string, stdout, stderr io.Writer, ready func(proxy, decide net.Addr)) int {
	fs := newFlagSet("guard")
	var f guardFlags
	fs.StringVar(&f.upstream, "upstream", "", "the site")
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8081", "where to listen")
	fs.StringVar(&f.mode, "mode", "", "log or enforce")
	fs.StringVar(&f.policy, "policy", "", "policy file")
	fs.StringVar(&f.robots, "robots", "", "robots.txt file")
	fs.DurationVar(&f.robotsEvery, "robots-every", time.Minute, "")
	fs.StringVar(&f.storeSpec, "store", "memory", "the store")
	fs.StringVar(&f.decisions, "decisions", "", "decision log")
	fs.Var(&f.ipRanges, "ip-ranges", "published address list")
	fs.BoolVar(&f.dns, "dns", true, "reverse DNS")
	fs.BoolVar(&f.published, "published", false, "operators' lists")
	fs.StringVar(&f.resolver, "resolver", "", "DNS server")
	fs.StringVar(&f.decideAddr, "decide-addr", "", "")
	fs.BoolVar(&f.decideOnly, "decide-only", false, "")
	fs.BoolVar(&f.metrics, "metrics", false, "")
	fs.StringVar(&f.trusted, "trusted-proxy", defaultTrustedProxies, "")
	fs.IntVar(&f.maxConns, "max-conns", server.DefaultMaxConns, "")
	fs.IntVar(&f.maxConnsClient, "max-conns-per-client", server.DefaultMaxConnsPerClient, "")
	fs.StringVar(&f.checkPolicy, "check-policy", "", "")
	fs.DurationVar(&f.upstreamTimeout, "upstream-timeout", 60*time.Second, "")
	fs.StringVar(&f.maxBody, "max-body-bytes", "32MiB", "")
	fs.StringVar(&f.maxHeader, "max-header-bytes", "64KiB", "")
	fs.DurationVar(&f.readHeader, "read-header-timeout", 5*time.Second, "")
	fs.DurationVar(&f.read, "read-timeout", 60*time.Second, "")
	fs.DurationVar(&f.write, "write-timeout", 10*time.Minute, "")
	fs.DurationVar(&f.idle, "idle-timeout", 120*time.Second, "")
	fs.DurationVar(&f.shutdown, "shutdown-timeout", 30*time.Second, "")
	fs.StringVar(&f.logLevel, "log-level", "warn", "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "guard", guardHelp, args, err)
	}
	fail := func(format string, a ...any) int {
		complain(stderr, "guard", format, a...)
		return 2
	}
	if len(pos) > 0 {
		return fail("unexpected argument %q (robotstxt guard -h for help)", pos[0])
	}
	if f.checkPolicy != "" {
		set := map[string]bool{}
		fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
		if len(set) > 1 {
			return fail("--check-policy takes no other flag")
		}
		return guardCheckPolicy(f.checkPolicy, stdout, stderr)
	}
	modeSet := false
	fs.Visit(func(fl *flag.Flag) { modeSet = modeSet || fl.Name == "mode" })
	if modeSet && f.mode != "log" && f.mode != "enforce" {
		return fail("--mode: want log or enforce, not %q", f.mode)
	}
	var up *url.URL
	if f.upstream != "" {
		if up, err = parseUpstream(f.upstream); err != nil {
			return fail("--upstream: %v", err)
		}
	}
	switch {
	case f.decideOnly && f.decideAddr != "":
		return fail("--decide-only serves the decisions on --addr: --decide-addr is for the proxy")
	case !f.decideOnly && up == nil:
		return fail("give --upstream URL, the site to guard (or --decide-only)")
	case f.decideOnly && up == nil && f.robots == "":
		return fail("--decide-only needs the robots.txt to enforce: --robots FILE or --upstream URL")
	case f.metrics && !f.decideOnly && f.decideAddr == "":
		return fail("--metrics is served beside /v1/decide: give --decide-addr ADDR")
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--robots-every", f.robotsEvery}, {"--upstream-timeout", f.upstreamTimeout}, {"--read-header-timeout", f.readHeader},
		{"--read-timeout", f.read}, {"--write-timeout", f.write}, {"--idle-timeout", f.idle}, {"--shutdown-timeout", f.shutdown}} {
		if d.v <= 0 {
			return fail("%s must be positive", d.name)
		}
	}
	maxBody, err := parseSize(f.maxBody)
	if err != nil {
		return fail("--max-body-bytes: want a size such as 32MiB (0: no bound), not %q", f.maxBody)
	}
	maxHeader, err := parseSize(f.maxHeader)
	if err != nil || maxHeader < 4<<10 || maxHeader > 1<<30 {
		return fail("--max-header-bytes: want a size from 4KiB to 1GiB, not %q", f.maxHeader)
	}
	trusted, err := clientip.Parse(f.trusted)
	if err != nil {
		return fail("--trusted-proxy: %v", err)
	}
	if f.maxConns < 0 || f.maxConnsClient < 0 {
		return fail("--max-conns and --max-conns-per-client: want 0 (no bound) or more")
	}
	if !f.dns && f.resolver != "" {
		return fail("--resolver applies only with DNS on")
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(f.logLevel)); err != nil {
		return fail("--log-level: want debug, info, warn or error, not %q", f.logLevel)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	// The watchers (files, the upstream's robots.txt, the policy) end
	// with ctx; stopWatchers is deferred after each resource they use,
	// so that it runs before that resource is closed.
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var stopOnce sync.Once
	stopWatchers := func() { stopOnce.Do(func() { cancel(); wg.Wait() }) }
	defer stopWatchers()

	// The robots.txt in force.
	var current func() *robotsNow
	if f.robots != "" {
		fr, err := newFileRobots(f.robots, logger)
		if err != nil {
			return fail("--robots: %v", err)
		}
		current = fr.current
		wg.Add(1)
		go func() { defer wg.Done(); fr.watch(ctx) }()
	} else {
		st, err := openStore(f.storeSpec, stderr)
		if err != nil {
			return fail("%v", err)
		}
		defer st.Close()
		defer stopWatchers()
		ur, err := newUpstreamRobots(ctx, up, st, f.robotsEvery, f.upstreamTimeout, logger)
		if err != nil {
			return fail("--upstream: %v", err)
		}
		current = ur.current
		wg.Add(1)
		go func() { defer wg.Done(); ur.watch(ctx) }()
	}

	mode := ""
	if modeSet {
		mode = f.mode
	}
	g, err := buildGuard(ctx, guardSetup{
		robots: current, policyFile: f.policy, mode: mode, decisions: f.decisions, out: stdout,
		metrics: f.metrics, ipRanges: f.ipRanges, published: f.published, dns: f.dns, resolver: f.resolver, log: logger,
	})
	if err != nil {
		return fail("%v", err)
	}
	defer g.close()
	defer stopWatchers()
	if f.policy != "" {
		wg.Add(1)
		go func() { defer wg.Done(); g.watchPolicy(ctx) }()
	}

	timeouts := serverTimeouts{readHeader: f.readHeader, read: f.read, write: f.write, idle: f.idle,
		maxHeader: int(maxHeader), shutdown: f.shutdown}
	control := controlHandler(decideHandler(g.middleware, trusted), g.metricsHandler)
	var servers []*guardServer
	if f.decideOnly {
		servers = append(servers, &guardServer{name: "--addr", addr: f.addr, handler: control})
	} else {
		proxy := newGuardProxy(up, trusted, maxBody, f.upstreamTimeout, logger)
		servers = append(servers, &guardServer{name: "--addr", addr: f.addr, handler: proxy.handler(g.middleware)})
		if f.decideAddr != "" {
			servers = append(servers, &guardServer{name: "--decide-addr", addr: f.decideAddr, handler: control})
		}
	}
	for _, s := range servers {
		if s.ln, err = net.Listen("tcp", s.addr); err != nil {
			for _, o := range servers {
				if o.ln != nil {
					o.ln.Close()
				}
			}
			return fail("%s: %v", s.name, err)
		}
		// A client holds at most --max-conns-per-client of the
		// --max-conns connections (a trusted proxy, --max-conns alone).
		if f.maxConns > 0 {
			s.ln = netutil.LimitListener(s.ln, f.maxConns)
		}
		s.ln = clientip.LimitPerClient(s.ln, clientip.ListenerOptions{PerClient: f.maxConnsClient, Trusted: trusted})
	}
	if f.decideOnly {
		fmt.Fprintf(stdout, "robotstxt: guard deciding at %sv1/decide (mode %s, Ctrl-C to stop)\n", pageURL(servers[0].ln.Addr()), g.modeName())
	} else {
		fmt.Fprintf(stdout, "robotstxt: guarding %s at %s (mode %s, Ctrl-C to stop)\n", up.Redacted(), pageURL(servers[0].ln.Addr()), g.modeName())
		if len(servers) > 1 {
			fmt.Fprintf(stdout, "robotstxt: decisions at %sv1/decide\n", pageURL(servers[1].ln.Addr()))
		}
	}
	if ready != nil {
		var d net.Addr
		if len(servers) > 1 {
			d = servers[1].ln.Addr()
		} else if f.decideOnly {
			d = servers[0].ln.Addr()
		}
		var p net.Addr
		if !f.decideOnly {
			p = servers[0].ln.Addr()
		}
		ready(p, d)
	}
	if err := serveAll(ctx, servers, timeouts); err != nil {
		return fail("%v", err)
	}
	return 0
}

// parseUpstream reads --upstream: the root of a site, http or https, with
// no path (the site's /robots.txt is the file enforced, so the guard
// fronts the whole origin).
func parseUpstream(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("want an http:// or https:// URL with a host, such as http://127.0.0.1:3000, not %q", s)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("%q: want a site's root, with no path, query, fragment or user name (its /robots.txt is the file enforced)", s)
	}
	return u, nil
}

// serverTimeouts are the limits of the guard's HTTP servers.
type serverTimeouts struct {
	readHeader, read, write, idle, shutdown time.Duration
	maxHeader                               int
}

// guardServer is one listener of the guard and what it serves.
type guardServer struct {
	name, addr string
	handler    http.Handler
	ln         net.Listener
}

// serveAll serves every server until ctx ends, then shuts them down,
// waiting up to t.shutdown for the requests in flight. A server that
// fails stops the others.
func serveAll(ctx context.Context, servers []*guardServer, t serverTimeouts) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(servers))
	var hs []*http.Server
	for _, s := range servers {
		h := &http.Server{
			Handler: s.handler, ReadHeaderTimeout: t.readHeader, ReadTimeout: t.read,
			WriteTimeout: t.write, IdleTimeout: t.idle, MaxHeaderBytes: t.maxHeader,
			ErrorLog: nil,
		}
		hs = append(hs, h)
		go func(s *guardServer) {
			if err := h.Serve(s.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errs <- fmt.Errorf("%s: %v", s.name, err)
				cancel()
				return
			}
			errs <- nil
		}(s)
	}
	<-ctx.Done()
	sctx, scancel := context.WithTimeout(context.Background(), t.shutdown)
	defer scancel()
	var first error
	for _, h := range hs {
		if err := h.Shutdown(sctx); err != nil && first == nil {
			first = err
			h.Close()
		}
	}
	for range servers {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first != nil && strings.Contains(first.Error(), "context deadline exceeded") {
		return nil // requests in flight cut at --shutdown-timeout: a shutdown still
	}
	return first
}
