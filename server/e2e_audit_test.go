package server

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2EAudit: a log pasted in the page's audit section is judged by the
// file in the editor; the report lists the crawlers with their counts and
// each one's disallowed paths, and a path's link opens the tester with
// that path and crawler, whose verdict agrees.
func TestE2EAudit(t *testing.T) {
	b := newBrowser(t, 1400, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n")
	gb := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	gpt := "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	line := func(ip, when, path, ua string) string {
		return ip + ` - - [` + when + `] "GET ` + path + ` HTTP/1.1" 200 512 "-" "` + ua + `"` + "\n"
	}
	log := line("66.249.66.1", "10/Nov/2026:12:00:00 +0000", "/private/report.pdf", gb) +
		line("66.249.66.1", "10/Nov/2026:12:00:05 +0000", "/private/report.pdf", gb) +
		line("66.249.66.1", "10/Nov/2026:12:00:09 +0000", "/blog/", gb) +
		line("20.171.206.5", "10/Nov/2026:12:01:00 +0000", "/blog/<b>x</b>", gpt) +
		line("192.0.2.9", "10/Nov/2026:12:02:00 +0000", "/private/report.pdf", "Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0") +
		line("192.0.2.10", "10/Nov/2026:12:03:00 +0000", "/", "python-requests/2.32.3") +
		"not a log line\n"
	b.paste(ctx, "audit-log", log)
	b.do(ctx, chromedp.Click(chromedp.CSS("#audit-unknown")))
	b.do(ctx, chromedp.Click(chromedp.CSS("#audit-run")))
	b.waitFor(ctx, `document.getElementById('audit-summary') !== null || document.querySelector('#audit-status.error') !== null`)
	if msg := eval[string](b, ctx, `document.querySelector('#audit-status.error') ? document.getElementById('audit-status').textContent : ''`); msg != "" {
		t.Fatalf("audit: %s", msg)
	}
	summary := eval[string](b, ctx, `document.getElementById('audit-summary').textContent`)
	if !strings.Contains(summary, "7 lines (combined), 1 unparsed") || !strings.Contains(summary, "4 by known crawlers, 3 disallowed") {
		t.Errorf("summary: %q", summary)
	}
	row := eval[string](b, ctx, `document.querySelector('#audit-out tr[data-crawler="Googlebot"]').textContent`)
	if !strings.HasPrefix(row, "Googlebot32003") {
		t.Errorf("Googlebot's row: %q (requests 3, disallowed 2, verified 0, spoofed 0, unverified 3)", row)
	}
	// The path with markup is text, not markup.
	if n := eval[int](b, ctx, `document.querySelectorAll('#audit-out b').length`); n != 0 {
		t.Errorf("a logged path became markup: %d <b> elements", n)
	}
	if got := eval[string](b, ctx, `document.getElementById('audit-out').textContent`); !strings.Contains(got, "/blog/<b>x</b>") || !strings.Contains(got, "python-requests/2.32.3") || !strings.Contains(got, "line 2: Disallow: /private/") {
		t.Errorf("the report: %q", got)
	}
	b.viewShot(ctx, "audit", "#audit", 1200, 1)

	// A disallowed path opens the tester with its crawler.
	b.do(ctx, chromedp.Click(chromedp.CSS(`#audit-out .audit-crawler a.url`)))
	b.waitFor(ctx, `document.body.dataset.restored === 'true' && document.getElementById('urls').value === '/private/report.pdf'`)
	b.waitFor(ctx, `document.querySelector('#results-out table') !== null`)
	res := eval[string](b, ctx, `document.getElementById('results-out').textContent`)
	if !strings.Contains(res, "Googlebot") || !strings.Contains(strings.ToLower(res), "blocked") {
		t.Errorf("the tester after the link: %q", res)
	}
	b.check()
}
