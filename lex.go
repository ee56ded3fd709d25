package robotstxt

import "strings"

// maxLineLen is how many bytes of one line Google's library keeps: its
// line buffer holds 2083*8 bytes including the terminating NUL.
const maxLineLen = 2083*8 - 1

// reading selects how lines are read. The google reading is lenient the way
// Google's library is; the strict reading is RFC 9309's grammar, also used by
// the original 1996 draft.
type reading uint8

const (
	readGoogle reading = iota
	readStrict
	readGoogleNoNUL // readGoogle for a body known to hold no NUL byte
)

// lexLine is what the parser learns about one line of a robots.txt file. It is
// the single source of truth for matching, explaining and linting.
type lexLine struct {
	num        int    // 1-based line number
	start, end int    // bounds of the raw line in the body, line ending excluded
	key        string // the key as written, trimmed; "" when no directive
	value      string // the value, trimmed and without comment
	valOff     int    // the value's offset within the raw line
	field      Field
	flags      lineFlags
}

type lineFlags uint16

const (
	flagDirective    lineFlags = 1 << iota // the line has a key and a separator
	flagComment                            // the line is only a comment
	flagHasComment                         // the line has a '#' comment
	flagEmpty                              // the line is empty or white space
	flagTypo                               // the key is an accepted typo
	flagMissingColon                       // white space stands for the colon
	flagTooLong                            // the line is longer than maxLineLen
	flagNUL                                // the line holds a NUL byte (Google reads up to it)
	flagPrefixKey                          // the key only starts with a known field name
)

// lex splits body into lines and classifies each one, calling emit for every
// line in order, including the empty line after a final line ending. body must
// already be cut to the size limit. The *lexLine passed to emit is reused.
func lex(body string, mode reading, emit func(*lexLine)) {
	lx := newLexer(body, mode)
	var ln lexLine
	for {
		l, ok := lx.next()
		if !ok {
			return
		}
		ln = l
		emit(&ln)
	}
}

// lexer reads the lines of a body one at a time, as lex does: a loop over
// next keeps the line in the caller's frame, with no call through a
// function value per line.
type lexer struct {
	lines    lineScanner
	mode     reading
	nextHash int // the position of the next '#' in the body, or len(body)
}

func newLexer(body string, mode reading) lexer {
	return lexer{lines: newLineScanner(body), mode: mode, nextHash: -1}
}

// next reads the next line, or reports false after the last. The line is
// returned by value: written into the caller's frame, it costs no write
// barrier while the collector runs.
func (lx *lexer) next() (lexLine, bool) {
	num, start, end, ok := lx.lines.next()
	if !ok {
		return lexLine{}, false
	}
	// Most lines have no comment: the next '#' is looked for once past
	// each one found, not on every line.
	body := lx.lines.body
	if lx.nextHash < start && lx.nextHash != len(body) {
		lx.nextHash = indexFrom(body, start, '#')
	}
	hash := -1
	if lx.nextHash < end {
		hash = lx.nextHash - start
	}
	ln := classifyHash(body[start:end], lx.mode, hash)
	ln.num, ln.start, ln.end = num, start, end
	return ln, true
}

// splitLines calls fn with the number and bounds of every line of body: a
// leading UTF-8 byte order mark, or any leading part of one, is skipped;
// lines end at LF, CR or CRLF; the text after the last line ending is a line
// too, even when empty.
func splitLines(body string, fn func(num, start, end int)) {
	ls := newLineScanner(body)
	for {
		num, start, end, ok := ls.next()
		if !ok {
			return
		}
		fn(num, start, end)
	}
}

// lineScanner yields the lines of a body as splitLines describes them.
type lineScanner struct {
	body           string
	pos, num       int
	nextLF, nextCR int // cached positions of the next '\n' and '\r'
	done           bool
}

func newLineScanner(body string) lineScanner {
	pos := 0
	const bom = "\xEF\xBB\xBF"
	for pos < len(bom) && pos < len(body) && body[pos] == bom[pos] {
		pos++
	}
	return lineScanner{body: body, pos: pos, nextLF: -1, nextCR: -1}
}

// next returns the number and bounds of the next line, or ok false after
// the last.
func (ls *lineScanner) next() (num, start, end int, ok bool) {
	if ls.done {
		return 0, 0, 0, false
	}
	body, pos := ls.body, ls.pos
	if ls.nextLF != len(body) && ls.nextLF < pos {
		ls.nextLF = indexFrom(body, pos, '\n')
	}
	if ls.nextCR != len(body) && ls.nextCR < pos {
		ls.nextCR = indexFrom(body, pos, '\r')
	}
	end = min(ls.nextLF, ls.nextCR)
	ls.num++
	if end == len(body) {
		ls.done = true
		return ls.num, pos, end, true
	}
	next := end + 1
	if body[end] == '\r' && next < len(body) && body[next] == '\n' {
		next++
	}
	ls.pos = next
	return ls.num, pos, end, true
}

// indexFrom returns the index of the first c in s at or after from, or
// len(s) when there is none.
func indexFrom(s string, from int, c byte) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}

// isSpace reports whether c is ASCII white space as C's isspace sees it.
func isSpace(c byte) bool { return spaceTable[c] }

// spaceTable holds the bytes isSpace accepts: one load, not six compares.
var spaceTable = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// classify reads one raw line (without its ending); it leaves the line's
// number and bounds to the caller.
func classify(raw string, mode reading) lexLine {
	return classifyHash(raw, mode, strings.IndexByte(raw, '#'))
}

// classifyHash is classify given the position of the line's first '#', or
// -1 when it has none.
func classifyHash(raw string, mode reading, hash int) (ln lexLine) {
	end := len(raw)
	if mode != readStrict {
		if end > maxLineLen {
			ln.flags |= flagTooLong
			end = maxLineLen
		}
		// Google's library keeps lines as C strings: a NUL byte ends them.
		if mode == readGoogle {
			if i := strings.IndexByte(raw[:end], 0); i >= 0 {
				ln.flags |= flagNUL
				end = i
			}
		}
	}
	if hash >= 0 && hash < end {
		ln.flags |= flagHasComment
		end = hash
	}
	start := 0
	for start < end && isSpace(raw[start]) {
		start++
	}
	for end > start && isSpace(raw[end-1]) {
		end--
	}
	if start == end {
		if ln.flags&flagHasComment != 0 {
			ln.flags |= flagComment
		} else {
			ln.flags |= flagEmpty
		}
		return ln
	}
	text := raw[start:end]
	sep := strings.IndexByte(text, ':')
	if sep < 0 {
		if mode == readStrict {
			return ln
		}
		// Google accepts white space instead of the colon when the line
		// holds exactly two runs of non-white-space characters.
		sep = strings.IndexAny(text, " \t")
		if sep < 0 {
			return ln
		}
		val := text[sep:]
		for len(val) > 0 && (val[0] == ' ' || val[0] == '\t') {
			val = val[1:]
		}
		if strings.ContainsAny(val, " \t") {
			return ln
		}
		ln.flags |= flagMissingColon
	}
	key := trimSpace(text[:sep])
	if key == "" {
		return ln
	}
	ln.flags |= flagDirective
	ln.key = key
	vs, ve := start+sep+1, end
	for vs < ve && isSpace(raw[vs]) {
		vs++
	}
	ln.value, ln.valOff = raw[vs:ve], vs
	if mode != readStrict {
		ln.field, ln.flags = googleField(key, ln.flags)
	} else {
		ln.field = exactField(key)
	}
	return ln
}

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case.
// prefix must be lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// googleField classifies a key as Google's library does: by case-insensitive
// prefix, accepting a few frequent typos. Keys that are none of the four
// fields Google reads are looked up exactly among the extension fields.
func googleField(key string, flags lineFlags) (Field, lineFlags) {
	// The four names as usually written, compared a word at a time.
	w := foldWord8(key)
	switch {
	case len(key) == 8 && w == wordDisallow:
		return FieldDisallow, flags
	case len(key) == 5 && w == wordAllow:
		return FieldAllow, flags
	case len(key) == 10 && w == wordUserAge && foldWord8(key[8:]) == wordNT:
		return FieldUserAgent, flags
	case len(key) == 7 && w == wordSitemap:
		return FieldSitemap, flags
	}
	// The names as written come before their typos; the first letter
	// picks the candidates.
	first := key[0] | 0x20
	for _, k := range googleKeys {
		if k.name[0] == first && hasPrefixFold(key, k.name) {
			if k.typo {
				flags |= flagTypo
			}
			if len(key) != len(k.name) {
				flags |= flagPrefixKey
			}
			return k.field, flags
		}
	}
	return extensionField(key), flags
}

// googleKeys are the key names Google's library reads, by prefix, and the
// typos it accepts for them.
var googleKeys = []struct {
	name  string
	field Field
	typo  bool
}{
	{"disallow", FieldDisallow, false},
	{"dissallow", FieldDisallow, true},
	{"dissalow", FieldDisallow, true},
	{"disalow", FieldDisallow, true},
	{"diasllow", FieldDisallow, true},
	{"disallaw", FieldDisallow, true},
	{"allow", FieldAllow, false},
	{"user-agent", FieldUserAgent, false},
	{"useragent", FieldUserAgent, true},
	{"user agent", FieldUserAgent, true},
	{"sitemap", FieldSitemap, false},
	{"site-map", FieldSitemap, true},
}

// The words googleField compares keys with (word8 of each name).
var (
	wordDisallow = word8("disallow")
	wordAllow    = word8("allow")
	wordUserAge  = word8("user-age")
	wordNT       = word8("nt")
	wordSitemap  = word8("sitemap")
)

// exactField classifies a key by exact, case-insensitive comparison, as
// RFC 9309 and the original draft read keys.
func exactField(key string) Field {
	switch {
	case strings.EqualFold(key, "user-agent"):
		return FieldUserAgent
	case strings.EqualFold(key, "allow"):
		return FieldAllow
	case strings.EqualFold(key, "disallow"):
		return FieldDisallow
	case strings.EqualFold(key, "sitemap"):
		return FieldSitemap
	}
	return extensionField(key)
}

// extensionField recognises the fields other crawlers read and Google ignores.
func extensionField(key string) Field {
	if len(key) < 4 || len(key) > 14 {
		return FieldUnknown
	}
	switch {
	case strings.EqualFold(key, "crawl-delay"):
		return FieldCrawlDelay
	case strings.EqualFold(key, "request-rate"):
		return FieldRequestRate
	case strings.EqualFold(key, "visit-time"):
		return FieldVisitTime
	case strings.EqualFold(key, "clean-param"):
		return FieldCleanParam
	case strings.EqualFold(key, "host"):
		return FieldHost
	case strings.EqualFold(key, "noindex"):
		return FieldNoindex
	case strings.EqualFold(key, "nofollow"):
		return FieldNofollow
	case strings.EqualFold(key, "noarchive"):
		return FieldNoarchive
	case strings.EqualFold(key, "content-usage"):
		return FieldContentUsage
	case strings.EqualFold(key, "content-signal"):
		return FieldContentSignal
	}
	return FieldUnknown
}
