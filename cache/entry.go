package cache

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// entry is what the cache keeps for one origin: the last good copy, if any,
// and the state of the current failure streak, if any.
type entry struct {
	// The copy: the last answer that said something about the file (a
	// body, or a 4xx meaning no robots.txt).
	ID          uint64 // names the copy's body for the parsed-file map
	HasCopy     bool
	Policy      fetch.Policy
	Status      int
	Reason      string
	Body        []byte
	Truncated   bool
	Validators  fetch.Validators
	FetchedAt   time.Time // when the copy was fetched
	ValidatedAt time.Time // when it was last confirmed (fetched, or 304)
	ExpiresAt   time.Time // fresh until then

	// The failure streak: set while refreshes fail (5xx, 429, network).
	Failures     int
	FailingSince time.Time // the first failure of the streak
	NextRetry    time.Time
	FailPolicy   fetch.Policy // what the failed fetch meant, without a copy
	FailStatus   int
	FailReason   string

	LastAttempt time.Time
	Trace       []fetch.Request // of the last fetch
}

func (e *entry) failing() bool { return e.Failures > 0 }

// entryVersion is the first byte of an encoded entry. A value with another
// first byte is not understood and reads as a miss. Version 2 added the
// checksum; version 3 the pay per crawl headers of each traced request
// (crawler-price, crawler-charged, crawler-error). Version 2 entries are
// still read.
const entryVersion = 3

// checksumSize is the length of the checksum that ends an encoded entry:
// CRC-32C (Castagnoli) of the bytes before it, big-endian. A bit flipped in
// a stored entry, anywhere, by a damaged disk or file makes a miss rather
// than other rules.
const checksumSize = 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

const (
	flagCopy = 1 << iota
	flagTruncated
)

// maxTrace bounds the trace kept in an entry (a fetch makes at most six
// requests).
const maxTrace = 16

// encode writes e in the store's format: a version byte, then the fields in
// a fixed order as varints and length-prefixed strings, then a checksum.
func (e *entry) encode() []byte {
	n := 128 + checksumSize + len(e.Body) + len(e.Reason) + len(e.FailReason)
	for _, r := range e.Trace {
		n += 64 + len(r.URL) + len(r.Location) + len(r.Err)
	}
	b := make([]byte, 0, n)
	var flags byte
	if e.HasCopy {
		flags |= flagCopy
	}
	if e.Truncated {
		flags |= flagTruncated
	}
	b = append(b, entryVersion, flags)
	b = binary.AppendUvarint(b, e.ID)
	b = append(b, byte(e.Policy))
	b = binary.AppendVarint(b, int64(e.Status))
	b = appendString(b, e.Reason)
	b = appendString(b, string(e.Body))
	b = appendString(b, e.Validators.ETag)
	b = appendString(b, e.Validators.LastModified)
	b = appendTime(b, e.FetchedAt)
	b = appendTime(b, e.ValidatedAt)
	b = appendTime(b, e.ExpiresAt)
	b = binary.AppendUvarint(b, uint64(e.Failures))
	b = appendTime(b, e.FailingSince)
	b = appendTime(b, e.NextRetry)
	b = append(b, byte(e.FailPolicy))
	b = binary.AppendVarint(b, int64(e.FailStatus))
	b = appendString(b, e.FailReason)
	b = appendTime(b, e.LastAttempt)
	trace := e.Trace[:min(len(e.Trace), maxTrace)]
	b = binary.AppendUvarint(b, uint64(len(trace)))
	for _, r := range trace {
		b = appendString(b, r.URL)
		b = binary.AppendVarint(b, int64(r.Status))
		b = binary.AppendVarint(b, r.Bytes)
		if r.Truncated {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		for _, s := range []string{r.Location, r.ContentType, r.ContentEncoding, r.CacheControl, r.ETag, r.LastModified, r.RetryAfter, r.Err,
			r.CrawlerPrice, r.CrawlerCharged, r.CrawlerError} {
			b = appendString(b, s)
		}
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendTime(b []byte, t time.Time) []byte {
	if t.IsZero() {
		return binary.AppendVarint(b, math.MinInt64)
	}
	return binary.AppendVarint(b, t.UnixNano())
}

var errCorrupt = errors.New("cache: corrupt entry")

// decoder reads an encoded entry; the first error sticks.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() { d.err, d.b = errCorrupt, nil }

func (d *decoder) byte() byte {
	if len(d.b) < 1 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int {
	v := d.varint()
	if v < math.MinInt32 || v > math.MaxInt32 {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) time() time.Time {
	v := d.varint()
	if v == math.MinInt64 {
		return time.Time{}
	}
	return time.Unix(0, v)
}

func (d *decoder) policy() fetch.Policy {
	p := fetch.Policy(d.byte())
	switch p {
	case 0, fetch.Rules, fetch.AllowAll, fetch.DisallowAll:
		return p
	}
	d.fail()
	return 0
}

// decodeEntry reads an encoded entry. Anything it does not understand (an
// unknown version, a cut or altered value) is an error, never a panic; the
// cache reads it as a miss.
func decodeEntry(b []byte) (*entry, error) {
	if len(b) < 2+checksumSize || b[0] != entryVersion && b[0] != 2 {
		return nil, errCorrupt
	}
	sum := binary.BigEndian.Uint32(b[len(b)-checksumSize:])
	b = b[:len(b)-checksumSize]
	if crc32.Checksum(b, castagnoli) != sum {
		return nil, errCorrupt
	}
	version := b[0]
	d := &decoder{b: b[1:]}
	e := &entry{}
	flags := d.byte()
	e.HasCopy, e.Truncated = flags&flagCopy != 0, flags&flagTruncated != 0
	e.ID = d.uvarint()
	e.Policy = d.policy()
	e.Status = d.int()
	e.Reason = d.string()
	if body := d.string(); body != "" {
		e.Body = []byte(body)
	}
	e.Validators.ETag = d.string()
	e.Validators.LastModified = d.string()
	e.FetchedAt = d.time()
	e.ValidatedAt = d.time()
	e.ExpiresAt = d.time()
	failures := d.uvarint()
	if failures > math.MaxInt32 {
		d.fail()
	}
	e.Failures = int(failures)
	e.FailingSince = d.time()
	e.NextRetry = d.time()
	e.FailPolicy = d.policy()
	e.FailStatus = d.int()
	e.FailReason = d.string()
	e.LastAttempt = d.time()
	n := d.uvarint()
	if n > maxTrace {
		d.fail()
	}
	for i := uint64(0); i < n && d.err == nil; i++ {
		var r fetch.Request
		r.URL = d.string()
		r.Status = d.int()
		r.Bytes = d.varint()
		r.Truncated = d.byte() == 1
		for _, s := range []*string{&r.Location, &r.ContentType, &r.ContentEncoding, &r.CacheControl, &r.ETag, &r.LastModified, &r.RetryAfter, &r.Err} {
			*s = d.string()
		}
		if version >= 3 {
			r.CrawlerPrice, r.CrawlerCharged, r.CrawlerError = d.string(), d.string(), d.string()
		}
		e.Trace = append(e.Trace, r)
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(d.b) != 0 {
		return nil, errCorrupt
	}
	if e.HasCopy && e.Policy == 0 || e.failing() && e.FailPolicy == 0 || !e.HasCopy && !e.failing() {
		return nil, errCorrupt
	}
	return e, nil
}
