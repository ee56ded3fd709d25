package tester

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

// TestChanges: each kind of change is found, with its lines and agents,
// and what only moved or changed spelling is not.
func TestChanges(t *testing.T) {
	old := `User-agent: *
Disallow: /private/
Allow: /private/ok
Content-Usage: train-ai=n

User-agent: Googlebot
User-agent: Bingbot
Disallow: /tmp/

User-agent: OldBot
Disallow: /

Sitemap: https://example.com/a.xml
Sitemap: https://example.com/b.xml
`
	new := `# moved and respelled, same meaning
user-agent: bingbot
user-agent: googlebot
DISALLOW: /tmp/
Disallow: /drafts/

User-agent: *
Disallow: /private/
Content-Usage: train-ai=y
Content-Signal: search=yes, ai-train=no

User-agent: GPTBot
Disallow: /
Disallow: /x

Sitemap: https://example.com/b.xml
Sitemap: https://example.com/c.xml
`
	s := Changes(robotstxt.ParseString(old), robotstxt.ParseString(new))
	if s.Same {
		t.Fatal("Same for files that differ")
	}
	want := &ChangeSummary{
		GroupsAdded:   []GroupChange{{Agents: []string{"gptbot"}, Line: 12, Rules: []RuleLine{{13, "Disallow: /"}, {14, "Disallow: /x"}}}},
		GroupsRemoved: []GroupChange{{Agents: []string{"oldbot"}, Line: 10, Rules: []RuleLine{{11, "Disallow: /"}}}},
		RulesAdded:    []RuleChange{{Agents: []string{"bingbot", "googlebot"}, Line: 5, Value: "/drafts/", Rule: "Disallow: /drafts/"}},
		RulesRemoved:  []RuleChange{{Agents: []string{"*"}, Line: 3, Allow: true, Value: "/private/ok", Rule: "Allow: /private/ok"}},
		SitemapsAdded: []LineChange{{Line: 17, Value: "https://example.com/c.xml"}},
		SitemapsGone:  []LineChange{{Line: 13, Value: "https://example.com/a.xml"}},
		UsageAdded:    []LineChange{{Line: 9, Value: "train-ai=y", Agents: []string{"*"}}},
		UsageRemoved:  []LineChange{{Line: 4, Value: "train-ai=n", Agents: []string{"*"}}},
		SignalAdded:   []LineChange{{Line: 10, Value: "search=yes, ai-train=no", Agents: []string{"*"}}},
		SignalRemoved: []LineChange{},
		Counts:        ChangeCounts{OldGroups: 3, NewGroups: 3, OldRules: 4, NewRules: 5},
	}
	if !reflect.DeepEqual(s, want) {
		got, _ := json.MarshalIndent(s, "", " ")
		exp, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("got\n%s\nwant\n%s", got, exp)
	}
	lines := strings.Join(s.Lines(), "\n")
	for _, w := range []string{
		"+ group gptbot (line 12, 2 rules)",
		"- group oldbot (old line 10, 1 rule)",
		"+ Disallow: /drafts/ for bingbot, googlebot (line 5)",
		"- Allow: /private/ok for * (old line 3)",
		"+ Sitemap: https://example.com/c.xml (line 17)",
		"- Content-Usage: train-ai=n for * (old line 4)",
	} {
		if !strings.Contains(lines, w) {
			t.Errorf("Lines lack %q:\n%s", w, lines)
		}
	}
	if s.Len() != len(s.Lines()) {
		t.Errorf("Len %d, %d lines", s.Len(), len(s.Lines()))
	}
}

// TestChangesSame: a file against itself, reordered, or with comments
// added, is no change; nil is an empty file.
func TestChangesSame(t *testing.T) {
	a := "User-agent: a\nDisallow: /x\n\nUser-agent: b\nAllow: /y\nSitemap: https://e.com/s\n"
	b := "# comment\nSitemap: https://e.com/s\nUser-agent: b\nallow: /y # why\n\nUser-agent: a\nDisallow: /x\n"
	for _, pair := range [][2]string{{a, a}, {a, b}, {"", ""}} {
		s := Changes(robotstxt.ParseString(pair[0]), robotstxt.ParseString(pair[1]))
		if !s.Same || s.Len() != 0 || len(s.Lines()) != 0 {
			t.Errorf("%q -> %q: %+v", pair[0], pair[1], s)
		}
	}
	s := Changes(nil, robotstxt.ParseString(a))
	if s.Same || len(s.GroupsAdded) != 2 || len(s.SitemapsAdded) != 1 || len(s.GroupsRemoved) != 0 {
		t.Errorf("nil -> a: %+v", s)
	}
	s = Changes(robotstxt.ParseString(a), nil)
	if s.Same || len(s.GroupsRemoved) != 2 || len(s.SitemapsGone) != 1 {
		t.Errorf("a -> nil: %+v", s)
	}
	// JSON: every list present, even empty.
	out, _ := json.Marshal(Changes(nil, nil))
	for _, k := range []string{`"groups_added":[]`, `"rules_removed":[]`, `"content_signal_added":[]`, `"same":true`} {
		if !strings.Contains(string(out), k) {
			t.Errorf("JSON lacks %s: %s", k, out)
		}
	}
}

// TestChangesDuplicates: a rule written twice and kept once is one
// removal; groups that name the same tokens are one group.
func TestChangesDuplicates(t *testing.T) {
	a := "User-agent: x\nDisallow: /a\nDisallow: /a\n\nUser-agent: x\nDisallow: /b\n"
	b := "User-agent: x\nDisallow: /a\nDisallow: /b\n"
	s := Changes(robotstxt.ParseString(a), robotstxt.ParseString(b))
	if len(s.RulesRemoved) != 1 || s.RulesRemoved[0].Line != 3 || len(s.RulesAdded) != 0 || len(s.GroupsAdded)+len(s.GroupsRemoved) != 0 {
		t.Errorf("%+v", s)
	}
}

// TestChangesBounded: two large unrelated files give lists of at most
// maxSummaryItems, with complete counts.
func TestChangesBounded(t *testing.T) {
	var a, b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&a, "User-agent: a%s\nDisallow: /x%d\n", name(i), i)
		fmt.Fprintf(&b, "User-agent: b%s\nDisallow: /y%d\n", name(i), i)
	}
	s := Changes(robotstxt.ParseString(a.String()), robotstxt.ParseString(b.String()))
	if len(s.GroupsAdded) != maxSummaryItems || len(s.GroupsRemoved) != maxSummaryItems || s.Counts.OldGroups != 3000 || s.Counts.NewRules != 3000 {
		t.Errorf("added %d removed %d counts %+v", len(s.GroupsAdded), len(s.GroupsRemoved), s.Counts)
	}
}

// name spells i in letters: product tokens hold no digits.
func name(i int) string {
	var b []byte
	for ; i > 0 || len(b) == 0; i /= 26 {
		b = append(b, byte('a'+i%26))
	}
	return string(b)
}

// FuzzChanges: any two files summarise without a crash, a file against
// itself is no change, and the summary's lists are within their bound.
func FuzzChanges(f *testing.F) {
	f.Add(sample, "User-agent: *\nDisallow: /\nSitemap: x\nContent-Usage: train-ai=n\n")
	f.Add("", "User-agent: a\nContent-Signal: search=yes\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		ra, rb := robotstxt.ParseString(a), robotstxt.ParseString(b)
		s := Changes(ra, rb)
		if s.Len() > 10*maxSummaryItems+1 {
			t.Fatalf("unbounded: %d", s.Len())
		}
		if same := Changes(ra, ra); !same.Same {
			t.Fatalf("a file against itself: %+v", same)
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatal(err)
		}
	})
}

func ExampleChanges() {
	old := robotstxt.ParseString("User-agent: *\nDisallow: /private/\n")
	new := robotstxt.ParseString("User-agent: *\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n")
	for _, l := range Changes(old, new).Lines() {
		fmt.Println(l)
	}
	// Output:
	// + Disallow: / for * (line 2)
	// - Disallow: /private/ for * (old line 2)
	// + Sitemap: https://example.com/sitemap.xml (line 4)
}
