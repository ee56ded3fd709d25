package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/accesslog"
	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/server"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/tester"
	"github.com/seed53c283f5/robotstxt/verify"
)

const auditHelp = `Usage: robotstxt audit [flags] LOG...

Reads access logs and says which crawlers broke the robots.txt rules: each
request is judged by the version of robots.txt in force when it was made,
in the crawler's own dialect with its fallback tokens, and the crawler's
claimed identity is checked (verified, spoofed or unverified).

  LOG                 an access log ("-" for standard input); gzip and zstd
                      are read as they are (told by their first bytes)
  --robots FILE       the robots.txt in force for the whole log
  --robots TIME=FILE  a version in force from TIME (RFC 3339, or a date
                      YYYY-MM-DD); repeatable: each request is judged by the
                      newest version not after it (a request before all of
                      them by the oldest)
  --origin URL        the site: with --store, the versions of its
                      robots.txt that the service's history holds (robotstxt
                      serve records them); without --robots or --store, its
                      live robots.txt, fetched now (a warning says that past
                      requests are then judged by today's file)
  --store STORE       the service's store: a bbolt file, redis:// URL or
                      memory; it also keeps fetched address lists and DNS
                      answers across runs (default: the cache's file)
  --format NAME       auto (default), combined, common, json, cloudflare,
                      guard (the decision log of robotstxt guard)

  --field F=NAME      a JSON log's field names (repeatable, or comma
                      separated): ip, time, method, path, request, status,
                      host, ua, e.g. --field ip=client_ip,ua=agent
  --ip-ranges NAME=SRC  the crawler NAME's published address list, a JSON
                      file or URL ({"prefixes": [{"ipv4Prefix": ...}]});
                      it applies to the crawlers that share that list in
                      the catalogue (Googlebot's to Googlebot-Image...); a
                      bare URL of the catalogue applies to its crawlers;
                      repeatable; URLs are fetched once a day
  --dns=false         no reverse DNS: only address lists verify
  --resolver ADDR     the DNS server (host:port), default the system's
  --dns-budget D      the time reverse DNS may take in all (default 2m, 0:
                      no bound); past it, no address is looked up and the
                      claims left count as unverified (the report says how
                      many addresses)
  --unknown-bots      list the bot-like agents the catalogue does not know
  --top N             disallowed paths shown per crawler (default 10)
  --json              the report as JSON (see docs/audit.md: the names are
                      a contract)
  --csv               the report as CSV, one row a crawler, path or spoofer
  --quiet             no progress bar (drawn only when stderr is a terminal)

A guard's decision log (robotstxt guard --decisions) needs no --robots or
--origin: each request is judged by the verdict, the robots.txt version
and the identity the guard recorded, and the report adds the guard's
decisions by outcome and action. With --robots or --origin it is judged
again by that file, and the verdicts that differ from the recorded ones
are counted.

Exit status: 0 when no crawler's request was disallowed, 1 when one was
(whatever its identity: spoofers broke the rules too), 2 on bad usage or
input, 130 when stopped by Ctrl-C (the report then covers the lines read).

Examples:
  robotstxt audit --robots robots.txt access.log access.log.1.gz
  robotstxt audit --robots 2026-10-01=old.txt \
      --robots 2026-11-10T12:00:00Z=robots.txt access.log
  robotstxt audit --origin https://example.com --store cache.db --json \
      access.log.zst
  robotstxt audit --format json --field ip=client_ip --robots robots.txt \
      app.jsonl
  robotstxt audit decisions.jsonl
`

// auditIsTerminal reports whether the progress bar may be drawn on w;
// tests replace it.
var auditIsTerminal = func(w io.Writer) bool { return isTerminal(w) }

// auditHTTPClient fetches address lists; tests replace it.
var auditHTTPClient = &http.Client{Timeout: 30 * time.Second}

func runAudit(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("audit")
	var robotsSpecs, fields, ranges stringList
	fs.Var(&robotsSpecs, "robots", "robots.txt version (repeatable)")
	fs.Var(&fields, "field", "JSON field names")
	fs.Var(&ranges, "ip-ranges", "published address list")
	origin := fs.String("origin", "", "the site")
	storeSpec := fs.String("store", defaultStoreSpec, "the store")
	format := fs.String("format", "auto", "log format")
	dnsOn := fs.Bool("dns", true, "reverse DNS")
	resolver := fs.String("resolver", "", "DNS server")
	dnsBudget := fs.Duration("dns-budget", DefaultDNSBudget, "total DNS time")
	unknown := fs.Bool("unknown-bots", false, "unknown bots")
	top := fs.Int("top", audit.DefaultTopPaths, "paths per crawler")
	jsonOut := fs.Bool("json", false, "JSON output")
	csvOut := fs.Bool("csv", false, "CSV output")
	quiet := fs.Bool("quiet", false, "no progress bar")
	logs, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "audit", auditHelp, args, err)
	}
	fail := func(format string, a ...any) int {
		complain(stderr, "audit", format, a...)
		return 2
	}
	storeSet := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "store" {
			storeSet = true
		}
	})
	switch {
	case len(logs) == 0:
		return fail("no log to read: name one or more files, or - for standard input (robotstxt audit -h)")
	case *jsonOut && *csvOut:
		return fail("--json and --csv are exclusive: choose one output")
	case *top < 1:
		return fail("--top %d: want at least 1", *top)
	case len(robotsSpecs) > 0 && *origin != "" && storeSet:
		return fail("--robots and --origin --store both give robots.txt versions: choose one")
	case !*dnsOn && *resolver != "":
		return fail("--resolver applies only with DNS on (it is the server reverse DNS asks)")
	case *dnsBudget < 0:
		return fail("--dns-budget %v: want 0 (no bound) or more", *dnsBudget)
	}
	if slices.Contains(logs, "-") && slices.ContainsFunc(robotsSpecs, func(s string) bool { return s == "-" || strings.HasSuffix(s, "=-") }) {
		return fail("standard input cannot be both a log and a robots.txt")
	}
	fmtName, err := accesslog.ParseFormat(*format)
	if err != nil {
		return fail("--format: %v", strings.TrimPrefix(err.Error(), "accesslog: "))
	}
	var fieldMap *accesslog.FieldMap
	if len(fields) > 0 {
		if fieldMap, err = accesslog.ParseFieldMap(strings.Join(fields, ",")); err != nil {
			return fail("--field: %v", strings.TrimPrefix(err.Error(), "accesslog: "))
		}
		if fmtName == accesslog.Combined || fmtName == accesslog.Common {
			return fail("--field maps JSON logs' fields; --format %s has none", fmtName)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	// The store, opened when something needs it.
	var st store.Store
	openSt := func() (store.Store, error) {
		if st == nil {
			s, err := openStore(*storeSpec, stderr)
			if err != nil {
				return nil, err
			}
			st = s
		}
		return st, nil
	}
	defer func() {
		if st != nil {
			st.Close()
		}
	}()

	var versions []audit.Version
	recorded := false
	switch {
	case len(robotsSpecs) > 0:
		versions, err = auditVersionsFromFiles(robotsSpecs, stdin)
	case *origin != "" && storeSet:
		var s store.Store
		if s, err = openSt(); err == nil {
			versions, err = auditVersionsFromHistory(ctx, s, *origin, *storeSpec)
		}
	case *origin != "":
		versions, err = auditLiveVersion(ctx, *origin, *storeSpec, stderr)
	case fmtName == accesslog.Auto || fmtName == accesslog.Guard:
		// A guard's decision log records its own verdicts: judged by
		// them (a log of another format stops with noRobots).
		recorded = true
		if len(fields) > 0 {
			return fail("--field: the guard's decision log has its own field names, which the audit of its records reads; to judge it by another log's names, give --robots FILE")
		}
		if len(ranges) > 0 {
			return fail("--ip-ranges: the guard's decision log records each identity with its evidence, and the audit takes it as recorded; to check identities again, give --robots FILE to judge by")
		}
	default:
		return fail(auditNoRobots)
	}
	if err != nil {
		return fail("%v", err)
	}

	var v *verify.Verifier
	var loaded []string
	if !recorded {
		vopts := &verify.Options{NoDNS: !*dnsOn, Resolver: *resolver, Budget: *dnsBudget}
		if *dnsOn {
			if s, err := openSt(); err == nil {
				vopts.Store = s
			}
		}
		v = verify.New(vopts)
		if loaded, err = auditLoadRanges(ctx, v, ranges, openSt); err != nil {
			return fail("--ip-ranges: %v", err)
		}
	}

	a, err := audit.New(&audit.Options{Versions: versions, Recorded: recorded, Format: fmtName, Fields: fieldMap, Verifier: v, UnknownBots: *unknown, TopPaths: *top})
	if err != nil {
		return fail("%v", err)
	}
	defer a.Close()

	showBar := !*quiet && auditIsTerminal(stderr)
	for i, name := range logs {
		if err := auditRead(ctx, a, name, stdin, stderr, showBar, i, len(logs)); err != nil {
			if ctx.Err() != nil {
				fmt.Fprintln(stderr, "robotstxt audit: stopped by Ctrl-C; the report covers the lines read")
				break
			}
			if f := a.Format(); recorded && f != accesslog.Auto && f != accesslog.Guard {
				return fail("%s (%s is %v: only the guard's decision log records its own verdicts)", auditNoRobots, esc(name), a.Format())
			}
			return fail("%v", err)
		}
	}
	rep := a.Report()
	switch {
	case *jsonOut:
		err = writeJSON(stdout, rep)
	case *csvOut:
		err = writeAuditCSV(stdout, rep)
	default:
		err = writeAuditText(stdout, rep, logs, loaded, *dnsOn)
	}
	if err != nil {
		complain(stderr, "audit", "%v", err)
		return 2
	}
	if ctx.Err() != nil {
		return 130
	}
	if rep.Disallowed > 0 {
		return 1
	}
	return 0
}

// auditNoRobots is the error of an audit with nothing to judge by.
const auditNoRobots = "no robots.txt to judge by: give --robots FILE, --robots TIME=FILE..., or --origin URL (with --store for the versions the service recorded)"

// auditVersionsFromFiles reads --robots FILE and --robots TIME=FILE.
func auditVersionsFromFiles(specs []string, stdin io.Reader) ([]audit.Version, error) {
	var out []audit.Version
	untimed := 0
	for _, spec := range specs {
		var from time.Time
		file := spec
		if k, rest, ok := strings.Cut(spec, "="); ok {
			if t, ok := parseAuditTime(k); ok {
				from, file = t, rest
			} else if looksLikeTime(k) {
				return nil, fmt.Errorf("--robots %s: %q is not a time (RFC 3339, e.g. 2026-11-10T12:00:00Z, or a date 2026-11-10)", spec, k)
			}
		}
		if from.IsZero() {
			untimed++
		}
		f, err := loadRobots(file, stdin)
		if err != nil {
			return nil, fmt.Errorf("--robots %s: %v", spec, err)
		}
		out = append(out, audit.Version{From: from, Source: f.Name, Robots: f.Robots})
	}
	if untimed > 1 {
		return nil, errors.New("--robots: more than one file without a time: give each version its time (--robots TIME=FILE)")
	}
	return out, nil
}

func looksLikeTime(s string) bool {
	return len(s) >= 8 && s[0] >= '0' && s[0] <= '9' && strings.Count(s, "-") >= 2
}

func parseAuditTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// auditVersionsFromHistory reads the versions the service recorded.
func auditVersionsFromHistory(ctx context.Context, st store.Store, rawURL, spec string) ([]audit.Version, error) {
	if tester.NeedsScheme(rawURL) {
		rawURL = "https://" + rawURL
	}
	o, err := fetch.OriginOf(rawURL)
	if err != nil {
		return nil, fmt.Errorf("--origin %s: %v", rawURL, err)
	}
	hv, err := server.ReadHistory(ctx, st, o)
	if err != nil {
		return nil, fmt.Errorf("--store: %v", err)
	}
	if len(hv) == 0 {
		return nil, fmt.Errorf("--store %s holds no history of %s (robotstxt serve records it at each fetch; or give --robots TIME=FILE)", spec, o)
	}
	var out []audit.Version
	for i, h := range hv {
		t, err := time.Parse(time.RFC3339, h.FetchedAt)
		if err != nil {
			return nil, fmt.Errorf("--store: version %s of %s has a bad time %q", h.Hash[:12], o, h.FetchedAt)
		}
		if i == 0 {
			t = time.Time{} // the oldest known judges what came before it
		}
		out = append(out, audit.Version{From: t, Source: fmt.Sprintf("%s@%s (%s)", o, h.FetchedAt, h.Hash[:12]), Robots: robotstxt.Parse(h.Body)})
	}
	return out, nil
}

// auditLiveVersion fetches the site's robots.txt now.
func auditLiveVersion(ctx context.Context, rawURL, spec string, stderr io.Writer) ([]audit.Version, error) {
	body, info, err := fetchRobotsWith(ctx, rawURL, fetchOptions{store: spec, fresh: true}, stderr)
	if err != nil {
		return nil, fmt.Errorf("--origin %s: %v", rawURL, err)
	}
	fmt.Fprintf(stderr, "robotstxt audit: warning: every request is judged by today's robots.txt of %s; requests made before its last edit may be judged wrongly (--robots TIME=FILE or --store give the versions in force)\n", esc(rawURL))
	name := info.RobotsURL
	if name == "" {
		name = rawURL
	}
	r := robotstxt.Parse(body)
	switch info.Policy {
	case "disallow-all":
		// The site's answer (a server error, say) closes it to crawlers.
		r = robotstxt.ParseString("User-agent: *\nDisallow: /\n")
		name += " (" + info.Policy + ": " + info.Reason + ")"
	case "allow-all":
		name += " (" + info.Policy + ": " + info.Reason + ")"
	}
	return []audit.Version{{Source: name + ", fetched now", Robots: r}}, nil
}

// auditLoadRanges loads each --ip-ranges list into v (and into the
// crawlers that share it), and returns the names of the crawlers named.
func auditLoadRanges(ctx context.Context, v *verify.Verifier, specs []string, openSt func() (store.Store, error)) ([]string, error) {
	var names []string
	for _, spec := range specs {
		targets, src, err := rangesTargets(spec)
		if err != nil {
			return nil, err
		}
		var s store.Store
		if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
			var err error
			if s, err = openSt(); err != nil {
				return nil, err
			}
		}
		r, err := verify.LoadRanges(ctx, src, auditHTTPClient, s)
		if err != nil {
			return nil, errors.New(strings.TrimPrefix(err.Error(), "verify: "))
		}
		for _, t := range targets {
			v.AddRanges(t, r)
		}
		if !slices.Contains(names, targets[0]) {
			names = append(names, targets[0])
		}
	}
	return names, nil
}

// rangesTargets reads an --ip-ranges spec, NAME=SRC or a SRC the
// catalogue names: the crawlers the list covers (NAME first, then those
// that share its lists), and the source.
func rangesTargets(spec string) ([]string, string, error) {
	table := robotstxt.Crawlers()
	name, src, ok := strings.Cut(spec, "=")
	if !ok || strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://") {
		name, src = "", spec
	}
	var targets []string
	if name != "" {
		c, ok := robotstxt.LookupCrawler(name)
		if !ok {
			return nil, "", fmt.Errorf("%s: unknown crawler %q (robotstxt crawlers lists the catalogue)", spec, name)
		}
		targets = append(targets, c.Name)
		for _, o := range table {
			if o.Name != c.Name && len(c.IPRanges) > 0 && slices.Equal(o.IPRanges, c.IPRanges) {
				targets = append(targets, o.Name)
			}
		}
	} else {
		for _, o := range table {
			if slices.Contains(o.IPRanges, src) {
				targets = append(targets, o.Name)
			}
		}
		if len(targets) == 0 {
			return nil, "", fmt.Errorf("%s: no crawler of the catalogue publishes its addresses there: name one (--ip-ranges NAME=%s)", spec, src)
		}
	}
	return targets, src, nil
}

// countingReader counts the bytes read through it, for the progress bar.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// DefaultDNSBudget is the time an audit's reverse DNS may take in all
// (--dns-budget): a silent resolver costs 3 s an address, over 16 at once.
const DefaultDNSBudget = 2 * time.Minute

// auditRead reads one log into a.
func auditRead(ctx context.Context, a *audit.Auditor, name string, stdin io.Reader, stderr io.Writer, showBar bool, i, n int) error {
	var raw io.Reader
	var size int64 = -1
	shown := name
	if name == "-" {
		raw, shown = stdin, "standard input"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
		raw = f
	}
	var read atomic.Int64
	rc, err := accesslog.Decompress(countingReader{raw, &read})
	if err != nil {
		return fmt.Errorf("%s: %v", shown, err)
	}
	defer rc.Close()
	stopBar := func() {}
	if showBar {
		stopBar = auditBar(stderr, size, &read, fmt.Sprintf("%d/%d %s", i+1, n, shown))
	}
	err = a.Scan(ctx, accesslog.NewScanner(rc, 0))
	stopBar()
	if err != nil {
		return fmt.Errorf("%s: %v", shown, err)
	}
	return nil
}

// auditBar draws a progress bar of the bytes read, and returns its stop.
func auditBar(w io.Writer, size int64, read *atomic.Int64, what string) func() {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(20),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
	}
	bar := progressbar.NewOptions64(size, opts...)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				_ = bar.Set64(read.Load())
			case <-quit:
				return
			}
		}
	})
	return func() {
		close(quit)
		wg.Wait()
		_ = bar.Set64(read.Load())
		_ = bar.Finish()
		fmt.Fprintln(w)
	}
}

// writeAuditCSV writes the report as CSV: a row a crawler (record
// "crawler"), a row a top disallowed path ("path") and a row a spoofing
// address ("spoofer"), whose last columns are its evidence record's
// method, lists (URL@creationTime, space-separated), reverse DNS names
// and time of the check; a crawler's row ends with its requests served,
// refused and priced (402 Payment Required: offered at a price).
func writeAuditCSV(w io.Writer, r *audit.Report) error {
	t := &tester.Table{Head: []string{"record", "crawler", "requests", "disallowed", "verified", "spoofed", "unverified", "first_seen", "last_seen", "path", "line", "rule", "version", "ip", "reason", "method", "lists", "names", "checked", "served", "refused", "priced"}}
	n := func(i int64) string { return strconv.FormatInt(i, 10) }
	for _, c := range r.Crawlers {
		t.Rows = append(t.Rows, []string{"crawler", c.Crawler, n(c.Requests), n(c.Disallowed), n(c.Verified), n(c.Spoofed), n(c.Unverified), c.FirstSeen, c.LastSeen, "", "", "", "", "", "", "", "", "", "", n(c.Served), n(c.Refused), n(c.Priced)})
		for _, p := range c.TopDisallowed {
			t.Rows = append(t.Rows, []string{"path", c.Crawler, n(p.Count), n(p.Count), "", "", "", "", "", p.Path, strconv.Itoa(p.Line), p.Rule, p.Source, "", "", "", "", "", "", "", "", ""})
		}
	}
	for _, s := range r.Spoofers {
		e := s.Evidence
		var lists []string
		for _, l := range e.Lists {
			lists = append(lists, strings.TrimSuffix(l.URL+"@"+l.CreationTime, "@"))
		}
		checked := ""
		if !e.Checked.IsZero() {
			checked = e.Checked.UTC().Format(time.RFC3339)
		}
		t.Rows = append(t.Rows, []string{"spoofer", s.Crawler, n(s.Requests), n(s.Disallowed), "0", n(s.Requests), "0", "", "", "", "", "", "", s.IP, s.Reason, e.Method, strings.Join(lists, " "), strings.Join(e.Names, " "), checked, "", "", ""})
	}
	if g := r.Guard; g != nil {
		writeAuditGuardCSV(t, r)
	}
	return t.WriteCSV(w)
}

// writeAuditGuardCSV adds a guard's decision log's figures to the CSV
// table: three columns more (blocked, would_block, name), filled in the
// crawlers' rows, and rows of their own: "version" (a recorded version:
// its judged and disallowed requests, first and last seen), "outcome",
// "action", "would" and "mode" (requests by name), and, judged again by a
// robots.txt given, "rejudged" (compared, differs, now-allowed,
// now-disallowed).
func writeAuditGuardCSV(t *tester.Table, r *audit.Report) {
	g := r.Guard
	n := func(i int64) string { return strconv.FormatInt(i, 10) }
	t.Head = append(t.Head, "blocked", "would_block", "name")
	by := map[string]audit.GuardCrawler{}
	for _, c := range g.Crawlers {
		by[c.Crawler] = c
	}
	for i, row := range t.Rows {
		extra := []string{"", "", ""}
		if row[0] == "crawler" {
			c := by[row[1]]
			extra = []string{n(c.Blocked), n(c.WouldBlock), ""}
		}
		t.Rows[i] = append(row, extra...)
	}
	blank := func(record, name string, requests int64) []string {
		row := make([]string, len(t.Head))
		row[0], row[2], row[len(row)-1] = record, n(requests), name
		return row
	}
	if g.Recorded {
		for _, v := range r.Versions {
			row := blank("version", v.Source, v.Judged)
			row[3], row[7], row[8] = n(v.Disallowed), v.FirstSeen, v.LastSeen
			t.Rows = append(t.Rows, row)
		}
	}
	for _, kind := range []struct {
		record string
		m      map[string]int64
	}{{"outcome", g.Outcomes}, {"action", g.Actions}, {"would", g.Would}, {"mode", g.Modes}} {
		keys := slices.Sorted(maps.Keys(kind.m))
		for _, k := range keys {
			t.Rows = append(t.Rows, blank(kind.record, k, kind.m[k]))
		}
	}
	if !g.Recorded {
		t.Rows = append(t.Rows, blank("rejudged", "compared", g.Compared), blank("rejudged", "differs", g.Differs),
			blank("rejudged", "now-allowed", g.NowAllowed), blank("rejudged", "now-disallowed", g.NowDisallowed))
	}
}

// grouped writes n with thousands separators: 1,234,567.
func grouped(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// writeAuditText writes the report for people, in auditWidth columns:
// the totals, the versions judged by, a table of the crawlers, each
// crawler's top disallowed paths with the deciding line, the spoofing
// addresses, the unknown bots, and how identities were checked. What the
// log wrote (paths, agents) is escaped.
func writeAuditText(w io.Writer, r *audit.Report, logs, ranges []string, dnsOn bool) error {
	var b strings.Builder
	names := make([]string, len(logs))
	for i, l := range logs {
		names[i] = l
		if l == "-" {
			names[i] = "standard input"
		}
	}
	b.WriteString(aiWrap(fmt.Sprintf("Audit of %s (%s): %s lines, %s unparsed; %s requests, %s by known crawlers, %s disallowed.",
		esc(strings.Join(names, ", ")), r.Format, grouped(r.Lines), grouped(r.Unparsed), grouped(r.Requests), grouped(r.CrawlerRequests), grouped(r.Disallowed)), "", "", auditWidth))
	for _, s := range r.UnparsedSamples {
		b.WriteString(aiClip(fmt.Sprintf("  unparsed line %d: %s", s.Line, esc(strings.TrimPrefix(s.Error, "accesslog: "))), auditWidth) + "\n")
	}
	multi := len(r.Versions) > 1
	recorded := r.Guard != nil && r.Guard.Recorded
	if recorded {
		b.WriteString("\nrobots.txt in force, as the guard recorded it:\n")
		if len(r.Versions) == 0 {
			b.WriteString("  none: no crawler's request was judged\n")
		}
	} else {
		b.WriteString("\nrobots.txt in force:\n")
	}
	for _, v := range r.Versions {
		if recorded {
			// The version the guard named, and when decisions named it.
			head := fmt.Sprintf("  #%d ", v.Index)
			tail := fmt.Sprintf(": %s judged, %s disallowed", grouped(v.Judged), grouped(v.Disallowed))
			b.WriteString(head + aiClip(esc(v.Source), auditWidth-len(head)-len(tail)) + tail + "\n")
			fmt.Fprintf(&b, "     seen %s to %s\n", orDash(v.FirstSeen), orDash(v.LastSeen))
			continue
		}
		from := "since ever"
		if v.From != "" {
			from = "from " + v.From
		}
		tail := fmt.Sprintf("  %s judged, %s disallowed", grouped(v.Judged), grouped(v.Disallowed))
		head := fmt.Sprintf("  #%d %s: ", v.Index, from)
		b.WriteString(head + aiClip(esc(v.Source), auditWidth-len(head)-len(tail)) + tail + "\n")
	}
	if len(r.Crawlers) == 0 {
		b.WriteString("\nNo request named a known crawler.\n")
	} else {
		fmt.Fprintf(&b, "\n%-22s%10s%12s%10s%10s%12s\n", "Crawler", "Requests", "Disallowed", "Verified", "Spoofed", "Unverified")
		for _, c := range r.Crawlers {
			fmt.Fprintf(&b, "%-22s%10s%12s%10s%10s%12s\n", aiClip(c.Crawler, 21), grouped(c.Requests), grouped(c.Disallowed), grouped(c.Verified), grouped(c.Spoofed), grouped(c.Unverified))
		}
	}
	for _, c := range r.Crawlers {
		if c.Disallowed == 0 {
			continue
		}
		b.WriteString("\n" + aiWrap(fmt.Sprintf("%s: %s of %s requests disallowed (%s verified, %s spoofed, %s unverified), seen %s to %s.",
			c.Crawler, grouped(c.Disallowed), grouped(c.Requests), grouped(c.DisallowedVerified), grouped(c.DisallowedSpoofed), grouped(c.DisallowedUnverified), orDash(c.FirstSeen), orDash(c.LastSeen)), "", "  ", auditWidth))
		for _, p := range c.TopDisallowed {
			rule := fmt.Sprintf("line %d: %s", p.Line, p.Rule)
			if multi {
				rule = fmt.Sprintf("#%d line %d: %s", p.Version, p.Line, p.Rule)
			}
			count := grouped(p.Count)
			if p.CountError > 0 {
				count = "~" + count
			}
			fmt.Fprintf(&b, "%9s  %-36s  %s\n", count, aiClip(esc(p.Path), 36), aiClip(esc(rule), auditWidth-49))
		}
	}
	if r.Priced > 0 {
		// Pay per crawl: a 402 is a price, not a refusal.
		b.WriteString("\n" + aiWrap(fmt.Sprintf("Priced: %s of the crawlers' requests were answered 402 Payment Required: offered at a price (pay per crawl), neither served nor refused (%s served, %s refused).",
			grouped(r.Priced), grouped(r.Served), grouped(r.Refused)), "", "  ", auditWidth))
		fmt.Fprintf(&b, "  %-22s%10s%10s%10s%10s\n", "Crawler", "Requests", "Priced", "Served", "Refused")
		for _, c := range r.Crawlers {
			if c.Priced > 0 {
				fmt.Fprintf(&b, "  %-22s%10s%10s%10s%10s\n", aiClip(c.Crawler, 21), grouped(c.Requests), grouped(c.Priced), grouped(c.Served), grouped(c.Refused))
			}
		}
	}
	if r.Guard != nil {
		writeAuditGuard(&b, r.Guard)
	}
	if len(r.Spoofers) > 0 {
		b.WriteString("\nSpoofed: addresses that claimed a crawler and are not it\n")
		fmt.Fprintf(&b, "  %-22s%-15s%9s%11s  %s\n", "Address", "Claimed", "Requests", "Disallowed", "Why")
		for _, s := range r.Spoofers {
			fmt.Fprintf(&b, "  %-22s%-15s%9s%11s  %s\n", aiClip(s.IP, 21), aiClip(s.Crawler, 14), grouped(s.Requests), grouped(s.Disallowed), aiClip(esc(spoofWhy(s)), auditWidth-61))
		}
	}
	if r.UnknownBots != nil {
		b.WriteString("\nUnknown bot-like agents\n")
		if len(r.UnknownBots) == 0 {
			b.WriteString("  none\n")
		}
		for _, u := range r.UnknownBots {
			fmt.Fprintf(&b, "%10s  %s\n", grouped(u.Requests), aiClip(esc(u.Agent), auditWidth-12))
		}
	}
	id := "Identity: "
	if r.Verification.Recorded {
		id += "as the guard recorded it, each request with the evidence of its decision (verified, spoofed or unverified then); nothing was looked up again."
		if r.Verification.UntrackedRequests > 0 {
			id += fmt.Sprintf(" %s requests came from addresses past the %s tracked: counted by their recorded identity, but no spoofer of them is listed.", grouped(r.Verification.UntrackedRequests), grouped(int64(r.Limits.MaxIPs)))
		}
		b.WriteString("\n" + aiWrap(id, "", "  ", auditWidth))
		_, err := io.WriteString(w, b.String())
		return err
	}
	if len(ranges) > 0 {
		id += "address lists for " + strings.Join(ranges, ", ") + " (and the crawlers sharing them); "
	} else {
		id += "no address lists (--ip-ranges); "
	}
	if dnsOn {
		d := r.Verification.DNS
		id += fmt.Sprintf("reverse DNS on: %s addresses looked up, %s from the store, %s lookups failed.", grouped(d.Lookups), grouped(d.Cached), grouped(d.Failures))
		if d.Skipped > 0 {
			id += fmt.Sprintf(" %s addresses not looked up: the DNS budget (--dns-budget) was spent; their claims count as unverified.", grouped(d.Skipped))
		}
	} else {
		id += "reverse DNS off."
	}
	if r.Verification.UntrackedRequests > 0 {
		id += fmt.Sprintf(" %s requests came from addresses past the %s tracked and count as unverified.", grouped(r.Verification.UntrackedRequests), grouped(int64(r.Limits.MaxIPs)))
	}
	b.WriteString("\n" + aiWrap(id, "", "  ", auditWidth))
	_, err := io.WriteString(w, b.String())
	return err
}

// writeAuditGuard writes what a guard's decision log says of itself:
// its decisions by mode, outcome and action, what the guard refused and
// what its log mode would have refused, per crawler; and, judged again by
// a robots.txt given, how many verdicts differ from the recorded ones.
func writeAuditGuard(b *strings.Builder, g *audit.GuardReport) {
	b.WriteString("\n" + aiWrap(fmt.Sprintf("Guard: %s decisions (%s); it answered %s in the site's place, and in log mode let %s pass that its policy would have refused.",
		grouped(g.Decisions), countList(g.Modes), grouped(g.Blocked), grouped(g.WouldBlock)), "", "  ", auditWidth))
	b.WriteString(wrapItems("  Outcomes:", countItems(g.Outcomes, "."), "    ", auditWidth))
	b.WriteString(wrapItems("  Actions taken:", countItems(g.Actions, "."), "    ", auditWidth))
	b.WriteString(wrapItems("  Actions the policy names (would):", countItems(g.Would, "."), "    ", auditWidth))
	shown := false
	for _, c := range g.Crawlers {
		if c.Blocked == 0 && c.WouldBlock == 0 {
			continue
		}
		if !shown {
			fmt.Fprintf(b, "  %-22s%10s%10s%13s\n", "Crawler", "Requests", "Blocked", "Would block")
			shown = true
		}
		fmt.Fprintf(b, "  %-22s%10s%10s%13s\n", aiClip(c.Crawler, 21), grouped(c.Requests), grouped(c.Blocked), grouped(c.WouldBlock))
	}
	if !g.Recorded {
		b.WriteString("\n" + aiWrap(fmt.Sprintf("Judged again by the robots.txt given: %s of the %s verdicts the guard recorded differ (%s disallowed then and allowed now, %s allowed then and disallowed now)%s",
			grouped(g.Differs), grouped(g.Compared), grouped(g.NowAllowed), grouped(g.NowDisallowed),
			map[bool]string{true: ": the file changed since, or is not the one the guard enforced.", false: "."}[g.Differs > 0]), "", "  ", auditWidth))
	}
}

// countList writes counts by name, the most first: "pass 3, 403 1".
func countList(m map[string]int64) string {
	return strings.Join(countItems(m, ""), " ")
}

// countItems are the counts by name, the most first, each "name N,"
// but the last, which ends with end: "pass 3,", "403 1.".
func countItems(m map[string]int64, end string) []string {
	if len(m) == 0 {
		return []string{"none" + end}
	}
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(x, y string) int { return cmp.Or(cmp.Compare(m[y], m[x]), cmp.Compare(x, y)) })
	items := make([]string, len(keys))
	for i, k := range keys {
		items[i] = esc(k) + " " + grouped(m[k]) + pick(i == len(keys)-1, end, ",")
	}
	return items
}

// wrapItems writes head and the items after it, a space apart, in lines
// of at most width columns broken between items (an item longer than a
// line is clipped), the lines after the first indented by ind.
func wrapItems(head string, items []string, ind string, width int) string {
	var b strings.Builder
	b.WriteString(head)
	n := len(head)
	for _, it := range items {
		it = aiClip(it, width-len(ind)-1)
		if n+1+displayWidth(it) > width {
			b.WriteString("\n" + ind + it)
			n = len(ind) + displayWidth(it)
			continue
		}
		b.WriteString(" " + it)
		n += 1 + displayWidth(it)
	}
	b.WriteByte('\n')
	return b.String()
}

// spoofWhy says in a few words why an address is not the crawler it
// claims (the JSON's reason says it in full).
func spoofWhy(s audit.SpooferReport) string {
	switch {
	case s.Method == "ip-ranges":
		return "outside its ranges"
	case s.Name == "":
		return "no reverse name"
	case strings.Contains(s.Reason, "does not resolve back"):
		return "unconfirmed " + s.Name
	}
	return s.Name
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// auditWidth is the width, in columns, of the text report.
const auditWidth = 80
