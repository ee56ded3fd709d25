package robotstxt

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
