package robotstxt

import "testing"

// TestContentSignalUse: the use= key of Content-Signal (Cloudflare's
// managed files write "search=yes,ai-train=no,use=reference") is read as
// one of three levels, ordered immediate < reference < full; any other
// value is unset, and the pair is kept as written.
func TestContentSignalUse(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want ContentUse
	}{
		{"search=yes,ai-train=no,use=reference", UseReference},
		{"use=immediate", UseImmediate},
		{"use = FULL", UseFull},
		{"use=reference, use=full", UseFull}, // the last value counts
		{"use=full, use=bogus", UseUnset},    // as for the other keys
		{"use=", UseUnset},
		{"use", UseUnset},
		{"search=yes", UseUnset},
		{`use="reference"`, UseUnset},
	} {
		s := ParseContentSignal(tc.v)
		if s.Use != tc.want {
			t.Errorf("ParseContentSignal(%q).Use = %v, want %v", tc.v, s.Use, tc.want)
		}
	}
	if s := ParseContentSignal("search=yes,ai-train=no,use=reference"); s.Search != SignalYes || s.AITrain != SignalNo || s.AIInput != SignalUnset || len(s.Pairs) != 3 {
		t.Errorf("the managed line: %+v", s)
	}
	for _, tc := range []struct {
		u    ContentUse
		name string
	}{{UseUnset, ""}, {UseImmediate, "immediate"}, {UseReference, "reference"}, {UseFull, "full"}} {
		if tc.u.String() != tc.name {
			t.Errorf("%d.String() = %q, want %q", tc.u, tc.u.String(), tc.name)
		}
		if tc.name == "" {
			continue
		}
		if u, ok := ParseContentUse(tc.name); !ok || u != tc.u {
			t.Errorf("ParseContentUse(%q) = %v, %v", tc.name, u, ok)
		}
	}
	if _, ok := ParseContentUse("verbatim"); ok {
		t.Error("ParseContentUse reads an unknown level")
	}
	// Permits: a crawler that needs level want may proceed when the
	// site's level is at least want; a line without use= limits nothing.
	for _, tc := range []struct {
		site, want ContentUse
		ok         bool
	}{
		{UseReference, UseImmediate, true},
		{UseReference, UseReference, true},
		{UseReference, UseFull, false},
		{UseImmediate, UseReference, false},
		{UseFull, UseFull, true},
		{UseUnset, UseFull, true},
	} {
		if got := tc.site.Permits(tc.want); got != tc.ok {
			t.Errorf("%v.Permits(%v) = %v, want %v", tc.site, tc.want, got, tc.ok)
		}
	}
	// Through the usage API: the group's line, with its level.
	r := ParseString("User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n")
	if s := r.Usage(Query{URL: "http://e.com/a", Agents: []string{"FooBot"}}).Signals; s.Line != 2 || s.Use != UseReference {
		t.Errorf("Usage: signals %+v", s)
	}
}

// TestVocab08: draft-ietf-aipref-vocab-08 adds the category AI Use
// (ai-use) beside train-ai and search; the statement's parsing is
// unchanged.
func TestVocab08(t *testing.T) {
	if UsageAIUse != "ai-use" {
		t.Fatalf("UsageAIUse = %q", UsageAIUse)
	}
	r := ParseString("User-agent: *\nContent-Usage: train-ai=n, ai-use=y, search=y\nContent-Usage: /x/ ai-use=n\n")
	u := r.Usage(Query{URL: "http://e.com/a", Agents: []string{"FooBot"}}).Usage
	if u.TrainAI() != PrefDisallow || u.AIUse() != PrefAllow || u.Search() != PrefAllow {
		t.Errorf("/a: %+v", u)
	}
	// The longest path decides with its whole statement: train-ai and
	// search are unknown under /x/, whatever the shorter rule says.
	u = r.Usage(Query{URL: "http://e.com/x/1", Agents: []string{"FooBot"}}).Usage
	if u.AIUse() != PrefDisallow || u.TrainAI() != PrefUnknown || u.Search() != PrefUnknown {
		t.Errorf("/x/1: %+v", u)
	}
}
