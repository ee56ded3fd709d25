package robotstxt

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// deciderQueries are the askers TestDeciderEqualsDecide tries: known
// crawlers (one that ignores the '*' group, one with fallbacks, one whose
// name is not a product token), tokens alone and together, and nobody, in
// every dialect, with and without Explain.
func deciderQueries(t *testing.T) []Query {
	t.Helper()
	var crawlers []*Crawler
	for _, name := range []string{"Googlebot", "Bingbot", "AdsBot-Google", "Googlebot-Image", "YandexBot", "Baiduspider", "GPTBot"} {
		c, ok := LookupCrawler(name)
		if !ok {
			t.Fatalf("no crawler %q", name)
		}
		crawlers = append(crawlers, &c)
	}
	for _, c := range Crawlers() {
		if !ValidToken(c.Token) || c.IgnoresGlobal {
			c := c
			crawlers = append(crawlers, &c)
		}
	}
	var qs []Query
	for _, d := range []Dialect{DefaultDialect, Google, Bing, Yandex, RFC9309, Original, Baidu} {
		for _, explain := range []bool{false, true} {
			for _, c := range crawlers {
				qs = append(qs, Query{Crawler: c, Dialect: d, Explain: explain})
			}
			for _, agents := range [][]string{nil, {"foobot"}, {"googlebot"}, {"Googlebot", "bingbot", "*"}} {
				qs = append(qs, Query{Agents: agents, Dialect: d, Explain: explain})
			}
		}
	}
	return qs
}

// checkDecider asks every query about every URL both ways and wants the
// same decision.
func checkDecider(t *testing.T, name string, r *Robots, qs []Query, urls []string) {
	t.Helper()
	for _, q := range qs {
		p := r.Decider(q)
		for _, u := range urls {
			q.URL = u
			want := r.Decide(q)
			got := p.Decide(u)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %+v, url %q:\nDecider %+v\nDecide  %+v", name, q, u, got, want)
			}
			if q.Explain {
				// The winner found among the matches is the rule the
				// matcher finds without them.
				plain := q
				plain.Explain = false
				w := r.Decide(plain)
				if got.Allowed != w.Allowed || got.Rule != w.Rule || got.Reason != w.Reason {
					t.Fatalf("%s: %+v, url %q: with Explain %v %+v %q, without %v %+v %q", name, q, u, got.Allowed, got.Rule, got.Reason, w.Allowed, w.Rule, w.Reason)
				}
				if got.HasRule() && (len(got.Matches) == 0 || got.Matches[0] != got.Rule) {
					t.Fatalf("%s: %+v, url %q: rule %+v, matches %+v", name, q, u, got.Rule, got.Matches)
				}
			}
		}
		if p.Dialect() != r.Decide(q).Dialect {
			t.Fatalf("%s: %+v: Dialect() %v", name, q, p.Dialect())
		}
	}
}

// A Decider answers each URL as Decide answers the same query with it.
func TestDeciderEqualsDecide(t *testing.T) {
	qs := deciderQueries(t)
	urls := []string{"/", "/robots.txt", "/robots.txt?x=1", "/index.html", "/dir/", "/dir/index.htm",
		"/a%2fb?c=d", "/%7Euser/", "http://example.com/private/x", "/search?q=1", "/page.php?id=3", "/ÿ/ü", "/x\x00y"}

	handmade := map[string]string{
		"empty":    "",
		"star":     "User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.php$\nCrawl-delay: 3\n",
		"named":    "User-agent: Googlebot\nUser-agent: bingbot\nDisallow: /dir/\nAllow: /dir/index.htm\n\nUser-agent: *\nDisallow: /\n",
		"empty-r":  "User-agent: *\nDisallow:\nAllow: /search\n",
		"draft":    "User-agent: foobot/1.0\nDisallow: /a\n\nUser-agent: *\nDisallow: /search\n\nUser-agent: GPTBot\nDisallow: /\n",
		"oversize": "User-agent: *\nDisallow: /\n" + strings.Repeat("# filler\n", DefaultMaxBytes/9+10),
	}
	for name, body := range handmade {
		checkDecider(t, name, Parse([]byte(body)), qs, urls)
	}

	// Files of the corpus, with the URLs the golden answers ask about.
	cases := readGolden(t)
	byFile := map[string][]string{}
	var files []string
	for _, c := range cases {
		if _, ok := byFile[c.File]; !ok {
			files = append(files, c.File)
		}
		byFile[c.File] = append(byFile[c.File], c.URL)
	}
	step := 1
	if testing.Short() {
		step = 8
	}
	dir := sharedDir(t)
	n := 0
	for i := 0; i < len(files) && n < 60; i += max(1, step*len(files)/60) {
		body, err := os.ReadFile(filepath.Join(dir, "corpus", files[i]))
		if err != nil {
			t.Fatal(err)
		}
		checkDecider(t, files[i], Parse(body), qs, append(byFile[files[i]], urls...))
		n++
	}
	if n == 0 {
		t.Fatal("no corpus file tried")
	}
}

// One Decider answers many goroutines at once (run under -race).
func TestDeciderConcurrent(t *testing.T) {
	r := Parse([]byte("User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: Googlebot\nDisallow: /g/\n"))
	c, _ := LookupCrawler("Googlebot")
	p := r.Decider(Query{Crawler: &c, Explain: true})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				u := "/g/x"
				if (g+i)%2 == 0 {
					u = "/private/ok"
				}
				got := p.Decide(u)
				want := r.Decide(Query{URL: u, Crawler: &c, Explain: true})
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%q: %+v, want %+v", u, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// The decisions of one Decider share its group choice: the same lines.
func TestDeciderSharesGroup(t *testing.T) {
	r := Parse([]byte("User-agent: a\nUser-agent: b\nDisallow: /x\n"))
	p := r.Decider(Query{Agents: []string{"a", "b"}})
	d1, d2 := p.Decide("/x"), p.Decide("/y")
	if len(d1.Group.Lines) != 2 || &d1.Group.Lines[0] != &d2.Group.Lines[0] {
		t.Fatalf("lines %v and %v are not one slice", d1.Group.Lines, d2.Group.Lines)
	}
	if d1.Allowed || !d2.Allowed {
		t.Fatalf("got %v %v, want false true", d1.Allowed, d2.Allowed)
	}
}

// benchBatch is a file of a few KB shaped like a large site's and 1,000
// URLs against it, as the service's load test sends them.
func benchBatch() (*Robots, []string) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 40 {
		b.WriteString("Disallow: /private-" + strconv.Itoa(i) + "/\nAllow: /private-" + strconv.Itoa(i) + "/public/*.html$\n")
	}
	b.WriteString("Disallow: /*?sessionid=\nDisallow: /search\n\nUser-agent: Googlebot\nUser-agent: Bingbot\n")
	for i := range 30 {
		b.WriteString("Disallow: /g-" + strconv.Itoa(i) + "/*/drafts\n")
	}
	urls := make([]string, 1000)
	for i := range urls {
		n := strconv.Itoa(i)
		switch i % 4 {
		case 0:
			urls[i] = "https://example.com/private-" + strconv.Itoa(i%40) + "/x/" + n
		case 1:
			urls[i] = "https://example.com/g-" + strconv.Itoa(i%30) + "/a/drafts/" + n
		case 2:
			urls[i] = "https://example.com/shop/item-" + n + "?sessionid=" + n
		default:
			urls[i] = "https://example.com/private-" + strconv.Itoa(i%40) + "/public/p" + n + ".html"
		}
	}
	return Parse([]byte(b.String())), urls
}

// 1,000 URLs for one crawler, with Explain: Decide per URL against one
// Decider.
func BenchmarkDecideBatch(b *testing.B) {
	r, urls := benchBatch()
	c, _ := LookupCrawler("Googlebot")
	b.Run("Decide", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, u := range urls {
				r.Decide(Query{URL: u, Crawler: &c, Explain: true})
			}
		}
	})
	b.Run("Decider", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p := r.Decider(Query{Crawler: &c, Explain: true})
			for _, u := range urls {
				p.Decide(u)
			}
		}
	})
}
