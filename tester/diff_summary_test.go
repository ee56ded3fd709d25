package tester

import (
	"slices"
	"testing"
)

// TestDiffSummary: the report counts the changes per crawler and groups
// them by the edit that made them: a rule removed, a rule added, a group
// removed (its crawler reads the * group now).
func TestDiffSummary(t *testing.T) {
	old := NewSource("old", []byte("User-agent: *\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /g\n"))
	new := NewSource("new", []byte("User-agent: *\nDisallow: /b\nSitemap: https://example.com/s.xml\n"))
	rep, err := Diff(&DiffRequest{Old: old, New: new, URLs: []string{"/a", "/b", "/g"},
		Subjects: Subjects{Crawlers: []string{"Googlebot", "Bingbot"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []DiffCrawler{{Crawler: "Googlebot", Blocked: 1, Allowed: 1}, {Crawler: "Bingbot", Blocked: 1, Allowed: 1}}
	if !slices.Equal(rep.ByCrawler, want) {
		t.Errorf("ByCrawler %+v, want %+v", rep.ByCrawler, want)
	}
	type cause struct {
		kind, old, new   string
		crawlers         []string
		blocked, allowed int
		groupsRemoved    []int
	}
	var got []cause
	for _, c := range rep.Causes {
		k := cause{kind: c.Kind, crawlers: c.Crawlers, blocked: c.Blocked, allowed: c.Allowed, groupsRemoved: c.GroupsRemoved}
		if c.Old != nil {
			k.old = c.Old.Rule
		}
		if c.New != nil {
			k.new = c.New.Rule
		}
		if c.URLs != len(c.Examples) || c.URLs != 1 {
			t.Errorf("cause %+v: %d URLs, examples %q", k, c.URLs, c.Examples)
		}
		got = append(got, k)
	}
	wantCauses := []cause{
		{"added", "", "Disallow: /b", []string{"Googlebot", "Bingbot"}, 2, 0, []int{4}},
		{"removed", "Disallow: /a", "", []string{"Bingbot"}, 0, 1, nil},
		{"removed", "Disallow: /g", "", []string{"Googlebot"}, 0, 1, []int{4}},
	}
	if len(got) != len(wantCauses) {
		t.Fatalf("causes %+v, want %+v", got, wantCauses)
	}
	for i := range got {
		g, w := got[i], wantCauses[i]
		if g.kind != w.kind || g.old != w.old || g.new != w.new || !slices.Equal(g.crawlers, w.crawlers) ||
			g.blocked != w.blocked || g.allowed != w.allowed || !slices.Equal(g.groupsRemoved, w.groupsRemoved) {
			t.Errorf("cause %d: %+v, want %+v", i, g, w)
		}
	}
	if s := rep.Summary; s == nil || len(s.SitemapsAdded) != 1 || len(s.GroupsRemoved) != 1 || s.GroupsRemoved[0].Line != 4 {
		t.Errorf("summary %+v", rep.Summary)
	}
}
