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
)

var dialectNames = [...]string{"", "google", "rfc9309", "bing", "yandex", "original"}

// Dialects lists every dialect, in a stable order.
func Dialects() []Dialect { return []Dialect{Google, RFC9309, Bing, Yandex, Original} }

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
// "google", "rfc9309", "bing", "yandex" or "original" ("baidu" and "draft"
// are accepted for "original", "rfc" for "rfc9309").
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
	case "baidu", "draft":
		return Original, nil
	}
	return DefaultDialect, fmt.Errorf("robotstxt: unknown dialect %q (want one of google, rfc9309, bing, yandex, original)", name)
}

// HonoursCrawlDelay reports whether crawlers of this dialect read
// crawl-delay: Bing does, and so does Yandex's parser (its robots have not
// obeyed the value since 2018, but the file asks for it, so the polite
// client paces Yandex-dialect crawlers by it too: erring towards the site).
func (d Dialect) HonoursCrawlDelay() bool { return d == Bing || d == Yandex }

// resolve turns DefaultDialect into Google.
func (d Dialect) resolve() Dialect {
	if d == DefaultDialect || int(d) >= len(dialectNames) {
		return Google
	}
	return d
}

func (d Dialect) reading() reading {
	if d == RFC9309 || d == Original {
		return readStrict
	}
	return readGoogle
}

// firstMatch reports whether the first matching rule in file order wins,
// rather than the longest.
func (d Dialect) firstMatch() bool { return d == Original }

// robotsTxtAllowed reports whether the dialect always allows /robots.txt.
func (d Dialect) robotsTxtAllowed() bool { return d == RFC9309 || d == Original }
