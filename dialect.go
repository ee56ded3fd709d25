package robotstxt

import (
	"fmt"
	"strings"
)

// Dialect is one crawler family's reading of robots.txt: how lines are read,
// which group applies, which rule wins, and (for the fetcher) what an HTTP
// answer means. The zero value, DefaultDialect, means "the crawler's own
// dialect, or Google's".
type Dialect uint8

// The dialects. See the package documentation for what each one does.
const (
	DefaultDialect Dialect = iota // the crawler's own dialect, else Google
	Google                        // Google's library exactly (the default)
	RFC9309                       // RFC 9309 read strictly
	Bing                          // Bing: Google's reading; honours crawl-delay
	Yandex                        // Yandex: longest match, Yandex group fallback, clean-param
	Original                      // the 1994/1996 draft: blank-line records, first match, no wildcards
	Baidu                         // Baidu: the draft's records and first match, with Google's * and $
)

var dialectNames = [...]string{"", "google", "rfc9309", "bing", "yandex", "original", "baidu"}

// Dialects lists every dialect, in a stable order.
func Dialects() []Dialect { return []Dialect{Google, RFC9309, Bing, Yandex, Baidu, Original} }

// DefaultDialects lists the dialects crawlers read by, in Dialects' order:
// every dialect but Original, the strict 1996 draft, which no crawler
// follows. It is the one default set of every face that reads a file in
// several dialects (lint, compare, the page and the API); Original is added
// only when asked for. A new slice each call.
func DefaultDialects() []Dialect {
	var out []Dialect
	for _, d := range Dialects() {
		if d != Original {
			out = append(out, d)
		}
	}
	return out
}

// String returns the dialect's name as ParseDialect reads it.
func (d Dialect) String() string {
	if int(d) < len(dialectNames) {
		if d == DefaultDialect {
			return "default"
		}
		return dialectNames[d]
	}
	return fmt.Sprintf("Dialect(%d)", d)
}

// ParseDialect returns the dialect with the given name, ignoring case:
// "google", "rfc9309", "bing", "yandex", "baidu" or "original" ("draft" is
// accepted for "original", "rfc" for "rfc9309").
func ParseDialect(name string) (Dialect, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for i := Google; int(i) < len(dialectNames); i++ {
		if dialectNames[i] == n {
			return i, nil
		}
	}
	switch n {
	case "default":
		return DefaultDialect, nil
	case "rfc":
		return RFC9309, nil
	case "draft":
		return Original, nil
	}
	return DefaultDialect, fmt.Errorf("robotstxt: unknown dialect %q (want one of google, rfc9309, bing, yandex, baidu, original)", name)
}

// HonoursCrawlDelay reports whether the dialect's reading reads
// crawl-delay and reports it in a Decision (CrawlDelay, HasCrawlDelay):
// Bing's, and Yandex's parser (Yandex's robots have not obeyed the value
// since 2018). Whether a crawler waits by it is another question, answered
// by Query.HonoursCrawlDelay (docs/protocol.md, "Crawl-delay").
func (d Dialect) HonoursCrawlDelay() bool { return d == Bing || d == Yandex }

// resolve turns DefaultDialect into Google.
func (d Dialect) resolve() Dialect {
	if d == DefaultDialect || int(d) >= len(dialectNames) {
		return Google
	}
	return d
}

func (d Dialect) reading() reading {
	if d == RFC9309 || d == Original || d == Baidu {
		return readStrict
	}
	return readGoogle
}

// The dialects' predicates: what each reading does, for every face that
// groups dialects by it (lint's code table, the docs' tables). The core's
// own code asks the same functions.

// FirstMatch reports whether the first matching rule in file order wins,
// rather than the longest (Baidu, Original).
func (d Dialect) FirstMatch() bool { return d == Original || d == Baidu }

// DraftRecords reports whether the dialect reads the file as the original
// draft does (Baidu, Original): records separated by blank lines, the
// first record whose user-agent value contains the crawler's name (else the
// first '*' record), %xx escapes decoded before comparison.
func (d Dialect) DraftRecords() bool { return d == Original || d == Baidu }

// StrictReading reports whether the dialect reads keys exactly (RFC 9309,
// Baidu, Original): no misspelt or prefixed keys, a colon required. The
// others read lines as Google's library does.
func (d Dialect) StrictReading() bool { return d.reading() == readStrict }

// RobotsTxtAllowed reports whether the dialect always allows /robots.txt
// (RFC 9309, Baidu, Original).
func (d Dialect) RobotsTxtAllowed() bool { return d == RFC9309 || d == Original || d == Baidu }

// IgnoresOversized reports whether crawlers of this dialect read a
// robots.txt over DefaultMaxBytes as no restrictions at all: Yandex does
// ("if the file exceeds 500 KB ... everything is allowed", Yandex's
// robots.txt help). Others read its first DefaultMaxBytes. Yandex's "500 KB"
// is read as 500 KiB, the limit Google and RFC 9309 cut at, so that one
// number decides both (see Robots.Size and ParseOptions.Size).
func (d Dialect) IgnoresOversized() bool { return d == Yandex }

// OversizedReason is why a dialect that ignores oversized files
// (Dialect.IgnoresOversized) allows everything, in the words every answer
// (Decide, the fetcher, the command line) uses.
const OversizedReason = "Yandex ignores files over 500 KB"

// decodeBaidu decodes the %xx escapes of a pattern as the draft does
// (decodeOriginal), except those of '/', '*' and '$', which stay escaped
// (upper-case hex): an escaped '*' or '$' is a literal byte, never Baidu's
// wildcard or end anchor. For a path (isPath), a literal '*' or '$' is
// escaped the same way, so that "%2A" in a pattern matches it.
func decodeBaidu(s string, isPath bool) string {
	if strings.IndexByte(s, '%') < 0 && (!isPath || !strings.ContainsAny(s, "*$")) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			switch d := unhex(s[i+1])<<4 | unhex(s[i+2]); d {
			case '/', '*', '$':
				fmt.Fprintf(&b, "%%%02X", d)
			default:
				b.WriteByte(d)
			}
			i += 2
		case isPath && (c == '*' || c == '$'):
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
