package tester

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestCompareProbe: derived URLs count the rules they probe, Probe asks
// for more, and a Probe out of bounds is an *Error naming the field.
func TestCompareProbe(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 30 {
		fmt.Fprintf(&b, "Disallow: /p%d\n", i)
	}
	src := NewSource("r.txt", []byte(b.String()))
	for _, tc := range []struct{ probe, urls, probed int }{{0, MaxDerivedURLs, MaxDerivedURLs - 1}, {5, 5, 4}, {31, 31, 30}, {MaxProbeURLs, 31, 30}} {
		cmp, err := Compare(&CompareRequest{Source: src, Probe: tc.probe, Subjects: Subjects{Crawlers: []string{"Googlebot"}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(cmp.URLs) != tc.urls || cmp.RulesProbed != tc.probed || cmp.Rules != 30 {
			t.Errorf("Probe %d: %d URLs, %d of %d rules probed; want %d URLs, %d of 30", tc.probe, len(cmp.URLs), cmp.RulesProbed, cmp.Rules, tc.urls, tc.probed)
		}
	}
	for _, p := range []int{-1, MaxProbeURLs + 1} {
		_, err := Compare(&CompareRequest{Source: src, Probe: p})
		var e *Error
		if !errors.As(err, &e) || e.Field != "probe" {
			t.Errorf("Probe %d: %v, want an *Error on probe", p, err)
		}
	}
	// Given URLs, nothing is derived or counted.
	cmp, _ := Compare(&CompareRequest{Source: src, URLs: []string{"/p1"}, Probe: 3})
	if cmp.Rules != 0 || cmp.RulesProbed != 0 || len(cmp.URLs) != 1 {
		t.Errorf("with URLs: %d URLs, %d of %d rules", len(cmp.URLs), cmp.RulesProbed, cmp.Rules)
	}
}

// TestCompareStar: the default rows start with "*", the crawler no group
// names, as Diff's do; named, it is asked about once, first.
func TestCompareStar(t *testing.T) {
	src := NewSource("r.txt", []byte(sample))
	cmp, err := Compare(&CompareRequest{Source: src, URLs: []string{"/private/x"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Rows) != 1+len(DefaultCrawlers()) || cmp.Rows[0].Crawler != "*" || cmp.Rows[0].Token != "*" || cmp.Rows[0].Cells[0].Allowed {
		t.Fatalf("rows: %+v", cmp.Rows[0])
	}
	if g := cmp.Rows[0].Cells[0].Group; strings.Contains(g, probeToken) {
		t.Errorf("the * row's group names the probe token: %q", g)
	}
	cmp, _ = Compare(&CompareRequest{Source: src, URLs: []string{"/"}, Subjects: Subjects{Crawlers: []string{"Baiduspider", "*", "*"}}})
	if len(cmp.Rows) != 2 || cmp.Rows[0].Crawler != "*" || cmp.Rows[1].Crawler != "Baiduspider" {
		t.Errorf("-c Baiduspider -c * -c *: rows %q, %q", cmp.Rows[0].Crawler, cmp.Rows[len(cmp.Rows)-1].Crawler)
	}
}
