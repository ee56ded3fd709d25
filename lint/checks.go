package lint

import (
	"bytes"
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
	"github.com/seed53c283f5/robotstxt/internal/words"
)

// Finding is one lint diagnostic. Its JSON form is the one
// "robotstxt lint --json" prints.
type Finding struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`   // 1-based
	Column   int      `json:"column"` // 1-based, in bytes
	Code     string   `json:"code"`
	Severity string   `json:"severity"` // SeverityError, SeverityWarning or SeverityInfo
	Message  string   `json:"message"`
	Dialects []string `json:"dialects"` // the dialects it affects; empty: only other parsers
}

// File is one robots.txt file to lint.
type File struct {
	// Name is the name findings carry: a path, a URL, "standard input".
	Name string
	// Body is the bytes read: up to robotstxt.DefaultMaxBytes plus one,
	// so that a cut at 500 KiB that falls inside a line can be told.
	Body []byte
	// Robots is Body parsed; nil: Check parses it.
	Robots *robotstxt.Robots
	// Size is the whole file's size in bytes when it is longer than
	// Body (the 500 KiB cut); 0 means len(Body).
	Size int64
	// CutLines counts the line ends in what crawlers do not read (after
	// the cut), when known.
	CutLines int
	// Original asks for the codes that concern only the original
	// dialect (OriginalOnly: wildcards-in-original) too. By default a
	// report is about DefaultDialects, the dialects crawlers use, and
	// leaves them out.
	Original bool
	// Extensions are the lines beyond the dialects' own to read when
	// Check parses Body (robotstxt.ExtWebBotAuth: Signature-Agent and
	// Max-Crawl-Rate lines, then checked rather than called unknown). A
	// Robots given is read with the extensions it was parsed with.
	Extensions robotstxt.Extensions
}

// probeToken is a product token no file names: asking about it gives the
// answer of the '*' group.
const probeToken = "robotstxt-lint-probe"

// Bounds that keep lint fast on huge files.
const (
	maxStarProbes   = 512 // '*' rules tried per specific token (star-rules-dropped)
	maxOrderChecks  = 256 // candidate rules verified per file (dialects-disagree)
	yandexMaxRules  = 2048
	yandexMaxRuleLn = 1024
)

type linter struct {
	f     *File
	r     *robotstxt.Robots
	lines []robotstxt.Line
	out   []Finding
	keep  int               // with CheckBounded: findings kept in full per code
	kept  map[string]int    // findings kept in full, per code
	more  map[string]*Tally // the findings past keep, per code
	draft map[int]bool      // the groups a crawler reading the original draft obeys
	// yandexLines are the clean-param and host lines, in file order.
	yandexLines []int
	delayLines  []int // the crawl-delay lines
}

// Check runs every check on one file and returns its findings in line
// order (then column, then the order of the code table). It never fails:
// any bytes give a list, empty for a clean file. It is bounded on huge and
// hostile files.
func Check(f *File) []Finding {
	fs, _ := check(f, 0)
	return fs
}

// Tally is the findings of one code in one file that CheckBounded counted
// instead of returning them.
type Tally struct {
	File     string
	Code     string
	Severity string
	Lines    []int32 // their lines, in line order
}

// CheckBounded is Check for a report that shows a few findings of each
// code and counts the rest: past the first keep findings of a code (in the
// order the checks find them), it returns only their lines, one Tally a
// code, so that a hostile file with a finding on every line costs a few
// bytes a line. keep <= 0 returns every finding, as Check.
func CheckBounded(f *File, keep int) ([]Finding, []Tally) {
	return check(f, keep)
}

func check(f *File, keep int) ([]Finding, []Tally) {
	in := *f
	if in.Robots == nil {
		in.Robots = robotstxt.ParseWith(in.Body, &robotstxt.ParseOptions{Extensions: in.Extensions})
	}
	if in.Size == 0 {
		in.Size = int64(len(in.Body))
	}
	l := &linter{f: &in, r: in.Robots, lines: make([]robotstxt.Line, 0, in.Robots.NumLines())}
	if keep > 0 {
		l.keep, l.kept, l.more = keep, map[string]int{}, map[string]*Tally{}
	}
	for _, ln := range in.Robots.Lines() {
		l.lines = append(l.lines, ln)
	}
	if l.encoding() {
		l.sort()
		return l.out, l.tallies()
	}
	l.perLine()
	groups := l.r.Groups()
	l.draft = l.draftReaders(groups)
	l.yandexFields(groups)
	l.crawlDelays(groups)
	l.shadowed(groups)
	l.starDropped(groups)
	l.disallowAll()
	l.emptyGroups(groups)
	l.blankLines(groups)
	l.firstMatchOrder(groups)
	l.aiGroups(groups)
	l.sort()
	return l.out, l.tallies()
}

// tallies returns the findings counted past keep, in the order of the code
// table, each with its lines sorted.
func (l *linter) tallies() []Tally {
	if len(l.more) == 0 {
		return nil
	}
	out := make([]Tally, 0, len(l.more))
	for _, t := range l.more {
		slices.Sort(t.Lines)
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b Tally) int { return codeIndex[a.Code] - codeIndex[b.Code] })
	return out
}

func (l *linter) add(line, col int, code, msg string, dialects []string) {
	c := codeOf(code)
	if !l.f.Original && originalOnly[code] {
		return
	}
	if dialects == nil {
		dialects = c.Dialects
	}
	if l.keep > 0 {
		if l.kept[code] >= l.keep {
			t := l.more[code]
			if t == nil {
				t = &Tally{File: l.f.Name, Code: code, Severity: c.Severity}
				l.more[code] = t
			}
			t.Lines = append(t.Lines, int32(max(line, 1)))
			return
		}
		l.kept[code]++
	}
	l.out = append(l.out, Finding{File: l.f.Name, Line: max(line, 1), Column: max(col, 1), Code: code, Severity: c.Severity, Message: msg, Dialects: dialects})
}

func (l *linter) sort() {
	slices.SortStableFunc(l.out, func(a, b Finding) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Column != b.Column {
			return a.Column - b.Column
		}
		return codeIndex[a.Code] - codeIndex[b.Code]
	})
}

// encoding checks the bytes of the file; it reports true when the file is
// unreadable as a whole (UTF-16) and nothing else is worth checking.
func (l *linter) encoding() bool {
	body := l.f.Body
	if bytes.HasPrefix(body, []byte{0xFF, 0xFE}) || bytes.HasPrefix(body, []byte{0xFE, 0xFF}) {
		l.add(1, 1, "utf16", "the file is UTF-16 (it starts with a UTF-16 byte order mark): crawlers read it as bytes and find no rule at all; save it as UTF-8", nil)
		return true
	}
	if l.r.Truncated() {
		last := len(l.lines)
		msg := fmt.Sprintf("the file is %s bytes: crawlers read only the first 512,000 (up to line %d)", commas(l.f.Size), last)
		if l.f.CutLines > 0 {
			msg += fmt.Sprintf(" and ignore the %s %s after it", commas(int64(l.f.CutLines)), plural(l.f.CutLines, "line"))
		}
		msg += "; Yandex ignores a robots.txt over 500 KB entirely and crawls everything; shorten the file"
		l.add(last, 1, "file-truncated", msg, nil)
		n := robotstxt.DefaultMaxBytes
		if len(body) > n && !isLineEnd(body[n-1]) && !isLineEnd(body[n]) {
			ln := &l.lines[last-1]
			l.add(last, len(ln.Text)+1, "partial-last-line", fmt.Sprintf("the 512,000-byte cut falls inside this line: crawlers read %q as it stands, %s", clip(ln.Text, 60), cutLineReading(ln)), nil)
		}
	}
	if bytes.HasPrefix(body, []byte("\xEF\xBB\xBF")) {
		l.add(1, 1, "bom", "the file starts with a UTF-8 byte order mark: Google, Bing, Yandex and RFC 9309 skip it, some older parsers read the first line as an unknown field; save without it", nil)
	}
	if len(l.lines) > 0 {
		first := l.lines[0]
		if hasMojibakeBOM(&first) {
			msg := fmt.Sprintf("the file starts with ï»¿ (a byte order mark encoded twice): every crawler reads the key %q as unknown and skips this line", clip(first.Key, 40))
			if mojibakeAgent(&first) {
				msg += ", so the rules after it, up to the next user-agent line, belong to no group and every crawler ignores them"
			}
			l.add(1, 1, "mojibake-bom", msg+"; remove those characters", nil)
		}
	}
	if !utf8.Valid(body) {
		first, col, count := 0, 0, 0
		for _, ln := range l.lines {
			if !utf8.ValidString(ln.Text) {
				count++
				if first == 0 {
					first = ln.Number
					col = invalidUTF8At(ln.Text) + 1
				}
			}
		}
		if first > 0 {
			msg := "this line holds bytes that are not UTF-8"
			if count > 1 {
				msg = fmt.Sprintf("%d lines hold bytes that are not UTF-8 (this is the first)", count)
			}
			l.add(first, col, "non-utf8", msg+": crawlers percent-encode them as they are, so a rule matches only URLs with the same bytes; save the file as UTF-8", nil)
		}
	}
	first, count := 0, 0
	for _, ln := range l.lines {
		if looksLikeMarkup(ln.Text) {
			count++
			if first == 0 {
				first = ln.Number
			}
		}
	}
	if first > 0 {
		what := "HTML"
		if strings.Contains(l.lines[first-1].Text, "<?php") || bytes.Contains(body, []byte("<?php")) {
			what = "PHP or HTML"
		}
		l.add(first, 1, "html-content", fmt.Sprintf("%d %s like %s, not robots.txt (the first is %q): the server sends a page or a script's output; crawlers skip those lines and read only the valid ones; serve plain robots.txt text", count, plural(count, "line")+map[bool]string{true: " looks", false: " look"}[count == 1], what, clip(strings.TrimSpace(l.lines[first-1].Text), 40)), nil)
	}
	return false
}

// cutLineReading says what crawlers make of the start of a line that the
// 500 KiB cut ends: a shorter pattern matches more URLs, but an empty one
// matches none, and a cut key is no field at all.
func cutLineReading(ln *robotstxt.Line) string {
	switch {
	case !ln.HasDirective || ln.Field == robotstxt.FieldUnknown:
		return "and no crawler reads it: the field of the full line is lost"
	case ln.Field == robotstxt.FieldDisallow && ln.Value == "":
		return "an empty disallow that blocks nothing: the rule of the full line is lost"
	case ln.Field == robotstxt.FieldAllow && ln.Value == "":
		return "an empty allow that allows nothing: the rule of the full line is lost"
	case (ln.Field == robotstxt.FieldDisallow || ln.Field == robotstxt.FieldAllow) && ln.Value[0] != '/' && ln.Value[0] != '*':
		return "a pattern that matches no URL, like the full line"
	case ln.Field == robotstxt.FieldDisallow:
		return "a shorter pattern, which may match more URLs than the full line: it may block pages the full line did not"
	case ln.Field == robotstxt.FieldAllow:
		return "a shorter pattern, which may match more URLs than the full line: it may allow pages the full line did not"
	case ln.Field == robotstxt.FieldUserAgent:
		return "a shorter user-agent value: the group may name another crawler than the full line"
	case ln.Field == robotstxt.FieldSitemap:
		return "a sitemap URL cut short: crawlers fetch the wrong URL or none"
	}
	return "with its value cut short"
}

// hasMojibakeBOM reports whether ln is the first line and starts with a byte
// order mark encoded twice, glued to a key that no crawler then reads.
func hasMojibakeBOM(ln *robotstxt.Line) bool {
	return ln.Number == 1 && ln.Field == robotstxt.FieldUnknown && strings.HasPrefix(strings.TrimLeft(ln.Text, " \t"), "\xC3\xAF\xC2\xBB\xC2\xBF")
}

// mojibakeAgent reports whether the key behind a twice-encoded byte order
// mark on the first line is user-agent: the rules under it then belong to
// no group, which mojibake-bom says once.
func mojibakeAgent(ln *robotstxt.Line) bool {
	if !hasMojibakeBOM(ln) {
		return false
	}
	k := strings.TrimPrefix(strings.TrimLeft(ln.Key, " \t"), "\xC3\xAF\xC2\xBB\xC2\xBF")
	return strings.EqualFold(k, "user-agent")
}

// mojibakeComment reports whether the first line is a comment behind a
// twice-encoded byte order mark: crawlers skip it, as they skip a comment.
func mojibakeComment(ln *robotstxt.Line) bool {
	return ln.Number == 1 && strings.HasPrefix(strings.TrimLeft(ln.Text, " \t"), "\xC3\xAF\xC2\xBB\xC2\xBF#")
}

func isLineEnd(c byte) bool { return c == '\n' || c == '\r' }

// invalidUTF8At returns the offset of the first byte of s that is not valid UTF-8.
func invalidUTF8At(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return i
			}
		}
	}
	return 0
}

// looksLikeMarkup reports whether a line is HTML or PHP: it starts with a
// tag, or is a PHP error message.
func looksLikeMarkup(text string) bool {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "<") && len(t) > 1 {
		c := t[1]
		return c == '!' || c == '/' || c == '?' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for _, p := range []string{"Warning: ", "Fatal error: ", "Parse error: ", "Notice: ", "Deprecated: "} {
		if strings.HasPrefix(t, p) && strings.Contains(t, ".php") {
			return true
		}
	}
	return false
}

// keyColumn and valueColumn give the 1-based byte columns of a line's key
// and value, computed from the line's text.
func keyColumn(ln *robotstxt.Line) int {
	i := 0
	for i < len(ln.Text) && (ln.Text[i] == ' ' || ln.Text[i] == '\t') {
		i++
	}
	return i + 1
}

func valueColumn(ln *robotstxt.Line) int {
	start := keyColumn(ln) - 1 + len(ln.Key)
	if ln.Value == "" || start > len(ln.Text) {
		return keyColumn(ln)
	}
	if i := strings.Index(ln.Text[start:], ln.Value); i >= 0 {
		return start + i + 1
	}
	return keyColumn(ln)
}

// perLine runs the checks that look at one line at a time.
func (l *linter) perLine() {
	// Under a user-agent line made unreadable by ï»¿, mojibake-bom speaks
	// for the rules.
	seenAgent := len(l.lines) > 0 && mojibakeAgent(&l.lines[0])
	rules := 0
	for i := range l.lines {
		ln := &l.lines[i]
		if ln.TooLong {
			l.add(ln.Number, 16664, "line-too-long", fmt.Sprintf("this line is %s bytes: Google's parser reads only its first 16,663 bytes; split or shorten it", commas(int64(len(ln.Text)))), nil)
		}
		if ln.NUL {
			l.add(ln.Number, strings.IndexByte(ln.Text, 0)+1, "nul-byte", "this line holds a NUL byte: Google's parser reads it only up to there; remove it", nil)
		}
		// An unknown key followed by white space instead of a colon is
		// two words of text, not a field: "$$$$ ..MMMM" in ASCII art.
		if !ln.HasDirective || ln.Field == robotstxt.FieldUnknown && ln.MissingColon {
			if !ln.Empty && !ln.Comment && !looksLikeMarkup(ln.Text) && !hasMojibakeBOM(ln) && !mojibakeComment(ln) {
				l.add(ln.Number, keyColumn(ln), "unreadable-line", fmt.Sprintf("%q is neither a field (key: value) nor a comment: crawlers skip it; write key: value, or start the line with #", clip(strings.TrimSpace(ln.Text), 40)), nil)
			}
			continue
		}
		if l.legacyAIField(ln) {
			continue
		}
		if ln.Typo || ln.PrefixKey {
			how := "it is a common misspelling"
			if ln.PrefixKey && !ln.Typo {
				how = "it starts with a field name (Google matches keys by prefix)"
			}
			l.add(ln.Number, keyColumn(ln), "accepted-typo", fmt.Sprintf("Google reads %q as %s because %s, but RFC 9309 and the original draft ignore the line: write %q", ln.Key, ln.Field, how, canonicalKey(ln.Field)), nil)
		}
		if ln.MissingColon {
			l.add(ln.Number, keyColumn(ln)+len(ln.Key), "missing-colon", fmt.Sprintf("no colon after %q: Google accepts the white space, RFC 9309 and the original draft ignore the line: write %s: %s", ln.Key, canonicalKey(ln.Field), ln.Value), nil)
		}
		switch ln.Field {
		case robotstxt.FieldUnknown:
			if looksLikeMarkup(ln.Text) || hasMojibakeBOM(ln) {
				break // html-content and mojibake-bom say it once
			}
			msg := fmt.Sprintf("no crawler reads the field %q: the line is skipped", clip(ln.Key, 40))
			if k := strings.ToLower(ln.Key); (k == "http" || k == "https") && strings.HasPrefix(ln.Value, "//") {
				msg += fmt.Sprintf("; did you mean %q?", "Sitemap: "+strings.TrimSpace(ln.Text)) // a sitemap URL without its key
			} else if s := suggestField(ln.Key); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			l.add(ln.Number, keyColumn(ln), "unknown-field", msg, nil)
		case robotstxt.FieldUserAgent:
			seenAgent = true
			if ln.Value == "" {
				l.add(ln.Number, keyColumn(ln), "empty-user-agent", "this user-agent line has no value and names no crawler: write a product token, or * for every crawler", nil)
			} else if name, _, _ := strings.Cut(ln.Value, "/"); ln.Value != "*" && strings.ContainsAny(strings.TrimSpace(name), " \t") {
				tok := robotstxt.ExtractToken(ln.Value)
				what := fmt.Sprintf("so this line names %q, and every crawler of that name", tok)
				if tok == "" {
					what = "and this value starts with none: the line names no crawler"
				}
				l.add(ln.Number, valueColumn(ln), "user-agent-space", fmt.Sprintf("the user-agent value %q holds white space: crawlers compare only its product token (the leading letters, '-' and '_'), %s; write the crawler's product token alone", clip(ln.Value, 60), what), nil)
			}
		case robotstxt.FieldAllow, robotstxt.FieldDisallow:
			rules++
			if rules == yandexMaxRules+1 {
				l.add(ln.Number, keyColumn(ln), "yandex-too-many-rules", fmt.Sprintf("this is allow/disallow rule number %d: Yandex reads at most %s; merge rules with wildcards", rules, commas(yandexMaxRules)), nil)
			}
			if len(ln.Value) > yandexMaxRuleLn {
				l.add(ln.Number, valueColumn(ln), "yandex-rule-too-long", fmt.Sprintf("this pattern is %s characters: Yandex ignores rules over %s; shorten it", commas(int64(len(ln.Value))), commas(yandexMaxRuleLn)), nil)
			}
			if !seenAgent {
				l.add(ln.Number, keyColumn(ln), "rule-before-user-agent", fmt.Sprintf("%q comes before any user-agent line: it belongs to no group and every crawler ignores it; put a User-agent line above it", clip(strings.TrimSpace(ln.Text), 60)), nil)
			} else if v := ln.Value; v != "" && v[0] != '/' && v[0] != '*' {
				fix := patternFix(v)
				l.add(ln.Number, valueColumn(ln), "pattern-cannot-match", fmt.Sprintf("the pattern %q starts with neither / nor *: no URL can match it; did you mean %q?", clip(v, 60), fix), nil) // a fix is pasted: never cut
			}
		case robotstxt.FieldCrawlDelay:
			l.delayLines = append(l.delayLines, ln.Number) // crawlDelays
			if _, ok := robotstxt.ParseCrawlDelay(ln.Value); !ok {
				l.add(ln.Number, valueColumn(ln), "bad-crawl-delay", fmt.Sprintf("crawl-delay %q is not a number of seconds: crawlers ignore it; write e.g. Crawl-delay: 5", clip(ln.Value, 40)), nil)
			}
		case robotstxt.FieldHost, robotstxt.FieldCleanParam:
			l.yandexLines = append(l.yandexLines, ln.Number) // yandexFields
		case robotstxt.FieldRequestRate, robotstxt.FieldVisitTime:
			l.add(ln.Number, keyColumn(ln), "unsupported-field", fmt.Sprintf("%s is not read by Google, Bing, Yandex or Baidu", ln.Field), allDialects)
		case robotstxt.FieldNoindex, robotstxt.FieldNofollow, robotstxt.FieldNoarchive:
			l.add(ln.Number, keyColumn(ln), "unsupported-field", fmt.Sprintf("no crawler reads %s in robots.txt (Google stopped in 2019): use a robots meta tag or the X-Robots-Tag header; to block crawling, use Disallow", ln.Field), allDialects)
		case robotstxt.FieldContentUsage, robotstxt.FieldContentSignal:
			l.aiLine(ln, seenAgent)
		case robotstxt.FieldSignatureAgent, robotstxt.FieldMaxCrawlRate:
			l.signingLine(ln, seenAgent)
		case robotstxt.FieldSitemap:
			if msg := checkSitemapURL(ln.Value); msg != "" {
				l.add(ln.Number, valueColumn(ln), "bad-sitemap-url", msg, nil)
			}
		}
	}
}

// patternFix returns the pattern that v, which starts with neither / nor *,
// most likely meant: the path of a URL, a suffix for an extension or a
// query, v itself after stray spaces, else v with a leading /.
func patternFix(v string) string {
	if t := strings.TrimLeftFunc(v, func(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' || r == '\u200B' }); t != "" && (t[0] == '/' || t[0] == '*') {
		return t // "\u00a0/path": a no-break space before the slash
	}
	if f := strings.Fields(v); len(f) > 1 && strings.Contains(f[0], "://") {
		v = f[0] // "https://example.com/sitemap.xml 2023-11-03": a listing pasted in
	}
	if rest, ok := strings.CutPrefix(v, "./"); ok {
		return "/" + rest
	}
	if h, rest, ok := strings.Cut(v, "/"); ok && looksLikeHost(h) {
		return "/" + rest // www.example.com/path: the host is not part of the URL's path
	}
	if u, err := url.Parse(v); err == nil && u.Host != "" {
		fix := u.EscapedPath()
		if fix == "" {
			fix = "/"
		}
		if u.RawQuery != "" {
			fix += "?" + u.RawQuery
		}
		return fix
	}
	if strings.HasPrefix(v, ".") || strings.HasPrefix(v, "?") || strings.HasSuffix(v, "$") && !strings.Contains(v, "/") {
		return "/*" + v // .gif$, ?utm_source=: a suffix or a query anywhere
	}
	return "/" + v
}

// crawlDelays reports crawl-delay lines that the crawlers of their group
// ignore: one warning per line in a group that names only crawlers that
// ignore it (Google's, Baidu's, Yandex's), one finding per file for the *
// group, which both kinds obey. In a group of crawlers that read it
// (bingbot, AhrefsBot...) it is correct usage.
func (l *linter) crawlDelays(groups []robotstxt.Group) {
	var star []int
	for _, n := range l.delayLines {
		gi, ok := l.r.GroupOf(robotstxt.Google, n)
		if !ok {
			continue // before any group: read by no crawler, and rare
		}
		g := &groups[gi]
		// The user-agent lines above it, after the group's last rule
		// above it: Google merges "User-agent: a, Crawl-delay: 1,
		// User-agent: *" into one group, other crawlers do not.
		last := 0
		for _, ru := range g.Rules {
			if ru.Line < n {
				last = max(last, ru.Line)
			}
		}
		if !slices.ContainsFunc(g.Agents, func(a robotstxt.Agent) bool { return a.Line > last && a.Line < n }) {
			last = 0 // among the group's rules: every user-agent line above
		}
		var names []string
		global, all := false, true
		for _, a := range g.Agents {
			if a.Line <= last || a.Line > n {
				continue
			}
			global = global || a.Global
			if !(robotstxt.Query{Agents: []string{a.Value}}).HonoursCrawlDelay() {
				names = append(names, a.Value)
			} else {
				all = false
			}
		}
		switch {
		case global:
			star = append(star, n)
		case all && len(names) > 0:
			verb, them := "ignore", "them"
			if len(names) == 1 {
				verb, them = "ignores", "it"
			}
			l.add(n, keyColumn(&l.lines[n-1]), "unsupported-field", fmt.Sprintf("%s %s crawl-delay: this line does not slow %s (Google sets its own rate, Yandex stopped obeying it in 2018, Baidu never read it)", strings.Join(names, ", "), verb, them), []string{"google", "rfc9309", "baidu", "original", "yandex"})
		}
	}
	if len(star) > 0 {
		what := "a crawl-delay in the * group"
		if len(star) > 1 {
			what = fmt.Sprintf("crawl-delay in the * group (lines %s)", JoinLines(star, 8))
		}
		l.add(star[0], keyColumn(&l.lines[star[0]-1]), "unsupported-field", "Google, Baidu and Yandex ignore "+what+"; Bing and many other crawlers read it; one finding per file", []string{"google", "rfc9309", "baidu", "original", "yandex"})
	}
}

// looksLikeHost reports whether s reads as a host name: dot-separated labels
// of letters, digits and '-', the last of letters only ("www.example.com"),
// and not a file name ("admin.php").
func looksLikeHost(s string) bool {
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	switch strings.ToLower(labels[len(labels)-1]) {
	case "php", "html", "htm", "shtml", "asp", "aspx", "jsp", "cgi", "pl", "js", "css", "xml", "txt", "json", "gif", "jpg", "jpeg", "png", "pdf", "do", "action":
		return false
	}
	for i, lb := range labels {
		if lb == "" {
			return false
		}
		for _, c := range []byte(lb) {
			letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !letter && (i == len(labels)-1 || !(c >= '0' && c <= '9' || c == '-')) {
				return false
			}
		}
	}
	return true
}

// checkSitemapURL says what is wrong with a sitemap value, "" when nothing.
func checkSitemapURL(v string) string {
	if v == "" {
		return "this sitemap line has no value: crawlers ignore it; write the full URL, e.g. https://example.com/sitemap.xml, or remove the line"
	}
	u, err := url.Parse(v)
	switch {
	case err != nil:
		return fmt.Sprintf("the sitemap URL %q is malformed (%v): crawlers ignore it", clip(v, 60), errText(err))
	case u.Scheme == "" || u.Host == "":
		return fmt.Sprintf("the sitemap URL %q is not absolute: crawlers ignore it; write the full URL, e.g. https://example.com/sitemap.xml", clip(v, 60))
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Sprintf("the sitemap URL %q is not http or https: crawlers ignore it", clip(v, 60))
	}
	return ""
}

func errText(err error) string {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err.Error()
	}
	return err.Error()
}

func canonicalKey(f robotstxt.Field) string {
	switch f {
	case robotstxt.FieldUserAgent:
		return "User-agent"
	case robotstxt.FieldAllow:
		return "Allow"
	case robotstxt.FieldDisallow:
		return "Disallow"
	case robotstxt.FieldSitemap:
		return "Sitemap"
	case robotstxt.FieldCrawlDelay:
		return "Crawl-delay"
	case robotstxt.FieldCleanParam:
		return "Clean-param"
	case robotstxt.FieldHost:
		return "Host"
	}
	s := f.String()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// suggestField returns the known field closest to key (at most two edits
// away), or "".
func suggestField(key string) string {
	k := strings.ToLower(key)
	if len(k) > 20 {
		return ""
	}
	best, bestD := "", 3
	for _, f := range []string{"user-agent", "allow", "disallow", "sitemap", "crawl-delay", "clean-param", "host"} {
		if d := suggest.Distance(k, f); d < bestD {
			best, bestD = canonicalKey(fieldByName(f)), d
		}
	}
	return best
}

func fieldByName(s string) robotstxt.Field {
	for f := robotstxt.FieldUserAgent; f <= robotstxt.FieldUnknown; f++ {
		if f.String() == s {
			return f
		}
	}
	return robotstxt.FieldUnknown
}

// canonicalPattern rewrites a normalised pattern into a form that two
// patterns share exactly when they match the same URLs in the longest-match
// dialects, for the common cases: runs of '*' are one '*', a trailing '*'
// (or "*$") adds nothing.
func canonicalPattern(p string) string {
	if strings.Contains(p, "**") {
		var b strings.Builder
		for i := 0; i < len(p); i++ {
			if p[i] == '*' && i > 0 && p[i-1] == '*' {
				continue
			}
			b.WriteByte(p[i])
		}
		p = b.String()
	}
	p = strings.TrimSuffix(p, "*$")
	return strings.TrimRight(p, "*")
}

// ruleText returns a rule's line as written, trimmed.
func (l *linter) ruleText(n int) string {
	if n >= 1 && n <= len(l.lines) {
		return clip(strings.TrimSpace(l.lines[n-1].Text), 80)
	}
	return ""
}

// shadowed finds, within each group, rules that match exactly the URLs of
// another rule that beats them: duplicates, an allow and a disallow of the
// same pattern, "/x" beside "/x*". Rules are grouped by canonical pattern
// in a map, so a group of thousands of rules costs one pass.
func (l *linter) shadowed(groups []robotstxt.Group) {
	for gi := range groups {
		g := &groups[gi]
		classes := map[string][]int{}
		for i, ru := range g.Rules {
			if !ru.CanMatch || ru.Pattern == "" {
				continue
			}
			k := canonicalPattern(ru.Pattern)
			if k == "" {
				k = "*" // "/"-less "*": matches everything
			}
			classes[k] = append(classes[k], i)
		}
		for _, idx := range classes {
			if len(idx) < 2 {
				continue
			}
			// The winner: longest pattern, then allow, then first line.
			best := idx[0]
			for _, i := range idx[1:] {
				a, b := &g.Rules[i], &g.Rules[best]
				if len(a.Pattern) > len(b.Pattern) || len(a.Pattern) == len(b.Pattern) && a.Allow && !b.Allow {
					best = i
				}
			}
			w := &g.Rules[best]
			for _, i := range idx {
				if i == best {
					continue
				}
				ru := &g.Rules[i]
				ln := &l.lines[ru.Line-1]
				col := keyColumn(ln)
				if ru.Allow == w.Allow {
					dialects := longestMatch
					same := "matches the same URLs as"
					if ru.Pattern == w.Pattern {
						same = "has the same pattern as"
						if ru.Value == w.Value {
							same = "repeats"
						}
						if w.Line < ru.Line {
							dialects = allDialects // the first of two equal rules wins in every dialect
						}
					}
					l.add(ru.Line, col, "duplicate-rule", fmt.Sprintf("this rule %s line %d %q, which decides instead: it never changes a verdict; remove it", same, w.Line, l.ruleText(w.Line)), dialects)
					continue
				}
				why := "allow wins a tie of equal length"
				if len(w.Pattern) > len(ru.Pattern) {
					why = fmt.Sprintf("its pattern is longer: %s against %d", words.Count(len(w.Pattern), "byte"), len(ru.Pattern))
				}
				msg := fmt.Sprintf("this rule never decides: line %d %q matches the same URLs and wins (%s)", w.Line, l.ruleText(w.Line), why)
				if ru.Line < w.Line && l.draft[gi] {
					msg += "; under Baidu's first match this line wins instead"
				}
				l.add(ru.Line, col, "shadowed-rule", msg+"; remove one of the two", nil)
			}
		}
	}
}

// probePath returns a URL path that pattern p (normalised, able to match)
// matches: each '*' matches nothing, a final '$' is dropped.
func probePath(p string) string {
	p = strings.TrimSuffix(p, "$")
	p = strings.ReplaceAll(p, "*", "")
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return p
}

// starDropped reports, for each token a group names, the '*' rules its
// own groups drop (StarRulesDropped, in Google's reading). A token named
// only by groups with no rule is left to empty-group, which speaks for it.
func (l *linter) starDropped(groups []robotstxt.Group) {
	if !slices.ContainsFunc(groups, func(g robotstxt.Group) bool {
		return len(g.Rules) > 0 && slices.ContainsFunc(g.Agents, func(a robotstxt.Agent) bool { return a.Global })
	}) {
		return
	}
	seen := map[string]bool{}
	for gi := range groups {
		if len(groups[gi].Rules) > 0 {
			continue
		}
		for _, a := range groups[gi].Agents {
			seen[strings.ToLower(a.Token)] = true // empty-group speaks for them
		}
	}
	for gi := range groups {
		if len(groups[gi].Rules) == 0 {
			continue
		}
		for _, a := range groups[gi].Agents {
			delete(seen, strings.ToLower(a.Token))
		}
	}
	var sc *StarCheck
	for gi := range groups {
		for _, a := range groups[gi].Agents {
			tok := strings.ToLower(a.Token)
			if a.Global || tok == "" || seen[tok] {
				continue
			}
			seen[tok] = true
			if sc == nil {
				sc = NewStarCheck(l.r, robotstxt.Google)
			}
			drop, ok := sc.Dropped(robotstxt.Query{Agents: []string{a.Token}}, nil)
			if !ok {
				continue
			}
			msg := fmt.Sprintf("%s obeys only the groups that name it, never the * group: %s, blocked for other crawlers by line %d %q, is allowed for %s",
				a.Token, clip(drop.Example, 60), drop.Rule, l.ruleText(drop.Rule), a.Token)
			if len(drop.Rules) > 1 {
				msg += fmt.Sprintf(" (%d such * rules: lines %s)", len(drop.Rules), JoinLines(drop.Rules, 8))
			}
			msg += "; repeat in its group the * rules it should follow"
			ln := &l.lines[a.Line-1]
			l.add(a.Line, keyColumn(ln), "star-rules-dropped", msg, nil)
		}
	}
}

// JoinLines lists line numbers for a message, at most max of them, then
// "...": "3, 7, 9, ...".
func JoinLines(ns []int, max int) string {
	var parts []string
	for i, n := range ns {
		if i == max {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, fmt.Sprint(n))
	}
	return strings.Join(parts, ", ")
}

// disallowAll reports a '*' group that closes the whole site.
func (l *linter) disallowAll() {
	if l.r.Allowed(probeToken, "/") || l.r.Allowed(probeToken, "/robotstxt-lint-page.html") {
		return
	}
	dec := l.r.Decide(robotstxt.Query{URL: "/", Agents: []string{probeToken}, Dialect: robotstxt.Google})
	if !dec.HasRule() || dec.Group.Kind != robotstxt.GroupGlobal {
		return
	}
	// An allow-list: the * group lets some paths in (Allow: /fonts/, then
	// Disallow: /, as gstatic.com and office365.com write it). Closing the
	// rest is the point; "remove the line" would open the whole site.
	groups := l.r.Groups()
	for _, gi := range dec.Group.Groups {
		for _, ru := range groups[gi].Rules {
			if ru.Allow && ru.CanMatch && ru.Pattern != "" && l.r.Allowed(probeToken, probePath(ru.Pattern)) {
				return
			}
		}
	}
	// A file that closes the site to all but the crawlers it names, and
	// lets some of them in by rules of their own, is an allow-list, not a
	// forgotten staging file. (A group with no rule lets its crawler in
	// too, but by mistake more often than not: empty-group says so.)
	for _, g := range groups {
		if len(g.Rules) == 0 {
			continue
		}
		for _, a := range g.Agents {
			if !a.Global && a.Token != "" && (l.r.Allowed(a.Token, "/") || l.r.Allowed(a.Token, "/robotstxt-lint-page.html")) {
				return
			}
		}
	}
	msg := fmt.Sprintf("%q in the * group blocks the whole site for every crawler without a group of its own: is this a staging file left in production? Remove the line if the site should be crawled", l.ruleText(dec.Line()))
	ln := &l.lines[dec.Line()-1]
	l.add(dec.Line(), keyColumn(ln), "disallow-all", msg, nil)
}

// emptyGroups reports crawlers whose only groups have no rule while the '*'
// group has some: they may fetch everything, which is rarely meant.
func (l *linter) emptyGroups(groups []robotstxt.Group) {
	starRules := false
	withRules := map[string]bool{}
	for gi := range groups {
		g := &groups[gi]
		for _, a := range g.Agents {
			// A * group whose rules are all empty ("Disallow:") lets
			// every crawler fetch everything: ignoring it loses nothing.
			if a.Global && slices.ContainsFunc(g.Rules, func(ru robotstxt.Rule) bool { return ru.Value != "" }) {
				starRules = true
			}
			if len(g.Rules) > 0 {
				withRules[strings.ToLower(a.Token)] = true
			}
		}
	}
	if !starRules {
		return
	}
	for gi := range groups {
		g := &groups[gi]
		if len(g.Rules) > 0 {
			continue
		}
		var names []string
		for _, a := range g.Agents {
			if !a.Global && a.Token != "" && !withRules[strings.ToLower(a.Token)] {
				names = append(names, a.Value)
			}
		}
		if len(names) == 0 {
			continue
		}
		who := strings.Join(names, ", ")
		msg := fmt.Sprintf("the group of %s has no allow or disallow rule: %s may fetch everything and ignores the * group's rules", who, who)
		if g.DelayLine > 0 {
			msg += " (a crawl-delay alone does not bring them back)"
		}
		msg += "; add the rules it should follow (or Disallow: with no value to say it may fetch everything)"
		ln := &l.lines[g.StartLine-1]
		l.add(g.StartLine, keyColumn(ln), "empty-group", msg, nil)
	}
}

// blankLines reports a blank line inside a group, followed in the same group
// by a user-agent or rule line.
func (l *linter) blankLines(groups []robotstxt.Group) {
	for gi := range groups {
		g := &groups[gi]
		blank := 0
		for n := g.StartLine; n <= g.EndLine && n <= len(l.lines); n++ {
			ln := &l.lines[n-1]
			if ln.Empty && !ln.HasComment {
				if blank == 0 {
					blank = n
				}
				continue
			}
			if blank == 0 {
				continue
			}
			var what string
			switch ln.Field {
			case robotstxt.FieldUserAgent:
				// No rule came before: a user-agent line after a rule
				// starts a group of its own.
				what = fmt.Sprintf("so the user-agent of line %d gets an empty record (it may fetch everything) and line %d %q starts another", g.StartLine, n, l.ruleText(n))
			case robotstxt.FieldAllow, robotstxt.FieldDisallow:
				what = fmt.Sprintf("so line %d %q and the rules after it belong to no record: crawlers that read the draft ignore them", n, l.ruleText(n))
			default:
				continue
			}
			l.add(blank, 1, "blank-line-in-group", fmt.Sprintf("blank line inside the group of line %d: Google reads on, but the original draft (Baidu) ends the record here, %s; Yandex's validator warns too; remove the blank line", g.StartLine, what), nil)
			n = g.EndLine
		}
	}
}

// trieNode is a node of a byte trie of literal patterns.
type trieNode struct {
	next  map[byte]int32
	allow int // first line of an allow with this exact pattern, 0 if none
	deny  int // first line of a disallow with this exact pattern
}

// draftReaders returns the groups (indices into groups, Google's reading)
// that a crawler reading the draft's records (Baidu's, the original
// dialect's) obeys: the first record naming it, else the first '*' record.
// The other groups are never read by first match, whatever their order.
func (l *linter) draftReaders(groups []robotstxt.Group) map[int]bool {
	records := l.r.GroupsFor(robotstxt.Original) // Baidu's records are the draft's
	read := map[int]bool{}
	for _, c := range robotstxt.Crawlers() {
		if c.Dialect != robotstxt.Original && c.Dialect != robotstxt.Baidu {
			continue
		}
		d := l.r.Decide(robotstxt.Query{URL: "/", Crawler: &c, Dialect: c.Dialect})
		for _, ri := range d.Group.Groups {
			start := records[ri].StartLine
			for gi := range groups {
				if groups[gi].StartLine <= start && start <= groups[gi].EndLine {
					read[gi] = true
				}
			}
		}
	}
	return read
}

// trieInsert adds literal rule ru to the trie of a group's patterns and
// returns the first earlier rule of the other kind whose pattern is a
// prefix of ru's (0 if none): the rule that matches first in the draft.
func trieInsert(trie *[]trieNode, ru robotstxt.Rule) int {
	node, earlier := 0, 0
	p := ru.Pattern
	for i := 0; ; i++ {
		n := &(*trie)[node]
		e := n.deny
		if !ru.Allow {
			e = n.allow
		}
		if e > 0 && (earlier == 0 || e < earlier) {
			earlier = e
		}
		if i == len(p) {
			break
		}
		nx, ok := n.next[p[i]]
		if !ok {
			if n.next == nil {
				n.next = map[byte]int32{}
			}
			*trie = append(*trie, trieNode{})
			nx = int32(len(*trie) - 1)
			(*trie)[node].next[p[i]] = nx
		}
		node = int(nx)
	}
	if t := &(*trie)[node]; ru.Allow && t.allow == 0 {
		t.allow = ru.Line
	} else if !ru.Allow && t.deny == 0 {
		t.deny = ru.Line
	}
	return earlier
}

// orderClash is a rule that decides under longest match but loses to an
// earlier rule under first match.
type orderClash struct {
	line   int    // the later, longer rule
	probe  string // a URL it matches
	gAllow bool   // the verdict under longest match
}

// firstMatchOrder finds rules that decide under longest match but lose to
// an earlier, shorter rule of the other kind under the original draft's
// first match, in the groups a crawler reading the draft obeys. The
// candidates come from a trie of each group's literal patterns (linear in
// their total length); each is confirmed by asking both dialects about a URL
// the rule matches. One finding per earlier rule: moving it below the rules
// it overrides is one fix.
func (l *linter) firstMatchOrder(groups []robotstxt.Group) {
	read := l.draft
	records := l.r.GroupsFor(robotstxt.Original)
	// sameRecord reports whether the draft reads lines a < b in one record
	// (no blank line between them).
	sameRecord := func(a, b int) bool {
		i, _ := slices.BinarySearchFunc(records, a, func(r robotstxt.Group, n int) int { return r.EndLine - n })
		return i < len(records) && records[i].StartLine <= a && b <= records[i].EndLine
	}
	checks := 0
	wild, firstWild := 0, 0
	clashes := map[int][]orderClash{} // by the earlier rule's line
	var earliers []int
	for gi := range groups {
		if !read[gi] {
			continue
		}
		g := &groups[gi]
		mine := map[int]bool{}
		for _, ru := range g.Rules {
			mine[ru.Line] = true
		}
		who := probeToken
		for _, a := range g.Agents {
			if !a.Global && robotstxt.ValidToken(a.Token) {
				who = a.Token
				break
			}
		}
		trie := []trieNode{{}}
		// The first rule of each kind so far, and the first with * or $:
		// Baidu reads wildcards, so a wildcard rule may match before a
		// longer rule of the other kind, and any earlier rule of the other
		// kind may match before a wildcard rule.
		var firstAllow, firstDeny, wildAllow, wildDeny int
		for _, ru := range g.Rules {
			if !ru.CanMatch || ru.Pattern == "" {
				continue
			}
			earlier := 0
			if strings.ContainsAny(ru.Pattern, "*$") {
				wild++
				if firstWild == 0 {
					firstWild = ru.Line
				}
				if ru.Allow {
					earlier, wildAllow = firstDeny, cmp.Or(wildAllow, ru.Line)
				} else {
					earlier, wildDeny = firstAllow, cmp.Or(wildDeny, ru.Line)
				}
			} else if ru.Allow {
				earlier = wildDeny
			} else {
				earlier = wildAllow
			}
			if ru.Allow {
				firstAllow = cmp.Or(firstAllow, ru.Line)
			} else {
				firstDeny = cmp.Or(firstDeny, ru.Line)
			}
			if !strings.ContainsAny(ru.Pattern, "*$") {
				// Any earlier literal rule of the other kind whose
				// pattern is a prefix of this one matches first.
				if e := trieInsert(&trie, ru); e > 0 && (earlier == 0 || e < earlier) {
					earlier = e
				}
			}
			if earlier == 0 || checks >= maxOrderChecks {
				continue
			}
			checks++
			probe := probePath(ru.Pattern)
			gd := l.r.Decide(robotstxt.Query{URL: probe, Agents: []string{who}, Dialect: robotstxt.Google})
			od := l.r.Decide(robotstxt.Query{URL: probe, Agents: []string{who}, Dialect: robotstxt.Baidu})
			e := od.Line()
			if gd.Allowed == od.Allowed || gd.Line() != ru.Line || e == 0 || e >= ru.Line || !mine[e] || !sameRecord(e, ru.Line) {
				continue
			}
			if clashes[e] == nil {
				earliers = append(earliers, e)
			}
			clashes[e] = append(clashes[e], orderClash{line: ru.Line, probe: probe, gAllow: gd.Allowed})
		}
	}
	for _, e := range earliers {
		cs := clashes[e]
		c := cs[0]
		var msg string
		if len(cs) == 1 {
			msg = fmt.Sprintf("under Baidu's first match (file order, with * and $), this rule decides for %s (%s) before the longer line %d %q, which decides under longest match (Google, Bing, Yandex, RFC 9309: %s); move this line below line %d so that every dialect agrees",
				clip(c.probe, 60), verdictOf(!c.gAllow), c.line, l.ruleText(c.line), verdictOf(c.gAllow), c.line)
		} else {
			lines := make([]int, len(cs))
			for i := range cs {
				lines[i] = cs[i].line
			}
			last := lines[len(lines)-1]
			msg = fmt.Sprintf("under Baidu's first match (file order, with * and $), this rule decides before %d longer rules after it (lines %s), which decide under longest match (Google, Bing, Yandex, RFC 9309): for %s, line %d %q says %s, Baidu's reading %s; move this line below line %d so that every dialect agrees",
				len(cs), JoinLines(lines, 8), clip(c.probe, 60), c.line, l.ruleText(c.line), verdictOf(c.gAllow), verdictOf(!c.gAllow), last)
		}
		l.add(e, keyColumn(&l.lines[e-1]), "dialects-disagree", msg, nil)
	}
	if wild > 0 {
		ln := &l.lines[firstWild-1]
		msg := "this rule uses * or $"
		if wild > 1 {
			msg = fmt.Sprintf("%d rules use * or $ (this is the first)", wild)
		}
		l.add(firstWild, valueColumn(ln), "wildcards-in-original", msg+": Google, Bing, Yandex, Baidu and RFC 9309 read them as wildcards; only the strict 1996 draft (the original dialect) reads them as literal characters", nil)
	}
}

func verdictOf(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "blocked"
}

// clip shortens s to at most n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// commas formats n with thousands separators.
func commas(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// plural is s as it goes with a count of n (words.Plural, the one helper).
func plural(n int, s string) string { return words.Plural(n, s) }
