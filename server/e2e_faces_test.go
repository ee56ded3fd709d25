package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2EDialectSet: the page's Dialects and Lint tabs report on the
// default dialect set the server gives (every dialect but original), as
// the CLI and the API do; original comes with its checkbox only. The page
// had a list of its own with original in it.
func TestE2EDialectSet(t *testing.T) {
	b := newBrowser(t, 1280, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	if got := eval[string](b, ctx, `document.getElementById('default-dialects').textContent`); got != "google, rfc9309, bing, yandex, baidu" {
		t.Errorf("the Dialects tab names %q, want the server's default set", got)
	}
	b.paste(ctx, "robots", "User-agent: *\nNoindex: /x\nDisallow: /p*q\nAllow: /p/\n")
	b.paste(ctx, "urls", "/p/q\n/")
	b.chooseCrawlers(ctx, "Googlebot", "Baiduspider")
	b.runCheck(ctx)
	heads := func() string {
		return strings.Join(eval[[]string](b, ctx, `[...document.querySelectorAll('#dialects-table thead th')].map(th => th.textContent)`), ",")
	}
	b.do(ctx, chromedp.Click(chromedp.CSS("#tab-dialects")))
	b.waitFor(ctx, `document.querySelector('#dialects-table') !== null`)
	if got, want := heads(), "Crawler,URL,Its own engine,google,rfc9309,bing,yandex,baidu,Note"; got != want {
		t.Errorf("Dialects columns %q, want %q", got, want)
	}
	b.do(ctx, chromedp.Click(chromedp.CSS("#dialects-original")))
	b.waitFor(ctx, `[...document.querySelectorAll('#dialects-table thead th')].some(th => th.textContent === 'original')`)
	if got, want := heads(), "Crawler,URL,Its own engine,google,rfc9309,bing,yandex,baidu,original,Note"; got != want {
		t.Errorf("Dialects columns with original %q, want %q", got, want)
	}

	b.do(ctx, chromedp.Click(chromedp.CSS("#tab-lint")))
	b.waitFor(ctx, `document.getElementById('lint-out').textContent.includes('unsupported-field')`)
	lint := eval[string](b, ctx, `document.getElementById('lint-out').textContent`)
	if strings.Contains(lint, "original") {
		t.Errorf("the Lint tab names original unless asked:\n%s", lint)
	}
	b.do(ctx, chromedp.Click(chromedp.CSS("#lint-original")))
	b.waitFor(ctx, `document.getElementById('lint-out').textContent.includes('original')`)
	lint = eval[string](b, ctx, `document.getElementById('lint-out').textContent`)
	if !strings.Contains(lint, "wildcards-in-original") {
		t.Errorf("with original, the Lint tab lacks wildcards-in-original:\n%s", lint)
	}
	b.check()
}

// TestE2ELivePathAsTyped: in live mode a path is asked about as typed,
// after the origin: "/a/../private" is that URL, as robotstxt check asks
// it, not "/private" (new URL resolved the dot segments), and a bare '%'
// is not escaped.
func TestE2ELivePathAsTyped(t *testing.T) {
	const livePathRobots = "User-agent: *\nDisallow: /private\n"
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, livePathRobots)
	}))
	t.Cleanup(site.Close)
	b := newBrowser(t, 1280, 1000, func(o *Options) { o.AllowPrivate = true })
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.do(ctx, chromedp.Click(chromedp.CSS("#mode-live")))
	b.paste(ctx, "origin", site.URL+"/some/page")
	b.do(ctx, chromedp.Click(chromedp.CSS("#live-form button")))
	// The editor held the example of a fresh page: wait for the live file.
	b.waitFor(ctx, `document.querySelector('#fetch-trace table') !== null && document.getElementById('robots').value === `+jsString(livePathRobots))
	b.paste(ctx, "urls", "/a/../private\n/a%zz/./b\n/private")
	b.chooseCrawlers(ctx, "Googlebot")
	b.runCheck(ctx)
	rows := eval[[]string](b, ctx, `[...document.querySelectorAll('#results-table tbody tr')].map(tr => tr.textContent)`)
	want := []string{site.URL + "/a/../private", site.URL + "/a%zz/./b", site.URL + "/private"}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %q", len(rows), len(want), rows)
	}
	for i, w := range want {
		if !strings.Contains(rows[i], w) {
			t.Errorf("row %d: %q, want the URL as typed, %s", i+1, rows[i], w)
		}
	}
	// As check reads them: /a/../private is not /private to the rules.
	if !strings.Contains(rows[0], "allowed") || !strings.Contains(rows[2], "blocked") {
		t.Errorf("verdicts: %q", rows)
	}
	b.check()
}
