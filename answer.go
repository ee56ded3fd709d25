package robotstxt

import (
	"sync/atomic"
	"unsafe"
)

// Answering: a URL's trip through Allowed, in the order it takes, and the
// evaluation of a rule set (its scans) that Allowed and Decide share.
// The usual question splits the URL (path.go), finds the crawler's token
// (compiled.go) and reads its set's hot block (hot.go); the first questions
// of a file are answered from its lines (first.go); a large set is read
// through its index (index.go, wild.go), and every rule is matched as
// match.go says. The parts of a file built on first use are built behind
// the doors here (prepare, set, coldSet, index): each sees whether its part
// is built, and only when it is not calls the builder (build*.go).

// Allowed reports whether the crawler with product token userAgent may fetch
// url, exactly as Google's library answers (its OneAgentAllowedByRobots). url
// is an absolute URL or a path starting with '/'; it is taken as given, not
// normalised (see [NormalizeURL]). userAgent is compared as given, ignoring
// ASCII case, with the token each user-agent line names.
//
// Allowed is safe for concurrent use and does not allocate (except for a
// URL with an empty path and a query or params over 1 KiB, "http://h?...")
// once the rules it reads are compiled. A parsed file's first eight
// questions (with paths of up to 256 bytes) are answered from its parsed
// lines, reading the rules of the groups that apply once each, without
// allocating: a crawler meeting a new site, or a one-off check, pays for
// no more. The next question compiles the rules that apply to its crawler
// (normalised, ordered and laid out in one block); a large set (over 256
// rules, or over 128 that one block would not bucket well) is then
// answered by trying each rule until about eight questions have been
// asked about it (fewer with long URLs), when its index is built,
// which allocates too (see [Robots.Compile], which does all of it up
// front).
//
// userAgent is a product token, not a User-Agent header: the commonest
// mistake is to pass the header a request carries ("Googlebot/2.1",
// "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://...)"), which names no
// group (Google's library compares the whole value) and falls to '*'. Pass
// [ProductToken] of the header, or ask about a known crawler with
// [Robots.Decide] and [Query.Crawler].
func (r *Robots) Allowed(userAgent, url string) bool {
	path, slash := splitPathRaw(url)
	if c := &r.google; !slash && c.prepared.Load() {
		// The usual question, answered here rather than through allowed
		// (one call less): the crawler's set has a hot block.
		if _, hot := c.setOf(c.findToken(userAgent)); hot != nil {
			w2, ok := hotFindAt(hot, path)
			return !ok || hotAllows(w2)
		}
	}
	if !slash {
		return r.google.allowed(userAgent, path)
	}
	return r.allowedSlash(userAgent, path)
}

// allowedSlash is Allowed for a URL whose path starts with '?' or ';'
// ("http://h?q"): it matches "/" + path, built on the stack when it fits.
// (Apart, so that Allowed's own frame stays small.)
//
//go:noinline
func (r *Robots) allowedSlash(userAgent, path string) bool {
	path = cutPath(path)
	var buf [1024]byte
	if len(path) >= len(buf) {
		return r.google.allowed(userAgent, "/"+path)
	}
	buf[0] = '/'
	n := copy(buf[1:], path)
	return r.google.allowed(userAgent, unsafe.String(&buf[0], n+1))
}

// allowed answers for path, which may run on past its end: a '#' or NUL
// byte (Google's library holds the path as a C string) ends it, and the
// rule sets look for those only when a rule needs the path's end.
func (c *compiled) allowed(ua, path string) bool {
	if !c.prepared.Load() {
		if allowed, ok := c.allowedRaw(ua, path); ok {
			return allowed
		}
	}
	c.prepare()
	set, hot := c.setOf(c.findToken(ua))
	if hot != nil {
		// The set's hot block: no need to read the set itself.
		w2, ok := hotFindAt(hot, path)
		return !ok || hotAllows(w2)
	}
	if set == noSet {
		return true
	}
	best := c.coldSet(set).eval(path)
	return best == nil || best.allow() || best.n == 0
}

// setOf returns the set that answers for the crawler whose token is t (as
// findToken returns it: the token's set, or the '*' set, c.global, for -1)
// and that set's hot block, or nil when it has none or is not compiled
// yet. The file must be prepared.
func (c *compiled) setOf(t int32) (int32, unsafe.Pointer) {
	if t >= 0 {
		return c.fast[t].set, atomic.LoadPointer(&c.fast[t].hot)
	}
	return c.global, atomic.LoadPointer(&c.starHot)
}

// prepare builds the token table and the rule sets on the first question.
func (c *compiled) prepare() {
	if !c.prepared.Load() {
		c.prepareSlow()
	}
}

// set returns set i, compiling its rules on first use, and indexed when
// it is large.
func (c *compiled) set(i int32) *ruleSet {
	s := c.coldSet(i)
	if s.big {
		s.index()
	}
	return s
}

// coldSet returns set i, compiling its rules on first use; a large set
// may not be indexed yet (see coldScans).
func (c *compiled) coldSet(i int32) *ruleSet {
	k := i
	if i == starSet {
		k = c.starIdx
	}
	s := &c.sets[k]
	if !s.ready.Load() {
		c.compileOnce(s, i)
	}
	return s
}

// eval returns the rule of set s that decides for path in longest-match
// order, or nil when none matches. It does not allocate. path may run on
// past a '#' or NUL byte, which end it (see probe).
func (s *ruleSet) eval(path string) *crule {
	if s.big {
		if !s.indexed.Load() && s.coldScan(path) {
			return s.scan(path, 0)
		}
		return s.evalIndexed(path, 0)
	}
	if s.hot != nil {
		if w2, ok := hotFind(s.hot, path); ok {
			return &s.rules[w2>>hotIdxShift]
		}
		return nil
	}
	p := newProbe(path, s.manyWild)
	rs := s.rules[:s.nmatch]
	for i := range rs {
		if r := &rs[i]; !p.reject(r) && s.matchRest(r, p.pathFor(r)) {
			return r
		}
	}
	return nil
}

// decide returns the deciding rule of set s for path in the set's
// precedence order, passing over rules with a flag in skip, or nil.
func (s *ruleSet) decide(path string, skip uint8) *crule {
	switch {
	case s.big:
		if !s.indexed.Load() && s.coldScan(path) {
			return s.scan(path, skip)
		}
		return s.evalIndexed(path, skip)
	case skip == 0:
		return s.eval(path)
	}
	return s.scan(path, skip)
}

// scan returns the deciding rule of set s for path in the set's precedence
// order, trying every rule without the index. Rules with a flag in skip are
// passed over.
func (s *ruleSet) scan(path string, skip uint8) *crule {
	var best *crule
	p := newProbe(path, s.manyWild)
	rs := s.rules[:s.nmatch]
	for i := range rs {
		if r := &rs[i]; r.flags&skip == 0 && !p.reject(r) && s.matchRest(r, p.pathFor(r)) && (best == nil || s.before(r, best)) {
			best = r
		}
	}
	return best
}

// eachMatch calls fn for every rule of set s that matches path and has no
// flag in skip, in no particular order. A large set finds them through
// its index.
func (s *ruleSet) eachMatch(path string, skip uint8, fn func(*crule)) {
	if s.indexed.Load() {
		s.idx.each(s, path, skip, fn)
		return
	}
	s.scanEach(path, skip, fn)
}

// scanEach is eachMatch trying every rule.
func (s *ruleSet) scanEach(path string, skip uint8, fn func(*crule)) {
	p := newProbe(path, false)
	for i := range s.rules[:s.nmatch] {
		if r := &s.rules[i]; r.flags&skip == 0 && !p.reject(r) && s.matchRest(r, p.pathFor(r)) {
			fn(r)
		}
	}
}

// coldScans is about how many questions about a short path a large set
// answers by trying every rule before it builds its index: building the
// index costs far more than one scan (tens of scans for a set of a few
// hundred rules), and most files are asked few questions. A question
// counts the rules it tries, and for each wildcard rule, which it may have
// to search the path for, a unit per 32 bytes of the path: the set is
// indexed once that work would pass coldScans times its rules. So the
// questions answered by a scan cost, all together, a small multiple of a
// scan with a short path, whatever their paths: less than building the
// index (which costs about a hundred such scans on real files), and
// linear in the set's size on hostile ones, where a long path among many
// wildcard rules has the index built on its first question.
const coldScans = 8

// coldScan reports whether a large set not yet indexed answers a question
// about path by a scan; when it does not, the set is indexed.
func (s *ruleSet) coldScan(path string) bool {
	work := int64(s.nmatch) + int64(s.nwild)*int64(len(path)/32)
	if work <= coldScans*int64(s.nmatch) && s.work.Add(work) <= coldScans*int64(s.nmatch) {
		return true
	}
	s.index()
	return false
}

// index builds the set's index if it is not built yet.
func (s *ruleSet) index() {
	if !s.indexed.Load() {
		s.idxOnce.Do(func() {
			s.idx = s.buildIndex()
			s.indexed.Store(true)
		})
	}
}
