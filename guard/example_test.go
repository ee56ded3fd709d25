package guard_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/seed53c283f5/robotstxt/guard"
)

// A site's own robots.txt, enforced in front of its handler.
func ExampleNew() {
	robots := guard.NewStatic([]byte("User-agent: GPTBot\nDisallow: /drafts/\n"), "")
	policy, err := guard.ParsePolicy("policy.toml", []byte(`mode = "enforce"`))
	if err != nil {
		panic(err)
	}
	middleware, err := guard.New(guard.Options{Robots: robots, Policy: policy})
	if err != nil {
		panic(err)
	}
	site := middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "the page")
	}))
	for _, path := range []string{"/drafts/a", "/posts/a", "/robots.txt"} {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("User-Agent", "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)")
		w := httptest.NewRecorder()
		site.ServeHTTP(w, r)
		fmt.Println(path, w.Code)
	}
	// Output:
	// /drafts/a 403
	// /posts/a 200
	// /robots.txt 200
}

// Decide says what the guard would do, and why, without answering.
func ExampleGuard_Decide() {
	g, err := guard.Build(guard.Options{Robots: guard.NewStatic([]byte("User-agent: *\nDisallow: /cart\n"), "v1")})
	if err != nil {
		panic(err)
	}
	r := httptest.NewRequest("GET", "/cart/checkout", nil)
	r.Header.Set("User-Agent", "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)")
	d := g.Decide(r)
	fmt.Println(d.Claimed, d.Identity.Outcome, d.Outcome)
	fmt.Printf("line %d %q of %s\n", d.Line, d.LineText, d.Version)
	fmt.Println("would:", d.Would, "does:", d.Action, "in mode", d.Mode)
	// Output:
	// ClaudeBot unverified disallowed-unverified
	// line 2 "Disallow: /cart" of v1
	// would: 403 does: log in mode log
}

// Explain prints what a policy does.
func ExamplePolicy_Explain() {
	p, err := guard.ParsePolicy("policy.toml", []byte(`
mode = "enforce"
price = "USD 0.01"

[actions]
over-crawl-delay = "429"

[crawler.GPTBot]
pass = "402"
`))
	if err != nil {
		panic(err)
	}
	p.Explain(os.Stdout)
	// Output:
	// Policy policy.toml: mode enforce.
	// It acts as below.
	// Always passed, whatever the tables say: /robots.txt, /.well-known/..., the
	// sitemaps robots.txt names, browsers and clients that claim no known crawler.
	//
	// Every crawler:
	//   pass                     allow (default)
	//   disallowed-verified      403 (default)
	//   disallowed-unverified    403 (default)
	//   spoofed                  403 (default)
	//   preference-refused       log (default)
	//   over-crawl-delay         429 with Retry-After
	//
	// crawler GPTBot:
	//   pass                     402 with crawler-price
	//
	// A crawler's own table comes first, then its behaviours', then its purposes' (the
	// strictest of them), then every crawler's.
	// 402 answers carry crawler-price: USD 0.01
	// 429 answers carry Retry-After: the seconds left of the crawl-delay.
	// Tarpit: a 403 spread over 30s, at most 32 connections at once; past that, a 403
	// at once.
	// Recorded: every request that claims a known crawler.
}
