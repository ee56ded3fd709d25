package server

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2EFirstVisit: a fresh page starts from the example, so that Test
// answers on the first click, for the default crawlers, every column of
// them in view at 1,400 px.
func TestE2EFirstVisit(t *testing.T) {
	b := newBrowser(t, 1400, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); !strings.Contains(got, "User-agent: *") {
		t.Fatalf("a fresh page's editor: %q, want the example", got)
	}
	b.runCheck(ctx)
	heads := eval[[]string](b, ctx, `[...document.querySelectorAll('#results-table thead th')].slice(1).map(th => th.firstChild.textContent)`)
	if len(heads) != 8 {
		t.Errorf("columns %q, want the 8 default crawlers", heads)
	}
	// Every column is in view: nothing cut off at the right.
	cut := eval[[]string](b, ctx, `[...document.querySelectorAll('#results-table thead th')].filter(th => th.getBoundingClientRect().right > document.documentElement.clientWidth || th.getBoundingClientRect().right > document.getElementById('results-out').getBoundingClientRect().right + 1).map(th => th.textContent)`)
	if len(cut) > 0 {
		t.Errorf("columns cut off at 1,400 px: %q", cut)
	}
	// The 8 default crawlers are in view in the list's box, checked.
	hidden := eval[[]string](b, ctx, `(() => { const box = document.getElementById('crawler-list').getBoundingClientRect(); return [...document.querySelectorAll('#crawler-list input:checked')].filter(i => { const r = i.parentElement.getBoundingClientRect(); return r.bottom > box.bottom + 1 || r.top < box.top - 1 || r.right > box.right + 1 }).map(i => i.value) })()`)
	if n := eval[int](b, ctx, `document.querySelectorAll('#crawler-list input:checked').length`); n != 8 || len(hidden) > 0 {
		t.Errorf("%d crawlers checked; out of view in the list: %q", n, hidden)
	}
	b.screenshot(ctx, "first-visit-1400")
	// Long URLs: the columns still fit.
	b.paste(ctx, "urls", "/"+strings.Repeat("long-path-segment/", 12)+"\nhttps://example.com/private/report.pdf?utm_source=newsletter&utm_medium=email")
	b.runCheck(ctx)
	cut = eval[[]string](b, ctx, `[...document.querySelectorAll('#results-table thead th')].filter(th => th.getBoundingClientRect().right > document.documentElement.clientWidth).map(th => th.textContent)`)
	if len(cut) > 0 {
		t.Errorf("columns cut off at 1,400 px with long URLs: %q", cut)
	}
	b.screenshot(ctx, "first-visit-1400-long")
	b.check()
}

// TestE2ELoadExample: "Load example" puts the example back, keeping the
// text it replaced one click away.
func TestE2ELoadExample(t *testing.T) {
	b := newBrowser(t, 1280, 900)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", "User-agent: *\nDisallow: /mine\n")
	b.paste(ctx, "urls", "")
	b.do(ctx, chromedp.Click(chromedp.CSS("#load-example")))
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); !strings.Contains(got, "An example") {
		t.Errorf("editor after Load example: %q", got)
	}
	if got := eval[string](b, ctx, `document.getElementById('urls').value`); !strings.Contains(got, "/private/report.pdf") {
		t.Errorf("URLs after Load example: %q", got)
	}
	if eval[bool](b, ctx, `document.getElementById('undo-bar').hidden`) {
		t.Error("the text the example replaced is not offered back")
	}
	b.runCheck(ctx)
	b.do(ctx, chromedp.Click(chromedp.CSS("#undo-btn")))
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); got != "User-agent: *\nDisallow: /mine\n" {
		t.Errorf("put back: %q", got)
	}
	b.check()
}

// TestE2EFileNames: the crawlers a pasted file names and that are not
// asked about are offered: a crawler of the table is checked, any other
// name goes to the product tokens.
func TestE2EFileNames(t *testing.T) {
	b := newBrowser(t, 1280, 900)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", "User-agent: Googlebot\nDisallow: /a\n\nUser-agent: Google-Extended\nUser-agent: claritybot\nuser-agent: Bytespider/1.0 # comment\nDisallow: /\n")
	b.chooseCrawlers(ctx, "Googlebot")
	b.waitFor(ctx, `!document.getElementById('file-names').hidden`)
	offers := eval[[]string](b, ctx, `[...document.querySelectorAll('#file-names button.offer')].map(b => b.dataset.name)`)
	if strings.Join(offers, ",") != "Google-Extended,claritybot,Bytespider" {
		t.Fatalf("offers %q, want Google-Extended, claritybot, Bytespider (Googlebot is asked about)", offers)
	}
	b.do(ctx, chromedp.Click(chromedp.CSS(`#file-names button[data-name="Google-Extended"]`)))
	if got := eval[[]string](b, ctx, `[...document.querySelectorAll('#crawler-list input:checked')].map(i => i.value)`); strings.Join(got, ",") != "Googlebot,Google-Extended" {
		t.Errorf("checked after one offer: %q", got)
	}
	b.do(ctx, chromedp.Click(chromedp.CSS(`#file-names-all`)))
	if got := eval[string](b, ctx, `document.getElementById('agents').value`); got != "claritybot" {
		t.Errorf("product tokens after Add all: %q, want claritybot (not in the table)", got)
	}
	if got := eval[[]string](b, ctx, `[...document.querySelectorAll('#crawler-list input:checked')].map(i => i.value)`); strings.Join(got, ",") != "Googlebot,Google-Extended,Bytespider" {
		t.Errorf("checked after Add all: %q", got)
	}
	if !eval[bool](b, ctx, `document.getElementById('file-names').hidden`) {
		t.Error("offers left once all are asked about")
	}
	b.runCheck(ctx)
	if n := eval[int](b, ctx, `document.querySelectorAll('#results-table thead th').length`); n != 1+4 {
		t.Errorf("%d columns, want URL + 4", n-1)
	}
	b.check()
}

// TestE2EFilesOut: the edited file downloads as robots.txt; the results
// download as CSV and copy as Markdown, one row a URL and crawler.
func TestE2EFilesOut(t *testing.T) {
	b := newBrowser(t, 1280, 900)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	// Catch what the page saves and copies.
	eval[bool](b, ctx, `(() => {
		window.saved = [];
		const make = URL.createObjectURL;
		URL.createObjectURL = (blob) => { window.saved.push(blob); return make(blob) };
		HTMLAnchorElement.prototype.click = function () { window.savedNames = (window.savedNames || []).concat(this.download) };
		window.copied = [];
		Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (s) => { window.copied.push(s) } } });
		return true })()`)
	file := "User-agent: *\nDisallow: /=x|y\n"
	b.paste(ctx, "robots", file)
	b.paste(ctx, "urls", "/=x|y\n/ok")
	b.chooseCrawlers(ctx, "Googlebot")
	b.do(ctx, chromedp.Click(chromedp.CSS("#download-file")))
	b.do(ctx, chromedp.Click(chromedp.CSS("#copy-file")))
	b.runCheck(ctx)
	b.do(ctx, chromedp.Click(chromedp.CSS("#export-csv")))
	b.do(ctx, chromedp.Click(chromedp.CSS("#export-md")))
	b.waitFor(ctx, `window.copied.length === 2 && window.saved.length === 2`)
	if got := eval[[]string](b, ctx, `window.savedNames`); strings.Join(got, ",") != "robots.txt,robots-check.csv" {
		t.Errorf("files saved %q", got)
	}
	saved := eval[[]string](b, ctx, `Promise.all(window.saved.map(b => b.text()))`)
	copied := eval[[]string](b, ctx, `window.copied`)
	if saved[0] != file || copied[0] != file {
		t.Errorf("the file saved %q, copied %q, want %q", saved[0], copied[0], file)
	}
	wantCSV := "url,crawler,dialect,verdict,line,rule,policy\r\n/=x|y,Googlebot,google,blocked,2,Disallow: /=x|y,\r\n/ok,Googlebot,google,allowed,,,\r\n"
	if saved[1] != wantCSV {
		t.Errorf("CSV\n%q, want\n%q", saved[1], wantCSV)
	}
	wantMD := "| url | crawler | dialect | verdict | line | rule | policy |\n|---|---|---|---|---|---|---|\n| /=x\\|y | Googlebot | google | blocked | 2 | Disallow: /=x\\|y |  |\n| /ok | Googlebot | google | allowed |  |  |  |\n"
	if copied[1] != wantMD {
		t.Errorf("Markdown\n%q, want\n%q", copied[1], wantMD)
	}
	b.check()
}

// TestE2EDialectName: the original dialect has one name, with its year.
func TestE2EDialectName(t *testing.T) {
	b := newBrowser(t, 1400, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.runCheck(ctx)
	b.do(ctx, chromedp.Click(chromedp.CSS("#tab-dialects")))
	b.waitFor(ctx, `document.querySelector('#dialects-out table') !== null`)
	text := eval[string](b, ctx, `document.getElementById('view-dialects').textContent`)
	if !strings.Contains(text, "1996 draft (original)") || strings.Contains(text, "1994") {
		t.Errorf("the Dialects view names the original dialect otherwise: %s", text)
	}
	if sw := eval[int](b, ctx, `document.documentElement.scrollWidth`); sw > 1400 {
		t.Errorf("the page is %d px wide at 1,400 px", sw)
	}
	b.screenshot(ctx, "dialects-1400")
	b.check()
}
