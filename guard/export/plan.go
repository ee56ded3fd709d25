package export

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/guard"
)

// limits is what a target's matching can hold.
type limits struct {
	// maxRegex is the longest regular expression a rule may become
	// (0: no limit): nginx refuses a configuration token over 4 KiB.
	maxRegex int
	// pathOnly: the target matches the decoded path without the query
	// (Anubis's path_regex reads r.URL.Path).
	pathOnly bool
}

func limitsOf(t Target) limits {
	switch t {
	case Nginx:
		return limits{maxRegex: 3000}
	case HAProxy:
		return limits{maxRegex: 3000}
	case Anubis:
		return limits{pathOnly: true}
	}
	return limits{}
}

// plan is an export before it is written in a target's words.
type plan struct {
	passes   []string // expressions of the paths never blocked (the rules)
	classes  []*class
	warnings []Warning
	// agents are the expressions that recognise a class from the
	// User-Agent, in the order they are tried.
	agents     []agentRE
	retryAfter int
	price      string // the crawler-price header of a 402 ("USD 0.01")
	pathOnly   bool
}

// agentRE is one expression that recognises a class.
type agentRE struct {
	re    string
	class *class
	what  string // a comment: which names it recognises
}

// class is the crawlers that share one ordered rule list and action.
type class struct {
	id     string
	names  []string // crawler names (or named tokens)
	rules  []prule
	action guard.Action
}

// prule is one rule of a class, its expression first-match ordered.
type prule struct {
	line  int
	allow bool
	text  string // "disallow: /a"
	re    string
}

func (p *plan) warn(w Warning) { p.warnings = append(p.warnings, w) }

// blocking reports whether the class blocks anything.
func (c *class) blocking() bool { return statusOf(c.action) != 0 && len(c.rules) > 0 }

// member is one name a class is recognised by.
type member struct {
	crawler *robotstxt.Crawler // nil for a named token
	token   string
}

// build works out the plan of in for a target with limits lim.
func build(in Input, def guard.Action, lim limits) *plan {
	p := &plan{pathOnly: lim.pathOnly}
	if lim.pathOnly {
		p.warn(Warning{Name: WarnPathOnly, Rule: "path_regex",
			Why: "the target matches the path without the query string: a request with a query may be decided differently"})
		p.warn(Warning{Name: WarnDecodedPath, Rule: "path_regex",
			Why: "the target matches the decoded path, the guard the path as sent: a request with %-escapes may be decided differently"})
	}
	r := robotstxt.Parse(in.Robots)
	p.passes = passesOf(r, lim)

	crawlers := in.Crawlers
	if crawlers == nil {
		crawlers = robotstxt.Crawlers()
	}
	type keyed struct {
		key string
		m   member
		act guard.Action
	}
	byKey := map[string]*class{}
	var order []string
	add := func(k keyed, rules []prule) *class {
		ck := strconv.Itoa(int(k.act)) + "\x00" + k.key
		c := byKey[ck]
		if c == nil {
			c = &class{rules: rules, action: k.act}
			byKey[ck] = c
			order = append(order, ck)
		}
		if k.m.crawler != nil {
			c.names = append(c.names, k.m.crawler.Name)
		} else {
			c.names = append(c.names, k.m.token)
		}
		return c
	}
	known := map[string]bool{}
	var keys []keyClass // the catalogue's names, first crawler first
	for i := range crawlers {
		c := &crawlers[i]
		if c.Control {
			continue
		}
		act := def
		if in.Policy != nil {
			act = in.Policy.ActionFor(c, guard.OutcomeDisallowedUnverified)
		}
		d := r.Decide(c.Query("/"))
		rules, key, ok := p.rulesOf(r, d, c.Name, lim)
		var cl *class // nil: left out
		if ok {
			cl = add(keyed{key: key, m: member{crawler: c}, act: act}, rules)
		}
		for _, n := range namesOf(c) {
			if n = strings.ToLower(n); n != "" && !known[n] {
				known[n] = true
				keys = append(keys, keyClass{key: n, class: cl})
			}
		}
	}
	var named []keyClass
	if in.NamedTokens {
		seen := map[string]bool{}
		for _, g := range r.Groups() {
			for _, a := range g.Agents {
				lt := strings.ToLower(a.Token)
				// "Mozilla" is every browser's first product: never a
				// crawler's claim.
				if a.Global || !robotstxt.ValidToken(a.Token) || known[lt] || seen[lt] || lt == "mozilla" {
					continue
				}
				seen[lt] = true
				d := r.Decide(robotstxt.Query{URL: "/", Agents: []string{a.Token}, Dialect: robotstxt.Google})
				rules, key, ok := p.rulesOf(r, d, a.Token, lim)
				if !ok {
					continue
				}
				cl := add(keyed{key: "named\x00" + key, m: member{token: a.Token}, act: def}, rules)
				named = append(named, keyClass{key: lt, class: cl})
			}
		}
	}
	for i, ck := range order {
		c := byKey[ck]
		c.id = "c" + strconv.Itoa(i+1)
		p.classes = append(p.classes, c)
	}
	p.agents = agentsOf(keys, named)
	return p
}

// namesOf returns the names a crawler is recognised by.
func namesOf(c *robotstxt.Crawler) []string {
	return append([]string{c.Name, c.Token}, c.Aliases...)
}

// rulesOf returns the first-match ordered rules of decision d's groups,
// and a key that is equal for equal rule lists; false when the crawler's
// dialect cannot be written.
func (p *plan) rulesOf(r *robotstxt.Robots, d robotstxt.Decision, who string, lim limits) ([]prule, string, bool) {
	dia := d.Dialect
	switch dia {
	case robotstxt.Google, robotstxt.Bing, robotstxt.Yandex, robotstxt.Baidu:
	default:
		p.warn(Warning{Name: WarnDialect, Rule: who, Agents: []string{who},
			Why: "reads robots.txt in the " + dia.String() + " dialect, which the export cannot write: left out"})
		return nil, "", false
	}
	if len(d.Group.Groups) == 0 {
		return nil, "none", true
	}
	groups := r.GroupsFor(dia)
	type raw struct {
		robotstxt.Rule
		implicit bool
	}
	var rs []raw
	for _, gi := range d.Group.Groups {
		if gi < 0 || gi >= len(groups) {
			continue
		}
		for _, ru := range groups[gi].Rules {
			if !ru.CanMatch || ru.Pattern == "" {
				continue
			}
			rs = append(rs, raw{Rule: ru})
			// Google's (and Bing's) reading: an allow of .../index.htm
			// also allows its directory, as "dir/$".
			if ru.Allow && (dia == robotstxt.Google || dia == robotstxt.Bing) {
				if i := strings.LastIndexByte(ru.Pattern, '/'); i >= 0 && strings.HasPrefix(ru.Pattern[i:], "/index.htm") {
					im := ru
					im.Pattern = ru.Pattern[:i+1] + "$"
					rs = append(rs, raw{Rule: im, implicit: true})
				}
			}
		}
	}
	if dia == robotstxt.Baidu {
		// The first rule that matches, in file order.
		slices.SortStableFunc(rs, func(a, b raw) int { return a.Line - b.Line })
	} else {
		// The longest pattern; an allow before a disallow of its length.
		slices.SortStableFunc(rs, func(a, b raw) int {
			if c := cmp.Compare(len(b.Pattern), len(a.Pattern)); c != 0 {
				return c
			}
			if a.Allow != b.Allow {
				if a.Allow {
					return -1
				}
				return 1
			}
			return a.Line - b.Line
		})
	}
	// Allow rules after the last disallow decide nothing a miss would
	// not: left out.
	last := -1
	for i, x := range rs {
		if !x.Allow {
			last = i
		}
	}
	rs = rs[:last+1]
	var key strings.Builder
	key.WriteString(dia.String())
	out := make([]prule, 0, len(rs))
	seen := map[string]bool{}
	for _, x := range rs {
		kind := "disallow"
		if x.Allow {
			kind = "allow"
		}
		text := kind + ": " + x.Value
		if x.implicit {
			text = kind + ": " + x.Pattern + " (implied by " + x.Value + ")"
		}
		re, ok := p.ruleRE(x.Pattern, x.Allow, x.Line, text, lim)
		if !ok || seen[re] {
			// A second rule of one expression never decides: the
			// first does (Caddy refuses a map's input twice).
			continue
		}
		seen[re] = true
		out = append(out, prule{line: x.Line, allow: x.Allow, text: text, re: re})
		fmt.Fprintf(&key, "\x00%d %t %s", x.Line, x.Allow, re)
	}
	// Trailing allows again: a left-out disallow may have left some.
	for len(out) > 0 && out[len(out)-1].allow {
		out = out[:len(out)-1]
	}
	if dia == robotstxt.Baidu && len(out) > 0 {
		// Only rules that refuse can be decided differently: with none
		// left, every URL passes, as Baidu's reading says.
		p.warnOnce(Warning{Name: WarnDecodedPath, Rule: "Baidu's reading",
			Agents: []string{who},
			Why: "Baidu's reading decodes %-escapes in the URL (and reads '*' and '$' in it as escaped); " +
				"the export matches the URL as sent: a URL with '%', '*' or '$' may be decided differently"})
	}
	return out, key.String(), true
}

// warnOnce adds w unless a warning of its name and rule is there; its
// agents are merged.
func (p *plan) warnOnce(w Warning) {
	for i := range p.warnings {
		o := &p.warnings[i]
		if o.Name == w.Name && o.Rule == w.Rule && o.Line == w.Line {
			o.Agents = append(o.Agents, w.Agents...)
			return
		}
	}
	p.warn(w)
}

// ruleRE returns the expression of a rule's pattern in the target, or
// false when the rule is left out (with a warning).
func (p *plan) ruleRE(pat string, allow bool, line int, text string, lim limits) (string, bool) {
	decode := false
	if lim.pathOnly {
		if i := strings.IndexByte(pat, '?'); i >= 0 {
			if allow {
				p.warnOnce(Warning{Line: line, Rule: text, Name: WarnQueryRule,
					Why: "reaches into the query string, which the target does not match: left out (its requests may be refused)"})
				return "", false
			}
			p.warnOnce(Warning{Line: line, Rule: text, Name: WarnQueryRule,
				Why: "reaches into the query string, which the target does not match: cut to " + strconv.Quote(pat[:i]) + " (it refuses more)"})
			pat = pat[:i]
		}
		if strings.IndexByte(pat, '%') >= 0 {
			decode = true
			p.warnOnce(Warning{Line: line, Rule: text, Name: WarnDecodedRule,
				Why: "has %-escapes; the target matches the decoded path, so the rule is compiled decoded"})
		}
	}
	re, bad := patternRE(pat, decode)
	if bad >= 0 {
		if allow {
			p.warnOnce(Warning{Line: line, Rule: text, Name: WarnNonUTF8,
				Why: "holds bytes that are not UTF-8, which the target's expressions cannot match: left out"})
			return "", false
		}
		p.warnOnce(Warning{Line: line, Rule: text, Name: WarnNonUTF8,
			Why: "holds bytes that are not UTF-8, which the target's expressions cannot match: cut before them (it refuses more)"})
		re, _ = patternRE(cutPattern(pat, bad), decode)
	}
	if lim.maxRegex > 0 && len(re) > lim.maxRegex {
		if allow {
			p.warnOnce(Warning{Line: line, Rule: text, Name: WarnLong,
				Why: "is longer than the target's limit (" + strconv.Itoa(lim.maxRegex) + " bytes of expression): left out (its requests may be refused)"})
			return "", false
		}
		p.warnOnce(Warning{Line: line, Rule: text, Name: WarnLong,
			Why: "is longer than the target's limit (" + strconv.Itoa(lim.maxRegex) + " bytes of expression): cut to a prefix (it refuses more)"})
		n := len(pat)
		for len(re) > lim.maxRegex && n > 1 {
			n = n * 3 / 4
			re, _ = patternRE(cutPattern(pat, n), decode)
		}
	}
	return re, true
}

// cutPattern returns pat's first n bytes as an unanchored pattern (a
// %-escape is not split): it matches every URL pat matches, and more.
func cutPattern(pat string, n int) string {
	if n >= len(pat) {
		n = len(pat)
	}
	if i := strings.LastIndexByte(pat[:n], '%'); i >= 0 && i+3 > n {
		n = i
	}
	q := pat[:n]
	return strings.TrimSuffix(q, "$") + "*"
}

// patternRE returns the expression of a robots.txt pattern, anchored at
// the start: '*' is ".*", a final '$' is "$", every other byte literal
// (as \xHH unless it is a letter, a digit or one of "/-_%~"; '.' as
// "\."). With decode, %XX escapes are their bytes. Non-ASCII bytes are
// written as they are when they are UTF-8; otherwise bad is the
// pattern's offset of the first that is not (else -1).
func patternRE(pat string, decode bool) (re string, bad int) {
	var b strings.Builder
	b.WriteByte('^')
	anchored := strings.HasSuffix(pat, "$")
	if anchored {
		pat = pat[:len(pat)-1]
	}
	var lit []byte // literal bytes not yet written
	var from []int // their offsets in pat
	flush := func() int {
		for i := 0; i < len(lit); {
			c := lit[i]
			if c < 0x80 {
				writeLiteral(&b, c)
				i++
				continue
			}
			r, size := utf8.DecodeRune(lit[i:])
			if r == utf8.RuneError && size <= 1 {
				return from[i]
			}
			b.Write(lit[i : i+size])
			i += size
		}
		lit, from = lit[:0], from[:0]
		return -1
	}
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case c == '*':
			if bad := flush(); bad >= 0 {
				return "", bad
			}
			if !strings.HasSuffix(b.String(), ".*") {
				b.WriteString(".*")
			}
		case decode && c == '%' && i+2 < len(pat) && isHex(pat[i+1]) && isHex(pat[i+2]):
			v, _ := strconv.ParseUint(pat[i+1:i+3], 16, 8)
			lit, from = append(lit, byte(v)), append(from, i)
			i += 2
		default:
			lit, from = append(lit, c), append(from, i)
		}
	}
	if bad := flush(); bad >= 0 {
		return "", bad
	}
	if anchored {
		b.WriteByte('$')
	}
	return b.String(), -1
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// writeLiteral writes ASCII byte c as a literal of the expression, in
// the characters every target's configuration holds unquoted.
func writeLiteral(b *strings.Builder, c byte) {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
		c == '/', c == '-', c == '_', c == '%', c == '~':
		b.WriteByte(c)
	case c == '.':
		b.WriteString(`\.`)
	default:
		fmt.Fprintf(b, `\x%02x`, c)
	}
}

// passesOf returns the expressions of the paths never blocked, as the
// guard keeps them: /robots.txt (with any query), everything under
// /.well-known/, and the path and query of each sitemap the file names
// (of any host: the export does not know the site's).
func passesOf(r *robotstxt.Robots, lim limits) []string {
	out := []string{`^/robots\.txt(?:\x3f|$)`, `^/\.well-known/`}
	if lim.pathOnly {
		out[0] = `^/robots\.txt$`
	}
	seen := map[string]bool{}
	for _, s := range r.Sitemaps() {
		u, err := url.Parse(strings.TrimSpace(s.URL))
		if err != nil || u.EscapedPath() == "" || len(seen) >= 100 {
			continue
		}
		pat := u.EscapedPath()
		if lim.pathOnly {
			pat = u.Path
		} else if u.RawQuery != "" {
			pat += "?" + u.RawQuery
		}
		re, bad := literalRE(pat)
		if bad >= 0 || (lim.maxRegex > 0 && len(re) > lim.maxRegex) || seen[re] {
			continue
		}
		seen[re] = true
		out = append(out, re)
	}
	return out
}

// literalRE returns the expression that matches s exactly; bad >= 0 when
// s is not UTF-8.
func literalRE(s string) (re string, bad int) {
	var b strings.Builder
	b.WriteByte('^')
	for i := 0; i < len(s); {
		if s[i] < 0x80 {
			writeLiteral(&b, s[i])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return "", i
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	b.WriteByte('$')
	return b.String(), -1
}

// keyClass is a name the guard recognises a crawler by (lower case) and
// the class of that crawler (nil: left out).
type keyClass struct {
	key   string
	class *class
}

// The parts of the expressions that read a User-Agent.
const (
	uaSpace    = `[\x20\x09]*`
	uaTokenEnd = `(?:[^A-Za-z_-]|$)`
	uaWordSep  = `[^A-Za-z0-9._-]`
	// maxAgentRE bounds one expression of names (nginx's 4 KiB token).
	maxAgentRE = 2500
)

// agentsOf returns the expressions that recognise each class from the
// User-Agent, in the order the guard looks (audit.Catalogue.Identify):
// the header's product token (robotstxt.ProductToken: its first
// product, or in the "Mozilla/5.0 (compatible; X/1.0)" form, X) when it
// is a known name; then the named tokens (Input.NamedTokens); then the
// longest known name that stands as a word anywhere in the header.
func agentsOf(keys, named []keyClass) []agentRE {
	var out []agentRE
	product := func(list []keyClass) {
		for _, grp := range groupByClass(list, func(k string) bool {
			return robotstxt.ValidToken(k) && k != "mozilla"
		}) {
			for _, alt := range chunks(grp.keys) {
				out = append(out, agentRE{class: grp.class, what: "product " + strings.Join(alt.names, ", "),
					re: "^" + uaSpace + "(?:" + alt.re + ")" + uaTokenEnd})
				out = append(out, agentRE{class: grp.class, what: "compatible " + strings.Join(alt.names, ", "),
					re: "^" + uaSpace + foldRE("mozilla") + `(?:[^A-Za-z_-].*)?\x28(?:[^\x29;]*;)*` +
						uaSpace + foldRE("compatible") + uaSpace + ";" + uaSpace + "(?:" + alt.re + ")" + uaTokenEnd})
			}
		}
	}
	product(keys)
	product(named)
	// Words, longest first.
	var words []keyClass
	for _, k := range keys {
		if isWord(k.key) && len(k.key) <= 64 {
			words = append(words, k)
		}
	}
	slices.SortStableFunc(words, func(a, b keyClass) int { return cmp.Compare(len(b.key), len(a.key)) })
	for i := 0; i < len(words); {
		j := i
		for j < len(words) && len(words[j].key) == len(words[i].key) {
			j++
		}
		for _, grp := range groupByClass(words[i:j], isWord) {
			for _, alt := range chunks(grp.keys) {
				out = append(out, agentRE{class: grp.class, what: "word " + strings.Join(alt.names, ", "),
					re: "(?:^|" + uaWordSep + ")(?:" + alt.re + ")(?:" + uaWordSep + "|$)"})
			}
		}
		i = j
	}
	return out
}

type classKeys struct {
	class *class
	keys  []string
}

// groupByClass groups the keys that pass ok by class, in first-seen order.
func groupByClass(list []keyClass, ok func(string) bool) []classKeys {
	var out []classKeys
	at := map[*class]int{}
	for _, k := range list {
		if !ok(k.key) {
			continue
		}
		i, seen := at[k.class]
		if !seen {
			i = len(out)
			at[k.class] = i
			out = append(out, classKeys{class: k.class})
		}
		out[i].keys = append(out[i].keys, k.key)
	}
	return out
}

type alternation struct {
	re    string
	names []string
}

// chunks writes keys as alternations of case-folded names, each at most
// maxAgentRE bytes.
func chunks(keys []string) []alternation {
	var out []alternation
	var cur alternation
	for _, k := range keys {
		f := foldRE(k)
		if cur.re != "" && len(cur.re)+1+len(f) > maxAgentRE {
			out = append(out, cur)
			cur = alternation{}
		}
		if cur.re != "" {
			cur.re += "|"
		}
		cur.re += f
		cur.names = append(cur.names, k)
	}
	if cur.re != "" {
		out = append(out, cur)
	}
	return out
}

// foldRE returns the expression that matches name in any ASCII case:
// "[Gg][Pp][Tt]..." (no engine's case-insensitive flag, which folds
// differently in each).
func foldRE(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z':
			b.WriteByte('[')
			b.WriteByte(c - 'a' + 'A')
			b.WriteByte(c)
			b.WriteByte(']')
		case 'A' <= c && c <= 'Z':
			b.WriteByte('[')
			b.WriteByte(c)
			b.WriteByte(c - 'A' + 'a')
			b.WriteByte(']')
		default:
			writeLiteral(&b, c)
		}
	}
	return b.String()
}

// isWord reports whether s is made of the bytes of a word of a
// User-Agent as the guard reads it: letters, digits, '-', '_', '.'.
func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return s != ""
}
