package robotstxt

import "testing"

// TestTargetURL: an origin-form request-target is decided as the path it
// is, "//" at its start included; Decide alone would read "//private/x" as
// the authority "private" and the path "/x", as Google's library reads a
// URL.
func TestTargetURL(t *testing.T) {
	r := ParseString("User-agent: *\nDisallow: //private/\nAllow: /x\n")
	d := r.Decider(Query{})
	for _, tc := range []struct {
		target  string
		allowed bool
		line    int
		path    string
	}{
		{"//private/x", false, 2, "//private/x"},
		{"//private", true, 0, "//private"},
		{"/x", true, 3, "/x"},
		{"/private/x", true, 0, "/private/x"},
		{"///", true, 0, "///"},
		{"//", true, 0, "//"},
		{"/?q=//private/", true, 0, "/?q=//private/"},
	} {
		u := TargetURL(tc.target)
		if PathParamsQuery(u) != tc.path {
			t.Errorf("TargetURL(%q) = %q: path %q, want %q", tc.target, u, PathParamsQuery(u), tc.path)
		}
		dec := d.Decide(u)
		if dec.Allowed != tc.allowed || dec.Rule.Line != tc.line {
			t.Errorf("%q: allowed %v line %d, want %v %d", tc.target, dec.Allowed, dec.Rule.Line, tc.allowed, tc.line)
		}
	}
	// The common case costs nothing.
	if n := testing.AllocsPerRun(100, func() { _ = TargetURL("/a/b?c") }); n != 0 {
		t.Errorf("TargetURL allocates %v times for a plain path", n)
	}
}
