package lint

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt"
)

// Severities of lint findings.
const (
	SeverityError   = "error"   // crawlers read something other than what was meant; the CLI exits 1
	SeverityWarning = "warning" // probably a mistake, or read differently by some crawlers
	SeverityInfo    = "info"    // worth knowing; often intended
)

// Dialect sets of lint codes, derived from the core's predicates of the
// dialects (robotstxt.Dialect.FirstMatch, ...), in robotstxt.Dialects'
// order: when a dialect's reading changes there, the codes follow.
var (
	allDialects     = dialectNames(robotstxt.Dialects(), nil)
	longestMatch    = dialectNames(robotstxt.Dialects(), func(d robotstxt.Dialect) bool { return !d.FirstMatch() })
	googleReading   = dialectNames(robotstxt.Dialects(), func(d robotstxt.Dialect) bool { return !d.StrictReading() })
	strictReading   = dialectNames(robotstxt.Dialects(), robotstxt.Dialect.StrictReading)
	draftRecords    = dialectNames(robotstxt.Dialects(), robotstxt.Dialect.DraftRecords)                              // blank-line records, first match
	tokenReading    = dialectNames(robotstxt.Dialects(), func(d robotstxt.Dialect) bool { return !d.DraftRecords() }) // a line names its product token
	readsDelay      = dialectNames(robotstxt.Dialects(), robotstxt.Dialect.HonoursCrawlDelay)
	originalDialect = []string{robotstxt.Original.String()}
	yandexDialect   = []string{robotstxt.Yandex.String()}
	noDialect       = []string{}
)

// dialectNames returns the names of the dialects of ds for which keep
// reports true (every one when keep is nil).
func dialectNames(ds []robotstxt.Dialect, keep func(robotstxt.Dialect) bool) []string {
	out := []string{}
	for _, d := range ds {
		if keep == nil || keep(d) {
			out = append(out, d.String())
		}
	}
	return out
}

// DefaultDialects are the dialects a report is about unless the original
// draft is asked for too: robotstxt.DefaultDialects, every dialect a
// crawler uses (google, rfc9309, bing, yandex, baidu), not original, the
// strict 1996 draft, which no crawler reads by. A copy, which the caller
// may change.
func DefaultDialects() []string {
	return dialectNames(robotstxt.DefaultDialects(), nil)
}

// OriginalOnly returns the codes that concern no dialect but original:
// those a report about DefaultDialects leaves out (wildcards-in-original)
// unless File.Original asks for them.
func OriginalOnly() []string {
	var out []string
	for _, c := range codes {
		if originalOnly[c.Code] {
			out = append(out, c.Code)
		}
	}
	return out
}

// originalOnly is the set of OriginalOnly codes.
var originalOnly = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range codes {
		if len(c.Dialects) > 0 && !slices.ContainsFunc(c.Dialects, func(d string) bool { return d != "original" }) {
			m[c.Code] = true
		}
	}
	return m
}()

// Code is one kind of lint Finding. Codes are stable: tools and
// configurations refer to them.
type Code struct {
	Code     string
	Severity string
	Dialects []string // the dialects it affects; none: only other parsers
	Summary  string   // what it finds
	Fix      string   // what to do
}

// codes is the table of every code, in the order of docs/cli.md.
var codes = []Code{
	{"utf16", SeverityError, allDialects, "the file is UTF-16: crawlers read bytes and find no rule in it", "save the file as UTF-8"},
	{"file-truncated", SeverityError, []string{"google", "rfc9309", "bing", "yandex"}, "the file is over 500 KiB: crawlers read only the first 512,000 bytes, and Yandex ignores the whole file", "shorten the file: merge rules with wildcards, drop obsolete ones"},
	{"partial-last-line", SeverityWarning, []string{"google", "rfc9309", "bing", "yandex"}, "the 500 KiB cut falls inside a line: crawlers read the start of that line as it stands", "shorten the file so that the cut falls after its last rule"},
	{"html-content", SeverityWarning, allDialects, "HTML or PHP output instead of robots.txt text: crawlers skip those lines", "serve robots.txt as plain text, without markup or error messages"},
	{"non-utf8", SeverityWarning, allDialects, "bytes that are not UTF-8: crawlers percent-encode them as they are, so they match only URLs with the same bytes", "save the file as UTF-8, or percent-encode non-ASCII paths"},
	{"bom", SeverityInfo, noDialect, "a UTF-8 byte order mark: the five dialects skip it, some older parsers read the first line as an unknown field", "save the file without the byte order mark"},
	{"mojibake-bom", SeverityWarning, allDialects, "a byte order mark encoded twice (ï»¿) glued to the first key: every crawler reads that line as an unknown field", "remove the ï»¿ characters at the start of the file"},
	{"nul-byte", SeverityWarning, googleReading, "a NUL byte: Google's parser reads the line only up to it", "remove the NUL byte"},
	{"line-too-long", SeverityWarning, googleReading, "a line over 16,663 bytes: Google's parser reads only the first 16,663", "split the line, or shorten the pattern"},
	{"unreadable-line", SeverityWarning, allDialects, "a line that is neither a field nor a comment: crawlers skip it", "write key: value, or start the line with #"},
	{"unknown-field", SeverityWarning, allDialects, "a field no crawler reads: crawlers skip the line", "fix the field's name or remove the line"},
	{"accepted-typo", SeverityWarning, strictReading, "a misspelt or prefixed key that Google accepts but RFC 9309 and the original draft ignore", "spell the key exactly: User-agent, Allow, Disallow, Sitemap"},
	{"missing-colon", SeverityWarning, strictReading, "white space instead of the colon: Google accepts it, RFC 9309 and the original draft ignore the line", "write key: value with a colon"},
	{"unsupported-field", SeverityWarning, allDialects, "a field the crawlers it is written for ignore: crawl-delay in a group of Google's, Baidu's or Yandex's crawlers (once per file in the * group, never in a group of crawlers that read it), request-rate and visit-time, or noindex, nofollow and noarchive, which none reads", "keep crawl-delay only for the crawlers that read it; use meta robots tags or X-Robots-Tag for noindex"},
	{"bad-crawl-delay", SeverityWarning, readsDelay, "a crawl-delay value that is not a number of seconds: crawlers ignore it", "write seconds as a number: Crawl-delay: 5 or 0.5"},
	{"bad-sitemap-url", SeverityWarning, []string{"google", "bing", "yandex"}, "a sitemap value that is not an absolute http(s) URL: crawlers ignore it", "write the full URL: Sitemap: https://example.com/sitemap.xml"},
	{"rule-before-user-agent", SeverityWarning, allDialects, "an allow or disallow before any user-agent line: it belongs to no group and every crawler ignores it", "put a User-agent line above it"},
	{"empty-user-agent", SeverityWarning, allDialects, "a user-agent line with no value: it names no crawler", "name a product token, or * for every crawler"},
	{"user-agent-space", SeverityWarning, tokenReading, "a user-agent value with white space inside its name (\"Kangaroo Bot\", a whole User-Agent header): crawlers compare only its product token, the leading letters, '-' and '_', so the line names that first word (and every crawler of that name)", "write the crawler's product token alone: User-agent: Kangaroo"},
	{"pattern-cannot-match", SeverityWarning, allDialects, "a pattern that starts with neither / nor *: no URL matches it", "start the pattern with / (or /* for a suffix such as /*.gif$)"},
	{"shadowed-rule", SeverityWarning, longestMatch, "a rule that never decides: another rule of its group matches the same URLs and wins (longer, or allow wins a tie)", "remove one of the two rules, or change the pattern of the one that should win"},
	{"duplicate-rule", SeverityWarning, longestMatch, "a rule that repeats another of its group (same kind, same URLs): it never decides", "remove the duplicate"},
	{"star-rules-dropped", SeverityInfo, allDialects, "a crawler named by its own group ignores every rule of the * group, and some URLs the * group blocks are allowed for it by default (no rule of its group as specific says so)", "repeat in the crawler's group the * rules it should follow"},
	{"disallow-all", SeverityWarning, allDialects, "Disallow: / for every crawler without a group of its own, and no named crawler let in: the whole site is closed (a staging file left in production?)", "remove the line if the site should be crawled"},
	{"empty-group", SeverityWarning, allDialects, "a crawler's group has no allow or disallow rule: the crawler may fetch everything and ignores the * group's rules", "add the rules it should follow, or remove the group"},
	{"blank-line-in-group", SeverityWarning, draftRecords, "a blank line inside a group: Google reads on, the original draft (Baidu) ends the record there and the rules after it belong to no crawler; Yandex's validator warns", "remove blank lines inside groups; separate groups with one blank line"},
	{"dialects-disagree", SeverityWarning, draftRecords, "in a group Baidu obeys, a rule that comes before longer rules and, under Baidu's first match (with * and $, as Baidu's robots.txt help says), decides for URLs they decide under longest match (Google, Bing, Yandex, RFC 9309); one finding per such rule", "move the shorter rule below the longer ones: every dialect then agrees"},
	{"wildcards-in-original", SeverityInfo, originalDialect, "rules with * or $ in a group the draft's readers obey: Google, Bing, Yandex, Baidu and RFC 9309 read them as wildcards, only the strict 1996 draft (the original dialect) reads them as literal characters; one finding per file", "nothing, unless a crawler that reads the strict draft matters to you"},
	{"yandex-only-field", SeverityInfo, []string{"google", "rfc9309", "bing", "baidu", "original"}, "clean-param or host outside a group only Yandex reads: only Yandex reads them, the others skip them (harmless); one finding per file", "nothing; or put them in a User-agent: Yandex group to say whom they are for"},
	{"yandex-bad-clean-param", SeverityWarning, yandexDialect, "a clean-param line Yandex's analyzer rejects: no parameter, parameters not separated by &, values, or a bad path", "write Clean-param: name[&name...] [path], the path starting with / or *"},
	{"yandex-bad-host", SeverityWarning, yandexDialect, "a host line Yandex's analyzer rejects (a path, a bad port, no name) or a second host line, which Yandex ignores", "keep one Host: with only the main mirror's name, optionally https:// and a port"},
	{"yandex-too-many-rules", SeverityWarning, yandexDialect, "more than 2,048 allow and disallow rules: Yandex reads at most 2,048", "merge rules with wildcards"},
	{"yandex-rule-too-long", SeverityWarning, yandexDialect, "a rule over 1,024 characters: Yandex ignores it", "shorten the pattern"},
	{"legacy-ai-field", SeverityError, allDialects, "DisallowAITraining, AllowAITraining, User-Agent-Purpose or LLM-Policy: no standard field; Google reads the first three as Disallow, Allow and User-agent (keys by prefix), the others skip them", "state AI uses with Content-Usage (train-ai, ai-use, search) or Content-Signal"},
	{"ai-line-outside-group", SeverityWarning, allDialects, "a Content-Usage or Content-Signal line before any user-agent line: it applies to no crawler", "put it in a group (User-agent: * for every crawler)"},
	{"usage-bad-statement", SeverityWarning, allDialects, "a Content-Usage statement that is not an RFC 9651 dictionary (upper case, spaces around =, a trailing comma): it expresses nothing, every preference unknown for its paths", "write lower-case labels and y or n: Content-Usage: train-ai=n, search=y"},
	{"usage-unknown-preference", SeverityWarning, allDialects, "a Content-Usage category whose value is not the token y or n (yes, no, true, a string): its preference is unknown", "write train-ai=y or train-ai=n"},
	{"usage-legacy-label", SeverityWarning, allDialects, "a label of an earlier AI preferences draft (tdm, ai, genai, train-genai, inference, ai-output, all, bots): no category today, crawlers ignore it", "use today's labels: train-ai, ai-use, search"},
	{"usage-unknown-label", SeverityInfo, allDialects, "a Content-Usage label that is no category of the vocabulary (train-ai, ai-use, search): crawlers ignore it", "check the spelling; keep it only if a crawler you know reads it"},
	{"usage-groups-differ", SeverityWarning, []string{"google", "rfc9309", "bing", "yandex"}, "a user-agent line after a Content-Usage line with no allow or disallow between: Google's reading puts it in the same group (and gives its crawlers these preferences), RFC 9309's as the AI preferences draft updates it starts a new group", "put an Allow or Disallow rule between them, or give each group its own rules"},
	{"signal-bad-pair", SeverityWarning, allDialects, "a Content-Signal pair that is not search, ai-input or ai-train with yes or no (or use with a level): it says nothing", "write Content-Signal: search=yes, ai-input=yes, ai-train=no"},
	{"signal-bad-use", SeverityWarning, allDialects, "a Content-Signal use= whose value is not immediate, reference or full: it limits nothing", "write use=immediate, use=reference or use=full"},
	{"signal-repeated", SeverityInfo, allDialects, "a second Content-Signal line in one group: only the first counts", "merge the lines into one"},
	{"signing-outside-group", SeverityWarning, allDialects, "with the Web Bot Auth extension (--webbotauth): a Signature-Agent or Max-Crawl-Rate line before any user-agent line: it applies to no crawler", "put it in a group, after its user-agent lines"},
	{"bad-signature-agent", SeverityWarning, allDialects, "with the Web Bot Auth extension (--webbotauth): a Signature-Agent value that names no host (another scheme than https, a port, a path, a wildcard, white space)", "write the agent's domain, Signature-Agent: example.com, or its https URL in quotes"},
	{"bad-max-crawl-rate", SeverityWarning, allDialects, "with the Web Bot Auth extension (--webbotauth): a Max-Crawl-Rate value that is not a number of requests with an optional unit (s, m, h, d, w): crawlers ignore it", "write e.g. Max-Crawl-Rate: 10 (per second) or Max-Crawl-Rate: 600/m"},
}

// codeIndex maps a code to its place in codes.
var codeIndex = func() map[string]int {
	m := make(map[string]int, len(codes))
	for i, c := range codes {
		m[c.Code] = i
	}
	return m
}()

// Codes returns the table of every code, in a stable order (docs/cli.md's):
// a copy, which the caller may change.
func Codes() []Code {
	out := make([]Code, len(codes))
	for i, c := range codes {
		c.Dialects = append([]string{}, c.Dialects...)
		out[i] = c
	}
	return out
}

// LookupCode returns the table entry of a code, and whether there is one.
func LookupCode(code string) (Code, bool) {
	i, ok := codeIndex[code]
	if !ok {
		return Code{}, false
	}
	c := codes[i]
	c.Dialects = append([]string{}, c.Dialects...)
	return c, true
}

// CodeIndex returns the place of code in the table (as Codes returns it),
// or -1 for an unknown code. SARIF's ruleIndex is this place.
func CodeIndex(code string) int {
	i, ok := codeIndex[code]
	if !ok {
		return -1
	}
	return i
}

// codeOf returns the table entry of a code; it panics on a code missing from
// the table, which the tests would catch.
func codeOf(code string) *Code {
	i, ok := codeIndex[code]
	if !ok {
		panic("lint: no code " + code)
	}
	return &codes[i]
}

// WriteCodes writes the code table as "robotstxt lint --codes" prints it:
// each code, its severity and dialects, what it finds and the fix, in
// lines of at most 80 columns.
func WriteCodes(w io.Writer) error {
	var b strings.Builder
	for _, c := range codes {
		d := strings.Join(c.Dialects, ", ")
		if d == "" {
			d = "(other parsers)"
		}
		fmt.Fprintf(&b, "%-22s %-7s %s\n", c.Code, c.Severity, d)
		writeWrapped(&b, c.Summary+".", "    ", "    ")
		writeWrapped(&b, c.Fix+".", "    Fix: ", "         ")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeWrapped writes text in lines of at most 80 bytes (the code table is
// ASCII but for a few characters), the first starting with first and the
// others with rest, broken at spaces.
func writeWrapped(b *strings.Builder, text, first, rest string) {
	line := first
	empty := true
	for _, word := range strings.Fields(text) {
		if !empty && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > 80 {
			b.WriteString(line + "\n")
			line, empty = rest, true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	b.WriteString(line + "\n")
}
