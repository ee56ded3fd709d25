package robotstxt

import (
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// DefaultMaxBytes is how much of a robots.txt body is read: 500 KiB, the
// least RFC 9309 requires crawlers to parse and what Google reads.
const DefaultMaxBytes = 500 * 1024

// ParseOptions change how [ParseWith] reads a body. The zero value gives the
// defaults of [Parse].
type ParseOptions struct {
	// MaxBytes is how many bytes of the body are parsed; the rest is
	// ignored and Truncated reports it. Zero means DefaultMaxBytes; a
	// negative value means no limit.
	MaxBytes int
	// Size is the length of the whole body when the caller holds only
	// its first part (a fetcher that stopped reading at its limit): Size
	// and Truncated then report it, and Yandex-dialect questions treat the
	// file as the oversized one it is. Zero, or a value not over
	// len(body), means the body is whole.
	Size int
	// Extensions are the lines beyond the dialects' own that every
	// reading of the file reads (ExtWebBotAuth); zero reads none, and
	// such lines are unknown, as without options.
	Extensions Extensions
}

// Robots is a parsed robots.txt file. It is immutable and safe for
// concurrent use; parse a file once and ask it any number of questions.
type Robots struct {
	google compiled // the google reading; bing and yandex share it

	body      string // the parsed bytes (after the size cut)
	size      int    // the length of the body as given
	truncated bool

	rfcOnce  sync.Once
	rfc      *compiled
	origOnce sync.Once
	orig     *compiled
	baiOnce  sync.Once
	bai      *compiled

	lines lineIndex
	fp    footprint
}

// footprint is what Footprint computes: the bound of the google reading,
// computed once, and what the other readings add once built.
type footprint struct {
	once sync.Once
	base int64
	more atomic.Int64
}

// Parse parses a robots.txt body. It never fails: lines it cannot read are
// skipped, as RFC 9309 §2.3.1.5 asks, and the line report ([Robots.Lines])
// says what each line was. At most [DefaultMaxBytes] are read. The body is
// copied; the caller may reuse it.
func Parse(body []byte) *Robots {
	return ParseWith(body, nil)
}

// ParseString is Parse for a body held in a string. The string is kept as
// it is rather than copied (a string cannot change), unless it is longer
// than the size limit: then the part parsed is copied, so that the rest is
// not kept alive.
func ParseString(body string) *Robots {
	return parseString(body, nil)
}

// ParseWith is Parse with options; nil options mean the defaults.
func ParseWith(body []byte, opts *ParseOptions) *Robots {
	return parse(body, opts)
}

func limitOf(opts *ParseOptions) int {
	if opts == nil || opts.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return opts.MaxBytes
}

func parseString(body string, opts *ParseOptions) *Robots {
	return parse(body, opts)
}

// parse cuts body to the size limit, copies it once and reads it.
func parse[T string | []byte](body T, opts *ParseOptions) *Robots {
	r := &Robots{size: len(body)}
	if opts != nil && opts.Size > len(body) {
		r.size, r.truncated = opts.Size, true
	}
	cut := false
	if limit := limitOf(opts); limit >= 0 && len(body) > limit {
		body, r.truncated, cut = body[:limit], true, true
	}
	switch b := any(body).(type) {
	case string:
		// A string cannot change: it is kept as it is, unless it is
		// the first part of a longer one, which it would keep alive.
		if cut {
			b = strings.Clone(b)
		}
		r.body = b
	case []byte:
		r.body = string(b) // one copy (the runtime does not clear it first)
	}
	if opts != nil {
		r.google.extensions = opts.Extensions
	}
	r.google.build(r.body, Google)
	return r
}

// Extensions returns the extensions the file was parsed with
// (ParseOptions.Extensions).
func (r *Robots) Extensions() Extensions { return r.google.extensions }

// Compile compiles the rules of every group now, for every question in the
// google reading (and so bing and yandex), instead of on the first question
// that needs them. A server that wants the same latency for every question
// calls it once after Parse; a crawler that asks about one or two user
// agents need not, and then never pays for the groups of other crawlers.
// Compile also builds the index of every large set (over 256 rules, or
// over 128 that one block would not bucket well), which
// Allowed otherwise builds only after a few questions about the set (see
// Allowed): after Compile, no question in this reading allocates, and
// Allowed answers every question from the compiled sets rather than its
// first ones from the parsed lines.
func (r *Robots) Compile() {
	c := r.compiledFor(Google)
	for i := range c.fast {
		c.set(c.fast[i].set)
	}
	if c.global != noSet {
		c.set(c.global)
	}
}

// Truncated reports whether the body was longer than the size limit and
// only its first part was parsed.
func (r *Robots) Truncated() bool { return r.truncated }

// Size returns the length in bytes of the body as it was given, before any
// cut (or ParseOptions.Size when larger). Over DefaultMaxBytes, Yandex-dialect
// questions allow everything (Dialect.IgnoresOversized).
func (r *Robots) Size() int { return r.size }

// Body returns the part of the body that was parsed.
func (r *Robots) Body() string { return r.body }

// compiledFor returns the compiled reading dialect d uses, building it on first use.
func (r *Robots) compiledFor(d Dialect) *compiled {
	switch d {
	case RFC9309:
		return r.lazyReading(&r.rfcOnce, &r.rfc, d)
	case Original:
		return r.lazyReading(&r.origOnce, &r.orig, d)
	case Baidu:
		return r.lazyReading(&r.baiOnce, &r.bai, d)
	}
	r.google.prepare()
	return &r.google
}

// lazyReading builds, on first use, a reading of the body other than
// Google's.
func (r *Robots) lazyReading(once *sync.Once, c **compiled, d Dialect) *compiled {
	once.Do(func() {
		*c = new(compiled)
		(*c).extensions = r.google.extensions
		(*c).build(r.body, d)
		r.fp.more.Add(roundAlloc(int64(unsafe.Sizeof(compiled{}))) + withRounding((*c).footprint()))
	})
	(*c).prepare()
	return *c
}
