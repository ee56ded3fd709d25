package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/bulk"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
)

// POST /v1/bulk checks a crawl frontier with the engine of robotstxt bulk
// (package bulk): each URL asked about for each crawler under its origin's
// live robots.txt, fetched through the server's caches (so through its
// address guard, and stored in its store: one fetch an origin for every
// client of the service). The answer is streamed as JSON Lines
// (application/x-ndjson), one result a line, in input order or as soon
// as known, each line as robotstxt bulk writes it.
//
// The body is JSON (Content-Type: application/json) of one of two shapes:
//
//   - one object, BulkRequest: {"urls": [...], "crawlers": [...], ...};
//   - JSON Lines, one object a line with a "url" member (the input of
//     robotstxt bulk: the other members are copied to the line's
//     results), the options in the query string: crawlers and agents
//     (comma-separated), dialect, usage, refresh and order.
//
// It is bounded as the other routes are: the body by MaxBodyBytes, the
// questions (URLs x crawlers and agents) by MaxQuestions and the answer by
// MaxAnswerBytes (413 before the first byte when the estimate is past
// them; an answer found larger as it goes is cut), the memory the run
// holds (its window of URLs, the answers it keeps, its fetches) out of
// MaxInFlightBytes (503 when busy). The run stops when the client goes
// away, and at the request's deadline: before the first result 504, after
// it the connection is closed, so that no client takes a part for the
// whole.

// BulkRequest is the body of POST /v1/bulk given as one JSON object.
type BulkRequest struct {
	URLs     []string `json:"urls"`
	Crawlers []string `json:"crawlers"`
	Agents   []string `json:"agents"`
	Dialect  string   `json:"dialect"`
	Usage    bool     `json:"usage"`
	Refresh  bool     `json:"refresh"`
	// Order is "input" (the default) or "any".
	Order string `json:"order"`
}

// bulkParams are the query parameters of a POST /v1/bulk whose body is
// JSON Lines: BulkRequest's options.
var bulkParams = []string{"crawlers", "agents", "dialect", "usage", "refresh", "order"}

// ndjsonContentType is the Content-Type of a bulk answer.
var ndjsonContentType = []string{"application/x-ndjson"}

// The bounds of one bulk request's run: the origins it fetches at once
// and the answers it keeps, scaled to the memory all requests share (an
// eighth of it in fetches, a sixteenth in answers), and its window of URLs.
const (
	bulkMaxConcurrency = 16
	bulkMinOriginBytes = 2 << 20
	bulkMaxOriginBytes = 32 << 20
	bulkWindow         = 4096
	// bulkURLBytes is what a URL read and not yet written holds beside
	// its results: its item, its text as given and normalised.
	bulkURLBytes = 256
)

// bulkInput is a validated POST /v1/bulk.
type bulkInput struct {
	body     []byte // the run's input: JSON Lines, or a URL a line
	urls     int    // lines of body that may be URLs
	subjects []bulk.Subject
	names    int64 // bytes of the subjects' names
	dialect  robotstxt.Dialect
	usage    bool
	refresh  bool
	order    bulk.Order
}

func (s *Server) handleBulk(w http.ResponseWriter, r *http.Request) error {
	in, e := s.bulkInput(w, r)
	if e != nil {
		return e
	}
	concurrency := int(min(bulkMaxConcurrency, max(1, s.admit.work.capacity/(8*liveWeight))))
	originBytes := min(bulkMaxOriginBytes, max(bulkMinOriginBytes, s.admit.work.capacity/16))
	c := bulkCost(in, concurrency, originBytes)
	if e := s.checkLimits(c); e != nil {
		return e
	}
	release, e := s.acquire(r.Context(), s.admit.work, c.memory)
	if e != nil {
		return e
	}
	defer release()
	fetchDialect := in.dialect
	if fetchDialect == robotstxt.DefaultDialect {
		fetchDialect = robotstxt.Google
	}
	h := storeopen.Health(s.store)
	checker, err := bulk.New(&bulk.Options{
		Cache: s.caches[fetchDialect], Subjects: in.subjects, Dialect: in.dialect, Order: in.order,
		Usage: in.usage, Refresh: in.refresh, Concurrency: concurrency, Window: bulkWindow,
		OriginBytes: originBytes, StoreName: publicStoreName(h),
	})
	if err != nil {
		return &Error{Message: err.Error()}
	}
	ctx := r.Context()
	sw := &stallWriter{ResponseWriter: w, rc: http.NewResponseController(w), stall: s.opts.StallTimeout}
	bw := &bulkWriter{w: sw, rc: sw.rc, max: s.opts.MaxAnswerBytes}
	sum, err := checker.Run(ctx, bytes.NewReader(in.body), bw)
	switch {
	case err == nil:
		if !bw.started {
			bw.start() // no URL in the body: an empty answer
		}
		return nil
	case bw.started:
		if sw.stalled(err) {
			s.metrics.stalls.Inc()
		}
		// A part was sent: break the connection, so that the client does
		// not take it for the whole.
		s.log.Warn("bulk answer cut", "err", err, "results", sum.Results, "client", s.clientIP(r).String())
		panic(http.ErrAbortHandler)
	case errors.Is(err, errAnswerTooLarge):
		return s.answerTooLarge(0)
	case ctx.Err() != nil || errors.Is(err, bulk.ErrInterrupted):
		// The request's end, not the fetch's error it caused.
		return s.failure(ctx, ctx.Err())
	default:
		return err
	}
}

// bulkCost is what a bulk request asks for: its questions, its answer's
// bytes (estimated: each result's JSON with its URL and the members its
// input line copies) and the memory its run holds.
func bulkCost(in *bulkInput, concurrency int, originBytes int64) cost {
	subjects := int64(len(in.subjects))
	per := int64(checkResultBytes)
	if in.usage {
		per += usageResultBytes
	}
	urls := int64(in.urls)
	answer := subjects * (int64(len(in.body)) + urls*per + urls*in.names/max(1, subjects))
	window := min(urls, bulkWindow)
	memory := int64(concurrency)*liveWeight + originBytes +
		window*(bulkURLBytes+subjects*per) + 2*int64(len(in.body))/max(1, urls)*window
	return cost{what: "bulk", urls: in.urls, subjects: int(subjects), questions: urls * subjects, answer: answer, memory: memory}
}

// bulkInput reads and validates a POST /v1/bulk: its body (whole, at most
// MaxBodyBytes, which postGate holds the memory of) and its options.
func (s *Server) bulkInput(w http.ResponseWriter, r *http.Request) (*bulkInput, *Error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		return nil, readFailure(err, "; send the URLs in several requests")
	}
	if lines, ok := jsonLines(body); ok {
		return bulkLinesInput(body, lines, r.URL.Query())
	}
	if e := onlyParams(r.URL.Query()); e != nil {
		e.Message += " (a body of one JSON object gives its options in it)"
		return nil, e
	}
	var req BulkRequest
	if e := decodeFrom(bytes.NewReader(body), &req); e != nil {
		return nil, e
	}
	return bulkObjectInput(&req)
}

// jsonLines reports whether body is JSON Lines of the input of robotstxt
// bulk: its first line an object with a "url" member. It returns the lines
// that may be URLs (not blank, not # comments).
func jsonLines(body []byte) (int, bool) {
	first, _, _ := bytes.Cut(body, []byte{'\n'})
	first = bytes.TrimSpace(first)
	if len(first) == 0 || first[0] != '{' {
		return 0, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(first, &m) != nil {
		return 0, false
	}
	if _, ok := m["url"]; !ok {
		return 0, false
	}
	n := 0
	for line := range bytes.Lines(body) {
		if line = bytes.TrimSpace(line); len(line) > 0 && line[0] != '#' {
			n++
		}
	}
	return n, true
}

// bulkLinesInput validates a JSON Lines body's options, given in q.
func bulkLinesInput(body []byte, lines int, q url.Values) (*bulkInput, *Error) {
	if e := onlyParams(q, bulkParams...); e != nil {
		return nil, e
	}
	list := func(k string) []string {
		if v := q.Get(k); v != "" {
			return strings.Split(v, ",")
		}
		return nil
	}
	flag := func(k string) (bool, *Error) {
		v := q.Get(k)
		if v == "" {
			return false, nil
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, badField(k, "want true or false, not %q", clip(v))
		}
		return b, nil
	}
	usage, e := flag("usage")
	if e != nil {
		return nil, e
	}
	refresh, e := flag("refresh")
	if e != nil {
		return nil, e
	}
	in, e := bulkOptions(list("crawlers"), list("agents"), q.Get("dialect"), q.Get("order"), usage, refresh)
	if e != nil {
		return nil, e
	}
	in.body, in.urls = body, lines
	return in, nil
}

// bulkObjectInput validates a BulkRequest, and writes its URLs as the run's
// input: a URL a line as it is when it reads back the same, else as a JSON
// line {"url": ...} (a URL with a line end, spaces around it, or that
// starts as a comment or an object would).
func bulkObjectInput(req *BulkRequest) (*bulkInput, *Error) {
	if len(req.URLs) == 0 {
		return nil, badField("urls", "give at least one URL")
	}
	in, e := bulkOptions(req.Crawlers, req.Agents, req.Dialect, req.Order, req.Usage, req.Refresh)
	if e != nil {
		return nil, e
	}
	var b []byte
	for _, u := range req.URLs {
		if u != "" && u[0] != '#' && u[0] != '{' && strings.TrimSpace(u) == u && !strings.ContainsAny(u, "\r\n") && utf8.ValidString(u) {
			b = append(append(b, u...), '\n')
			continue
		}
		line, _ := json.Marshal(struct {
			URL string `json:"url"`
		}{u})
		b = append(append(b, line...), '\n')
	}
	in.body, in.urls = b, len(req.URLs)
	return in, nil
}

// bulkOptions validates the options of a bulk request, as check's are.
func bulkOptions(crawlers, agents []string, dialect, order string, usage, refresh bool) (*bulkInput, *Error) {
	if _, e := checkCrawlers(crawlers); e != nil {
		return nil, e
	}
	if e := checkAgents("agents", agents); e != nil {
		return nil, e
	}
	d, e := checkDialect(dialect)
	if e != nil {
		return nil, e
	}
	in := &bulkInput{dialect: d, usage: usage, refresh: refresh}
	switch order {
	case "", "input":
	case "any":
		in.order = bulk.AnyOrder
	default:
		return nil, badField("order", "want input or any, not %q", clip(order))
	}
	subjects, err := bulk.Subjects(crawlers, agents)
	if err != nil {
		return nil, &Error{Status: http.StatusBadRequest, Message: plainText(err.Error())}
	}
	in.subjects = subjects
	for _, s := range subjects {
		in.names += int64(len(s.Label))
	}
	return in, nil
}

// bulkWriter is the writer of a bulk answer: it sends the status and
// headers with the first results, sends each piece at once (the run writes
// in pieces, and before it waits), and refuses to write past max bytes.
type bulkWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	max     int64
	written int64
	started bool
}

func (b *bulkWriter) start() {
	h := b.w.Header()
	h["Content-Type"] = ndjsonContentType
	h["Cache-Control"] = noStore
	b.w.WriteHeader(http.StatusOK)
	b.started = true
}

func (b *bulkWriter) Write(p []byte) (int, error) {
	if b.written+int64(len(p)) > b.max {
		return 0, errAnswerTooLarge
	}
	if !b.started {
		b.start()
	}
	n, err := b.w.Write(p)
	b.written += int64(n)
	if err == nil {
		err = b.rc.Flush()
	}
	return n, err
}
