package robotstxt

import "strings"

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

// ExtractToken returns the product token a user-agent value names: its
// longest leading run of letters, '-' and '_'. "Googlebot/2.1",
// "Googlebot2" and "Googlebot Images" all name "Googlebot". A value that does
// not start with such a byte names the empty token.
func ExtractToken(value string) string {
	i := 0
	for i < len(value) && isTokenByte(value[i]) {
		i++
	}
	return value[:i]
}

// ValidToken reports whether s is a product token a crawler can ask about:
// non-empty and made only of letters, '-' and '_' (Google's
// IsValidUserAgentToObey).
func ValidToken(s string) bool {
	return s != "" && ExtractToken(s) == s
}

// ProductToken returns the product token a crawler's User-Agent header
// names: the token robots.txt groups are matched against. It is the
// header's first product without its version ("Googlebot/2.1 (+http://...)"
// names "Googlebot"), except in the form crawlers copy from browsers,
// "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://...)", where the
// product after "compatible;" in a comment is the crawler's
// ("ExampleBot"), wherever that comment stands. A header of that form with
// no "compatible;" comment (a browser's) names "Mozilla", which no crawler
// is: callers should refuse it. A header that starts with no token byte
// names "". The result is always "" or a ValidToken.
//
// Allowed and Decide take tokens as given, as Google's library does:
// Allowed("Googlebot/2.1", url) matches no Googlebot group. Pass
// ProductToken(header) instead.
func ProductToken(userAgentHeader string) string {
	h := strings.TrimLeft(userAgentHeader, " \t")
	first := ExtractToken(h)
	if !strings.EqualFold(first, "Mozilla") {
		return first
	}
	// Look for "compatible;" as an item of a parenthesised comment.
	rest := h[len(first):]
	for {
		open := strings.IndexByte(rest, '(')
		if open < 0 {
			return first
		}
		rest = rest[open+1:]
		comment := rest
		if end := strings.IndexByte(rest, ')'); end >= 0 {
			comment, rest = rest[:end], rest[end+1:]
		} else {
			rest = ""
		}
		items := strings.Split(comment, ";")
		for i := 0; i+1 < len(items); i++ {
			if strings.EqualFold(strings.TrimSpace(items[i]), "compatible") {
				if tok := ExtractToken(strings.TrimSpace(items[i+1])); tok != "" {
					return tok
				}
			}
		}
	}
}
