package robotstxt

import (
	"runtime"
	"strings"
	"unsafe"
)

// Footprint returns an upper bound of the bytes r keeps on the heap: its
// copy of the body, the groups and lines parsing read from it, and what
// questions build later, however many are asked, in the reading Google,
// Bing and Yandex share: the token table, every rule set compiled (see
// [Robots.Compile]), the line index behind [Robots.Line] and rule texts,
// and the usage table the first [Robots.Usage] question builds from the
// Content-Usage and Content-Signal lines (shared by every [Decider]; it
// keeps at most 16 bytes per input byte with the parse).
// It does not count what the caller holds (decisions, groups, the lines of
// an iteration).
//
// The RFC 9309 and original draft readings are built on the first question
// in those dialects; from then on Footprint counts them too, with what
// their own questions can build. So the bound can grow, once per reading.
//
// A cache of parsed files weighs its entries with it. The first call
// prepares the token table, as the first question does; later calls take
// constant time.
func (r *Robots) Footprint() int64 {
	r.fp.once.Do(func() {
		r.fp.base = roundAlloc(int64(unsafe.Sizeof(*r))) + roundAlloc(int64(len(r.body))) +
			roundAlloc(lineIndexBound(r.body)) + withRounding(r.google.footprint())
	})
	return r.fp.base + r.fp.more.Load()
}

// withRounding adds to n, the bytes of several arrays, what the allocator
// may add to them: size classes round a small array up by at most an
// eighth or so, pages a large one (over 32 KiB) by at most a quarter.
func withRounding(n int64) int64 { return n + n/4 }

// roundAlloc is the size the allocator gives an array of n bytes, or more.
func roundAlloc(n int64) int64 {
	if n <= 32<<10 {
		return n + n/8
	}
	return (n + 8<<10 - 1) &^ (8<<10 - 1)
}

// lineIndexBound bounds the bytes of the line index: four a line.
func lineIndexBound(body string) int64 {
	lines := strings.Count(body, "\n") + strings.Count(body, "\r") + 2
	return 4 * int64(lines)
}

// footprint bounds the bytes the reading keeps, but for the compiled
// struct itself: its parsed lists, and once prepared, its token table and
// rule sets, every one counted as compiled.
func (c *compiled) footprint() int64 {
	c.prepare()
	n := sliceBytes(c.raws) + sliceBytes(c.agents) + sliceBytes(c.groups) + sliceBytes(c.exts) +
		sliceBytes(c.orphans) + sliceBytes(c.globalGroups) +
		sliceBytes(c.ext.sitemaps) + sliceBytes(c.ext.hosts) + sliceBytes(c.ext.cleanParams)
	if c.ai != nil {
		n += c.aiBound()
	}
	for i := range c.exts {
		// With the "HH:MM" a time window may have copied without its colons.
		if c.exts[i].requestRate != nil {
			n += int64(unsafe.Sizeof(RequestRate{})) + 16
		}
		if c.exts[i].visitTime != nil {
			n += int64(unsafe.Sizeof(VisitTime{})) + 16
		}
	}
	// The token table, and the lines of each token.
	n += sliceBytes(c.toks) + sliceBytes(c.slots) + 4*int64(len(c.groups)) + sliceBytes(c.tokLines) +
		sliceBytes(c.setTokAt) + sliceBytes(c.setToks)
	// The indexes of the user-agent lines that questions naming a crawler
	// by another name than a token build (see firstRecord, looseNaming):
	// the lines' values lower-cased in a builder that may have doubled,
	// two ints a line grown by append; two maps with at most a key a line,
	// each a copy of (part of) the value and a short list.
	var values int64
	for _, a := range c.agents {
		values += int64(a.n)
	}
	lines := int64(len(c.agents))
	n += 2*(values+lines) + 16*lines
	n += 2*values + 2*(mapEntry+24+8)*lines
	if len(c.fast) > len(c.fastBuf) {
		n += sliceBytes(c.fast)
	}
	for i := range c.toks {
		n += sliceBytes(c.toks[i].groups)
	}
	// The rule sets: the groups' lines, summed once per group.
	per := make([]setSize, len(c.groups))
	for gi := range c.groups {
		per[gi] = c.groupSize(gi)
	}
	sum := func(groups []int32) setSize {
		var t setSize
		for _, gi := range groups {
			t.rules += per[gi].rules
			t.htm += per[gi].htm
			t.bytes += per[gi].bytes
			t.segs += per[gi].segs
			t.words += per[gi].words
			t.wordBytes += per[gi].wordBytes
			t.segRules += per[gi].segRules
		}
		return t
	}
	n += sliceBytes(c.sets)
	for i := range c.sets {
		n += c.setBound(sum(c.sets[i].groups))
	}
	return n
}

// setSize is what a rule set's bound depends on.
type setSize struct {
	rules int64 // rule lines
	htm   int64 // allow lines that may imply a second rule (index.htm)
	bytes int64 // bytes of their values
	// The literal segments after a '*' (see wildBound): in all, distinct
	// within each group, and the bytes of the distinct ones.
	segs, words, wordBytes int64
	segRules               int64 // the rules with such a segment
}

// groupSize measures the rule lines of group gi.
func (c *compiled) groupSize(gi int) setSize {
	g := &c.groups[gi]
	var t setSize
	var seen map[string]struct{}
	for _, raw := range c.raws[g.lo:g.hi] {
		t.rules++
		t.bytes += int64(raw.n)
		if c.dialect != Original {
			if seen == nil {
				seen = map[string]struct{}{}
			}
			segmentsOf(&t, c.body[raw.off:raw.off+raw.n], seen)
		}
		if raw.allow() && c.dialect == Google && strings.Contains(c.body[raw.off:raw.off+raw.n], "/index.htm") {
			t.htm++
		}
	}
	return t
}

// setBound bounds the bytes a compiled rule set keeps (see compileSet): its
// rules, the patterns normalisation rewrites (up to three bytes for one:
// %XX), and the hot block of a small set or the index of a large one.
func (c *compiled) setBound(t setSize) int64 {
	const rule = int64(unsafe.Sizeof(crule{}))
	all := t.rules + t.htm
	capacity := t.rules + t.rules/8 + 1
	if all > capacity {
		capacity = 2 * all // grown by append
	}
	n := capacity * rule
	// The rewritten patterns, in a builder that may have doubled: Google's
	// escaping only when the body asks for it (see compiled.escape), and
	// the directories implied by index.htm allows.
	var extra int64
	switch {
	case c.dialect == Original:
		extra = t.bytes
	case c.dialect == RFC9309 || c.escape != 0:
		extra = 3 * t.bytes
	}
	if t.htm > 0 {
		extra += t.bytes + t.htm
	}
	n += 2 * extra
	if c.dialect == Original {
		return n
	}
	if all > bigSet {
		// ruleIndex: lits, exact, wild and wgeneric grown by append (at
		// most twice their length each, and together at most all rules),
		// entries (litEntry) and wbucket sized, wstart 257
		// entries.
		n += int64(unsafe.Sizeof(ruleIndex{})) + 2*4*all + 2*4*all + (32+4)*all + 4*257
		n += 2 * 4 * all // litAll, litRun, exactAll and exactRun
		if t.segRules >= wildMin {
			n += c.wildBound(t)
		}
	}
	if all <= hotMax {
		// The hot block (a set of over bigSet rules has one or an
		// index): its header and bucket table, its slots (the rules
		// copied into buckets) and the short patterns it keeps, in
		// whole 128-byte pairs of lines.
		n += 8*(1+(hotBuckets+2)/2+hotWords*maxBucketCopies*max(all, 1)) + min(hotInlineMax*all, 6*t.bytes+t.htm) + 8 + 8*15
	}
	return n
}

// sliceBytes is the size of the array behind s.
func sliceBytes[T any](s []T) int64 {
	var zero T
	return int64(cap(s)) * int64(unsafe.Sizeof(zero))
}

// wildBound bounds the bytes of a set's wildcard index (see buildWild):
// its trie has at most one node a byte of its distinct literal segments
// (words), each rule lists its segments, and each question's scratch (one
// kept, others pooled, at most one a P in use at once) holds two ints a
// word. Arrays grown by append count twice.
func (c *compiled) wildBound(t setSize) int64 {
	grow := int64(1)
	if c.dialect == RFC9309 || c.escape != 0 {
		grow = 3 // a byte may be rewritten as %XX
	}
	nodes := grow*t.wordBytes + 1
	words := t.words + 1
	scratches := int64(runtime.GOMAXPROCS(0)) + 2
	n := int64(unsafe.Sizeof(wildIndex{}))
	n += (4 + 1 + 4 + 4) * nodes                       // first, label, fail, out
	n += 4 * min(maxDense, 257*nodes)                  // dense transitions
	n += (2*int64(unsafe.Sizeof("")) + 12 + 8) * words // words (grown), wordNode, wordLen, wordNext, key bounds
	n += 2 * (4 + 4 + 1 + 4 + 4) * t.rules             // rules, start, tail, keyed twice (grown)
	n += 2 * 4 * t.segs                                // segs (grown)
	n += scratches * (4 + 2*4) * words                 // first, seen (grown)
	return n
}

// segmentsOf adds to t the literal segments of pattern v that a wildcard
// index would hold: those after its first '*'. seen holds the group's
// distinct segments so far.
func segmentsOf(t *setSize, v string, seen map[string]struct{}) {
	i := strings.IndexByte(v, '*')
	if i < 0 {
		return
	}
	body := strings.TrimSuffix(v[i:], "$")
	if strings.Trim(body, "*") != "" {
		t.segRules++
	}
	for seg := range strings.SplitSeq(body, "*") {
		if seg == "" {
			continue
		}
		t.segs++
		if _, ok := seen[seg]; !ok {
			seen[seg] = struct{}{}
			t.words++
			t.wordBytes += int64(len(seg))
		}
	}
}

// mapEntry bounds what a map keeps for one entry beyond its key's and
// value's own arrays: the slot (a string key and a slice value), its
// control byte, the load factor and a table that may have doubled.
const mapEntry = 2 * (16 + 24 + 1) * 8 / 7

// aiBound bounds the bytes of a reading's AI preference lines and of the
// table the first usage question builds from them (see buildAI), which
// every decider of the reading shares: per group, its path rules (a rule,
// an answer, a line and the statement's keys each; patterns escaped into
// an arena; the index of a large set), the combination of its rules
// without a path, and its first Content-Signal line's pairs.
func (c *compiled) aiBound() int64 {
	const (
		rule   = int64(unsafe.Sizeof(crule{}))
		answer = int64(unsafe.Sizeof(Usage{}))
		pref   = int64(unsafe.Sizeof(UsagePref{}))
		pair   = int64(unsafe.Sizeof(SignalPair{}))
	)
	lines := c.ai.lines
	n := int64(unsafe.Sizeof(aiLines{})) + sliceBytes(lines) + int64(unsafe.Sizeof(aiTable{})) +
		roundAlloc(int64(unsafe.Sizeof(aiGroup{}))*int64(len(c.groups))) + roundAlloc(8*int64(len(lines)))
	type groupAI struct {
		t             setSize
		anyLines, any int64 // rules without a path, and their keys
		seen          map[string]struct{}
		signal        bool // its first Content-Signal line is counted
	}
	var cur groupAI
	group := int32(-1)
	flush := func() {
		if cur.t.rules > 0 {
			r := cur.t.rules
			n += int64(unsafe.Sizeof(ruleSet{})) + roundAlloc(rule*r) + roundAlloc(answer*r)
			// Escaped patterns, in a builder that may have doubled.
			n += 2 * 3 * cur.t.bytes
			if r > bigSet {
				// ruleIndex, as setBound counts it.
				n += int64(unsafe.Sizeof(ruleIndex{})) + 2*4*r + 2*4*r + (32+4)*r + 4*257 + 2*4*r
				if cur.t.segRules >= wildMin {
					n += c.wildBound(cur.t)
				}
			}
		}
		if cur.anyLines > 0 {
			// The statements combined (grown by append) and the lines.
			n += roundAlloc(2*pref*cur.any) + roundAlloc(8*cur.anyLines)
		}
		cur = groupAI{}
	}
	for _, l := range lines {
		if l.group != group {
			flush()
			group = l.group
		}
		v := c.body[l.off : l.off+l.n]
		if l.kind == aiSigAgent || l.kind == aiCrawlRate {
			continue // kept as lines only: gathered when asked for
		}
		if l.kind == aiSignal {
			if cur.signal {
				continue // only the group's first is parsed
			}
			cur.signal = true
			// Its pairs, and its keys lower-cased.
			n += roundAlloc(2*pair*int64(strings.Count(v, ",")+1)) + roundAlloc(int64(len(v)))
			continue
		}
		path, st := splitUsage(v)
		// A statement keeps a key at most every two bytes ("a,b"), in a
		// list grown by append.
		keys := int64(strings.Count(st, ",") + 1)
		if path == "" {
			cur.anyLines++
			cur.any += keys
			continue
		}
		n += roundAlloc(2 * pref * keys)
		cur.t.rules++
		cur.t.bytes += int64(len(path))
		if c.dialect != Original {
			if cur.seen == nil {
				cur.seen = map[string]struct{}{}
			}
			segmentsOf(&cur.t, path, cur.seen)
		}
	}
	flush()
	return n
}
