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

// lookupToken finds the groups naming the product token ua, compared without
// regard to ASCII case, without allocating.
func (c *compiled) lookupToken(ua string) []int32 {
	var buf [64]byte
	if len(ua) > len(buf) {
		for tok, groups := range c.tokens {
			if len(tok) == len(ua) && equalFoldToken(tok, ua) {
				return groups
			}
		}
		return nil
	}
	for i := 0; i < len(ua); i++ {
		b := ua[i]
		if !isTokenByte(b) {
			// Tokens in the file hold only token bytes.
			return nil
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		buf[i] = b
	}
	return c.tokens[string(buf[:len(ua)])]
}

// equalFoldToken compares a lower-case token with s, ignoring ASCII case.
func equalFoldToken(lower, s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != lower[i] {
			return false
		}
	}
	return true
}
