// Package engine is the Go side of the robotstxt bindings: the C ABI
// (bindings/capi) and the WebAssembly module (bindings/wasm) are thin
// shells over it. It keeps parsed files in a table of integer handles, so
// that no Go pointer ever leaves Go, answers questions about them with the
// core package and the fetch package's status policy, and turns every
// panic into an error, so that a bad input never brings down the host.
//
// Rich answers (a decision with its rule and group, a pace, the usage
// preferences, a file's sitemaps) are JSON documents whose members
// docs/bindings.md lists; the question the hosts ask most, Ask, returns
// the verdict and the deciding line as plain integers.
package engine

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// How an agent string names who asks.
const (
	// AgentToken is a product token, matched as given (Google's
	// OneAgentAllowedByRobots: "Googlebot", "FooBot").
	AgentToken = 0
	// AgentHeader is a User-Agent header value: its product token is
	// taken with robotstxt.ProductToken ("Scrapy/2.8 (+https://...)" asks
	// as "Scrapy", "Mozilla/5.0 (compatible; ExampleBot/1.0)" as
	// "ExampleBot").
	AgentHeader = 1
	// AgentCrawler is the name of a crawler of the catalogue
	// (robotstxt.LookupCrawler): its fallback tokens, whether it obeys the
	// '*' group, and its engine's dialect apply.
	AgentCrawler = 2
)

// MaxHandles bounds the handles alive at once: a host that leaks handles
// gets an error, not a process that grows without end.
const MaxHandles = 1 << 20

// maxDeciders bounds the prepared questions a handle keeps.
const maxDeciders = 32

// entry is one parsed file, or one answer to a robots.txt request.
type entry struct {
	robots *robotstxt.Robots // nil when the answer's policy is not Rules
	answer *fetch.Answer     // nil for a file parsed directly

	mu       sync.Mutex
	deciders map[askKey]*robotstxt.Decider
}

// askKey names a prepared question: who asks, how, in which dialect.
type askKey struct {
	agent   string
	kind    int
	dialect robotstxt.Dialect
}

var (
	tableMu sync.RWMutex
	table   = map[int64]*entry{}
	nextID  atomic.Int64
)

// ErrHandle is the error of a handle that is not (or no longer) alive.
var ErrHandle = errors.New("robotstxt: unknown handle (never returned by parse, or already freed)")

// guard turns a panic into an error, so that the host process survives.
func guard(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("robotstxt: internal error: %v", p)
	}
}

func store(e *entry) (int64, error) {
	tableMu.Lock()
	defer tableMu.Unlock()
	if len(table) >= MaxHandles {
		return 0, fmt.Errorf("robotstxt: %d handles alive: free some (free) before parsing more", MaxHandles)
	}
	id := nextID.Add(1)
	table[id] = e
	return id, nil
}

func lookup(h int64) (*entry, error) {
	tableMu.RLock()
	e := table[h]
	tableMu.RUnlock()
	if e == nil {
		return nil, ErrHandle
	}
	return e, nil
}

// Parse parses a robots.txt body (its first robotstxt.DefaultMaxBytes) and
// returns a handle to it: a positive integer, alive until Free. The part
// of the body parsed is copied: body may be borrowed memory.
func Parse(body []byte) (h int64, err error) {
	defer guard(&err)
	return store(&entry{robots: robotstxt.Parse(body)})
}

// ForStatus applies the fetch policy of dialect d (fetch.Interpret) to the
// final answer of a robots.txt request: its HTTP status (0 for no answer),
// Content-Type (may be "") and body. It returns a handle that answers every
// question under that policy (allow all, disallow all, or the body's
// rules), with the policy: 1 rules, 2 allow all, 3 disallow all (the
// numbers of fetch.Policy; Info names it).
// The body is copied when parsed: it may be borrowed memory.
func ForStatus(status int, contentType string, body []byte, d int) (h int64, policy int, err error) {
	defer guard(&err)
	dialect, err := dialectOf(d)
	if err != nil {
		return 0, 0, err
	}
	if status < 0 || status > 999 {
		return 0, 0, fmt.Errorf("robotstxt: HTTP status %d out of range (0 for no answer, else 100-999)", status)
	}
	var header map[string][]string
	if contentType != "" {
		header = map[string][]string{"Content-Type": {contentType}}
	}
	a := fetch.Interpret(status, header, body, dialect)
	h, err = store(&entry{robots: a.Robots, answer: a})
	return h, int(a.Policy), err
}

// Free releases a handle; freeing a handle that is not alive does nothing.
func Free(h int64) {
	tableMu.Lock()
	delete(table, h)
	tableMu.Unlock()
}

// Alive returns the number of handles alive (for tests and leak checks).
func Alive() int {
	tableMu.RLock()
	defer tableMu.RUnlock()
	return len(table)
}

// Dialect returns the number of a dialect by its name ("google", "rfc9309",
// "bing", "yandex", "baidu", "original"; "" or "default" for 0).
func Dialect(name string) (d int, err error) {
	defer guard(&err)
	if name == "" {
		return 0, nil
	}
	v, err := robotstxt.ParseDialect(name)
	return int(v), err
}

func dialectOf(d int) (robotstxt.Dialect, error) {
	if d < 0 || d > int(robotstxt.Baidu) {
		return 0, fmt.Errorf("robotstxt: unknown dialect number %d (0 default, 1 google, 2 rfc9309, 3 bing, 4 yandex, 5 original, 6 baidu)", d)
	}
	return robotstxt.Dialect(d), nil
}

// query builds the question of an agent string of the given kind.
func query(agent string, kind, d int) (robotstxt.Query, error) {
	dialect, err := dialectOf(d)
	if err != nil {
		return robotstxt.Query{}, err
	}
	q := robotstxt.Query{Dialect: dialect}
	switch kind {
	case AgentToken:
		q.Agents = []string{agent}
	case AgentHeader:
		q.Agents = []string{robotstxt.ProductToken(agent)}
	case AgentCrawler:
		c, ok := robotstxt.LookupCrawler(agent)
		if !ok {
			return q, fmt.Errorf("robotstxt: unknown crawler %q (not in the catalogue: ask with its product token instead)", agent)
		}
		q.Crawler = &c
	default:
		return q, fmt.Errorf("robotstxt: unknown agent kind %d (0 product token, 1 User-Agent header, 2 catalogue crawler)", kind)
	}
	return q, nil
}

// decider returns the prepared question of agent for a parsed file, or,
// the first time agent asks (when most files are asked one question or
// two), nil and the query to answer with Robots.Decide, which compiles
// only what that question needs.
func (e *entry) decider(agent string, kind, d int) (*robotstxt.Decider, robotstxt.Query, error) {
	key := askKey{agent, kind, robotstxt.Dialect(d)}
	e.mu.Lock()
	p, seen := e.deciders[key]
	e.mu.Unlock()
	if p != nil {
		return p, robotstxt.Query{}, nil
	}
	q, err := query(agent, kind, d)
	if err != nil {
		return nil, q, err
	}
	if seen {
		p = e.robots.Decider(q)
	}
	key.agent = strings.Clone(agent) // the caller's string may be borrowed memory
	e.mu.Lock()
	if e.deciders == nil || len(e.deciders) >= maxDeciders {
		e.deciders = make(map[askKey]*robotstxt.Decider)
	}
	e.deciders[key] = p
	e.mu.Unlock()
	return p, q, nil
}

// decide answers a question about a handle: through the answer's policy
// when the handle came from ForStatus, else from the file's rules.
func (e *entry) decide(agent string, kind int, url string, d int) (robotstxt.Decision, error) {
	if e.robots == nil {
		q, err := query(agent, kind, d)
		if err != nil {
			return robotstxt.Decision{}, err
		}
		q.URL = url
		return e.answer.Decide(q), nil
	}
	if e.answer != nil && d == 0 && kind != AgentCrawler {
		d = int(e.answer.Dialect)
	}
	p, q, err := e.decider(agent, kind, d)
	if err != nil {
		return robotstxt.Decision{}, err
	}
	if p == nil {
		q.URL = url
		return e.robots.Decide(q), nil
	}
	return p.Decide(url), nil
}

// Ask answers whether the agent may fetch url, and the deciding rule's
// line (0 when none: Google's matching line).
func Ask(h int64, agent string, kind int, url string, d int) (allowed bool, line int, err error) {
	defer guard(&err)
	e, err := lookup(h)
	if err != nil {
		return false, 0, err
	}
	dec, err := e.decide(agent, kind, url, d)
	return dec.Allowed, dec.Line(), err
}

// Allowed answers whether the agent may fetch url, without the line: for
// a product token or a User-Agent header in Google's reading (the
// default dialect, or google), through Robots.Allowed, the core's fast
// path that allocates nothing; otherwise as Ask.
func Allowed(h int64, agent string, kind int, url string, d int) (allowed bool, err error) {
	defer guard(&err)
	e, err := lookup(h)
	if err != nil {
		return false, err
	}
	google := d == int(robotstxt.Google) || d == 0 && (e.answer == nil || e.answer.Dialect == robotstxt.Google)
	if e.robots != nil && google && (kind == AgentToken || kind == AgentHeader) {
		if kind == AgentHeader {
			agent = robotstxt.ProductToken(agent)
		}
		return e.robots.Allowed(agent, url), nil
	}
	dec, err := e.decide(agent, kind, url, d)
	return dec.Allowed, err
}

// Token returns the product token of a User-Agent header value
// (robotstxt.ProductToken).
func Token(userAgent string) (token string, err error) {
	defer guard(&err)
	return robotstxt.ProductToken(userAgent), nil
}
