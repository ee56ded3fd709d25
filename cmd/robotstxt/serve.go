package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/seed53c283f5/robotstxt/clientip"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/server"
	"github.com/seed53c283f5/robotstxt/watch"
	"golang.org/x/time/rate"
)

const serveHelp = `Usage: robotstxt serve [--addr 127.0.0.1:8080] [--store STORE]
                       [--token-file FILE] [--allow-private]
                       [--allowed-hosts LIST] [--rate N] [--burst N]
                       [--timeout 30s] [flags]

Runs the robotstxt service: the tester page at /, the JSON API under /v1/
(check, lint, compare, diff, fetch, history; described at /v1/openapi.json),
/healthz, /readyz and /metrics (Prometheus). Prints the page's address, logs
one line per request to stderr, and on SIGINT or SIGTERM stops accepting and
finishes the requests in flight.

  --addr HOST:PORT      where to listen (default 127.0.0.1:8080; :0 picks a
                        free port)
  --store STORE         the cache's store, shared with the history: memory,
                        a bbolt file path, or a redis:// URL (several servers
                        on one Redis share one cache); default
                        robotstxt/cache.db in the user's cache directory
  --token-file FILE     require "Authorization: Bearer TOKEN" on /v1/ (but
                        /v1/openapi.json) and /metrics, TOKEN being the file's
                        first line; ROBOTSTXT_TOKEN in the environment does
                        the same. /readyz says only ready or not without it.
                        Wrong tokens are limited per client (10, then one
                        every 6s; 429)
  --allowed-hosts LIST  Host header values accepted beside the server's own
                        address (and localhost, 127.0.0.1, [::1] on loopback):
                        comma-separated host names or addresses, any port, or
                        HOST:PORT; * accepts any Host. Others get 421, so that
                        a page on another site cannot reach the server through
                        a name it resolves here (DNS rebinding). Give the names
                        a reverse proxy forwards
  --allow-private       let live fetches (robots.txt, Web Bot Auth key
                        directories, address lists) reach loopback, private,
                        link-local, CGNAT, multicast and cloud-metadata
                        addresses (refused by default, whatever a name
                        resolves to or a redirect says)
  --trusted-proxy LIST  the load balancers or reverse proxies in front whose
                        X-Forwarded-For (read from the right past them) and
                        X-Real-IP name the client: comma-separated addresses
                        or CIDR prefixes. Every bound per client then counts
                        that client (an IPv6 /64 as one); the proxies' own
                        connections are not bound per client. Default none:
                        the peer is the client, the headers are not believed
  --rate N              requests a second per client address on /v1/
                        (default 50; 0 turns the limit off)
  --burst N             requests at once per client (default 100)
  --timeout D           deadline of every request (default 30s)
  --max-questions N     questions one request may ask: a URL for one crawler
                        in one reading; a check asks URLs x crawlers, a compare
                        x 7 readings, a diff x 2 files (default 100000; 413)
  --max-answer-bytes N  bytes of one answer (default 128MiB; 413, or a check's
                        answer cut and its connection closed). N takes K, M, G
                        (KiB, MiB, GiB)
  --max-inflight-bytes N
                        memory all requests in flight may hold, as estimated
                        (default 256MiB, at least 45MiB): a quarter for bodies,
                        the rest for answers. A request waits for it up to half
                        its deadline, then gets 503 with Retry-After
  --history-ttl D       how long the history keeps a version after it was last
                        seen (default 720h; 0 keeps no history)
  --history-origins N   origins whose history is kept; past it the origin
                        fetched least recently is forgotten (default 10000)
  --fetch-timeout D     time allowed for one live fetch (default 15s)
  -A UA                 the User-Agent of live fetches (default
                        robotstxt/VERSION (+URL))
  --read-header-timeout D, --read-timeout D, --write-timeout D, --idle-timeout D
                        the HTTP server's timeouts (default 5s, 30s, 60s, 120s)
  --shutdown-timeout D  how long to wait for requests in flight (default 30s)
  --max-conns N         connections open at once (default 2048; 0 no bound):
                        past it new ones wait to be accepted until one closes
                        (robotstxt_connections_open in /metrics)
  --max-conns-per-client N
                        of them, from one client address (an IPv6 /64 as
                        one; default 64; 0 no bound): past it a new one is
                        closed at once
  --stall-timeout D     how long a streamed answer (check, bulk) waits for its
                        client to read the next piece (default 10s)
  --outbound-per-client N, --outbound-rate N
                        fetches from sites one client may have at once and
                        start a second (default 8 and 20, bursts of 200; 0 no
                        bound). Live checks, bulk and watches (which count as
                        one client) all count; past a bound a fetch waits up
                        to 5s, then is answered "not fetched", nothing stored
  --outbound-bytes-rate N
                        bytes a second one client's fetches may pull (default
                        2MiB, bursts of 32MiB; 0 no bound)
  --outbound-per-domain N
                        fetches at once to one registrable domain, all its
                        subdomains together, whichever client asks (default 4,
                        10 a second; 0 no bound)
  --outbound-address-rate N
                        new connections a second to one IP address (default
                        20, bursts of 60; 0 no bound)
  --sweep-every D       how often to delete the expired entries of a bbolt
                        cache file, which otherwise go only when read again
                        (default 1h; 0 never; Redis and memory need none)
  --log-level LEVEL     debug, info (default: a line per request), warn, error
  --watch FILE          watches to keep from the start: a JSON array of
                        {"origin", "urls", "crawlers", "every", "webhook",
                        "secret"} as POST /v1/watches takes (docs/watch.md)
  --watch-min-interval D
                        how often an origin is fetched for its watches at
                        most (default 5m)
  --watch-key-file FILE the key that seals webhooks and their secrets in the
                        store (made 0600 when missing); ROBOTSTXT_WATCH_KEY
                        gives the key itself. Default: beside a bbolt file,
                        or robotstxt/watch.key in the user's config directory
                        for Redis (a fleet needs one key)
  --watch-admin-token-file FILE
                        a token that reads, lists and deletes every watch in
                        X-Robotstxt-Admin (first line of FILE;
                        ROBOTSTXT_WATCH_ADMIN_TOKEN does the same); without
                        it only a watch's owner does
  --ip-ranges NAME=SRC  the crawler NAME's published address list, a JSON
                        file or URL, as audit takes it (repeatable): POST
                        /v1/audit verifies claims with it. URLs are fetched
                        through the guard (so a private address needs
                        --allow-private), kept in the store, fetched again
                        at most daily, the last good copy kept on errors.
                        POST /v1/verify uses them too
  --dns=false           no reverse DNS in POST /v1/audit and /v1/verify:
                        only the lists
  --resolver ADDR       the DNS server of reverse DNS (host:port), default
                        the system's
  --dns-budget D        the time reverse DNS may take in all per audit
                        request (default 10s, within the request's
                        deadline); past it the claims left are unverified
  --guard-decisions FILE
                        the decision log robotstxt guard --decisions writes:
                        GET /v1/guard and the page's Guard section show its
                        end (counts by crawler, outcome and action; the last
                        decisions)

Exit status: 0 after a clean shutdown; 2 when the service could not run
(bad usage, a store that cannot be opened, the address in use, serving
failed). serve flags nothing, so it never exits 1.

Examples:
  robotstxt serve
  robotstxt serve --addr :8080 --store redis://localhost:6379/0 \
    --token-file /etc/robotstxt/token
  curl -s 'http://127.0.0.1:8080/v1/fetch?url=example.com'
`

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, stdout, stderr)
}

// serve is robotstxt serve until ctx ends (a signal, or a test).
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve")
	addr := fs.String("addr", "127.0.0.1:8080", "where to listen")
	storeSpec := fs.String("store", defaultStoreSpec, "the cache's store")
	tokenFile := fs.String("token-file", "", "bearer token file")
	allowPrivate := fs.Bool("allow-private", false, "allow private addresses")
	perSecond := fs.Float64("rate", server.DefaultRate, "requests a second per client")
	burst := fs.Int("burst", server.DefaultBurst, "requests at once per client")
	timeout := fs.Duration("timeout", server.DefaultRequestTimeout, "request deadline")
	allowedHosts := fs.String("allowed-hosts", "", "Host values accepted")
	maxQuestions := fs.Int("max-questions", server.DefaultMaxQuestions, "questions a request")
	maxAnswer := fs.String("max-answer-bytes", "128MiB", "bytes of an answer")
	maxInFlight := fs.String("max-inflight-bytes", "256MiB", "memory of the requests in flight")
	historyTTL := fs.Duration("history-ttl", server.DefaultHistoryTTL, "history time to live")
	historyOrigins := fs.Int("history-origins", server.DefaultHistoryOrigins, "origins with a history")
	fetchTimeout := fs.Duration("fetch-timeout", fetch.DefaultTimeout, "live fetch timeout")
	ua := fs.String("A", "", "User-Agent header")
	readHeader := fs.Duration("read-header-timeout", server.DefaultReadHeaderTimeout, "")
	read := fs.Duration("read-timeout", server.DefaultReadTimeout, "")
	write := fs.Duration("write-timeout", server.DefaultWriteTimeout, "")
	idle := fs.Duration("idle-timeout", server.DefaultIdleTimeout, "")
	shutdown := fs.Duration("shutdown-timeout", server.DefaultShutdownTimeout, "")
	maxConns := fs.Int("max-conns", server.DefaultMaxConns, "connections open at once")
	maxConnsClient := fs.Int("max-conns-per-client", server.DefaultMaxConnsPerClient, "connections of one client")
	stall := fs.Duration("stall-timeout", server.DefaultStallTimeout, "")
	obPerClient := fs.Int("outbound-per-client", server.DefaultOutboundPerClient, "")
	obRate := fs.Float64("outbound-rate", server.DefaultOutboundClientRate, "")
	obBytes := fs.String("outbound-bytes-rate", "2MiB", "")
	obPerDomain := fs.Int("outbound-per-domain", server.DefaultOutboundPerDomain, "")
	obAddrRate := fs.Float64("outbound-address-rate", server.DefaultOutboundAddressRate, "")
	sweepEvery := fs.Duration("sweep-every", defaultSweepEvery, "")
	logLevel := fs.String("log-level", "info", "log level")
	watchFile := fs.String("watch", "", "watches file")
	watchMin := fs.Duration("watch-min-interval", watch.DefaultMinInterval, "")
	watchKeyFile := fs.String("watch-key-file", "", "")
	watchAdminFile := fs.String("watch-admin-token-file", "", "")
	var ipRanges stringList
	fs.Var(&ipRanges, "ip-ranges", "published address list")
	dnsOn := fs.Bool("dns", true, "reverse DNS in audits")
	resolver := fs.String("resolver", "", "DNS server")
	dnsBudget := fs.Duration("dns-budget", server.DefaultIdentityBudget, "DNS time per audit")
	guardDecisions := fs.String("guard-decisions", "", "guard decision log")
	trustedProxy := fs.String("trusted-proxy", "none", "proxies whose forwarded headers name the client")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "serve", serveHelp, args, err)
	}
	if len(pos) > 0 {
		complain(stderr, "serve", "unexpected argument %q (robotstxt serve -h for help)", pos[0])
		return 2
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--timeout", *timeout}, {"--fetch-timeout", *fetchTimeout}, {"--read-header-timeout", *readHeader},
		{"--read-timeout", *read}, {"--write-timeout", *write}, {"--idle-timeout", *idle}, {"--shutdown-timeout", *shutdown},
		{"--stall-timeout", *stall}} {
		if d.v <= 0 {
			complain(stderr, "serve", "%s must be positive", d.name)
			return 2
		}
	}
	if *sweepEvery < 0 {
		complain(stderr, "serve", "--sweep-every must be 0 (never) or more")
		return 2
	}
	if *historyTTL < 0 {
		complain(stderr, "serve", "--history-ttl must be 0 (no history) or more")
		return 2
	}
	trusted, err := clientip.Parse(*trustedProxy)
	if err != nil {
		complain(stderr, "serve", "--trusted-proxy: %v", err)
		return 2
	}
	if *maxConns < 0 {
		complain(stderr, "serve", "--max-conns must be 0 (no bound) or more")
		return 2
	}
	conns := *maxConns
	if conns == 0 {
		conns = -1 // server.Options: negative sets no bound
	}
	if *maxConnsClient < 0 || *obPerClient < 0 || *obRate < 0 || *obPerDomain < 0 || *obAddrRate < 0 {
		complain(stderr, "serve", "--max-conns-per-client and the --outbound- bounds must be 0 (no bound) or more")
		return 2
	}
	obBytesRate, err := parseSize(*obBytes)
	if err != nil || obBytesRate < 0 {
		complain(stderr, "serve", "--outbound-bytes-rate: want a size such as 2MiB (0: no bound), not %q", *obBytes)
		return 2
	}
	// server.Options: 0 means the default, negative no bound.
	noBound := func(n int) int {
		if n == 0 {
			return -1
		}
		return n
	}
	noBoundF := func(f float64) float64 {
		if f == 0 {
			return -1
		}
		return f
	}
	outbound := server.OutboundOptions{
		PerClient: noBound(*obPerClient), ClientRate: noBoundF(*obRate),
		ClientBytesRate: int64(noBound(int(obBytesRate))),
		PerDomain:       noBound(*obPerDomain), AddressRate: noBoundF(*obAddrRate),
	}
	if *obPerDomain == 0 {
		outbound.DomainRate = -1 // no bound at once, none a second
	}
	if *maxQuestions <= 0 || *historyOrigins <= 0 {
		complain(stderr, "serve", "--max-questions and --history-origins must be positive")
		return 2
	}
	answerBytes, err := parseSize(*maxAnswer)
	if err != nil || answerBytes <= 0 {
		complain(stderr, "serve", "--max-answer-bytes: want a positive size such as 128MiB, not %q", *maxAnswer)
		return 2
	}
	inFlight, err := parseSize(*maxInFlight)
	if err != nil || inFlight < server.MinInFlightBytes {
		complain(stderr, "serve", "--max-inflight-bytes: want a size of at least %dMiB (one request of the largest body and a live fetch), not %q", (server.MinInFlightBytes+1<<20-1)>>20, *maxInFlight)
		return 2
	}
	hostTTL := *historyTTL
	if hostTTL == 0 {
		hostTTL = -1 // server.Options: negative records no history
	}
	if *perSecond < 0 || *burst <= 0 {
		complain(stderr, "serve", "--rate must be 0 (no limit) or more, --burst positive")
		return 2
	}
	limit := rate.Limit(*perSecond)
	if *perSecond == 0 {
		limit = -1 // server.Options: negative turns the limit off
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		complain(stderr, "serve", "--log-level: want debug, info, warn or error, not %q", *logLevel)
		return 2
	}
	if err := fetch.CheckUserAgent(*ua); err != nil {
		complain(stderr, "serve", "-A: %v", err)
		return 2
	}
	token, err := readToken(*tokenFile)
	if err != nil {
		complain(stderr, "serve", "%v", err)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	st, err := openStore(*storeSpec, stderr)
	if err != nil {
		complain(stderr, "serve", "%v", err)
		return 2
	}
	defer st.Close()
	// Stopped (deferred calls run last first) before the store closes.
	defer startSweeper(ctx, st, *sweepEvery, logger)()
	watchOpts, err := watchOptions(*watchFile, *watchMin)
	if err == nil {
		err = watchSecrets(&watchOpts, *watchKeyFile, *watchAdminFile, st, logger)
	}
	if err != nil {
		complain(stderr, "serve", "%v", err)
		return 2
	}
	if *dnsBudget <= 0 || (!*dnsOn && *resolver != "") {
		complain(stderr, "serve", "--dns-budget must be positive, and --resolver goes with DNS on")
		return 2
	}
	ident, err := serveIdentity(ipRanges, *dnsOn, *resolver, *dnsBudget)
	if err != nil {
		complain(stderr, "serve", "--ip-ranges: %v", err)
		return 2
	}
	srv, err := server.New(&server.Options{
		Store: st, Logger: logger, Token: token, AllowPrivate: *allowPrivate,
		AllowedHosts: append(splitList(*allowedHosts), addrHosts(*addr)...),
		UserAgent:    *ua, FetchTimeout: *fetchTimeout, Rate: limit, Burst: *burst,
		RequestTimeout: *timeout, ReadHeaderTimeout: *readHeader, ReadTimeout: *read,
		WriteTimeout: *write, IdleTimeout: *idle, ShutdownTimeout: *shutdown,
		MaxQuestions: *maxQuestions, MaxAnswerBytes: answerBytes, MaxInFlightBytes: inFlight, MaxConns: conns,
		MaxConnsPerClient: noBound(*maxConnsClient), TrustedProxies: trusted, StallTimeout: *stall, Outbound: outbound,
		HistoryTTL: hostTTL, HistoryOrigins: *historyOrigins,
		Watch: watchOpts, Identity: ident, GuardDecisions: *guardDecisions,
	})
	if err != nil {
		complain(stderr, "serve", "%v", strings.Replace(err.Error(), "server: allowed host", "--allowed-hosts", 1))
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		complain(stderr, "serve", "--addr: %v", err)
		return 2 // not done: the exit-status rule's 2
	}
	page := pageURL(ln.Addr())
	fmt.Fprintf(stdout, "robotstxt: serving the tester at %s (API under %sv1/, Ctrl-C to stop)\n", page, page)
	if token == "" && !isLoopbackListener(ln.Addr()) {
		logger.Warn("the API is open to anyone who reaches this address: give --token-file or ROBOTSTXT_TOKEN", "addr", ln.Addr().String())
	}
	if *allowPrivate {
		logger.Warn("--allow-private: live fetches may reach private and loopback addresses")
	}
	if err := srv.Serve(ctx, ln); err != nil && !errors.Is(err, context.Canceled) {
		complain(stderr, "serve", "%v", err)
		return 2
	}
	return 0
}

// readToken reads the bearer token: the first line of file, or
// ROBOTSTXT_TOKEN when no file is given; "" means no auth.
func readToken(file string) (string, error) {
	if file == "" {
		tok := strings.TrimSpace(os.Getenv("ROBOTSTXT_TOKEN"))
		return tok, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("--token-file: %v", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	tok := strings.TrimSpace(line)
	if tok == "" {
		return "", fmt.Errorf("--token-file: %s: the first line is empty; want the token", file)
	}
	if strings.ContainsFunc(tok, func(r rune) bool { return r < 0x21 || r == 0x7f }) {
		return "", fmt.Errorf("--token-file: %s: the token holds spaces or control characters", file)
	}
	return tok, nil
}

// pageURL is the address a person opens: an unspecified host (":8080",
// "0.0.0.0") means this machine.
func pageURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

func isLoopbackListener(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// splitList reads a comma-separated list, without its empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// addrHosts is the Host to accept for --addr itself when it names the host
// by name ("robots.internal:8080"): the server knows the addresses it
// listens on, not the name given.
func addrHosts(addr string) []string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host == "" || port == "0" || net.ParseIP(host) != nil || strings.EqualFold(host, "localhost") {
		return nil
	}
	return []string{net.JoinHostPort(host, port)}
}

// parseSize reads a size in bytes: a number, with K, M or G for KiB, MiB
// or GiB (KiB, KB and K are all 1024 bytes).
func parseSize(s string) (int64, error) {
	num := strings.ToUpper(strings.TrimSpace(s))
	num = strings.TrimSuffix(num, "B")
	unit := int64(1)
	for _, u := range []struct {
		prefix string
		n      int64
	}{{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if rest, ok := strings.CutSuffix(strings.TrimSuffix(num, "I"), u.prefix); ok {
			num, unit = rest, u.n
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n < 0 || n > (1<<62)/unit {
		return 0, fmt.Errorf("not a size: %q", s)
	}
	return n * unit, nil
}
