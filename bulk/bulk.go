package bulk

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/tester"
)

// Format is the format of a run's results.
type Format int

const (
	// JSONL writes one JSON object a line (JSON Lines, also called NDJSON).
	JSONL Format = iota
	// CSV writes a header, then one record a line (RFC 4180), its fields
	// made safe for spreadsheets and terminals.
	CSV
)

// Order is the order in which a run writes its results.
type Order int

const (
	// InputOrder writes the results in the order of the input: a slow
	// origin holds back the results after it (at most Options.Window URLs
	// wait; past them the input is not read).
	InputOrder Order = iota
	// AnyOrder writes each URL's results as soon as they are known, with
	// its input line number ("input_line" in JSON, a first column in CSV).
	AnyOrder
)

// MaxSubjects bounds the subjects of a run (Options.Subjects).
const MaxSubjects = 1<<16 - 1

// DefaultConcurrency is the origins a run fetches at once by default.
const DefaultConcurrency = 64

// Options configure a Checker. Cache is required; the zero value of the
// others is a sensible default.
type Options struct {
	// Cache answers each origin's robots.txt (cache.Cache.GetOrigin, or
	// RefreshOrigin with Refresh), fetching it with its Fetcher when it
	// holds no fresh copy. A cache with Google's fetch policy (the
	// default) keeps what every dialect needs: each subject reads its
	// answer with its own dialect's fetch policy (cache.Answer.For), as
	// robotstxt check -u does; with Dialect set, give it a fetcher of
	// that dialect's policy (every subject reads it). A cache shared
	// between processes through a shared store makes one fetch an origin
	// for all of them. Give its fetcher a transport from NewTransport to
	// bound the requests to one host, and Timeout's accounting.
	Cache *cache.Cache
	// Subjects are the crawlers and product tokens asked about, in the
	// order of each URL's results; none means Googlebot (see Subjects).
	Subjects []Subject
	// Dialect is the reading of every subject's rules and fetch policy;
	// robotstxt.DefaultDialect means each crawler's own (Google's for a
	// product token: robotstxt.Query.ReadsIn).
	Dialect robotstxt.Dialect
	// Format is JSONL (the zero value) or CSV.
	Format Format
	// Order is InputOrder (the zero value) or AnyOrder.
	Order Order
	// Usage adds each result's AI usage preferences and signals: "usage"
	// and "signals" in JSON, as robotstxt eval writes them, or the columns
	// train_ai, search, usage_lines and signals in CSV.
	Usage bool
	// Refresh fetches each origin's robots.txt now (conditionally), once a
	// run while the origin is among the recent ones, rather than taking
	// the cache's copy, which is renewed.
	Refresh bool
	// Concurrency bounds the origins fetched at once; 0 means
	// DefaultConcurrency.
	Concurrency int
	// Window bounds the URLs in flight (read and not yet written); 0 means
	// max(4096, 16 x Concurrency).
	Window int
	// Timeout, when positive, is one origin's fetch budget, counted only
	// while its requests hold their slots of the transport NewTransport
	// returns (time waiting for a slot is not counted); 0 leaves the
	// fetcher's own timeout alone.
	Timeout time.Duration
	// OriginBytes bounds the answers kept for the URLs that follow, by
	// weight (what their parsed files keep); 0 means OriginBytes.
	OriginBytes int64
	// StoreName names the cache's store in the Summary; Health, when not
	// nil, says at the end of a run whether the store is degraded and why
	// (see storeopen.Health).
	StoreName string
	Health    func() (degraded bool, message string)
	// Progress, when not nil, is called every ProgressInterval (0 means
	// 200 ms) while a run goes on, and once at its end with Done set;
	// never twice at once.
	Progress         func(Progress)
	ProgressInterval time.Duration
}

// Progress is how far a run has gone.
type Progress struct {
	// URLs counts the URLs whose results are known, written or not (in
	// input order, a slow origin holds back the writing, not the count).
	URLs int64
	// BytesRead counts the input's bytes read.
	BytesRead int64
	// Elapsed is the time since the run started.
	Elapsed time.Duration
	// Fetches and Unreachable count the robots.txt files fetched during
	// the run, and those that got no answer (cache.Stats).
	Fetches, Unreachable uint64
	// Done says it is the last report of the run.
	Done bool
}

// Subject is one crawler of the table, or one product token, that a run
// asks about.
type Subject struct {
	// Label names the subject in its results: the crawler's name, or the
	// product token.
	Label string
	// Crawler is the crawler of the table asked about (read by its own
	// rules, as robotstxt.Query does); nil for a product token.
	Crawler *robotstxt.Crawler
	// Agents are the product tokens asked about, with Google's semantics,
	// when Crawler is nil.
	Agents []string
}

// Subjects returns the subjects of crawler names (of the table: a name or
// a product token, in any case; each once) then product tokens; none means
// Googlebot. The error is a *tester.Error naming the field ("crawlers" or
// "agents") of the first name it refuses.
func Subjects(crawlers, tokens []string) ([]Subject, error) {
	if err := (&tester.Subjects{Crawlers: crawlers, Agents: tokens}).Validate(); err != nil {
		return nil, err
	}
	var out []Subject
	seen := map[string]bool{}
	for _, n := range crawlers {
		c, _ := robotstxt.LookupCrawler(n)
		if key := strings.ToLower(c.Name); !seen[key] {
			seen[key] = true
			out = append(out, Subject{Label: c.Name, Crawler: &c})
		}
	}
	for _, t := range tokens {
		out = append(out, Subject{Label: t, Agents: []string{t}})
	}
	if len(out) == 0 {
		out = defaultSubjects()
	}
	return out, nil
}

func defaultSubjects() []Subject {
	c, _ := robotstxt.LookupCrawler("Googlebot")
	return []Subject{{Label: c.Name, Crawler: &c}}
}

// ErrInterrupted is the error of a run whose context ended before the
// input did: every result written is complete.
var ErrInterrupted = errors.New("interrupted: every result written is complete; a rerun on the same store does not fetch the origins already cached")

// Checker checks streams of URLs. It keeps no state between runs: Run may
// be called many times, and at once.
type Checker struct {
	cfg config
}

// config is a Checker's options as the engine reads them.
type config struct {
	subjects    []Subject
	dialect     robotstxt.Dialect // DefaultDialect: each crawler's own
	csv         bool
	concurrency int
	window      int // URLs in flight at most
	cache       *cache.Cache
	storeName   string
	health      func() (bool, string)
	// anyOrder writes each URL's results as soon as they are known, with
	// its input line number (AnyOrder).
	anyOrder bool
	usage    bool // the AI usage preferences and signals too
	refresh  bool // each origin fetched now, not taken from the cache
	// timeout is one origin's fetch budget, counted while its requests hold
	// their host slots (see slotClock); 0: the fetcher's own timeout
	// alone.
	timeout time.Duration
	// originBytes bounds the answers kept for the URLs that follow, by
	// weight (see origins); 0 means OriginBytes.
	originBytes int64
	// done counts the URLs whose results are known, written or not (the
	// progress' count); nil: each run makes its own.
	done     *atomic.Int64
	progress func(Progress)
	every    time.Duration
}

// New returns a Checker of o, or an error naming the option it refuses.
func New(o *Options) (*Checker, error) {
	if o == nil || o.Cache == nil {
		return nil, errors.New("bulk: Options.Cache is required")
	}
	switch {
	case o.Format != JSONL && o.Format != CSV:
		return nil, fmt.Errorf("bulk: Options.Format %d: want JSONL or CSV", o.Format)
	case o.Order != InputOrder && o.Order != AnyOrder:
		return nil, fmt.Errorf("bulk: Options.Order %d: want InputOrder or AnyOrder", o.Order)
	case o.Concurrency < 0 || o.Window < 0 || o.Timeout < 0 || o.OriginBytes < 0:
		return nil, errors.New("bulk: Options.Concurrency, Window, Timeout and OriginBytes may not be negative")
	}
	cfg := config{
		subjects: o.Subjects, dialect: o.Dialect, csv: o.Format == CSV, concurrency: o.Concurrency,
		window: o.Window, cache: o.Cache, storeName: o.StoreName, health: o.Health,
		anyOrder: o.Order == AnyOrder, usage: o.Usage, refresh: o.Refresh, timeout: o.Timeout,
		originBytes: o.OriginBytes, progress: o.Progress, every: o.ProgressInterval,
	}
	if len(cfg.subjects) == 0 {
		cfg.subjects = defaultSubjects()
	}
	if len(cfg.subjects) > MaxSubjects {
		return nil, fmt.Errorf("bulk: %d subjects, more than %d", len(cfg.subjects), MaxSubjects)
	}
	for i, s := range cfg.subjects {
		if s.Label == "" || s.Crawler == nil && len(s.Agents) == 0 {
			return nil, fmt.Errorf("bulk: Options.Subjects[%d]: want a label, and a crawler or agents", i)
		}
	}
	if cfg.concurrency == 0 {
		cfg.concurrency = DefaultConcurrency
	}
	if cfg.window == 0 {
		cfg.window = max(4096, 16*cfg.concurrency)
	}
	if cfg.every <= 0 {
		cfg.every = 200 * time.Millisecond
	}
	return &Checker{cfg: cfg}, nil
}

// Run reads URLs from in until its end or ctx's, and writes their results
// to out: one a line (JSON Lines) or record (CSV) per URL and subject, in
// the Checker's Order, each as soon as it may be. The input is a URL a
// line, or a JSON object a line with a "url" member (its other members
// are copied to each JSON result, but for those named like a result's
// members in any case); blank lines and lines starting with # are
// skipped; a line that is not an absolute http(s) or ftp URL, or longer
// than MaxLine, gets a result with an error. Each origin's robots.txt is
// asked of the cache once while its answer is among the recent ones.
//
// What a run holds is bounded whatever the input's size: the URLs in
// flight (Window), the answers kept (OriginBytes), the origins fetched at
// once (Concurrency). When ctx ends, Run stops before the next result
// (every line written is whole) and returns ErrInterrupted with the
// Summary's Interrupted set. Its other errors are the input's or out's.
func (c *Checker) Run(ctx context.Context, in io.Reader, out io.Writer) (Summary, error) {
	return run(ctx, c.cfg, in, out)
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

// itemStats is what an item's results count in the summary: the results
// allowed and, by fetch policy, those read with rules and allow-all (an
// answered item's others were disallowed, and disallow-all). Small: a
// batch holds 256 items.
type itemStats struct {
	allowed         int32
	rules, allowAll uint16 // (New bounds the subjects to MaxSubjects)
	answered        bool   // its origin answered: one result per subject
	bad             bool
	first           cache.Source // the answer's source, when the item is its origin's first; else 0
	priced          bool         // the item is its origin's first, and the origin answered 402
}

// count counts a result read with policy p.
func (st *itemStats) count(p fetch.Policy) {
	switch p {
	case fetch.Rules:
		st.rules++
	case fetch.AllowAll:
		st.allowAll++
	}
}

// bulkBatch is a run of consecutive items: the reader fills it, a worker
// formats the results of the items whose answer is known (in parallel with
// the other batches), the origins' fetches format the others, and the
// writer writes them.
type bulkBatch struct {
	items []bulkItem    // a slab: one allocation per batch, not per line
	out   []byte        // from bulkBufs; the writer gives it back
	done  chan struct{} // closed when the worker is through
	// With AnyOrder, the writer's: taken from the order channel, and
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
	priced                                                                int64
	sources                                                               [cache.StaleCache + 1]int64
}

// add counts the results of an item written.
func (t *bulkTally) add(st *itemStats, subjects int64) {
	t.urls++
	t.results += subjects
	if st.answered {
		t.allowed += int64(st.allowed)
		t.disallowed += subjects - int64(st.allowed)
		t.rules += int64(st.rules)
		t.allowAll += int64(st.allowAll)
		t.disallowAll += subjects - int64(st.rules) - int64(st.allowAll)
	}
	if st.bad {
		t.bad++
	}
	if st.first != 0 && int(st.first) < len(t.sources) {
		t.sources[st.first]++
	}
	if st.priced {
		t.priced++
	}
}

func (t *bulkTally) addTo(s *Summary) {
	s.URLs += t.urls
	s.Results += t.results
	s.Allowed += t.allowed
	s.Disallowed += t.disallowed
	s.BadLines += t.bad
	s.Priced += t.priced
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

// Summary is what a run did; its JSON is robotstxt bulk's --summary.
// Fetches and Fleet count the cache's work during the run (other users of
// the cache at the same time included).
type Summary struct {
	URLs        int64            `json:"urls"`
	Results     int64            `json:"results"`
	BadLines    int64            `json:"bad_lines"`
	Allowed     int64            `json:"allowed"`
	Disallowed  int64            `json:"disallowed"`
	Policies    map[string]int64 `json:"policies"`
	Sources     map[string]int64 `json:"origins_by_source"`
	Origins     int64            `json:"origins"`
	Fetches     Fetches          `json:"fetches"`
	Fleet       Fleet            `json:"fleet"`
	Store       string           `json:"store"`
	Degraded    bool             `json:"store_degraded"`
	StoreNote   string           `json:"store_message,omitempty"`
	Seconds     float64          `json:"seconds"`
	URLsPerSec  float64          `json:"urls_per_second"`
	Interrupted bool             `json:"interrupted"`
	// Priced counts the origins whose robots.txt answered 402 Payment
	// Required (pay per crawl: offered at a price; read as any 4xx, so
	// allow-all); absent when none did.
	Priced int64 `json:"priced_origins,omitempty"`
}

// Fetches are the origins fetched, by outcome.
type Fetches struct {
	Made        uint64 `json:"made"`
	Rules       uint64 `json:"rules"`
	AllowAll    uint64 `json:"allow_all"`
	DisallowAll uint64 `json:"disallow_all"`
	Unreachable uint64 `json:"unreachable"`
	NotModified uint64 `json:"not_modified"`
	Errors      uint64 `json:"errors"`
}

// Fleet is what the leases of a shared store did.
type Fleet struct {
	Leases       uint64 `json:"leases"`
	Waits        uint64 `json:"waits"`
	Shared       uint64 `json:"answered_by_another_process"`
	Expired      uint64 `json:"fetched_after_lease_expired"`
	LocalFetches uint64 `json:"fetched_alone_store_unreachable"`
}

// run runs the checks of cfg over in, writing results to out.
func run(ctx context.Context, cfg config, in io.Reader, out io.Writer) (Summary, error) {
	start := time.Now()
	sum := Summary{Policies: map[string]int64{}, Sources: map[string]int64{}, Store: cfg.storeName}
	// The cache's counts before the run: the summary's are the run's (a
	// cache may serve other runs before and at once).
	s0 := cfg.cache.Stats()
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if cfg.done == nil {
		cfg.done = new(atomic.Int64)
	}
	if cfg.originBytes <= 0 {
		cfg.originBytes = OriginBytes
	}
	org := newOrigins(ctx, &cfg, max(cfg.window, 16384), cfg.originBytes)
	// The window: batches hand on to the writer. The reader keeps at most
	// two batches a worker ahead of the workers.
	batches := cfg.window/bulkBatchSize + 1
	workers := max(1, runtime.GOMAXPROCS(0))
	order := make(chan *bulkBatch, batches)
	work := make(chan *bulkBatch, 2*workers)
	var readBytes atomic.Int64
	// The reader's error, when it returned: a reader blocked on its input
	// when the run ends returns when the input does, after the run.
	readDone := make(chan error, 1)
	go func() {
		defer close(work)
		defer close(order)
		readDone <- readBulk(ctx, in, org, order, work, &readBytes)
	}()
	for range workers {
		go func() {
			for b := range work {
				bulkFormatBatch(&cfg, b, org)
			}
		}()
	}

	done := cfg.done
	stopProgress := func() {}
	if cfg.progress != nil {
		report := func(last bool) {
			s := cfg.cache.Stats()
			cfg.progress(Progress{URLs: done.Load(), BytesRead: readBytes.Load(), Elapsed: time.Since(start),
				Fetches: s.Fetches - s0.Fetches, Unreachable: s.Unreachable - s0.Unreachable, Done: last})
		}
		tick := time.NewTicker(cfg.every)
		quit := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for {
				select {
				case <-tick.C:
				case <-quit:
					return
				}
				report(false)
			}
		})
		stopProgress = func() {
			tick.Stop()
			close(quit)
			wg.Wait()
			report(true)
		}
	}

	bw := &bulkWriter{w: bufio.NewWriterSize(out, 256<<10), subjects: int64(len(cfg.subjects))}
	if cfg.csv {
		if cfg.anyOrder {
			bw.buf = append(bw.buf, "input_line,"...)
		}
		head := "url," + bulkWho(cfg.subjects) + ",allowed,line,rule,origin,policy,reason,source,error,payment"
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
	stopProgress()
	var readErr error
	select {
	case readErr = <-readDone:
	default: // blocked on its input
	}
	interrupted = interrupted || parent.Err() != nil
	s := cfg.cache.Stats()
	s = cache.Stats{Fetches: s.Fetches - s0.Fetches, Rules: s.Rules - s0.Rules, AllowAll: s.AllowAll - s0.AllowAll,
		DisallowAll: s.DisallowAll - s0.DisallowAll, Unreachable: s.Unreachable - s0.Unreachable,
		NotModified: s.NotModified - s0.NotModified, Errors: s.Errors - s0.Errors, Leases: s.Leases - s0.Leases,
		LeaseWaits: s.LeaseWaits - s0.LeaseWaits, LeaseShared: s.LeaseShared - s0.LeaseShared,
		LeaseExpired: s.LeaseExpired - s0.LeaseExpired, LocalFetches: s.LocalFetches - s0.LocalFetches}
	sum.Origins = org.seen.Load()
	sum.Fetches = Fetches{Made: s.Fetches, Rules: s.Rules, AllowAll: s.AllowAll, DisallowAll: s.DisallowAll,
		Unreachable: s.Unreachable, NotModified: s.NotModified, Errors: s.Errors}
	sum.Fleet = Fleet{Leases: s.Leases, Waits: s.LeaseWaits, Shared: s.LeaseShared, Expired: s.LeaseExpired, LocalFetches: s.LocalFetches}
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
		return sum, fmt.Errorf("writing the results: %w", werr)
	case readErr != nil && !interrupted:
		return sum, readErr
	case interrupted:
		return sum, ErrInterrupted
	}
	return sum, nil
}
