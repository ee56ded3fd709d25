package tester_test

import (
	"fmt"

	"github.com/seed53c283f5/robotstxt/tester"
)

func ExampleCheck() {
	src := tester.NewSource("robots.txt", []byte("User-agent: *\nDisallow: /private/\n\nUser-agent: Baiduspider\nDisallow: /\n"))
	rep, err := tester.Check(&tester.CheckRequest{
		Source:   src,
		URLs:     []string{"https://example.com/private/a", "/public"},
		Subjects: tester.Subjects{Crawlers: []string{"Googlebot", "Baiduspider"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rep.Results {
		fmt.Println(r.URL, r.Who, r.Allowed, r.Line)
	}
	// Output:
	// https://example.com/private/a Googlebot false 2
	// https://example.com/private/a Baiduspider false 5
	// /public Googlebot true 0
	// /public Baiduspider false 5
}

func ExampleDiff() {
	old := tester.NewSource("old", []byte("User-agent: *\nDisallow: /a\n"))
	new := tester.NewSource("new", []byte("User-agent: *\nDisallow: /b\n"))
	rep, _ := tester.Diff(&tester.DiffRequest{Old: old, New: new, URLs: []string{"/a", "/b", "/c"},
		Subjects: tester.Subjects{Crawlers: []string{"Googlebot"}}})
	for _, c := range rep.Changes {
		fmt.Println(c.URL, c.Crawler, c.Old.Allowed, "->", c.New.Allowed)
	}
	// Output:
	// /a Googlebot false -> true
	// /b Googlebot true -> false
}

func ExampleError() {
	_, err := tester.Check(&tester.CheckRequest{
		Source:   tester.NewSource("robots.txt", nil),
		URLs:     []string{"/"},
		Subjects: tester.Subjects{Agents: []string{"Googlebot/2.1"}},
	})
	if e, ok := err.(*tester.Error); ok {
		fmt.Println(e.Field, e.Index, e.Suggestion)
		fmt.Println(err)
	}
	// Output:
	// agents 0 Googlebot
	// tester: "Googlebot/2.1" is not a product token: tokens are letters, '-' and '_' only (Googlebot, not Googlebot/2.1); did you mean Googlebot?
}
