package bulk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// MaxLine bounds an input line; a longer one gets an error result, and is
// read past without being held.
const MaxLine = 1 << 20

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
			// Keep up to MaxLine bytes; read past the rest.
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.ReadSlice('\n')
				read.Add(int64(len(line)))
				if len(long)+len(line) <= MaxLine {
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
						// Say what is wrong with what the user wrote, not
						// with its normalised form ("not a url", not
						// "not%20a%20url").
						if _, raw := fetch.OriginOf(it.url); raw != nil {
							oerr = raw
						}
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

// originOf returns fetch.OriginOf(u). An origin is read from the URL's
// head alone (its scheme and authority, robotstxt.URLHead of the URL
// trimmed, as fetch.OriginOf reads it), so a URL whose head is remembered
// has the remembered origin, whatever its path; any other is read whole,
// and only successes are remembered.
func (c *originCache) originOf(u string) (fetch.Origin, **originState, error) {
	head := robotstxt.URLHead(strings.TrimSpace(u))
	if h, ok := c.m[head]; ok {
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
	c.m[strings.Clone(head)] = h
	return o, &h.state, nil
}

// bulkParse reads one input line into it; false means a line to skip.
func bulkParse(it *bulkItem, line []byte, lineNo int, tooLong bool) bool {
	it.lineNo = lineNo
	if tooLong {
		it.err = fmt.Sprintf("line %d: longer than %d bytes", lineNo, MaxLine)
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
