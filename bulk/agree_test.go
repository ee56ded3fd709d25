package bulk

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/tester"
)

// statusSite answers /robots.txt of host "sNNN.test" with status NNN, and
// of s200.test with a file of rules.
type statusSite struct{}

func (statusSite) RoundTrip(r *http.Request) (*http.Response, error) {
	code := 200
	fmt.Sscanf(r.URL.Hostname(), "s%d.test", &code)
	body := ""
	if code == 200 {
		body = "User-agent: *\nDisallow: /private\nDisallow: /a%\n\nUser-agent: Baiduspider\nAllow: /private/ok\nDisallow: /\n"
	}
	return &http.Response{StatusCode: code, Header: http.Header{"Content-Type": {"text/plain"}},
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// TestBulkAgreesWithCheck asks bulk and check -u's code (tester.Fetch
// then tester.Check) the same questions about live origins, every crawler
// of the table and a product token, and fails on any answer that differs:
// URLs with a bare '%' (bulk refused them: "invalid URL escape"), and
// origins answering 401, 403, 429, 500 and 503, which each crawler reads
// with its own dialect's fetch policy (bulk read them all with Google's:
// 403 allowed Baiduspider, 503 disallowed YandexBot).
func TestBulkAgreesWithCheck(t *testing.T) {
	var names []string
	for _, c := range robotstxt.Crawlers() {
		names = append(names, c.Name)
	}
	subjects, err := Subjects(names, []string{"MyBot"})
	if err != nil {
		t.Fatal(err)
	}
	newCache := func() *cache.Cache {
		return cache.New(&cache.Options{Store: store.NewMemory(nil), Fetcher: &fetch.Fetcher{Transport: statusSite{}}})
	}
	c, err := New(&Options{Cache: newCache(), Subjects: subjects})
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"/", "/a%zz", "/%", "/a%", "/private/%", "/private/ok%2", "/x?q=%%", "/robots.txt"}
	var in bytes.Buffer
	for _, code := range []int{200, 401, 403, 404, 429, 500, 503} {
		for _, p := range paths {
			fmt.Fprintf(&in, "http://s%d.test%s\n", code, p)
		}
	}
	var out bytes.Buffer
	sum, err := c.Run(context.Background(), &in, &out)
	if err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, out.String())
	if sum.BadLines != 0 {
		t.Errorf("%d lines refused", sum.BadLines)
	}
	// check -u: one origin at a time, every URL and subject.
	checkCache := newCache()
	byKey := map[string]tester.CheckResult{}
	policy := map[string]string{}
	for _, code := range []int{200, 401, 403, 404, 429, 500, 503} {
		origin := fmt.Sprintf("http://s%d.test", code)
		src, err := tester.Fetch(context.Background(), checkCache, origin, robotstxt.DefaultDialect, nil)
		if err != nil {
			t.Fatal(err)
		}
		var urls []string
		for _, p := range paths {
			urls = append(urls, origin+p)
		}
		rep, err := tester.Check(&tester.CheckRequest{Source: src, URLs: urls, Subjects: tester.Subjects{Crawlers: names, Agents: []string{"MyBot"}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Results {
			k := r.URL + " " + r.Who
			byKey[k] = r
			policy[k] = r.Policy
		}
	}
	compared, differ := 0, 0
	for _, r := range rows {
		who := r.Crawler + r.Agent
		k := r.URL + " " + who
		want, ok := byKey[k]
		if !ok {
			t.Fatalf("bulk answered %s, check did not", k)
		}
		compared++
		got := fmt.Sprintf("allowed %v, line %d, error %q", r.Allowed != nil && *r.Allowed, r.Line, r.Error)
		exp := fmt.Sprintf("allowed %v, line %d, error %q", want.Allowed, want.Line, "")
		if p := policy[k]; p != "" && p != r.Policy {
			exp += ", policy " + p
			got += ", policy " + r.Policy
		}
		if r.Allowed == nil || got != exp {
			if differ++; differ <= 10 {
				t.Errorf("%s: bulk %s; check %s", k, got, exp)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d answers differ", differ, compared)
	}
	// The summary counts each result by its own subject's policy.
	byPolicy := map[string]int64{}
	var allowed, disallowed int64
	for _, r := range rows {
		if r.Allowed == nil {
			continue // reported above
		}
		byPolicy[r.Policy]++
		if *r.Allowed {
			allowed++
		} else {
			disallowed++
		}
	}
	for p, n := range byPolicy {
		if sum.Policies[p] != n {
			t.Errorf("summary: %d results %s, the results say %d", sum.Policies[p], p, n)
		}
	}
	if sum.Allowed != allowed || sum.Disallowed != disallowed {
		t.Errorf("summary: %d allowed, %d disallowed; the results say %d, %d", sum.Allowed, sum.Disallowed, allowed, disallowed)
	}
	if want := 7 * len(paths) * len(subjects); compared != want {
		t.Errorf("%d answers compared, want %d", compared, want)
	}
}
