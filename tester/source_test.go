package tester

import "testing"

func TestNeedsScheme(t *testing.T) {
	for in, want := range map[string]bool{
		"example.com": true, "example.com/a:b": true, "localhost:8080": true, "[::1]:8080": true,
		"https://example.com": false, "mailto:a@example.com": false, "ftp://h/": false,
	} {
		if NeedsScheme(in) != want {
			t.Errorf("NeedsScheme(%q) = %v", in, !want)
		}
	}
}
