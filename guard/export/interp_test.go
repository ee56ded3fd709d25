package export

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/audit"
)

// This file reads the exports back the way each target reads them: an
// interpreter of the emitted text (not of the plan), and the reference
// it is held to: the guard's own reading (audit.Catalogue.Identify, the
// rules paths, robotstxt.Decide).

// reCache compiles the User-Agent expressions once: they are long and
// repeat across files. It holds at most reCacheMax of them.
var (
	reMu    sync.Mutex
	reCache = map[string]*regexp.Regexp{}
)

const reCacheMax = 20000

func mustRE(s string) (*regexp.Regexp, error) {
	agent := strings.Contains(s, "[Mm][Oo][Zz]") || strings.HasPrefix(s, "(?:^|[^A-Za-z0-9") ||
		strings.HasPrefix(s, "^[\\x20\\x09]*(?:")
	if agent {
		reMu.Lock()
		re, ok := reCache[s]
		reMu.Unlock()
		if ok {
			return re, nil
		}
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, err
	}
	if agent {
		reMu.Lock()
		if len(reCache) >= reCacheMax {
			clear(reCache)
		}
		reCache[s] = re
		reMu.Unlock()
	}
	return re, nil
}

// entry is one first-match line of an interpreted export.
type entry struct {
	re    *regexp.Regexp
	value string
	line  int // the robots.txt line it came from, 0 for none
}

// interp is an export read back.
type interp struct {
	target Target
	agents []entry // User-Agent -> class (empty for Anubis)
	rules  []entry // "class uri" (or the path, for Anubis) -> verdict
	// anubis: the UA expression of each rule (nil: any)
	uas []*regexp.Regexp
}

// verdictOf answers as the target would: the value of the first rule
// that matches ("" or "pass": passes) and its robots.txt line.
func (in *interp) verdictOf(ua, uri string) (blocked bool, line int) {
	if in.target == Anubis {
		u, err := url.ParseRequestURI(uri)
		if err != nil {
			return false, 0
		}
		for i, e := range in.rules {
			if e.re.MatchString(u.Path) && (in.uas[i] == nil || in.uas[i].MatchString(ua)) {
				return e.value == "DENY", e.line
			}
		}
		return false, 0
	}
	class := ""
	for _, e := range in.agents {
		if e.re.MatchString(ua) {
			class = e.value
			break
		}
	}
	key := class + " " + uri
	for _, e := range in.rules {
		if e.re.MatchString(key) {
			return e.value != "" && e.value != "pass", e.line
		}
	}
	return false, 0
}

var lineComment = regexp.MustCompile(`^\s*# line (\d+):`)

// readExport parses the text Compile wrote for t.
func readExport(t Target, text []byte) (*interp, error) {
	in := &interp{target: t}
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	line, section, n := 0, 0, 0
	add := func(dst *[]entry, re, value string) error {
		r, err := mustRE(re)
		if err != nil {
			return fmt.Errorf("export line %d: %v", n, err)
		}
		*dst = append(*dst, entry{re: r, value: value, line: line})
		line = 0
		return nil
	}
	var ua *regexp.Regexp
	var anubisRE, anubisAct string
	var anubisLine int
	flush := func() error {
		if anubisAct == "" {
			return nil
		}
		r, err := mustRE(anubisRE)
		if err != nil {
			return err
		}
		in.rules = append(in.rules, entry{re: r, value: anubisAct, line: anubisLine})
		in.uas = append(in.uas, ua)
		ua, anubisAct, anubisRE = nil, "", ""
		return nil
	}
	for sc.Scan() {
		n++
		s := sc.Text()
		if m := lineComment.FindStringSubmatch(s); m != nil {
			line, _ = strconv.Atoi(m[1])
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(s), "#") || strings.TrimSpace(s) == "" {
			continue
		}
		switch t {
		case Nginx:
			switch {
			case strings.HasPrefix(s, "map $http_user_agent"):
				section = 1
			case strings.HasPrefix(s, "map \"$robotstxt_agent"):
				section = 2
			case strings.HasPrefix(s, "    \"~"):
				// "~RE" "VALUE";
				rest := s[len("    \"~"):]
				i := strings.Index(rest, "\" \"")
				if i < 0 || !strings.HasSuffix(rest, "\";") {
					return nil, fmt.Errorf("export line %d: %q", n, s)
				}
				re, val := rest[:i], rest[i+3:len(rest)-2]
				dst := &in.agents
				if section == 2 {
					dst = &in.rules
				}
				if err := add(dst, re, val); err != nil {
					return nil, err
				}
			}
		case HAProxy:
			// http-request set-var(txn.X) str(V) if ... '<re>' }
			if !strings.HasPrefix(s, "http-request set-var(") {
				continue
			}
			q1, q2 := strings.IndexByte(s, '\''), strings.LastIndexByte(s, '\'')
			v1 := strings.Index(s, " str(")
			v2 := strings.Index(s[v1:], ")")
			if q1 < 0 || q2 <= q1 || v1 < 0 || v2 < 0 {
				return nil, fmt.Errorf("export line %d: %q", n, s)
			}
			val := s[v1+5 : v1+v2]
			re := s[q1+1 : q2]
			if strings.HasPrefix(s, "http-request set-var(txn.robotstxt_agent)") {
				if err := add(&in.agents, re, val); err != nil {
					return nil, err
				}
				continue
			}
			// the class condition: "{ var(txn.robotstxt_agent) -m str cN }"
			if i := strings.Index(s, "-m str "); i >= 0 {
				cls := s[i+7:]
				cls = cls[:strings.IndexByte(cls, ' ')]
				re = "^" + cls + " " + re[1:]
			} else {
				re = "^[^ ]* " + re[1:]
			}
			if err := add(&in.rules, re, val); err != nil {
				return nil, err
			}
		case Caddy:
			ts := strings.TrimSpace(s)
			switch {
			case strings.HasPrefix(ts, "map {http.request.header.User-Agent}"):
				section = 1
			case strings.HasPrefix(ts, "map \"{robotstxt_agent}"):
				section = 2
			case strings.HasPrefix(ts, "~"):
				i := strings.LastIndexByte(ts, ' ')
				re, val := ts[1:i], ts[i+1:]
				dst := &in.agents
				if section == 2 {
					dst = &in.rules
				}
				if err := add(dst, re, val); err != nil {
					return nil, err
				}
			}
		case Anubis:
			ts := strings.TrimSpace(s)
			switch {
			case strings.HasPrefix(s, "- name: "):
				if err := flush(); err != nil {
					return nil, err
				}
				anubisLine = 0
				if i := strings.Index(s, "-line-"); i >= 0 {
					anubisLine, _ = strconv.Atoi(s[i+6:])
				}
			case strings.HasPrefix(ts, "action: "):
				anubisAct = ts[len("action: "):]
			case strings.HasPrefix(ts, "path_regex: "):
				anubisRE = yamlUnquote(ts[len("path_regex: "):])
			case strings.HasPrefix(ts, "User-Agent: "):
				r, err := mustRE(yamlUnquote(ts[len("User-Agent: "):]))
				if err != nil {
					return nil, err
				}
				ua = r
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return in, sc.Err()
}

func yamlUnquote(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// checkAnubisSchema checks an Anubis export as Anubis's policy loader
// would (lib/policy/config: BotConfig.Valid): a name, a known action, a
// matcher, not user_agent_regex with path_regex, expressions that
// compile (Anubis is Go: regexp), none ending in a newline; and names
// unique.
func checkAnubisSchema(text []byte) error {
	type bot struct {
		name, action, path, ua string
		hasUARegex             bool
	}
	var bots []bot
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		s := sc.Text()
		ts := strings.TrimSpace(s)
		switch {
		case s == "" || strings.HasPrefix(s, "#"):
		case strings.HasPrefix(s, "- name: "):
			bots = append(bots, bot{name: s[len("- name: "):]})
		case len(bots) == 0:
			return fmt.Errorf("anubis: %q before the first bot", s)
		case strings.HasPrefix(s, "  action: "):
			bots[len(bots)-1].action = ts[len("action: "):]
		case strings.HasPrefix(s, "  path_regex: "):
			bots[len(bots)-1].path = yamlUnquote(ts[len("path_regex: "):])
		case s == "  headers_regex:":
		case strings.HasPrefix(s, "    User-Agent: "):
			bots[len(bots)-1].ua = yamlUnquote(ts[len("User-Agent: "):])
		case strings.HasPrefix(s, "  user_agent_regex: "):
			bots[len(bots)-1].hasUARegex = true
		default:
			return fmt.Errorf("anubis: unexpected line %q", s)
		}
	}
	names := map[string]bool{}
	for _, b := range bots {
		switch {
		case b.name == "":
			return fmt.Errorf("anubis: a bot without a name")
		case names[b.name]:
			return fmt.Errorf("anubis: bot name %q twice", b.name)
		case b.path == "" && b.ua == "":
			return fmt.Errorf("anubis: bot %q has no matcher", b.name)
		case b.hasUARegex && b.path != "":
			return fmt.Errorf("anubis: bot %q has user_agent_regex and path_regex", b.name)
		case strings.HasSuffix(b.path, "\n") || strings.HasSuffix(b.ua, "\n"):
			return fmt.Errorf("anubis: bot %q: an expression ends in a newline", b.name)
		}
		switch b.action {
		case "ALLOW", "DENY", "CHALLENGE", "WEIGH", "DEBUG_BENCHMARK":
		default:
			return fmt.Errorf("anubis: bot %q: unknown action %q", b.name, b.action)
		}
		for _, re := range []string{b.path, b.ua} {
			if _, err := mustRE(re); err != nil {
				return fmt.Errorf("anubis: bot %q: %v", b.name, err)
			}
		}
		names[b.name] = true
	}
	return sc.Err()
}

// reference is the guard's verdict for a request, computed from the
// core as the guard computes it.
type reference struct {
	r     *robotstxt.Robots
	cat   *audit.Catalogue
	named map[string]string // lower-case named tokens -> as written
	// sitemaps are the path and query of the file's sitemaps.
	sitemaps map[string]bool
}

func newReference(body []byte, namedTokens bool) *reference {
	ref := &reference{r: robotstxt.Parse(body), cat: defaultCat(), named: map[string]string{}, sitemaps: map[string]bool{}}
	if namedTokens {
		for _, g := range ref.r.Groups() {
			for _, a := range g.Agents {
				lt := strings.ToLower(a.Token)
				if a.Global || !robotstxt.ValidToken(a.Token) || lt == "mozilla" {
					continue
				}
				if ref.catKnows(lt) {
					continue
				}
				if _, ok := ref.named[lt]; !ok {
					ref.named[lt] = a.Token
				}
			}
		}
	}
	for _, s := range ref.r.Sitemaps() {
		u, err := url.Parse(strings.TrimSpace(s.URL))
		if err != nil || u.EscapedPath() == "" {
			continue
		}
		p := u.EscapedPath()
		if u.RawQuery != "" {
			p += "?" + u.RawQuery
		}
		ref.sitemaps[p] = true
	}
	return ref
}

var catOnce sync.Once
var catDef *audit.Catalogue
var catKeys map[string]bool

func defaultCat() *audit.Catalogue {
	catOnce.Do(func() {
		catDef = audit.NewCatalogue(nil)
		catKeys = map[string]bool{}
		for _, c := range robotstxt.Crawlers() {
			if c.Control {
				continue
			}
			for _, n := range append([]string{c.Name, c.Token}, c.Aliases...) {
				catKeys[strings.ToLower(n)] = true
			}
		}
	})
	return catDef
}

func (ref *reference) catKnows(lower string) bool { defaultCat(); return catKeys[lower] }

// claim is who the guard takes a User-Agent to be: a catalogue crawler
// (by product token, else a named token, else a known word), or none.
func (ref *reference) claim(ua string) (c *robotstxt.Crawler, token string) {
	tok := robotstxt.ProductToken(ua)
	i := ref.cat.Identify(ua)
	lt := strings.ToLower(tok)
	if tok != "" && ref.catKnows(lt) && i >= 0 {
		return ref.cat.Crawler(i), ""
	}
	if t, ok := ref.named[lt]; ok && tok != "" {
		return nil, t
	}
	if i >= 0 {
		return ref.cat.Crawler(i), ""
	}
	return nil, ""
}

// blocked is the guard's verdict in enforce mode with the default
// actions (every claim unverified): a claimed crawler on a path its
// groups disallow, but not on the rules' paths.
func (ref *reference) blocked(ua, uri string) (bool, int) {
	if ref.rulesPath(uri) {
		return false, 0
	}
	c, tok := ref.claim(ua)
	// An absolute URL: a request-target "//a" is a path, not an
	// authority.
	abs := "http://example.com" + uri
	var d robotstxt.Decision
	switch {
	case c != nil:
		d = ref.r.Decide(c.Query(abs))
	case tok != "":
		d = ref.r.Decide(robotstxt.Query{URL: abs, Agents: []string{tok}, Dialect: robotstxt.Google})
	default:
		return false, 0
	}
	return !d.Allowed, d.Rule.Line
}

// rulesPath reports whether the guard always serves uri (guard.go's
// isRulesPath and the file's sitemaps).
func (ref *reference) rulesPath(uri string) bool {
	if strings.HasPrefix(uri, "/.well-known/") || ref.sitemaps[uri] {
		return true
	}
	p := uri
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	return p == "/robots.txt"
}
