package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

// The policy of every status in every dialect, as Interpret gives it.
func TestInterpretPolicies(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /private\n"
	big := rules + strings.Repeat("#", 600_000)
	type want struct {
		p           Policy
		unreachable bool
	}
	R, A, D := want{p: Rules}, want{p: AllowAll}, want{p: DisallowAll}
	DU, AU := want{DisallowAll, true}, want{AllowAll, true}
	cases := []struct {
		status int
		body   string
		by     map[robotstxt.Dialect]want
	}{
		{200, rules, map[robotstxt.Dialect]want{robotstxt.Google: R, robotstxt.RFC9309: R, robotstxt.Bing: R, robotstxt.Yandex: R, robotstxt.Baidu: R, robotstxt.Original: R}},
		{200, big, map[robotstxt.Dialect]want{robotstxt.Google: R, robotstxt.RFC9309: R, robotstxt.Bing: R, robotstxt.Yandex: A, robotstxt.Baidu: R, robotstxt.Original: R}},
		{203, rules, map[robotstxt.Dialect]want{robotstxt.Google: R, robotstxt.Yandex: A, robotstxt.Baidu: R}},
		{301, "", map[robotstxt.Dialect]want{robotstxt.Google: A, robotstxt.Yandex: A, robotstxt.Original: A}},
		{401, "", map[robotstxt.Dialect]want{robotstxt.Google: A, robotstxt.RFC9309: A, robotstxt.Bing: A, robotstxt.Yandex: A, robotstxt.Baidu: D, robotstxt.Original: D}},
		{403, "", map[robotstxt.Dialect]want{robotstxt.Google: A, robotstxt.RFC9309: A, robotstxt.Bing: A, robotstxt.Yandex: A, robotstxt.Baidu: D, robotstxt.Original: D}},
		{404, "", map[robotstxt.Dialect]want{robotstxt.Google: A, robotstxt.RFC9309: A, robotstxt.Bing: A, robotstxt.Yandex: A, robotstxt.Baidu: A, robotstxt.Original: A}},
		{429, "", map[robotstxt.Dialect]want{robotstxt.Google: DU, robotstxt.RFC9309: A, robotstxt.Bing: DU, robotstxt.Yandex: AU, robotstxt.Baidu: DU, robotstxt.Original: DU}},
		{500, "", map[robotstxt.Dialect]want{robotstxt.Google: DU, robotstxt.RFC9309: DU, robotstxt.Bing: DU, robotstxt.Yandex: AU, robotstxt.Baidu: DU, robotstxt.Original: DU}},
		{503, "", map[robotstxt.Dialect]want{robotstxt.Google: DU, robotstxt.Yandex: AU, robotstxt.Baidu: DU}},
		{0, "", map[robotstxt.Dialect]want{robotstxt.Google: DU, robotstxt.Yandex: DU, robotstxt.Baidu: DU}},
	}
	for _, c := range cases {
		for d, w := range c.by {
			a := Interpret(c.status, nil, []byte(c.body), d)
			if a.Policy != w.p || a.Unreachable != w.unreachable {
				t.Errorf("%d %s: %s unreachable=%v, want %s unreachable=%v (%s)", c.status, d, a.Policy, a.Unreachable, w.p, w.unreachable, a.Reason)
			}
			if (a.Robots != nil) != (a.Policy == Rules) {
				t.Errorf("%d %s: Robots set = %v with policy %s", c.status, d, a.Robots != nil, a.Policy)
			}
			if a.Reason == "" {
				t.Errorf("%d %s: no reason", c.status, d)
			}
		}
	}
	if a := Interpret(200, nil, []byte(big), robotstxt.Yandex); !strings.Contains(a.Reason, robotstxt.OversizedReason) {
		t.Errorf("Yandex over 500 KB: reason %q", a.Reason)
	}
	h := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	if a := Interpret(200, h, []byte("<html>"), robotstxt.Google); !strings.Contains(a.Reason, "served as HTML") {
		t.Errorf("HTML: reason %q", a.Reason)
	}
	for body, want := range map[string]string{"": "200 OK: 0 bytes of rules", "x": "200 OK: 1 byte of rules", "xy": "200 OK: 2 bytes of rules"} {
		if a := Interpret(200, nil, []byte(body), robotstxt.Google); a.Reason != want {
			t.Errorf("%q: reason %q, want %q", body, a.Reason, want)
		}
	}
}

// Answer.Decide applies the policy, then the rules, in the crawler's dialect.
func TestAnswerDecide(t *testing.T) {
	baidu, _ := robotstxt.LookupCrawler("Baiduspider")
	google, _ := robotstxt.LookupCrawler("Googlebot")
	yandex, _ := robotstxt.LookupCrawler("YandexBot")
	a := Interpret(403, nil, nil, robotstxt.Baidu)
	if d := a.Decide(robotstxt.Query{URL: "/x", Crawler: &baidu}); d.Allowed || d.Reason != a.Reason || d.Dialect != robotstxt.Baidu {
		t.Errorf("403 for Baidu: %+v", d)
	}
	if d := a.Decide(robotstxt.Query{URL: "/robots.txt", Crawler: &baidu}); !d.Allowed {
		t.Error("/robots.txt is always allowed")
	}
	a = Interpret(200, nil, []byte("User-agent: *\nDisallow: /*.gif$\n"), robotstxt.Baidu)
	if d := a.Decide(robotstxt.Query{URL: "/a.gif", Crawler: &baidu}); d.Allowed || d.Line() != 2 {
		t.Errorf("rules for Baidu: %+v", d)
	}
	if !a.Allowed("Baiduspider", "/a.html") || a.Allowed("Baiduspider", "/a.gif") {
		t.Error("Allowed with Baiduspider")
	}
	if d := a.Decide(robotstxt.Query{URL: "/a.gif", Agents: []string{"x"}, Dialect: robotstxt.Original}); !d.Allowed {
		t.Error("the strict draft, asked for, reads * and $ literally: want allowed")
	}
	if d := Interpret(403, nil, nil, robotstxt.Baidu).Decide(robotstxt.Query{URL: "/x", Crawler: &google}); d.Allowed {
		t.Error("the answer's policy applies to every question about it")
	}
	// A body that a client cut after 500 KiB is still over 500 KB for Yandex.
	cut := Response{Status: 200, Body: []byte("User-agent: *\nDisallow: /\n"), Size: 600_000}
	if a := cut.Interpret(robotstxt.Yandex); a.Policy != AllowAll {
		t.Errorf("cut body for Yandex: %s (%s)", a.Policy, a.Reason)
	}
	if a := cut.Interpret(robotstxt.Google); a.Policy != Rules || !a.Robots.Truncated() || a.Allowed("x", "/x") {
		t.Errorf("cut body for Google: %s, want its rules", a.Policy)
	} else if d := a.Decide(robotstxt.Query{URL: "/x", Crawler: &yandex}); !d.Allowed {
		t.Errorf("cut body asked for YandexBot: %s, want Yandex's size rule", d.Reason)
	}
}

// The fetcher decides with Interpret: the same status and body give the
// same policy and reason.
func TestFetcherAgreesWithInterpret(t *testing.T) {
	var status int
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	defer srv.Close()
	o, _ := OriginOf(srv.URL)
	for _, st := range []int{200, 401, 403, 404, 429, 500, 503} {
		for _, b := range []string{"User-agent: *\nDisallow: /p\n", strings.Repeat("#", 600_000)} {
			status, body = st, b
			for _, d := range robotstxt.Dialects() {
				f := Fetcher{Dialect: d}
				res, _ := f.Fetch(context.Background(), o, Validators{})
				a := Interpret(st, http.Header{"Content-Type": {"text/plain"}}, []byte(b), d)
				if res.Policy != a.Policy || res.Unreachable != a.Unreachable {
					t.Errorf("%d %s (%d bytes): fetcher %s/%v, Interpret %s/%v", st, d, len(b), res.Policy, res.Unreachable, a.Policy, a.Unreachable)
				}
			}
		}
	}
}
