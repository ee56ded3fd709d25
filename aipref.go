package robotstxt

import (
	"encoding/base64"
	"slices"
	"strings"
	"unicode/utf8"
)

// This file reads statements of AI usage preference: the values of
// Content-Usage rules and of the Content-Usage HTTP header, as the IETF AI
// Preferences drafts define them (draft-ietf-aipref-vocab, Section 6: an
// RFC 9651 Dictionary whose keys are usage categories and whose values are
// the Tokens y and n), and Cloudflare's Content-Signal lines. See
// docs/protocol.md, "AI usage preferences", for every choice made where
// the drafts are unclear.

// Preference is a statement's preference for one category of use.
type Preference uint8

// The preferences. A category the statement says nothing of, or says
// something other than the Tokens y and n of, is unknown.
const (
	PrefUnknown  Preference = iota // no preference stated
	PrefAllow                      // y: the use is allowed
	PrefDisallow                   // n: the use is disallowed
)

// String returns "y", "n" or "unknown".
func (p Preference) String() string {
	switch p {
	case PrefAllow:
		return "y"
	case PrefDisallow:
		return "n"
	}
	return "unknown"
}

// The usage categories of draft-ietf-aipref-vocab-08 (Section 4). A
// preference for search covers the uses of the other two within a search
// application (-08's Section 4.3): each category's preference is still
// reported as stated (see docs/protocol.md, "AI usage preferences").
const (
	UsageTrainAI = "train-ai" // AI training: changing a generative AI model's learned parameters
	UsageAIUse   = "ai-use"   // AI use: input to a generative AI model, not given by the user (-08)
	UsageSearch  = "search"   // search: selecting assets and directing users to them
)

// UsageCategories returns the labels of the vocabulary's categories, in
// the order of its table of labels. A new slice each call.
func UsageCategories() []string { return []string{UsageTrainAI, UsageAIUse, UsageSearch} }

// UsagePref is one category's preference.
type UsagePref struct {
	Key  string // the category's label, e.g. "train-ai"
	Pref Preference
}

// ParseUsagePreference parses a statement of preference (the value of a
// Content-Usage rule after its path, or of the Content-Usage header) as
// draft-ietf-aipref-vocab's processing algorithm does: the bytes are parsed
// as an RFC 9651 Dictionary; each key is a category, whose preference is y
// or n when its value is that Token (parameters ignored), else unknown. A
// key given more than once keeps its last value, at its first place. ok is
// false when the Dictionary fails to parse: then the statement expresses
// nothing, and prefs is nil. Keys are case-sensitive: "Train-AI=n" fails.
func ParseUsagePreference(s string) (prefs []UsagePref, ok bool) {
	p := sfParser{s: s}
	var at map[string]int // the keys' places, once there are many
	p.skipSP()
	for p.i < len(p.s) {
		key, ok := p.key()
		if !ok {
			return nil, false
		}
		pref := PrefUnknown
		if p.peek() == '=' {
			p.i++
			if p.peek() == '(' {
				if !p.innerList() {
					return nil, false
				}
			} else {
				tok, isTok, ok := p.bareItem()
				if !ok || !p.params() {
					return nil, false
				}
				if isTok && tok == "y" {
					pref = PrefAllow
				} else if isTok && tok == "n" {
					pref = PrefDisallow
				}
			}
		} else if !p.params() { // a bare key: the Boolean true, not a Token
			return nil, false
		}
		if i := keyIndex(prefs, &at, key); i >= 0 {
			prefs[i].Pref = pref
		} else {
			prefs = append(prefs, UsagePref{key, pref})
			noteKey(&at, key, len(prefs)-1)
		}
		p.skipOWS()
		if p.i == len(p.s) {
			break
		}
		if p.s[p.i] != ',' {
			return nil, false
		}
		p.i++
		p.skipOWS()
		if p.i == len(p.s) {
			return nil, false // a trailing comma
		}
	}
	if prefs == nil {
		prefs = []UsagePref{}
	}
	return prefs, true
}

// splitUsage splits a Content-Usage value into its path and its statement
// of preference: a value starting with '/' starts with a path, which ends
// at the first SP or HTAB; the white space after it separates (the ABNF's
// 1*WS). Any other value is a statement alone.
func splitUsage(v string) (path, pref string) {
	if !strings.HasPrefix(v, "/") {
		return "", v
	}
	i := strings.IndexAny(v, " \t")
	if i < 0 {
		return v, ""
	}
	path, pref = v[:i], v[i:]
	for len(pref) > 0 && (pref[0] == ' ' || pref[0] == '\t') {
		pref = pref[1:]
	}
	return path, pref
}

// CombineUsage combines statements of preference about one asset as
// draft-ietf-aipref-vocab's Section 7.1 says, category by category: any n
// gives n, else any y gives y, else unknown. The result lists each key once,
// in the order of first appearance.
func CombineUsage(statements ...[]UsagePref) []UsagePref {
	var out []UsagePref
	var at map[string]int // the keys' places, once there are many
	for _, st := range statements {
		for _, u := range st {
			i := keyIndex(out, &at, u.Key)
			if i < 0 {
				out = append(out, u)
				noteKey(&at, u.Key, len(out)-1)
				continue
			}
			if u.Pref == PrefDisallow || u.Pref == PrefAllow && out[i].Pref == PrefUnknown {
				out[i].Pref = u.Pref
			}
		}
	}
	return out
}

// manyKeys is how many keys a list of preferences is searched through
// before a map of their places is made: a statement, or statements
// combined, may name thousands of keys, and a search of the list for each
// would take time quadratic in them.
const manyKeys = 16

// keyIndex returns the place of key in prefs, or -1; *at is the map of
// places once prefs holds more than manyKeys keys (made here then).
func keyIndex(prefs []UsagePref, at *map[string]int, key string) int {
	if *at == nil && len(prefs) > manyKeys {
		*at = make(map[string]int, 2*len(prefs))
		for i, p := range prefs {
			(*at)[p.Key] = i
		}
	}
	if *at != nil {
		if i, ok := (*at)[key]; ok {
			return i
		}
		return -1
	}
	return slices.IndexFunc(prefs, func(u UsagePref) bool { return u.Key == key })
}

// noteKey notes key at place i, when places are mapped.
func noteKey(at *map[string]int, key string, i int) {
	if *at != nil {
		(*at)[key] = i
	}
}

// sfParser parses the RFC 9651 Dictionary of a statement of preference. It
// checks every value's syntax (a statement that fails to parse expresses
// nothing) but keeps only whether a value is a Token, and which.
type sfParser struct {
	s string
	i int
}

func (p *sfParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *sfParser) skipSP() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *sfParser) skipOWS() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func isLCAlpha(c byte) bool { return 'a' <= c && c <= 'z' }
func isAlpha(c byte) bool   { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool   { return '0' <= c && c <= '9' }

// key parses a key: lcalpha or '*', then lcalpha, digits, '_', '-', '.'
// and '*'.
func (p *sfParser) key() (string, bool) {
	start := p.i
	if c := p.peek(); !isLCAlpha(c) && c != '*' {
		return "", false
	}
	p.i++
	for p.i < len(p.s) {
		c := p.s[p.i]
		if !isLCAlpha(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' && c != '*' {
			break
		}
		p.i++
	}
	return p.s[start:p.i], true
}

// params parses parameters (";" key ["=" bare item], repeated).
func (p *sfParser) params() bool {
	for p.peek() == ';' {
		p.i++
		p.skipSP()
		if _, ok := p.key(); !ok {
			return false
		}
		if p.peek() == '=' {
			p.i++
			if _, _, ok := p.bareItem(); !ok {
				return false
			}
		}
	}
	return true
}

// innerList parses "(" items ")" with its parameters.
func (p *sfParser) innerList() bool {
	p.i++ // '('
	for p.i < len(p.s) {
		p.skipSP()
		if p.peek() == ')' {
			p.i++
			return p.params()
		}
		if _, _, ok := p.bareItem(); !ok || !p.params() {
			return false
		}
		if c := p.peek(); c != ' ' && c != ')' {
			return false
		}
	}
	return false
}

// bareItem parses one bare item; tok is its text when it is a Token.
func (p *sfParser) bareItem() (tok string, isTok, ok bool) {
	c := p.peek()
	switch {
	case c == '-' || isDigit(c):
		return "", false, p.number(false)
	case c == '"':
		return "", false, p.str()
	case isAlpha(c) || c == '*':
		start := p.i
		p.i++
		for p.i < len(p.s) && (isTChar(p.s[p.i]) || p.s[p.i] == ':' || p.s[p.i] == '/') {
			p.i++
		}
		return p.s[start:p.i], true, true
	case c == ':':
		return "", false, p.bytes()
	case c == '?':
		if p.i+1 < len(p.s) && (p.s[p.i+1] == '0' || p.s[p.i+1] == '1') {
			p.i += 2
			return "", false, true
		}
		return "", false, false
	case c == '@':
		p.i++
		return "", false, p.number(true)
	case c == '%':
		return "", false, p.displayString()
	}
	return "", false, false
}

// isTChar reports whether c is an RFC 9110 tchar.
func isTChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// number parses an Integer or a Decimal (only an Integer when integer, for
// a Date).
func (p *sfParser) number(integer bool) bool {
	if p.peek() == '-' {
		p.i++
	}
	if !isDigit(p.peek()) {
		return false
	}
	digits, dot := 0, -1
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case isDigit(c):
			digits++
		case c == '.' && dot < 0 && !integer:
			if digits > 12 {
				return false
			}
			dot = digits
		default:
			goto end
		}
		p.i++
		if dot < 0 && digits > 15 || dot >= 0 && digits > 15 {
			return false
		}
	}
end:
	if dot >= 0 {
		frac := digits - dot
		return frac >= 1 && frac <= 3
	}
	return true
}

// str parses a String.
func (p *sfParser) str() bool {
	p.i++ // '"'
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '\\':
			if p.i == len(p.s) || p.s[p.i] != '"' && p.s[p.i] != '\\' {
				return false
			}
			p.i++
		case c == '"':
			return true
		case c < 0x20 || c > 0x7e:
			return false
		}
	}
	return false
}

// bytes parses a Byte Sequence.
func (p *sfParser) bytes() bool {
	p.i++ // ':'
	end := strings.IndexByte(p.s[p.i:], ':')
	if end < 0 {
		return false
	}
	b64 := p.s[p.i : p.i+end]
	p.i += end + 1
	for i := 0; i < len(b64); i++ {
		if c := b64[i]; !isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=' {
			return false
		}
	}
	_, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(b64, "="))
	return err == nil
}

// displayString parses a Display String: %"..." with %xx escapes (lower
// case hex) of UTF-8.
func (p *sfParser) displayString() bool {
	p.i++ // '%'
	if p.peek() != '"' {
		return false
	}
	p.i++
	var buf []byte
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c < 0x20 || c > 0x7e:
			return false
		case c == '%':
			if p.i+2 > len(p.s) || !isLowerHex(p.s[p.i]) || !isLowerHex(p.s[p.i+1]) {
				return false
			}
			buf = append(buf, unhex(p.s[p.i])<<4|unhex(p.s[p.i+1]))
			p.i += 2
		case c == '"':
			return utf8.Valid(buf)
		default:
			buf = append(buf, c)
		}
	}
	return false
}

func isLowerHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' }

// Signal is a Content-Signal value for one use.
type Signal uint8

// The Content-Signal values.
const (
	SignalUnset Signal = iota // the line does not name the use (or gives another value)
	SignalYes                 // yes: the use is allowed
	SignalNo                  // no: the use is not
)

// String returns "yes", "no" or "" for SignalUnset.
func (s Signal) String() string {
	switch s {
	case SignalYes:
		return "yes"
	case SignalNo:
		return "no"
	}
	return ""
}

// ContentUse is the level of the use= key of a Content-Signal line: how
// far an AI system may go with the content once fetched. The levels are
// ordered, least permissive first: immediate (use it at once, keep and
// reuse nothing), reference (index, excerpt and link back), full
// (summarise and reproduce). Cloudflare's managed robots.txt writes it
// ("use=reference"), and its crawl service compares a crawler's declared
// level with the site's.
type ContentUse uint8

// The levels of use=, in order.
const (
	UseUnset     ContentUse = iota // no use= key, or a value that is no level
	UseImmediate                   // immediate: interact, store and reuse nothing
	UseReference                   // reference: index, excerpt and link back
	UseFull                        // full: summarise and reproduce
)

var contentUseNames = [...]string{"", "immediate", "reference", "full"}

// String returns "immediate", "reference", "full", or "" for UseUnset.
func (u ContentUse) String() string {
	if int(u) < len(contentUseNames) {
		return contentUseNames[u]
	}
	return ""
}

// ParseContentUse reads a use= level, without regard to case; false for
// anything else (an empty value included).
func ParseContentUse(v string) (ContentUse, bool) {
	for i := UseImmediate; int(i) < len(contentUseNames); i++ {
		if strings.EqualFold(v, contentUseNames[i]) {
			return i, true
		}
	}
	return UseUnset, false
}

// Permits reports whether a site whose level is u lets a crawler use its
// content at level want: want is at most u. A line without a level
// (UseUnset) limits nothing, as a signal it does not state.
func (u ContentUse) Permits(want ContentUse) bool {
	return u == UseUnset || want <= u
}

// SignalPair is one key=value pair of a Content-Signal line, as written.
type SignalPair struct {
	Key, Value string
}

// Signals is a Content-Signal line (Cloudflare's, contentsignals.org): what
// the site says of three uses of its content, for the crawlers of the group
// that holds the line. It is not path-scoped and not a crawl permission.
type Signals struct {
	Line    int    // the line, 0 when the crawler's groups have none
	Search  Signal // building a search index and showing results (links, short excerpts)
	AIInput Signal // input to AI models at answer time (retrieval, grounding)
	AITrain Signal // training or fine-tuning AI models
	// Use is the line's use= level: UseUnset when it has none or gives
	// a value that is no level.
	Use ContentUse
	// Pairs are every key=value pair of the line, as written, in order
	// (keys lower-cased), the three uses and use= among them.
	Pairs []SignalPair
}

// ParseContentSignal reads the value of a Content-Signal line: pairs
// key=value separated by commas, white space around each ignored, keys
// compared without regard to case, values "yes" and "no" (any case), and
// for the key "use" the levels immediate, reference and full (any case). A
// pair without '=' is kept with an empty value; for a key given twice, the
// last value counts, even when it is no value the key takes.
func ParseContentSignal(v string) Signals {
	var s Signals
	for part := range strings.SplitSeq(v, ",") {
		k, val, _ := strings.Cut(part, "=")
		k, val = strings.ToLower(strings.Trim(k, " \t")), strings.Trim(val, " \t")
		if k == "" {
			continue
		}
		s.Pairs = append(s.Pairs, SignalPair{k, val})
		sig := SignalUnset
		switch {
		case strings.EqualFold(val, "yes"):
			sig = SignalYes
		case strings.EqualFold(val, "no"):
			sig = SignalNo
		}
		switch k {
		case "search":
			s.Search = sig
		case "ai-input":
			s.AIInput = sig
		case "ai-train":
			s.AITrain = sig
		case "use":
			s.Use, _ = ParseContentUse(val)
		}
	}
	return s
}
