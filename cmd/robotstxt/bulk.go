package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
	"github.com/seed53c283f5/robotstxt/tester"
)

const bulkHelp = `Usage: robotstxt bulk [-c CRAWLER]... [-a TOKEN]... [-d DIALECT] [--format jsonl|csv]
                      [--store STORE] [--concurrency N] [--per-host N] [--quiet]
                      [--summary FILE] [--timeout D] [--order input|any] [FILE|-]

Checks a crawl frontier: for every URL and every crawler, whether the crawler
may fetch it, under its origin's live robots.txt. Each origin's robots.txt is
fetched once, through the cache (shared by a fleet with a redis:// or
redis-cluster:// store: one fetch per origin between all processes).

  FILE            URLs one a line, or JSON Lines with a "url" field (the other
                  fields are copied to each result, but for those named like a
                  result field in any case: "Allowed" is not copied); "-" or
                  nothing: standard input. Blank lines and lines starting with
                  # are skipped; a line that is not an absolute http(s)/ftp
                  URL gets an error result.
  -c CRAWLER      a crawler from the table (repeatable; robotstxt check
                  --crawlers lists them)
  -a TOKEN        a product token, with Google's semantics (repeatable)
                  Without -c or -a: Googlebot.
  -d DIALECT      google, rfc9309, bing, yandex, baidu or original: the fetch
                  policy, and the reading for every crawler (default: Google's
                  fetch policy, each crawler's own reading)
  --format F      jsonl (default) or csv (with a header; the extra fields of
                  JSON input are not copied; see CSV below)
  --store STORE    the cache's store: memory, a bbolt file path, a redis:// or
                  redis-cluster://h1:p1,h2:p2 URL (default: robotstxt/cache.db
                  in the user's cache directory)
  --concurrency N origins fetched at once (default 64)
  --per-host N    requests at once to one host name, redirects included
                  (default 2)
  --quiet         no progress bar (it is drawn only when stderr is a
                  terminal) and no summary on stderr
  --summary FILE  also write the summary as JSON to FILE
  --timeout D     time allowed for one origin's fetch, redirects included
                  (default 15s), counted while its requests are under way:
                  time waiting for a --per-host slot is not counted
  --order O       input (default): results in input order; a slow origin
                  holds back the results after it, and reading stops once
                  max(4096, 16 x concurrency) URLs wait. any: each URL's
                  results as soon as they are known, with its input line
                  number: "input_line" in JSON, a first column in CSV
  --refresh       fetch each origin's robots.txt now (conditionally), not
                  from the cache's copy, which is renewed; once an origin
                  while it is among the recent ones
  --usage         the AI usage preferences too: "usage" and "signals" as
                  robotstxt eval writes them (JSON), or the columns
                  train_ai, search, usage_lines and signals (CSV)

Output, one result per (URL, crawler): url, crawler (or agent for -a),
allowed, line and rule (the deciding rule, when one decided), origin, policy
(rules, allow-all, disallow-all), reason, source (network, cache,
stale-cache), and error for a line that could not be checked. Results are
written as soon as they are known, so memory stays bounded whatever the input
size; the progress bar counts the URLs whose results are known. HTTP_PROXY,
HTTPS_PROXY and NO_PROXY are honoured. SIGINT or SIGTERM stops the run: every
line written is complete and the summary is written; a rerun on the same
store does not fetch again the origins the cache holds fresh.

CSV is for spreadsheets: a cell that starts with = + - @, a tab or a carriage
return gets a leading ' (OWASP's advice against formula injection), and
control characters are shown as \xNN (C1 as \u00NN), as robotstxt check
shows them. JSON keeps every value exact (control characters as \u escapes).

Exit status: 0 when done, 1 when some line could not be checked, 2 on bad
usage, 130 when interrupted by SIGINT, 143 by SIGTERM.

Examples:
  robotstxt bulk -c Googlebot -c Bingbot frontier.txt > verdicts.jsonl
  robotstxt bulk --store redis://cache:6379/0 --summary run.json - < urls.txt
  robotstxt bulk --order any --format csv frontier.txt > verdicts.csv
`

// bulkConfig is one bulk run.
type bulkConfig struct {
	subjects    []bulkSubject
	dialect     robotstxt.Dialect // DefaultDialect: each crawler's own
	csv         bool
	concurrency int
	perHost     int
	window      int // URLs in flight at most
	progress    bool
	summary     bool  // to stderr
	size        int64 // input bytes when known (a file): the bar's ETA
	cache       *cache.Cache
	storeName   string
	health      func() (bool, string)
	// anyOrder writes each URL's results as soon as they are known, with
	// its input line number (--order any).
	anyOrder bool
	usage    bool // --usage: the AI usage preferences and signals too
	refresh  bool // --refresh: each origin fetched now, not taken from the cache
	// timeout is one origin's fetch budget, counted while its requests hold
	// their --per-host slots (see slotClock); 0: the fetcher's own timeout
	// alone.
	timeout time.Duration
	// originBytes bounds the answers kept for the URLs that follow, by
	// weight (see origins); 0 means bulkOriginBytes.
	originBytes int64
	// done counts the URLs whose results are known, written or not (the
	// progress bar's count); nil: bulk makes its own.
	done *atomic.Int64
}

// bulkMaxLine bounds an input line; a longer one is an error result, read
// past without being held.
const bulkMaxLine = 1 << 20

// bulkIsTerminal reports whether the progress bar may be drawn on w; tests
// replace it.
var bulkIsTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// bulkProxy chooses the proxy of a request: HTTP_PROXY, HTTPS_PROXY and
// NO_PROXY, as the fetcher's own transport does (read once per process, so
// tests replace it).
var bulkProxy = http.ProxyFromEnvironment

// bulkInterrupt returns a context cancelled by the signals that stop a
// run, SIGINT and SIGTERM, with a bulkSignal as its cause; tests replace
// it. After the first signal the process no longer catches them: a second
// one ends it at once.
var bulkInterrupt = func(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(bulkSignal{s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}

// bulkSignal is the cause of a run stopped by a signal.
type bulkSignal struct{ sig os.Signal }

func (s bulkSignal) Error() string { return s.sig.String() }

// bulkExitStatus is the exit status of a run stopped by ctx: 128 plus the
// signal's number, as a shell reports a process the signal ended (130 for
// SIGINT, 143 for SIGTERM); 130 when no signal says otherwise.
func bulkExitStatus(ctx context.Context) int {
	var s bulkSignal
	if errors.As(context.Cause(ctx), &s) {
		if n, ok := s.sig.(syscall.Signal); ok {
			return 128 + int(n)
		}
	}
	return 130
}

func runBulk(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bulk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, bulkHelp) }
	var crawlerNames, tokens stringList
	fs.Var(&crawlerNames, "c", "crawler (repeatable)")
	fs.Var(&tokens, "a", "product token (repeatable)")
	dialect := fs.String("d", "", "dialect")
	format := fs.String("format", "jsonl", "jsonl or csv")
	storeSpec := fs.String("store", defaultStoreSpec, "the cache's store")
	concurrency := fs.Int("concurrency", 64, "origins fetched at once")
	perHost := fs.Int("per-host", 2, "requests at once to one host")
	quiet := fs.Bool("quiet", false, "no progress, no summary on stderr")
	summaryFile := fs.String("summary", "", "summary JSON file")
	timeout := fs.Duration("timeout", fetch.DefaultTimeout, "time allowed for one origin's fetch")
	order := fs.String("order", "input", "input or any")
	usage := fs.Bool("usage", false, "the AI usage preferences and signals too")
	refresh := fs.Bool("refresh", false, "fetch each origin's robots.txt now, not from the cache")
	files, err := parseFlags(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "robotstxt bulk: "+format+"\n", a...)
		return 2
	}
	if len(files) > 1 {
		return fail("give one input file, or - for standard input (robotstxt bulk -h for help)")
	}
	if *format != "jsonl" && *format != "csv" {
		return fail("--format %q: want jsonl or csv", *format)
	}
	if *order != "input" && *order != "any" {
		return fail("--order %q: want input or any", *order)
	}
	if *concurrency < 1 || *concurrency > 100_000 {
		return fail("--concurrency %d: want 1 to 100000", *concurrency)
	}
	if *timeout <= 0 {
		return fail("--timeout must be positive")
	}
	if *perHost < 1 {
		return fail("--per-host %d: want 1 or more", *perHost)
	}
	d, err := parseDialectFlag(*dialect)
	if err != nil {
		return fail("%v", err)
	}
	subjects, err := bulkSubjects(crawlerNames, tokens)
	if err != nil {
		return fail("%v", err)
	}
	cfg := bulkConfig{
		subjects: subjects, dialect: d, csv: *format == "csv", concurrency: *concurrency,
		perHost: *perHost, window: max(4096, 16**concurrency),
		progress: !*quiet && bulkIsTerminal(stderr), summary: !*quiet,
		anyOrder: *order == "any", timeout: *timeout, usage: *usage, refresh: *refresh,
	}
	in := stdin
	if len(files) == 1 && files[0] != "-" {
		f, err := os.Open(files[0])
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return fail("%s: no such file", files[0])
			}
			return fail("%v", err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			cfg.size = st.Size()
		}
		in = f
	}
	st, err := openStore(*storeSpec, stderr)
	if err != nil {
		return fail("%v", err)
	}
	defer st.Close()
	fetchDialect := d
	if fetchDialect == robotstxt.DefaultDialect {
		fetchDialect = robotstxt.Google
	}
	// The fetch's budget is counted by the transport while its requests
	// hold their --per-host slots (slotClock); the fetcher's own timeout
	// is only a backstop, past the longest a fetch can wait for its slots.
	f := &fetch.Fetcher{Dialect: fetchDialect, Timeout: bulkBackstop(*timeout, cfg.concurrency, cfg.perHost),
		Transport: newBulkTransport(cfg.concurrency, cfg.perHost), DialContext: clockDial}
	cfg.cache = cache.New(&cache.Options{Store: st, Fetcher: f, KeyPrefix: tester.CacheKeyPrefix(fetchDialect),
		LeaseTTL: *timeout + 5*time.Second, ParsedBytes: bulkParsedBytes})
	cfg.storeName = storeopen.Health(st).Name
	cfg.health = func() (bool, string) {
		h := storeopen.Health(st)
		return h.Degraded, h.Message
	}
	bulkTuneGC()
	ctx, stop := bulkInterrupt(context.Background())
	defer stop()
	sum, err := bulk(ctx, cfg, in, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "robotstxt bulk: %v\n", err)
		if !sum.Interrupted {
			return 2
		}
	}
	if *summaryFile != "" {
		b, _ := json.MarshalIndent(sum, "", "  ")
		if err := os.WriteFile(*summaryFile, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "robotstxt bulk: --summary: %v\n", err)
			return 2
		}
	}
	if cfg.summary {
		writeBulkSummary(stderr, sum)
	}
	switch {
	case sum.Interrupted:
		return bulkExitStatus(ctx)
	case sum.BadLines > 0:
		return 1
	}
	return 0
}

// bulkTuneGC lets the heap grow to three times what is live, not two,
// unless GOGC or GOMEMLIMIT say otherwise: a run keeps little (its window of
// URLs, the answers of recent origins) and makes much short-lived garbage,
// so the collector ran often for nothing. A soft limit of 256 MiB keeps the
// peak where it was meant to be. Measured over 1,000,000 URLs: about 8%
// less CPU, peak RSS 113 -> 158 MB cold.
func bulkTuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(200)
	debug.SetMemoryLimit(256 << 20)
}

// bulkItem is one input line on its way to the output.
type bulkItem struct {
	lineNo int
	url    string // as given
	norm   string // normalised
	extra  []byte // JSON input's other members, `"k":v,...`
	err    string
	// state and ans are the origin's and its answer, until the results
	// are formatted: the item does not hold the answer while it waits to
	// be written. A waiter gets ans with its results.
	state *originState
	ans   *originAnswer
	// waiting says the origin's answer was not there when the line was
	// read: the origin's fetch formats the results when it comes, into
	// own. Otherwise the batch's worker does, into its out[start:end].
	waiting    bool
	own        []byte
	start, end int
	stats      itemStats
	// ready says the results are formatted (set last: it publishes the
	// fields above to the writer). An item whose origin got no answer
	// because the run was interrupted never is.
	ready atomic.Bool
}

// bytes returns the item's formatted results.
func (it *bulkItem) bytes(b *bulkBatch) []byte {
	if it.waiting {
		return it.own
	}
	return b.out[it.start:it.end]
}

// itemStats is what an item's results count in the summary.
type itemStats struct {
	allowed, disallowed int32
	bad                 bool
	policy              fetch.Policy // 0 with an error
	first               cache.Source // the answer's source, when the item is its origin's first; else 0
}

// bulkBatch is a run of consecutive items: the reader fills it, a worker
// formats the results of the items whose answer is known (in parallel with
// the other batches), the origins' fetches format the others, and the
// writer writes them.
type bulkBatch struct {
	items []bulkItem    // a slab: one allocation per batch, not per line
	out   []byte        // from bulkBufs; the writer gives it back
	done  chan struct{} // closed when the worker is through
	// With --order any, the writer's: taken from the order channel, and
	// the items written.
	taken   bool
	written int
}

// bulkBatchSize is the number of items in a batch.
const bulkBatchSize = 256

// bulkBufs recycles the batches' output buffers: without it each batch
// grows a new one, which was most of what a warm run allocated.
var bulkBufs = sync.Pool{New: func() any { return new([]byte) }}

func newBulkBatch() *bulkBatch {
	return &bulkBatch{items: make([]bulkItem, 0, bulkBatchSize), done: make(chan struct{})}
}

// bulkTally counts the results written; the summary adds them up.
type bulkTally struct {
	urls, results, allowed, disallowed, bad, rules, allowAll, disallowAll int64
	sources                                                               [cache.StaleCache + 1]int64
}

// add counts the results of an item written.
func (t *bulkTally) add(st *itemStats, subjects int64) {
	t.urls++
	t.results += subjects
	t.allowed += int64(st.allowed)
	t.disallowed += int64(st.disallowed)
	if st.bad {
		t.bad++
	}
	switch st.policy {
	case 0:
	case fetch.Rules:
		t.rules += subjects
	case fetch.AllowAll:
		t.allowAll += subjects
	default:
		t.disallowAll += subjects
	}
	if st.first != 0 && int(st.first) < len(t.sources) {
		t.sources[st.first]++
	}
}

func (t *bulkTally) addTo(s *bulkSummary) {
	s.URLs += t.urls
	s.Results += t.results
	s.Allowed += t.allowed
	s.Disallowed += t.disallowed
	s.BadLines += t.bad
	for p, n := range map[string]int64{"rules": t.rules, "allow-all": t.allowAll, "disallow-all": t.disallowAll} {
		if n > 0 {
			s.Policies[p] += n
		}
	}
	for src, n := range t.sources {
		if n > 0 {
			s.Sources[cache.Source(src).String()] += n
		}
	}
}

// bulkSummary is what a run did, also the JSON of --summary.
type bulkSummary struct {
	URLs        int64            `json:"urls"`
	Results     int64            `json:"results"`
	BadLines    int64            `json:"bad_lines"`
	Allowed     int64            `json:"allowed"`
	Disallowed  int64            `json:"disallowed"`
	Policies    map[string]int64 `json:"policies"`
	Sources     map[string]int64 `json:"origins_by_source"`
	Origins     int64            `json:"origins"`
	Fetches     bulkFetches      `json:"fetches"`
	Fleet       bulkFleet        `json:"fleet"`
	Store       string           `json:"store"`
	Degraded    bool             `json:"store_degraded"`
	StoreNote   string           `json:"store_message,omitempty"`
	Seconds     float64          `json:"seconds"`
	URLsPerSec  float64          `json:"urls_per_second"`
	Interrupted bool             `json:"interrupted"`
}

// bulkFetches are the origins fetched, by outcome.
type bulkFetches struct {
	Made        uint64 `json:"made"`
	Rules       uint64 `json:"rules"`
	AllowAll    uint64 `json:"allow_all"`
	DisallowAll uint64 `json:"disallow_all"`
	Unreachable uint64 `json:"unreachable"`
	NotModified uint64 `json:"not_modified"`
	Errors      uint64 `json:"errors"`
}

// bulkFleet is what the leases of a shared store did.
type bulkFleet struct {
	Leases       uint64 `json:"leases"`
	Waits        uint64 `json:"waits"`
	Shared       uint64 `json:"answered_by_another_process"`
	Expired      uint64 `json:"fetched_after_lease_expired"`
	LocalFetches uint64 `json:"fetched_alone_store_unreachable"`
}

// bulk runs the checks of cfg over in, writing results to out.
func bulk(ctx context.Context, cfg bulkConfig, in io.Reader, out, stderr io.Writer) (bulkSummary, error) {
	start := time.Now()
	sum := bulkSummary{Policies: map[string]int64{}, Sources: map[string]int64{}, Store: cfg.storeName}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if cfg.done == nil {
		cfg.done = new(atomic.Int64)
	}
	if cfg.originBytes <= 0 {
		cfg.originBytes = bulkOriginBytes
	}
	org := newOrigins(ctx, &cfg, max(cfg.window, 16384), cfg.originBytes)
	// The window: batches hand on to the writer. The reader keeps at most
	// two batches a worker ahead of the workers.
	batches := cfg.window/bulkBatchSize + 1
	workers := max(1, runtime.GOMAXPROCS(0))
	order := make(chan *bulkBatch, batches)
	work := make(chan *bulkBatch, 2*workers)
	var readBytes atomic.Int64
	var readErr error
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(work)
		defer close(order)
		err := readBulk(ctx, in, org, order, work, &readBytes)
		readErr = err
	}()
	for range workers {
		go func() {
			for b := range work {
				bulkFormatBatch(&cfg, b, org)
			}
		}()
	}

	done := cfg.done
	var bar *progressbar.ProgressBar
	stopBar := func() {}
	if cfg.progress {
		bar = newBulkBar(stderr, cfg.size)
		tick := time.NewTicker(200 * time.Millisecond)
		quit := make(chan struct{})
		var wg sync.WaitGroup
		describe := func() {
			n := done.Load()
			s := cfg.cache.Stats()
			rate := float64(n) / time.Since(start).Seconds()
			bar.Describe(fmt.Sprintf("%d URLs, %.0f URLs/s, %d origins fetched, %d failed", n, rate, s.Fetches, s.Unreachable))
			if cfg.size > 0 {
				_ = bar.Set64(readBytes.Load())
			} else {
				_ = bar.Set64(n)
			}
		}
		wg.Go(func() {
			for {
				select {
				case <-tick.C:
				case <-quit:
					return
				}
				describe()
			}
		})
		stopBar = func() {
			tick.Stop()
			close(quit)
			wg.Wait()
			describe()
			_ = bar.Finish()
			fmt.Fprintln(stderr)
		}
	}

	bw := &bulkWriter{w: bufio.NewWriterSize(out, 256<<10), subjects: int64(len(cfg.subjects))}
	if cfg.csv {
		if cfg.anyOrder {
			bw.buf = append(bw.buf, "input_line,"...)
		}
		head := "url," + bulkWho(cfg.subjects) + ",allowed,line,rule,origin,policy,reason,source,error"
		if cfg.usage {
			head += ",train_ai,search,usage_lines,signals"
		}
		bw.buf = append(bw.buf, head+"\n"...)
	}
	var interrupted bool
	if cfg.anyOrder {
		interrupted = bw.anyOrder(ctx, order, org.wake, org.anyq, batches)
	} else {
		interrupted = bw.inOrder(ctx, order, org.wake)
	}
	bw.flush()
	bw.tally.addTo(&sum)
	werr := bw.err
	cancel()
	stopBar()
	select {
	case <-readDone:
	default: // blocked on its input: it stops with the process
		readErr = nil
	}
	interrupted = interrupted || parent.Err() != nil
	s := cfg.cache.Stats()
	sum.Origins = org.seen.Load()
	sum.Fetches = bulkFetches{Made: s.Fetches, Rules: s.Rules, AllowAll: s.AllowAll, DisallowAll: s.DisallowAll,
		Unreachable: s.Unreachable, NotModified: s.NotModified, Errors: s.Errors}
	sum.Fleet = bulkFleet{Leases: s.Leases, Waits: s.LeaseWaits, Shared: s.LeaseShared, Expired: s.LeaseExpired, LocalFetches: s.LocalFetches}
	if cfg.health != nil {
		sum.Degraded, sum.StoreNote = cfg.health()
	}
	sum.Seconds = time.Since(start).Seconds()
	if sum.Seconds > 0 {
		sum.URLsPerSec = float64(sum.URLs) / sum.Seconds
	}
	sum.Interrupted = interrupted
	switch {
	case werr != nil:
		return sum, fmt.Errorf("writing the results: %v", werr)
	case readErr != nil && !interrupted:
		return sum, readErr
	case interrupted:
		return sum, errors.New("interrupted: every result written is complete; a rerun on the same store does not fetch the origins already cached")
	}
	return sum, nil
}

// bulkWho is the CSV column of the subject.
// bulkSubject is one crawler (-c) or product token (-a) bulk asks about.
type bulkSubject struct {
	label   string
	crawler *robotstxt.Crawler
	agents  []string
}

// bulkSubjects returns the crawlers named with -c, then the tokens of -a;
// none means Googlebot. Names are checked as check checks them.
func bulkSubjects(names, tokens []string) ([]bulkSubject, error) {
	if err := (&tester.Subjects{Crawlers: names, Agents: tokens}).Validate(); err != nil {
		return nil, cliError(err, nil)
	}
	var out []bulkSubject
	seen := map[string]bool{}
	for _, n := range names {
		c, _ := robotstxt.LookupCrawler(n)
		if key := strings.ToLower(c.Name); !seen[key] {
			seen[key] = true
			out = append(out, bulkSubject{label: c.Name, crawler: &c})
		}
	}
	for _, t := range tokens {
		out = append(out, bulkSubject{label: t, agents: []string{t}})
	}
	if len(out) == 0 {
		c, _ := robotstxt.LookupCrawler("Googlebot")
		out = append(out, bulkSubject{label: c.Name, crawler: &c})
	}
	return out, nil
}

func bulkWho(subjects []bulkSubject) string {
	for _, s := range subjects {
		if s.crawler != nil {
			return "crawler"
		}
	}
	return "agent"
}

func newBulkBar(w io.Writer, size int64) *progressbar.ProgressBar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(20),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
	}
	if size <= 0 {
		size = -1 // standard input: a spinner, no ETA
	} else {
		opts = append(opts, progressbar.OptionShowBytes(true))
	}
	return progressbar.NewOptions64(size, opts...)
}

// readBulk reads the input lines into items, in order, until the end or ctx
// is done.
func readBulk(ctx context.Context, in io.Reader, org *origins, order, work chan<- *bulkBatch, read *atomic.Int64) error {
	r := bufio.NewReaderSize(in, 64<<10)
	lineNo := 0
	var long []byte
	b := newBulkBatch()
	hosts := originCache{m: map[string]*originHint{}}
	now := time.Now() // the clock of a batch's lookups
	// The items of a batch whose answer was there when they were read hold
	// it until a worker formats them, even once the table has dropped it:
	// pinned weighs those answers (each run of one counted once), and past
	// a quarter of the table's bound the batch is handed on at once.
	var pinned int64
	var last *originAnswer
	// send hands the batch on, when it has items, once: to the workers
	// first, so that its results are formatted (and its answers let go)
	// while the writer waits, then to the writer.
	send := func() bool {
		if len(b.items) == 0 {
			return true
		}
		cur := b
		b = newBulkBatch()
		now = time.Now()
		pinned, last = 0, nil
		select {
		case work <- cur:
		case <-ctx.Done():
			return false
		}
		select {
		case order <- cur:
		case <-ctx.Done():
			return false
		}
		return true
	}
	defer send()
	for {
		if r.Buffered() == 0 && !send() { // the next read may wait: let the writer go on
			return nil
		}
		line, err := r.ReadSlice('\n')
		read.Add(int64(len(line)))
		tooLong := false
		if errors.Is(err, bufio.ErrBufferFull) {
			// Keep up to bulkMaxLine bytes; read past the rest.
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.ReadSlice('\n')
				read.Add(int64(len(line)))
				if len(long)+len(line) <= bulkMaxLine {
					long = append(long, line...)
				} else {
					tooLong = true
				}
			}
			line = long
		}
		if len(line) > 0 || tooLong {
			lineNo++
			b.items = append(b.items, bulkItem{})
			if it := &b.items[len(b.items)-1]; !bulkParse(it, line, lineNo, tooLong) {
				b.items = b.items[:len(b.items)-1]
			} else {
				if it.err == "" {
					o, hint, oerr := hosts.originOf(it.norm)
					if oerr != nil {
						it.err = fmt.Sprintf("line %d: %v", lineNo, oerr)
					} else {
						org.lookup(o, hint, now, b, it)
						// (A waiter's ans is the origin's fetch's to set.)
						if !it.waiting && it.ans != last {
							pinned += it.ans.weight
							last = it.ans
						}
					}
				}
				if (len(b.items) == bulkBatchSize || pinned > org.maxBytes/4) && !send() {
					return nil
				}
			}
			if cap(long) > 64<<10 {
				long = nil // a huge line's buffer is not kept
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the input, line %d: %v", lineNo+1, err)
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// originCache remembers the origins of the URLs read, by their scheme and
// authority, so that most URLs are not parsed whole for their origin.
type originCache struct {
	m map[string]*originHint // "scheme://authority" to its origin
}

// originHint is a remembered origin and the state origins.lookup last
// gave for it (which holds no answer once out of the table).
type originHint struct {
	origin fetch.Origin
	state  *originState
}

// originCacheMax bounds the origins remembered; past it they are forgotten
// at once.
const originCacheMax = 1 << 16

// originOf returns fetch.OriginOf(u). url.Parse, which fetch.OriginOf uses,
// takes the origin from the scheme and the authority alone (the text up to
// the first '/', '?' or '#' after "://"), and fails on the rest only for a
// control byte or a malformed %-escape. So a URL whose start is remembered,
// and whose rest is plain, printable ASCII with well-formed escapes, has the
// remembered origin; any other is parsed whole, and only successes are
// remembered.
func (c *originCache) originOf(u string) (fetch.Origin, **originState, error) {
	i := strings.Index(u, "://")
	if i <= 0 {
		o, err := fetch.OriginOf(u)
		return o, nil, err
	}
	end := i + 3
	for end < len(u) && u[end] != '/' && u[end] != '?' && u[end] != '#' {
		end++
	}
	if !plainURLRest(u[end:]) {
		o, err := fetch.OriginOf(u)
		return o, nil, err
	}
	if h, ok := c.m[u[:end]]; ok {
		return h.origin, &h.state, nil
	}
	o, err := fetch.OriginOf(u)
	if err != nil {
		return o, nil, err
	}
	if len(c.m) >= originCacheMax {
		clear(c.m)
	}
	h := &originHint{origin: o}
	c.m[strings.Clone(u[:end])] = h
	return o, &h.state, nil
}

// plainURLRest reports whether s has only printable ASCII (no space) and
// well-formed %-escapes.
func plainURLRest(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f {
			return false
		}
		if c == '%' {
			if i+2 >= len(s) || !isHexDigit(s[i+1]) || !isHexDigit(s[i+2]) {
				return false
			}
			i += 2
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// bulkParse reads one input line into it; false means a line to skip.
func bulkParse(it *bulkItem, line []byte, lineNo int, tooLong bool) bool {
	it.lineNo = lineNo
	if tooLong {
		it.err = fmt.Sprintf("line %d: longer than %d bytes", lineNo, bulkMaxLine)
		return true
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] == '#' {
		return false
	}
	if line[0] == '{' {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			it.err = fmt.Sprintf("line %d: not a JSON object: %v", lineNo, err)
			return true
		}
		raw, ok := m["url"]
		if !ok || json.Unmarshal(raw, &it.url) != nil {
			it.err = fmt.Sprintf("line %d: the JSON object has no \"url\" string", lineNo)
			return true
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			if !bulkField(k) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			it.extra = appendJSONString(it.extra, k)
			it.extra = append(it.extra, ':')
			var c bytes.Buffer
			if json.Compact(&c, m[k]) == nil {
				it.extra = append(it.extra, c.Bytes()...)
			} else {
				it.extra = append(it.extra, "null"...)
			}
			it.extra = append(it.extra, ',')
		}
	} else {
		it.url = string(line)
	}
	if !utf8.ValidString(it.url) {
		it.err = fmt.Sprintf("line %d: the URL is not valid UTF-8", lineNo)
		return true
	}
	it.norm = robotstxt.NormalizeURL(it.url)
	return true
}

// bulkFields are the members a result writes; JSON input's own are
// dropped.
var bulkFields = []string{"url", "input_line", "crawler", "agent", "allowed", "line", "rule", "origin", "policy", "reason", "source", "error"}

// bulkField reports whether an input member named k would be read as a
// result's member: named like one in any case, as JSON decoders that match
// names without case do (Go's encoding/json among them, with Unicode's
// simple folding: "ſource" is "source", "K" with the Kelvin sign is "k").
// Copied, "Allowed" or "URL" would overwrite the result's own there.
func bulkField(k string) bool {
	for _, f := range bulkFields {
		if strings.EqualFold(k, f) {
			return true
		}
	}
	return false
}

// bulkFormatBatch formats the results of the batch's items that need no
// waiting: bad lines, and URLs whose origin's answer was there when they
// were read. The origins' fetches format the others (the waiters).
func bulkFormatBatch(cfg *bulkConfig, b *bulkBatch, org *origins) {
	defer close(b.done)
	b.out = (*bulkBufs.Get().(*[]byte))[:0]
	n := 0
	for i := range b.items {
		it := &b.items[i]
		if it.waiting {
			continue
		}
		it.start = len(b.out)
		b.out = bulkResults(b.out, cfg, it)
		it.end = len(b.out)
		it.state, it.ans = nil, nil
		it.ready.Store(true)
		n++
	}
	org.done.Add(int64(n))
}

// bulkResults appends the results of one item, one per subject, and sets
// its stats. The results of the line whose question asked for the origin
// give its answer's source; the later ones say "cache" for an answer
// fetched in this run.
func bulkResults(buf []byte, cfg *bulkConfig, it *bulkItem) []byte {
	var a *cache.Answer
	errText := it.err
	st, oa := it.state, it.ans
	var source, sourceJSON string
	if st != nil {
		switch {
		case oa == nil:
			errText = fmt.Sprintf("line %d: no answer for %s: %v", it.lineNo, st.origin, st.err)
		case it.lineNo == st.firstLine:
			a = oa.answer
			source, sourceJSON = oa.sourceFirstText, oa.sourceFirstJSON
			it.stats.first = a.Source
		default:
			a = oa.answer
			source, sourceJSON = oa.sourceLaterText, oa.sourceLaterJSON
		}
	}
	if errText != "" {
		it.stats.bad = true
	}
	origin := ""
	if st != nil {
		origin = st.originText
	}
	if a != nil {
		it.stats.policy = a.Policy
	}
	for i := range cfg.subjects {
		s := &cfg.subjects[i]
		var dec robotstxt.Decision
		var ua robotstxt.UsageAnswer
		policy := ""
		if a != nil {
			dec = oa.deciders[i].Decide(it.norm)
			if cfg.usage {
				ua = oa.deciders[i].Usage(it.norm)
			}
			policy = oa.policyText
			if dec.Allowed {
				it.stats.allowed++
			} else {
				it.stats.disallowed++
			}
		}
		rule := ""
		if dec.HasRule() {
			rule = dec.Rule.Text
		}
		who := "agent"
		if s.crawler != nil {
			who = "crawler"
		}
		if cfg.csv {
			if cfg.anyOrder {
				buf = strconv.AppendInt(buf, int64(it.lineNo), 10)
				buf = append(buf, ',')
			}
			buf = appendCSV(buf, it.url)
			buf = append(buf, ',')
			buf = appendCSV(buf, s.label)
			buf = append(buf, ',')
			if a != nil {
				buf = strconv.AppendBool(buf, dec.Allowed)
			}
			buf = append(buf, ',')
			if dec.Line() > 0 {
				buf = strconv.AppendInt(buf, int64(dec.Line()), 10)
			}
			for _, f := range [...]string{rule, origin, policy, dec.Reason, source, errText} {
				buf = append(buf, ',')
				buf = appendCSV(buf, f)
			}
			if cfg.usage {
				buf = appendUsageCSV(buf, a != nil && dec.Allowed, ua)
			}
			buf = append(buf, '\n')
			continue
		}
		buf = append(buf, '{')
		if cfg.anyOrder {
			buf = append(buf, `"input_line":`...)
			buf = strconv.AppendInt(buf, int64(it.lineNo), 10)
			buf = append(buf, ',')
		}
		buf = append(buf, `"url":`...)
		buf = appendJSONString(buf, it.url)
		buf = append(buf, ',')
		buf = append(buf, it.extra...)
		buf = append(buf, '"')
		buf = append(buf, who...)
		buf = append(buf, `":`...)
		buf = appendJSONString(buf, s.label)
		if errText != "" {
			buf = append(buf, `,"allowed":null,"error":`...)
			buf = appendJSONString(buf, errText)
			if origin != "" {
				buf = append(buf, `,"origin":`...)
				buf = append(buf, st.originJSON...)
			}
			buf = append(buf, "}\n"...)
			continue
		}
		buf = append(buf, `,"allowed":`...)
		buf = strconv.AppendBool(buf, dec.Allowed)
		buf = append(buf, `,"line":`...)
		buf = strconv.AppendInt(buf, int64(dec.Line()), 10)
		buf = append(buf, `,"rule":`...)
		buf = appendJSONString(buf, rule)
		buf = append(buf, `,"origin":`...)
		buf = append(buf, st.originJSON...)
		buf = append(buf, `,"policy":`...)
		buf = append(buf, oa.policyJSON...)
		buf = append(buf, `,"reason":`...)
		buf = appendJSONString(buf, dec.Reason)
		buf = append(buf, `,"source":`...)
		buf = append(buf, sourceJSON...)
		if cfg.usage {
			u, sig := usageAnswerJSON(ua, dec.Allowed)
			buf = append(buf, `,"usage":`...)
			buf = append(buf, u...)
			buf = append(buf, `,"signals":`...)
			buf = append(buf, sig...)
		}
		buf = append(buf, "}\n"...)
	}
	return buf
}

// appendUsageCSV appends the --usage columns of a result: train_ai and
// search ("y", "n", "unknown"; empty when the URL may not be crawled), the
// deciding Content-Usage lines (space-separated), and the Content-Signal
// line's pairs as written ("" when none).
func appendUsageCSV(buf []byte, allowed bool, ua robotstxt.UsageAnswer) []byte {
	buf = append(buf, ',')
	if allowed {
		buf = append(buf, ua.Usage.TrainAI().String()...)
	}
	buf = append(buf, ',')
	if allowed {
		buf = append(buf, ua.Usage.Search().String()...)
	}
	buf = append(buf, ',')
	for i, n := range ua.Usage.Lines {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = strconv.AppendInt(buf, int64(n), 10)
	}
	buf = append(buf, ',')
	var pairs []string
	for _, p := range ua.Signals.Pairs {
		pairs = append(pairs, p.Key+"="+p.Value)
	}
	return appendCSV(buf, strings.Join(pairs, ", "))
}

const hexDigits = "0123456789abcdef"

// jsonPlain says which bytes a JSON string holds as they are: printable
// ASCII but the quote and the backslash (DEL is not printable).
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes
// U+FFFD, as encoding/json writes it. Control characters are \u escapes,
// DEL and C1 (U+0080 to U+009F) too, which encoding/json writes as they
// are: as jsonWriter writes the other commands' JSON, so that no terminal
// obeys what a URL or a robots.txt file holds.
func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' || r <= 0x9f {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// appendCSV appends one CSV field, quoted when it needs to be (RFC 4180).
// CSV is read by spreadsheets and shown on terminals: control characters
// are shown as robotstxt check shows them (esc: \xNN, C1 as \u00NN), and a
// field that starts with = + - @, a tab or a carriage return, which a
// spreadsheet may take for a formula, gets a leading ' (OWASP, "CSV
// Injection").
func appendCSV(buf []byte, s string) []byte {
	if s == "" {
		return buf
	}
	if c := s[0]; c != ' ' && c != '=' && c != '+' && c != '-' && c != '@' {
		i := 0
		for i < len(s) && csvPlain[s[i]] {
			i++
		}
		if i == len(s) {
			return append(buf, s...)
		}
	}
	s = esc(s)
	if strings.IndexByte("=+-@\t\r", s[0]) >= 0 {
		s = "'" + s
	}
	if !strings.ContainsAny(s, ",\"\r\n") && s[0] != ' ' && s[0] != '\t' {
		return append(buf, s...)
	}
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			buf = append(buf, '"')
		}
		buf = append(buf, s[i])
	}
	return append(buf, '"')
}

// csvPlain says which bytes a CSV field holds as they are, wherever they
// are: printable ASCII but the comma and the quote.
var csvPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != ',' && c != '"'
	}
	return t
}()

// writeBulkSummary prints the summary for people.
func writeBulkSummary(w io.Writer, s bulkSummary) {
	var b strings.Builder
	fmt.Fprintf(&b, "robotstxt bulk: %d URLs, %d results in %.1fs (%.0f URLs/s)", s.URLs, s.Results, s.Seconds, s.URLsPerSec)
	if s.Interrupted {
		b.WriteString(", interrupted")
	}
	fmt.Fprintf(&b, "\n  verdicts: %d allowed, %d disallowed, %d lines not checked\n", s.Allowed, s.Disallowed, s.BadLines)
	fmt.Fprintf(&b, "  policies: %d rules, %d allow-all, %d disallow-all\n", s.Policies["rules"], s.Policies["allow-all"], s.Policies["disallow-all"])
	fmt.Fprintf(&b, "  origins: %d (%d network, %d cache, %d stale-cache); fetches: %d (%d rules, %d allow-all, %d disallow-all, %d unreachable, %d not modified)\n",
		s.Origins, s.Sources["network"], s.Sources["cache"], s.Sources["stale-cache"],
		s.Fetches.Made, s.Fetches.Rules, s.Fetches.AllowAll, s.Fetches.DisallowAll, s.Fetches.Unreachable, s.Fetches.NotModified)
	if s.Fleet.Leases+s.Fleet.Waits+s.Fleet.LocalFetches > 0 {
		fmt.Fprintf(&b, "  fleet: %d leases, %d waits (%d answered by another process, %d after the lease expired), %d fetched alone (store unreachable)\n",
			s.Fleet.Leases, s.Fleet.Waits, s.Fleet.Shared, s.Fleet.Expired, s.Fleet.LocalFetches)
	}
	fmt.Fprintf(&b, "  store: %s", s.Store)
	if s.Degraded {
		fmt.Fprintf(&b, " (degraded: %s)", s.StoreNote)
	}
	b.WriteString("\n")
	io.WriteString(w, b.String())
}
