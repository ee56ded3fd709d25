package suggest

import "testing"

func TestNearest(t *testing.T) {
	names := []string{"check", "compare", "lint", "diff", "usage", "urls", "robots_file"}
	for _, tc := range []struct{ in, want string }{
		{"chek", "check"}, {"CHECK", "check"}, {"usgae", "usage"}, {"url", "urls"},
		{"lnit", "lint"}, {"robot_file", "robots_file"}, {"zzz", ""}, {"x", ""}, {"", ""},
		{"comparee", "compare"}, {"serve", ""},
	} {
		if got := Nearest(tc.in, names); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"usgae", "usage", 1}, {"ca", "abc", 3}, {"abc", "abc", 0}} {
		if got := Distance(tc.a, tc.b); got != tc.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}
