package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

// TestE2EWatches: the page makes a watch of a local site; a server on the
// same store checks it twice, the site's robots.txt changing between the
// checks; the page lists the watch and shows its history: the baseline,
// then the change with its flipped (URL, crawler) pairs and the summary of
// the new version. Deleted from the page, it is gone.
func TestE2EWatches(t *testing.T) {
	site := newWatchSite(t, "User-agent: *\nDisallow: /admin/\n")
	clk := storetest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	st := store.NewMemory(nil)
	checker, err := New(&Options{Store: st, AllowPrivate: true, Now: clk.Now, Watch: WatchOptions{Jitter: func(d time.Duration) time.Duration { return d }}})
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, 1400, 1000, func(o *Options) { o.Store, o.AllowPrivate, o.Now = st, true, clk.Now })
	ctx := b.ctx
	b.open(ctx, b.base+"/")

	// Make the watch in the page.
	b.do(ctx, chromedp.Click(chromedp.CSS("#watch-new > summary")))
	b.paste(ctx, "watch-origin", site.URL)
	b.paste(ctx, "watch-urls", "/\n/shop/cart\n/admin/")
	b.paste(ctx, "watch-crawlers", "Googlebot, GPTBot")
	b.paste(ctx, "watch-every", "10m")
	b.do(ctx, chromedp.Click(chromedp.CSS("#watch-create")))
	b.waitFor(ctx, `document.querySelector('#watch-table tbody tr') !== null || document.querySelector('#watch-status.error') !== null`)
	if msg := eval[string](b, ctx, `document.querySelector('#watch-status.error') ? document.getElementById('watch-status').textContent : ''`); msg != "" {
		t.Fatalf("making the watch: %s", msg)
	}
	if got := eval[string](b, ctx, `document.querySelector('#watch-table tbody tr').textContent`); !strings.Contains(got, site.URL) || !strings.Contains(got, "new") {
		t.Errorf("the watch's row: %q", got)
	}

	// Two checks, the file changing between them.
	tickChecker := func() {
		t.Helper()
		if n, err := checker.watches.Tick(context.Background()); err != nil || n != 1 {
			t.Fatalf("Tick: %d, %v", n, err)
		}
	}
	tickChecker()
	site.set("User-agent: *\nDisallow: /admin/\nDisallow: /shop/\n\nUser-agent: GPTBot\nDisallow: /\nSitemap: " + site.URL + "/sitemap.xml\n")
	clk.Advance(10 * time.Minute)
	tickChecker()

	// The list, then the history.
	b.do(ctx, chromedp.Click(chromedp.CSS("#watch-refresh")))
	b.waitFor(ctx, `(document.querySelector('#watch-table tbody tr') || {}).textContent.includes('critical')`)
	b.do(ctx, chromedp.Click(chromedp.CSS("#watch-table button.watch-show")))
	b.waitFor(ctx, `document.querySelectorAll('#watch-events .watch-event').length === 2`)
	first := eval[string](b, ctx, `document.querySelector('#watch-events .watch-event').textContent`)
	for _, want := range []string{"critical", "/shop/cart", "Googlebot", "GPTBot", "allowed", "blocked (line 3: Disallow: /shop/)",
		"+ Disallow: /shop/ for * (line 3)", "+ group gptbot", "+ Sitemap: " + site.URL + "/sitemap.xml"} {
		if !strings.Contains(first, want) {
			t.Errorf("the change lacks %q: %s", want, first)
		}
	}
	flips := eval[int](b, ctx, `document.querySelectorAll('#watch-events .watch-event:first-child table.watch-flips tbody tr').length`)
	if flips != 3 { // /shop/cart for both, / for GPTBot (/admin/ was blocked already)
		t.Errorf("%d flips shown, want 3", flips)
	}
	if got := eval[string](b, ctx, `document.querySelectorAll('#watch-events .watch-event')[1].textContent`); !strings.Contains(got, "baseline") {
		t.Errorf("the first check: %q", got)
	}
	b.screenshot(ctx, "watches")

	// Delete: the first click asks, the second deletes.
	b.do(ctx, chromedp.Click(chromedp.CSS("#watch-table button.watch-delete")))
	b.waitFor(ctx, `document.querySelector('#watch-table button.watch-delete').textContent === 'Really delete'`)
	b.do(ctx, chromedp.Click(chromedp.CSS("#watch-table button.watch-delete")))
	b.waitFor(ctx, `document.getElementById('watch-status').textContent === 'No watch yet.'`)
	if n, err := checker.watches.Tick(context.Background()); err != nil || n != 0 {
		t.Errorf("a deleted watch checked: %d, %v", n, err)
	}
	if got := eval[string](b, ctx, `document.getElementById('watch-detail').textContent`); got != "" {
		t.Errorf("the history of a deleted watch is still shown: %q", got)
	}
	b.check()
}
