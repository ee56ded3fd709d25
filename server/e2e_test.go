package server

// End-to-end tests of the tester page in headless Chromium, driven through
// the DevTools protocol (chromedp), against the real server on loopback.
// They need Debian's chromium: without it they skip, except in CI
// (CI=true), where they fail, because .ci/run installs it.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/seed53c283f5/robotstxt/store"
)

// screenshotDir is where the tests save their screenshots (git-ignored);
// ROBOTSTXT_SCREENSHOTS moves it.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("ROBOTSTXT_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("testdata", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// chromium finds the browser, or skips (fails in CI).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed, and CI must run the page's end-to-end tests: apt-get install -y chromium (.ci/run and scripts/test-deps.sh do)")
	}
	t.Skip("chromium is not installed: the page's end-to-end tests need it (sudo apt-get install -y chromium)")
	return ""
}

// browser is one headless Chromium with a new, empty profile, and what it
// reported: JavaScript dialogs (alert, confirm...) and uncaught exceptions.
type browser struct {
	t       *testing.T
	ctx     context.Context // the browser's first tab
	base    string          // the server's address
	mu      sync.Mutex
	dialogs []string
	errs    []string
}

func newBrowser(t *testing.T, width, height int, opts ...func(*Options)) *browser {
	t.Helper()
	exe := chromium(t)
	o := &Options{Store: store.NewMemory(nil), Rate: -1} // the real engine: packages tester and lint
	for _, f := range opts {
		f(o)
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)

	flags := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), flags...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	b := &browser{t: t, ctx: ctx, base: hs.URL}
	b.watch(ctx)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return b
}

// watch records the dialogs and exceptions of a tab, and dismisses the
// dialogs so that the page goes on.
func (b *browser) watch(ctx context.Context) {
	dismiss := make(chan struct{}, 16)
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			b.mu.Lock()
			b.dialogs = append(b.dialogs, string(e.Type)+": "+e.Message)
			b.mu.Unlock()
			select {
			case dismiss <- struct{}{}:
			default:
			}
		case *runtime.EventExceptionThrown:
			msg := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
			b.mu.Lock()
			b.errs = append(b.errs, msg)
			b.mu.Unlock()
		}
	})
	if err != nil {
		b.t.Fatalf("listening to chromium: %v", err)
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-dismiss:
				chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
			}
		}
	}()
}

// check fails the test on a dialog or an exception seen so far.
func (b *browser) check() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.dialogs) > 0 {
		b.t.Errorf("the page opened dialogs: %q", b.dialogs)
	}
	if len(b.errs) > 0 {
		b.t.Errorf("the page threw: %q", b.errs)
	}
}

func (b *browser) do(ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("chromium: %v", err)
	}
}

// eval evaluates a JavaScript expression, awaiting a promise, into T.
func eval[T any](b *browser, ctx context.Context, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript predicate until it holds.
func (b *browser) waitFor(ctx context.Context, expr string) {
	b.t.Helper()
	// A minute: under make test the page shares two cores with the other
	// packages' tests, and a report took over 20 s to appear once.
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(60*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		b.t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// screenshot saves the whole page as NAME.png.
func (b *browser) screenshot(ctx context.Context, name string) string {
	b.t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(screenshotDir(b.t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
	return path
}

// open loads the page and waits for it to be ready (the crawler table
// loaded, a permalink restored).
func (b *browser) open(ctx context.Context, url string) {
	b.t.Helper()
	b.do(ctx, chromedp.Navigate(url))
	b.waitFor(ctx, `document.body.dataset.ready === "true"`)
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

// paste puts text in a field as a paste does (an input event).
func (b *browser) paste(ctx context.Context, id, text string) {
	b.t.Helper()
	eval[bool](b, ctx, fmt.Sprintf(`(() => { const e = document.getElementById(%s); e.value = %s; e.dispatchEvent(new Event('input', {bubbles: true})); return true })()`, jsString(id), jsString(text)))
}

// chooseCrawlers checks exactly these crawlers.
func (b *browser) chooseCrawlers(ctx context.Context, names ...string) {
	b.t.Helper()
	list, _ := json.Marshal(names)
	n := eval[int](b, ctx, fmt.Sprintf(`(() => { const want = new Set(%s); let n = 0; for (const i of document.querySelectorAll('#crawler-list input')) { i.checked = want.has(i.value); if (i.checked) n++ } document.getElementById('crawler-list').dispatchEvent(new Event('change', {bubbles: true})); return n })()`, list))
	if n != len(names) {
		b.t.Fatalf("%d of the crawlers %v found in the page", n, names)
	}
}

// runCheck presses the Test button and waits for the results table.
func (b *browser) runCheck(ctx context.Context) {
	b.t.Helper()
	b.do(ctx, chromedp.Click(chromedp.CSS("#run")))
	b.waitFor(ctx, `document.querySelector('#results-table') !== null || document.querySelector('#status.error') !== null`)
	if msg := eval[string](b, ctx, `document.querySelector('#status.error') ? document.getElementById('status').textContent : ''`); msg != "" {
		b.t.Fatalf("the check failed: %s", msg)
	}
}

// cell is the selector of the results cell of URL row i and the column
// whose header is who.
func (b *browser) cell(ctx context.Context, row int, who string) chromedp.CSS {
	b.t.Helper()
	col := eval[int](b, ctx, fmt.Sprintf(`[...document.querySelectorAll('#results-table thead th')].findIndex(th => th.firstChild && th.firstChild.textContent === %s) - 1`, jsString(who)))
	if col < 0 {
		b.t.Fatalf("no column %s in the results", who)
	}
	return chromedp.CSS(fmt.Sprintf(`#results-out button[data-row="%d"][data-col="%d"]`, row, col))
}

const e2eRobots = `# the example of the tester's end-to-end tests
User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: Googlebot
Disallow: /search
Allow: /

User-agent: Baiduspider
Disallow: /private
Allow: /private/press
`

const e2eURLs = "/private/x\n/private/press/x\n/search?q=robots\n/"

// TestE2ECheck: paste a file, enter URLs, choose crawlers, run a check,
// select a blocked cell: the deciding line is highlighted in the editor
// and the detail names the rule, the group and the rules that matched.
func TestE2ECheck(t *testing.T) {
	b := newBrowser(t, 1280, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", e2eRobots)
	b.paste(ctx, "urls", e2eURLs)
	b.chooseCrawlers(ctx, "Googlebot", "Bingbot", "Baiduspider")
	b.paste(ctx, "agents", "MyBot")
	b.runCheck(ctx)

	cells := eval[int](b, ctx, `document.querySelectorAll('#results-out button.cell').length`)
	if cells != 4*4 {
		t.Errorf("%d cells, want 4 URLs x 4 crawlers", cells)
	}
	// Googlebot on /search?q=robots: blocked by line 7.
	sel := b.cell(ctx, 2, "Googlebot")
	if got := eval[string](b, ctx, fmt.Sprintf(`document.querySelector(%s).textContent`, jsString(string(sel)))); !strings.Contains(got, "blocked") {
		t.Errorf("Googlebot /search?q=robots: %q, want blocked", got)
	}
	b.do(ctx, chromedp.Click(sel))
	b.waitFor(ctx, `document.getElementById('editor').dataset.highlight !== "0"`)
	if got := eval[string](b, ctx, `document.getElementById('editor').dataset.highlight`); got != "7" {
		t.Errorf("highlighted line %s, want 7 (Disallow: /search)", got)
	}
	if got := eval[string](b, ctx, `(document.querySelector('#gutter-inner .ln-hl') || {}).textContent || ''`); got != "7" {
		t.Errorf("highlighted line number in the gutter %q, want 7", got)
	}
	if eval[bool](b, ctx, `document.getElementById('hl-line').hidden`) {
		t.Error("the highlight of the line is hidden")
	}
	detail := eval[string](b, ctx, `document.getElementById('detail').textContent`)
	for _, want := range []string{"Blocked", "Disallow: /search", "names Googlebot", "line 6"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail lacks %q: %s", want, detail)
		}
	}
	// Keyboard: the right arrow moves to Bingbot's cell and selects it.
	b.do(ctx, chromedp.KeyEvent(kb.ArrowRight))
	b.waitFor(ctx, `document.activeElement && document.activeElement.matches('button.cell[aria-pressed="true"]') && !document.activeElement.matches(`+jsString(string(sel))+`)`)
	// Lint findings are marked beside their lines once lint answers.
	b.waitFor(ctx, `document.getElementById('tab-lint').textContent !== 'Lint' || document.querySelector('#lint-out .summary') !== null`)
	b.do(ctx, chromedp.Click(sel))
	b.screenshot(ctx, "check")
	b.check()
}

// TestE2EDialects: the dialect view marks a disagreement (Baidu and the
// original standard take the first matching rule) and explains it.
func TestE2EDialects(t *testing.T) {
	b := newBrowser(t, 1280, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", e2eRobots)
	b.paste(ctx, "urls", e2eURLs)
	b.chooseCrawlers(ctx, "Googlebot", "Bingbot", "Baiduspider")
	b.runCheck(ctx)
	b.do(ctx, chromedp.Click(chromedp.CSS("#tab-dialects")))
	b.waitFor(ctx, `document.querySelector('#dialects-table') !== null`)
	rows := eval[[]string](b, ctx, `[...document.querySelectorAll('#dialects-table tr.disagree')].map(tr => tr.cells[0].firstChild.textContent + ' ' + tr.cells[1].textContent + ' ' + tr.cells[tr.cells.length-1].textContent)`)
	found := false
	for _, r := range rows {
		found = found || strings.HasPrefix(r, "Bingbot /private/press/x [")
	}
	if !found {
		t.Errorf("no marked disagreement for Bingbot on /private/press/x: %q", rows)
	}
	expl := eval[string](b, ctx, `(document.getElementById('note-1') || {}).textContent || ''`)
	if !strings.Contains(expl, "baidu") || !strings.Contains(expl, "first matching rule") {
		t.Errorf("explanation of note 1: %q", expl)
	}
	if n := eval[int](b, ctx, `document.querySelectorAll('#dialects-table td.odd').length`); n == 0 {
		t.Error("no dialect's verdict is marked as the odd one")
	}
	b.screenshot(ctx, "dialects")
	b.check()
}

// TestE2EPermalink: the permalink restores the file, URLs, crawlers, view
// and selected cell in a fresh tab.
func TestE2EPermalink(t *testing.T) {
	b := newBrowser(t, 1280, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", e2eRobots)
	b.paste(ctx, "urls", e2eURLs)
	b.chooseCrawlers(ctx, "Googlebot", "Baiduspider")
	b.paste(ctx, "agents", "MyBot, OtherBot")
	b.runCheck(ctx)
	b.do(ctx, chromedp.Click(b.cell(ctx, 1, "Baiduspider")))
	b.do(ctx, chromedp.Click(chromedp.CSS("#tab-lint")))
	b.waitFor(ctx, `location.hash.startsWith('#z=') && document.getElementById('permalink').value === location.href && document.getElementById('tab-lint').getAttribute('aria-selected') === 'true'`)
	time.Sleep(300 * time.Millisecond) // the permalink follows the last change after 150 ms
	link := eval[string](b, ctx, `location.href`)
	if strings.Contains(link, "private") || strings.Contains(link, "Googlebot") {
		t.Errorf("the state is not compressed: %s", link)
	}
	wantLine := eval[string](b, ctx, `document.getElementById('editor').dataset.highlight`)

	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	b.watch(tab)
	b.open(tab, link)
	b.waitFor(tab, `document.body.dataset.restored === 'true' && document.querySelector('#results-table') !== null`)
	type state struct {
		Robots, URLs, Agents, View, Line, Pressed string
		Crawlers                                  []string
	}
	got := eval[state](b, tab, `({
		Robots: document.getElementById('robots').value,
		URLs: document.getElementById('urls').value,
		Agents: document.getElementById('agents').value,
		View: document.querySelector('#view-tabs [aria-selected=true]').id,
		Line: document.getElementById('editor').dataset.highlight,
		Pressed: (document.querySelector('#results-out button[aria-pressed=true]') || {}).textContent || '',
		Crawlers: [...document.querySelectorAll('#crawler-list input:checked')].map(i => i.value),
	})`)
	want := state{Robots: e2eRobots, URLs: e2eURLs, Agents: "MyBot, OtherBot", View: "tab-lint", Line: wantLine, Crawlers: []string{"Googlebot", "Baiduspider"}}
	if got.Robots != want.Robots || got.URLs != want.URLs || got.Agents != want.Agents || got.View != want.View || got.Line != want.Line || strings.Join(got.Crawlers, ",") != strings.Join(want.Crawlers, ",") {
		t.Errorf("restored %+v\nwant %+v", got, want)
	}
	if wantLine == "0" || !strings.Contains(got.Pressed, "blocked") {
		t.Errorf("the selected cell is not restored: line %s, cell %q", wantLine, got.Pressed)
	}
	b.screenshot(tab, "permalink")
	b.check()
}

// TestE2EHostile: a file and URLs full of markup are shown as text, in
// every view: no script runs, no dialog opens, no element is injected.
func TestE2EHostile(t *testing.T) {
	b := newBrowser(t, 1280, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	hostile := "User-agent: *\nDisallow: /<script>alert(1)</script>\nDisallow: /<img src=x onerror=alert(2)>\nAllow: /\"><svg onload=alert(3)>\nUser-agent: <iframe src=javascript:alert(4)>\nDisallow: /\n"
	b.paste(ctx, "robots", hostile)
	b.paste(ctx, "urls", "/<script>alert(1)</script>\n/<img src=x onerror=alert(6)>\n/\"><svg onload=alert(7)>")
	b.paste(ctx, "agents", "<b>bold</b>")
	b.paste(ctx, "old", "User-agent: *\nAllow: /<img src=y onerror=alert(8)>\n")
	// The server refuses the token: its error, quoting it, is shown as text.
	b.do(ctx, chromedp.Click(chromedp.CSS("#run")))
	b.waitFor(ctx, `document.querySelector('#status.error') !== null`)
	if msg := eval[string](b, ctx, `document.getElementById('status').textContent`); !strings.Contains(msg, "<b>bold</b>") {
		t.Errorf("the error does not quote the token as text: %s", msg)
	}
	b.paste(ctx, "agents", "")
	b.runCheck(ctx)
	b.do(ctx, chromedp.Click(chromedp.CSS(`#results-out button[data-row="0"][data-col="0"]`)))
	b.openAI(ctx)
	b.do(ctx, chromedp.Click(chromedp.CSS(`#policy-form input[data-kind="purposes"][data-key="ai-training"][value="deny"]`)))
	b.paste(ctx, "policy-deny-more", "<img src=z onerror=alert(9)>")
	b.do(ctx, chromedp.Click(chromedp.CSS("#policy-run")))
	b.waitFor(ctx, `document.querySelector('#policy-out .error') !== null`)
	b.paste(ctx, "policy-deny-more", "")
	b.do(ctx, chromedp.Click(chromedp.CSS("#policy-run")))
	b.waitFor(ctx, `document.getElementById('policy-diff') !== null`)
	for _, tab := range []string{"dialects", "lint", "diff"} {
		b.do(ctx, chromedp.Click(chromedp.CSS("#tab-"+tab)))
	}
	b.do(ctx, chromedp.Click(chromedp.CSS("#diff-run")))
	b.waitFor(ctx, `document.querySelector('#diff-out .summary') !== null || document.querySelector('#diff-out .error') !== null`)
	b.do(ctx, chromedp.Click(chromedp.CSS("#tab-dialects")))
	b.waitFor(ctx, `document.querySelector('#dialects-table') !== null`)
	b.do(ctx, chromedp.Click(chromedp.CSS("#tab-results")))
	time.Sleep(200 * time.Millisecond)

	injected := eval[[]string](b, ctx, `[...document.querySelectorAll('script, img, svg, iframe, b, object, embed')].map(e => e.outerHTML.slice(0, 80))`)
	if len(injected) != 1 || !strings.Contains(injected[0], `src="/app.js"`) {
		t.Errorf("elements injected into the page: %q", injected)
	}
	if text := eval[string](b, ctx, `document.getElementById('detail').textContent`); !strings.Contains(text, "<script>alert(1)</script>") {
		t.Errorf("the detail does not show the rule as text: %s", text)
	}
	if rows := eval[string](b, ctx, `document.querySelector('#results-table tbody').textContent`); !strings.Contains(rows, `/"><svg onload=alert(7)>`) {
		t.Errorf("the URLs are not shown as text: %s", rows)
	}
	if text := eval[string](b, ctx, `document.getElementById('policy-diff').textContent`); !strings.Contains(text, "<script>alert(1)</script>") {
		t.Errorf("the policy's diff does not show the file as text: %s", text)
	}
	b.screenshot(ctx, "hostile")
	b.check()
}

// TestE2EPhone: at 375 px the page fits the width (wide tables scroll in
// their own box) and the check works.
func TestE2EPhone(t *testing.T) {
	b := newBrowser(t, 375, 800)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", e2eRobots)
	b.paste(ctx, "urls", e2eURLs)
	b.chooseCrawlers(ctx, "Googlebot", "Bingbot", "Baiduspider")
	b.runCheck(ctx)
	b.do(ctx, chromedp.Click(b.cell(ctx, 0, "Bingbot")))
	if w := eval[int](b, ctx, `document.documentElement.scrollWidth`); w > 375 {
		t.Errorf("the page is %d px wide at 375 px", w)
	}
	if got := eval[string](b, ctx, `document.getElementById('editor').dataset.highlight`); got != "3" {
		t.Errorf("highlighted line %s, want 3 (Disallow: /private/)", got)
	}
	// No view tab alone on its row (issue 35 item 8: History wrapped
	// alone at 375 px): each row of tabs holds at least two.
	rows := eval[[]int](b, ctx, `(() => { const m = new Map(); for (const t of document.querySelectorAll('#view-tabs [role=tab]')) m.set(t.offsetTop, (m.get(t.offsetTop) || 0) + 1); return [...m.values()]; })()`)
	for _, n := range rows {
		if n < 2 {
			t.Errorf("a row of the view tabs holds %d tab at 375 px (rows: %v)", n, rows)
		}
	}
	b.screenshot(ctx, "phone")
	b.check()
}

// TestE2ELarge: a 500 KiB file, 100 URLs and 8 crawlers: the page shows
// the 800 answers. The time it took is logged (the page shows it too), not
// asserted: the machine may be busy.
func TestE2ELarge(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	b := newBrowser(t, 1280, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for i := 0; sb.Len() < 500<<10-64; i++ {
		fmt.Fprintf(&sb, "Disallow: /section-%d/*/page-%d.html$\n", i%997, i)
	}
	var urls []string
	for i := range 100 {
		urls = append(urls, fmt.Sprintf("/section-%d/x/page-%d.html", i*7, i*331))
	}
	b.paste(ctx, "robots", sb.String())
	b.paste(ctx, "urls", strings.Join(urls, "\n"))
	b.chooseCrawlers(ctx, "Googlebot", "Bingbot", "YandexBot", "Baiduspider", "GPTBot", "CCBot", "DuckDuckBot", "Applebot")
	start := time.Now()
	b.runCheck(ctx)
	elapsed := time.Since(start)
	if n := eval[int](b, ctx, `document.querySelectorAll('#results-out button.cell').length`); n != 800 {
		t.Errorf("%d cells, want 800", n)
	}
	t.Logf("500 KiB file, 100 URLs x 8 crawlers: %v from the click to the table (the page measured %s ms for the request and the table)",
		elapsed.Round(time.Millisecond), eval[string](b, ctx, `document.body.dataset.checkMs`))
	b.check()
}

// TestE2ELive: fetch a live file (a redirect, then the file): the trace
// shows both requests and the file lands in the editor; after the site
// changes its file, the history lists two versions and their diff shows
// the verdict that changed.
func TestE2ELive(t *testing.T) {
	var body atomic.Value
	body.Store("User-agent: *\nDisallow: /private/\n")
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/live/robots.txt", http.StatusMovedPermanently)
		case "/live/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Cache-Control", "max-age=3600")
			fmt.Fprint(w, body.Load())
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	clk := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	b := newBrowser(t, 1280, 1000, func(o *Options) { o.AllowPrivate = true; o.Now = clk.Now })
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.do(ctx, chromedp.Click(chromedp.CSS("#mode-live")))
	b.paste(ctx, "origin", site.URL)
	b.do(ctx, chromedp.Click(chromedp.CSS("#live-form button")))
	// The editor held the example of a fresh page: wait for the live file.
	b.waitFor(ctx, `document.querySelector('#fetch-trace table') !== null && document.getElementById('robots').value === `+jsString(body.Load().(string)))
	trace := eval[[]string](b, ctx, `[...document.querySelectorAll('#fetch-trace tbody tr')].map(tr => tr.cells[2].textContent)`)
	if strings.Join(trace, ",") != "301,200" {
		t.Errorf("trace statuses %v, want 301,200", trace)
	}
	info := eval[string](b, ctx, `document.getElementById('fetch-trace').textContent`)
	for _, want := range []string{"rules", "Expires", "2026-03-01T13:00:00Z"} {
		if !strings.Contains(info, want) {
			t.Errorf("the fetch report lacks %q: %s", want, info)
		}
	}
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); got != body.Load() {
		t.Errorf("editor %q", got)
	}

	// A check asks the server about the live origin; a path is resolved
	// against it.
	b.paste(ctx, "urls", "/private/x\n/")
	b.chooseCrawlers(ctx, "Googlebot")
	b.runCheck(ctx)
	row := eval[string](b, ctx, `document.querySelector('#results-table tbody tr').textContent`)
	if !strings.Contains(row, site.URL+"/private/x") || !strings.Contains(row, "blocked · line 2") {
		t.Errorf("the live check's first row: %q", row)
	}

	body.Store("User-agent: *\nDisallow: /private/\nAllow: /private/open/\n")
	clk.Add(2 * time.Hour)
	b.do(ctx, chromedp.Click(chromedp.CSS("#live-form button")))
	b.waitFor(ctx, `document.getElementById('robots').value.includes('open')`)
	b.do(ctx, chromedp.Click(chromedp.CSS("#tab-history")), chromedp.Click(chromedp.CSS("#history-load")))
	b.waitFor(ctx, `document.querySelector('#history-compare') !== null`)
	if n := eval[int](b, ctx, `document.querySelectorAll('#history-out tbody tr').length`); n != 2 {
		t.Errorf("%d versions, want 2", n)
	}
	b.do(ctx, chromedp.Click(chromedp.CSS("#history-compare")))
	b.waitFor(ctx, `document.querySelector('#history-diff .summary') !== null || document.querySelector('#history-diff .error') !== null`)
	diff := eval[string](b, ctx, `document.getElementById('history-diff').textContent`)
	for _, want := range []string{"verdicts change", "/private/open/", "+ ", "Allow: /private/open/"} {
		if !strings.Contains(diff, want) {
			t.Errorf("the history's diff lacks %q: %s", want, diff)
		}
	}
	// Each edit of the summary on a line of its own, and what it changed
	// below it: not run together (issue 35 item 8).
	together := eval[[]string](b, ctx, `[...document.querySelectorAll('#history-diff ol.causes li')].filter((li) => {
		const tops = [...li.querySelectorAll('code.edit, .sub')].map((e) => e.getBoundingClientRect().top);
		return tops.length < 2 || new Set(tops.map(Math.round)).size !== tops.length;
	}).map((li) => li.textContent)`)
	if len(together) > 0 {
		t.Errorf("edits run together in the diff's summary: %q", together)
	}
	b.screenshot(ctx, "history")
	b.check()
}

// editableSite is a site on loopback whose robots.txt the test changes:
// its status and body, cacheable for an hour.
type editableSite struct {
	*httptest.Server
	status atomic.Int32
	body   atomic.Value
}

func newEditableSite(t *testing.T, status int, body string) *editableSite {
	s := &editableSite{}
	s.status.Store(int32(status))
	s.body.Store(body)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Cache-Control", "max-age=3600")
		w.WriteHeader(int(s.status.Load()))
		fmt.Fprint(w, s.body.Load())
	}))
	t.Cleanup(s.Close)
	return s
}

// fetchLive types the origin under "Fetch a live file" and presses Fetch.
func (b *browser) fetchLive(ctx context.Context, origin string) {
	b.t.Helper()
	b.do(ctx, chromedp.Click(chromedp.CSS("#mode-live")))
	b.paste(ctx, "origin", origin)
	b.do(ctx, chromedp.Click(chromedp.CSS("#live-form button")))
	b.waitForFetch(ctx)
}

// waitForFetch waits for the fetch under way to end.
func (b *browser) waitForFetch(ctx context.Context) {
	b.t.Helper()
	b.waitFor(ctx, `document.getElementById('fetch-trace').getAttribute('aria-busy') !== 'true' && !document.getElementById('status').textContent.startsWith('Fetching ')`)
}

// fetchAgain presses "Fetch again" in the fetch report and waits for the
// fetch.
func (b *browser) fetchAgain(ctx context.Context) {
	b.t.Helper()
	if !eval[bool](b, ctx, `document.getElementById('fetch-again') !== null`) {
		b.t.Fatal(`no "Fetch again" button in the fetch report`)
	}
	b.do(ctx, chromedp.Click(chromedp.CSS("#fetch-again")))
	b.waitForFetch(ctx)
}

const typedRobots = "# typed in the page, not saved anywhere\nUser-agent: *\nDisallow: /draft/\n"

// TestE2ELiveKeepsTypedText: a live fetch that gets no file (a 503)
// leaves the typed text in the editor, and tests ask about it; once the
// site answers, the live file takes the editor and the typed text is kept
// aside, put back with one click (and the live file with another).
func TestE2ELiveKeepsTypedText(t *testing.T) {
	site := newEditableSite(t, http.StatusServiceUnavailable, "")
	b := newBrowser(t, 1280, 1000, func(o *Options) { o.AllowPrivate = true })
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", typedRobots)
	b.fetchLive(ctx, site.URL)
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); got != typedRobots {
		t.Fatalf("after a failed fetch the editor holds %q, want the typed text", got)
	}
	if info := eval[string](b, ctx, `document.getElementById('fetch-trace').textContent`); !strings.Contains(info, "disallow-all") || !strings.Contains(info, "503") {
		t.Errorf("the fetch report: %s", info)
	}
	if status := eval[string](b, ctx, `document.getElementById('status').textContent`); !strings.Contains(status, "The editor keeps its text") {
		t.Errorf("status %q", status)
	}
	b.paste(ctx, "urls", "/draft/a\n/b")
	b.chooseCrawlers(ctx, "Googlebot")
	b.runCheck(ctx)
	if row := eval[string](b, ctx, `document.querySelector('#results-table tbody tr').textContent`); !strings.Contains(row, "blocked · line 3") {
		t.Errorf("the check does not ask about the typed file: %q", row)
	}

	live := "User-agent: *\nDisallow: /live/\n"
	site.body.Store(live)
	site.status.Store(http.StatusOK)
	b.fetchAgain(ctx)
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); got != live {
		t.Fatalf("after the fetch again the editor holds %q, want the live file", got)
	}
	if eval[bool](b, ctx, `document.getElementById('undo-bar').hidden`) {
		t.Fatal("no offer to put the typed text back")
	}
	if bar := eval[string](b, ctx, `document.getElementById('undo-bar').textContent`); !strings.Contains(bar, "replaced your text") || !strings.Contains(bar, "Put back my text") {
		t.Errorf("undo bar %q", bar)
	}
	b.screenshot(ctx, "live-undo")
	b.do(ctx, chromedp.Click(chromedp.CSS("#undo-btn")))
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); got != typedRobots {
		t.Fatalf("put back: the editor holds %q, want the typed text", got)
	}
	if mode := eval[string](b, ctx, `document.getElementById('mode-paste').getAttribute('aria-selected')`); mode != "true" {
		t.Errorf("the typed text back is not tested as pasted (paste tab selected: %s)", mode)
	}
	if btn := eval[string](b, ctx, `document.getElementById('undo-btn').textContent`); !strings.Contains(btn, "the live file of") {
		t.Errorf("after putting the text back the bar offers %q, want the live file", btn)
	}
	b.do(ctx, chromedp.Click(chromedp.CSS("#undo-btn")))
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); got != live {
		t.Errorf("the live file put back: the editor holds %q", got)
	}
	b.check()
}

// TestE2EFetchAgain: the page's live fetch shows the file as it is now,
// not the server's cached copy: after the site changes its file (within
// its max-age), "Fetch again" shows the new one, and says it was fetched
// now.
func TestE2EFetchAgain(t *testing.T) {
	site := newEditableSite(t, http.StatusOK, "User-agent: *\nDisallow: /v1/\n")
	b := newBrowser(t, 1280, 1000, func(o *Options) { o.AllowPrivate = true })
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.fetchLive(ctx, site.URL)
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); !strings.Contains(got, "/v1/") {
		t.Fatalf("editor %q", got)
	}
	site.body.Store("User-agent: *\nDisallow: /v2/\n")
	b.fetchAgain(ctx)
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); !strings.Contains(got, "/v2/") {
		t.Errorf("after Fetch again the editor holds %q, want the site's new file", got)
	}
	if when := eval[string](b, ctx, `document.getElementById('fetched-when').textContent`); when != "Fetched now." {
		t.Errorf("the report says %q, want Fetched now.", when)
	}
	if !eval[bool](b, ctx, `document.getElementById('undo-bar').hidden`) {
		t.Error("the undo bar offers to put back a live file the page itself loaded")
	}
	// The API without refresh is the cache's answer, and says when it was
	// fetched.
	src := eval[string](b, ctx, fmt.Sprintf(`fetch('/v1/fetch?url=' + encodeURIComponent(%s)).then(r => r.json()).then(j => j.source)`, jsString(site.URL)))
	if src != "cache" {
		t.Errorf("GET /v1/fetch without refresh: source %q, want cache", src)
	}
	b.screenshot(ctx, "fetch-again")
	b.check()
}

// TestE2ERefused: a server started without --allow-private refuses to
// fetch from loopback: the page says so, with the guard's reason, rather
// than showing the site's "disallow all"; the API's fetch report says it
// too, and the editor keeps its text.
func TestE2ERefused(t *testing.T) {
	site := newEditableSite(t, http.StatusOK, "User-agent: *\nAllow: /\n")
	b := newBrowser(t, 1280, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", typedRobots)
	b.fetchLive(ctx, site.URL)
	report := eval[string](b, ctx, `document.getElementById('fetch-trace').textContent`)
	for _, want := range []string{"Refused by this server", "127.0.0.1 is a loopback address", "--allow-private", "The site was not asked"} {
		if !strings.Contains(report, want) {
			t.Errorf("the fetch report lacks %q: %s", want, report)
		}
	}
	if n := eval[int](b, ctx, `document.querySelectorAll('#fetch-trace .policy-disallow-all').length`); n != 0 {
		t.Errorf("the refusal is shown as the site's disallow-all")
	}
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); got != typedRobots {
		t.Errorf("editor %q, want the typed text", got)
	}
	type report2 struct {
		Policy, Reason, Refused string
	}
	got := eval[report2](b, ctx, fmt.Sprintf(`fetch('/v1/fetch?refresh=true&url=' + encodeURIComponent(%s)).then(r => r.json()).then(j => ({Policy: j.policy, Reason: j.reason, Refused: j.refused || ''}))`, jsString(site.URL)))
	if got.Policy != "disallow-all" || !strings.HasPrefix(got.Reason, "refused by this server: 127.0.0.1 is a loopback address") || !strings.HasPrefix(got.Refused, "127.0.0.1 is a loopback address") {
		t.Errorf("GET /v1/fetch: %+v", got)
	}
	b.screenshot(ctx, "refused")
	b.check()
}

// aiRobots is the AI sample (cmd/robotstxt/testdata/ai_sample.txt): search
// engines welcome, no AI training, with the contradictions a site owner
// makes.
const aiRobots = `# Example Co.: search engines welcome, no AI training
User-agent: *
Disallow: /admin/
Content-Usage: train-ai=n
Content-Usage: /blog/ train-ai=y
Content-Signal: search=yes, ai-train=no

User-agent: Googlebot
User-agent: GPTBot
Disallow: /

User-agent: ClaudeBot
Allow: /

User-agent: Google-Extended
Disallow: /drafts/
`

// openAI shows the AI view and waits for its report.
func (b *browser) openAI(ctx context.Context) {
	b.t.Helper()
	b.do(ctx, chromedp.Click(chromedp.CSS("#tab-ai")))
	b.waitFor(ctx, `document.querySelector('#ai-out .ai-section') !== null || document.querySelector('#ai-out .error') !== null`)
	if msg := eval[string](b, ctx, `(document.querySelector('#ai-out .error') || {}).textContent || ''`); msg != "" {
		b.t.Fatalf("the AI report failed: %s", msg)
	}
}

// aiRow is what the AI view shows of one crawler at one URL.
type aiRow struct {
	Who, URL, Fetch, Usage, Signal string
}

// aiRows reads the AI view's rows: the crawler, URL, verdict, usage and
// signal cells' text.
func (b *browser) aiRows(ctx context.Context) map[string]aiRow {
	b.t.Helper()
	rows := eval[[]aiRow](b, ctx, `(() => {
		const out = [];
		for (const table of document.querySelectorAll('#ai-out table.ai')) {
			let who = '', signal = '';
			for (const tr of table.tBodies[0].rows) {
				const th = tr.querySelector('th');
				if (th) { who = th.firstChild.textContent; signal = tr.querySelector('td.signal').textContent; }
				out.push({Who: who, URL: (tr.querySelector('td.url') || {}).textContent || '', Fetch: tr.querySelector('td.fetch').textContent, Usage: tr.querySelector('td.usage').textContent, Signal: signal});
			}
		}
		return out;
	})()`)
	m := map[string]aiRow{}
	for _, r := range rows {
		m[r.Who+" "+r.URL] = r
	}
	return m
}

// TestE2EAI: the AI view of the file in the editor: the crawlers grouped
// by purpose, each with its verdict, deciding line, Content-Usage and
// Content-Signal at each URL; the contradictions on top, whose lines (and
// the table's) highlight the line in the editor; an edit of the file is
// followed.
func TestE2EAI(t *testing.T) {
	b := newBrowser(t, 1280, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", aiRobots)
	b.paste(ctx, "urls", "/\n/blog/post")
	b.openAI(ctx)

	sections := eval[[]string](b, ctx, `[...document.querySelectorAll('#ai-out .ai-section')].map(s => s.dataset.purpose)`)
	if want := "others search ai-training ai-search user-fetch agent token-only"; strings.Join(sections, " ") != want {
		t.Errorf("sections %q, want %s", sections, want)
	}
	heads := eval[string](b, ctx, `[...document.querySelectorAll('#ai-out .ai-section h4')].map(h => h.textContent).join(' | ')`)
	for _, want := range []string{"Search search engines' indexes", "AI training training AI models", "User fetches", "Agents", "Tokens"} {
		if !strings.Contains(heads, want) {
			t.Errorf("headings %q lack %q", heads, want)
		}
	}
	rows := b.aiRows(ctx)
	for key, want := range map[string]aiRow{
		"GPTBot /":             {Fetch: "✗ may not fetch · line 10 Disallow: /", Usage: "none: it may not fetch", Signal: "none"},
		"Bingbot /":            {Fetch: "✓ may fetchno rule matches", Usage: "train-ai=n line 4", Signal: "search=yes, ai-train=no line 6"},
		"Bingbot /blog/post":   {Fetch: "✓ may fetchno rule matches", Usage: "train-ai=y line 5", Signal: "search=yes, ai-train=no line 6"},
		"ClaudeBot /":          {Fetch: "✓ may fetch · line 13 Allow: /", Usage: "none stated", Signal: "none"},
		"* /blog/post":         {Fetch: "✓ may fetchno rule matches", Usage: "train-ai=y line 5", Signal: "search=yes, ai-train=no line 6"},
		"Google-Extended /":    {Fetch: "✓ may fetchno rule matches", Usage: "none stated", Signal: "none"},
		"Googlebot /blog/post": {Fetch: "✗ may not fetch · line 10 Disallow: /", Usage: "none: it may not fetch", Signal: "none"},
	} {
		got, ok := rows[key]
		want.Who, want.URL = got.Who, got.URL
		if !ok || got != want {
			t.Errorf("%s: %+v\nwant %+v", key, got, want)
		}
	}
	// The contradictions come first: Googlebot (search) blocked with
	// GPTBot, and ClaudeBot's group that drops train-ai=n.
	findings := eval[[]string](b, ctx, `[...document.querySelectorAll('#ai-findings li')].map(li => li.dataset.code + ' ' + li.className + ': ' + li.textContent)`)
	if len(findings) < 2 || !strings.HasPrefix(findings[0], "search-blocked sev-error") && !strings.HasPrefix(findings[0], "train-ai-contradiction sev-error") {
		t.Fatalf("findings %q", findings)
	}
	joined := strings.Join(findings, "\n")
	for _, want := range []string{"search-blocked sev-error", "Googlebot", "train-ai-contradiction sev-error", "ClaudeBot"} {
		if !strings.Contains(joined, want) {
			t.Errorf("findings lack %q:\n%s", want, joined)
		}
	}
	if eval[int](b, ctx, `document.querySelector('#ai-out .ai-section').compareDocumentPosition(document.getElementById('ai-findings')) & Node.DOCUMENT_POSITION_PRECEDING`) == 0 {
		t.Error("the findings are not above the crawlers")
	}
	if tab := eval[string](b, ctx, `document.getElementById('tab-ai').textContent`); tab != fmt.Sprintf("AI (%d)", len(findings)) {
		t.Errorf("tab %q, %d findings", tab, len(findings))
	}
	// A finding's line highlights it in the editor; so does a table's.
	b.do(ctx, chromedp.Click(chromedp.CSS(`#ai-findings li[data-code="search-blocked"] .lines button`)))
	if got := eval[string](b, ctx, `document.getElementById('editor').dataset.highlight`); got != "8" && got != "9" && got != "10" {
		t.Errorf("a finding's line highlights line %s, want one of 8-10", got)
	}
	b.do(ctx, chromedp.Click(chromedp.CSS(`#ai-out tr[data-crawler="Bingbot"] td.signal button`)))
	if got := eval[string](b, ctx, `document.getElementById('editor').dataset.highlight`); got != "6" {
		t.Errorf("the signal's line highlights line %s, want 6", got)
	}
	if status := eval[string](b, ctx, `document.getElementById('editor-status').textContent`); !strings.Contains(status, "Content-Signal: search=yes") {
		t.Errorf("editor status %q", status)
	}

	// An edit is followed: GPTBot gets a group of its own with a
	// preference, and the report says so.
	b.paste(ctx, "robots", strings.Replace(aiRobots, "User-agent: GPTBot\n", "", 1)+"\nUser-agent: GPTBot\nAllow: /blog/\nDisallow: /\nContent-Usage: train-ai=n\n")
	b.waitFor(ctx, `(() => { const td = document.querySelector('#ai-out tr[data-crawler="GPTBot"] td.usage'); return td && td.textContent === 'none: it may not fetch' && document.querySelectorAll('#ai-out tr[data-crawler="GPTBot"]').length === 2 && document.querySelectorAll('#ai-out tr[data-crawler="GPTBot"] td.fetch')[1].textContent.startsWith('✓') })()`)
	if got := b.aiRows(ctx)["GPTBot /blog/post"]; got.Usage != "train-ai=n line 20" {
		t.Errorf("GPTBot /blog/post after the edit: %+v", got)
	}
	// The whole catalogue, on request.
	n := eval[int](b, ctx, `document.querySelectorAll('#ai-out tbody th').length`)
	b.do(ctx, chromedp.Click(chromedp.CSS("#ai-all")))
	b.waitFor(ctx, fmt.Sprintf(`document.querySelectorAll('#ai-out tbody th').length > %d + 100`, n))
	b.check()
}

// TestE2EAIScreenshots: the AI view at 1,280, 1,400 and 375 px
// (docs/ai-view.png and docs/ai-view-375.png are the first and the last):
// the page keeps its width, and at 375 px each crawler is a card.
func TestE2EAIScreenshots(t *testing.T) {
	for _, w := range []int{1280, 1400, 375} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			b := newBrowser(t, w, 900)
			ctx := b.ctx
			b.open(ctx, b.base+"/")
			b.paste(ctx, "robots", aiRobots)
			b.openAI(ctx)
			// The answer comes first: the summary, a line a purpose, above
			// the tables, within the first screen (issue 35 item 9).
			sum := eval[[]string](b, ctx, `[...document.querySelectorAll('#ai-summary li')].map(li => li.textContent)`)
			if len(sum) < 4 || !strings.HasPrefix(sum[0], "AI training: ") || !strings.HasPrefix(sum[len(sum)-1], "Any other crawler") {
				t.Errorf("the AI summary: %q", sum)
			}
			if below := eval[bool](b, ctx, `(() => { const s = document.getElementById('ai-summary').getBoundingClientRect(), v = document.getElementById('ai-out').getBoundingClientRect(), t = document.querySelector('#ai-out .ai-section').getBoundingClientRect(); return s.bottom <= t.top && s.bottom - v.top < 700; })()`); !below {
				t.Error("the AI summary is not above the tables, within 700 px of the view's top")
			}
			b.do(ctx, chromedp.Click(chromedp.CSS(`#ai-out tr[data-crawler="GPTBot"] td.fetch button`)))
			if got := eval[string](b, ctx, `document.getElementById('editor').dataset.highlight`); got != "10" {
				t.Errorf("highlighted line %s, want 10", got)
			}
			if sw := eval[int](b, ctx, `document.documentElement.scrollWidth`); sw > w {
				t.Errorf("the page is %d px wide at %d px", sw, w)
			}
			cards := eval[string](b, ctx, `getComputedStyle(document.querySelector('#ai-out table.ai thead')).display`)
			if (w == 375) != (cards == "none") {
				t.Errorf("at %d px the table's head is display %s", w, cards)
			}
			if w == 375 {
				// Every crawler's facts fit the card: nothing scrolls.
				over := eval[[]string](b, ctx, `[...document.querySelectorAll('#ai-out .table-wrap')].filter(d => d.scrollWidth > d.clientWidth + 1).map(d => d.closest('section').dataset.purpose)`)
				if len(over) > 0 {
					t.Errorf("AI tables wider than their box: %q", over)
				}
			}
			name := "ai-view"
			if w != 1280 {
				name += fmt.Sprint("-", w)
			}
			if w == 375 {
				b.viewShot(ctx, name, "#views", 1500, 2)
			} else {
				b.viewShot(ctx, name, "#views", 1700, 1)
			}
			b.check()
		})
	}
}

// viewShot saves the element sel (the AI view: "#views") as NAME.png: its
// first maxHeight CSS pixels, at scale device pixels a CSS pixel.
func (b *browser) viewShot(ctx context.Context, name, sel string, maxHeight, scale float64) {
	b.t.Helper()
	type box struct{ X, Y, W, H float64 }
	r := eval[box](b, ctx, `(() => { const r = document.querySelector(`+jsString(sel)+`).getBoundingClientRect(); return {X: r.left + scrollX, Y: r.top + scrollY, W: r.width, H: r.height} })()`)
	yes := true
	png, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		res, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatPng, CaptureBeyondViewport: &yes, FromSurface: &yes,
			Clip: &page.Viewport{X: math.Round(r.X), Y: math.Round(r.Y), Width: math.Round(r.W), Height: math.Round(min(r.H, maxHeight)), Scale: scale},
		})
		if err != nil {
			return nil, err
		}
		return res.Data, nil
	})
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(screenshotDir(b.t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
}

// choose clicks the radio of a stance in the policy form.
func (b *browser) choose(ctx context.Context, kind, key, value string) {
	b.t.Helper()
	sel := fmt.Sprintf(`#policy-form input[data-kind=%q][data-key=%q][value=%q]`, kind, key, value)
	if !eval[bool](b, ctx, fmt.Sprintf(`document.querySelector(%s) !== null`, jsString(sel))) {
		b.t.Fatalf("no %s stance for %s", value, key)
	}
	b.do(ctx, chromedp.Click(chromedp.CSS(sel)))
}

// TestE2EPolicy: the policy form writes the stances into the file: the
// diff and the verdicts that change are shown, the new file goes into the
// editor on request, and the text it replaced is put back with one
// click; the AI view then reads the new file.
func TestE2EPolicy(t *testing.T) {
	b := newBrowser(t, 1280, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", aiRobots)
	b.openAI(ctx)
	if n := eval[int](b, ctx, `document.querySelectorAll('#policy-purpose-list .stance').length`); n != 11 {
		t.Errorf("%d purposes in the form, want 11", n)
	}
	if n := eval[int](b, ctx, `document.querySelectorAll('#policy-crawler-list .stance').length`); n < 20 {
		t.Errorf("%d crawlers in the form, want the report's", n)
	}
	b.do(ctx, chromedp.Click(chromedp.CSS("#policy-run")))
	b.waitFor(ctx, `document.querySelector('#policy-out .error') !== null`)
	b.choose(ctx, "purposes", "ai-training", "deny")
	b.choose(ctx, "purposes", "search", "allow")
	b.choose(ctx, "crawlers", "ClaudeBot", "allow")
	b.paste(ctx, "policy-deny-more", "MyScraperBot")
	b.do(ctx, chromedp.Click(chromedp.CSS("#policy-run")))
	b.waitFor(ctx, `document.getElementById('policy-diff') !== null || document.querySelector('#policy-out .error') !== null`)
	out := eval[string](b, ctx, `document.getElementById('policy-out').textContent`)
	diff := eval[string](b, ctx, `document.getElementById('policy-diff').textContent`)
	for _, want := range []string{"--- robots\n+++ robots\n", "\n+User-agent: CCBot\n", "\n+User-agent: MyScraperBot\n", "\n-Content-Usage: train-ai=n\n+Content-Usage: train-ai=n, search=y\n"} {
		if !strings.Contains(diff, want) {
			t.Errorf("the diff lacks %q:\n%s", want, diff)
		}
	}
	if strings.Contains(diff, "\n+User-agent: ClaudeBot\n") {
		t.Errorf("ClaudeBot, allowed by name, is denied:\n%s", diff)
	}
	for _, want := range []string{"The file changes", "Content-Usage of *", "train-ai=n, search=y", "verdicts change", "Googlebot"} {
		if !strings.Contains(out, want) {
			t.Errorf("the policy's answer lacks %q: %s", want, out)
		}
	}
	// A changed verdict: CCBot may no longer fetch /.
	change := eval[string](b, ctx, `[...document.querySelectorAll('#policy-changes tbody tr')].map(tr => tr.textContent).find(t => t.startsWith('/✓') && t.includes('CCBot')) || ''`)
	if !strings.Contains(change, "✗ blocked") {
		t.Errorf("no row says CCBot is blocked at /: %q", change)
	}
	b.viewShot(ctx, "policy", "#policy", 2400, 1)

	b.do(ctx, chromedp.Click(chromedp.CSS("#policy-apply")))
	got := eval[string](b, ctx, `document.getElementById('robots').value`)
	if !strings.Contains(got, "User-agent: CCBot\n") || !strings.Contains(got, "# Example Co.") {
		t.Fatalf("the editor holds %q", got)
	}
	if bar := eval[string](b, ctx, `document.getElementById('undo-bar').hidden ? '' : document.getElementById('undo-bar').textContent`); !strings.Contains(bar, "replaced your text") || !strings.Contains(bar, "Put back my text") {
		t.Errorf("undo bar %q", bar)
	}
	if old := eval[string](b, ctx, `document.getElementById('old').value`); old != aiRobots {
		t.Errorf("the Diff view's old version is %q, want the text replaced", old)
	}
	// The AI view reads the new file: CCBot may not fetch.
	b.waitFor(ctx, `(() => { const td = document.querySelector('#ai-out tr[data-crawler="CCBot"] td.fetch'); return td && td.textContent.startsWith('✗') })()`)
	b.do(ctx, chromedp.Click(chromedp.CSS("#undo-btn")))
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); got != aiRobots {
		t.Errorf("put back: the editor holds %q", got)
	}
	if btn := eval[string](b, ctx, `document.getElementById('undo-btn').textContent`); btn != "Put back the file the policy wrote" {
		t.Errorf("the bar then offers %q", btn)
	}
	b.check()
}

// TestE2EPolicyLive: a policy for a live file is written from the site's
// file; the file it replaces in the editor is the live one, kept aside.
func TestE2EPolicyLive(t *testing.T) {
	site := newEditableSite(t, http.StatusOK, aiRobots)
	b := newBrowser(t, 375, 800, func(o *Options) { o.AllowPrivate = true })
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.fetchLive(ctx, site.URL)
	// At 375 px the fetch's URLs wrap after a slash, never inside a word
	// (issue 35 item 8: "robots.tx / t").
	split := eval[[]string](b, ctx, `(() => {
		const out = [], w = document.createTreeWalker(document.getElementById('fetch-trace'), NodeFilter.SHOW_TEXT);
		for (let n = w.nextNode(); n; n = w.nextNode()) {
			const i = n.data.indexOf('robots.txt');
			if (i < 0) continue;
			const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 10);
			const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
			if (tops.size > 1) out.push(n.parentElement.closest('td, dd').textContent);
		}
		return out;
	})()`)
	if len(split) > 0 {
		t.Errorf("robots.txt broken across lines in the fetch table: %q", split)
	}
	b.openAI(ctx)
	if file := eval[string](b, ctx, `document.querySelector('#ai-out .summary').textContent`); !strings.Contains(file, "contradiction") {
		t.Errorf("summary %q", file)
	}
	b.choose(ctx, "crawlers", "GPTBot", "allow")
	b.do(ctx, chromedp.Click(chromedp.CSS("#policy-run")))
	b.waitFor(ctx, `document.getElementById('policy-apply') !== null || document.querySelector('#policy-out .error') !== null`)
	if sw := eval[int](b, ctx, `document.documentElement.scrollWidth`); sw > 375 {
		t.Errorf("the page is %d px wide at 375 px with the policy's answer", sw)
	}
	b.viewShot(ctx, "policy-375", "#policy", 2400, 1)
	b.do(ctx, chromedp.Click(chromedp.CSS("#policy-apply")))
	// GPTBot leaves the group that closed the site to it, and reads the *
	// group's rules.
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); strings.Contains(got, "GPTBot") || !strings.Contains(got, "User-agent: Googlebot\nDisallow: /\n") {
		t.Errorf("the editor holds %q", got)
	}
	if btn := eval[string](b, ctx, `document.getElementById('undo-btn').textContent`); btn != "Put back the live file of "+site.URL {
		t.Errorf("the bar offers %q", btn)
	}
	if mode := eval[string](b, ctx, `document.getElementById('mode-paste').getAttribute('aria-selected')`); mode != "true" {
		t.Error("the policy's file is still taken for the live one")
	}
	b.do(ctx, chromedp.Click(chromedp.CSS("#undo-btn")))
	if got := eval[string](b, ctx, `document.getElementById('robots').value`); got != aiRobots {
		t.Errorf("put back: the editor holds %q", got)
	}
	b.check()
}

// TestE2EAIPermalink: the permalink restores the AI view and the policy's
// stances.
func TestE2EAIPermalink(t *testing.T) {
	b := newBrowser(t, 1280, 1000)
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.paste(ctx, "robots", aiRobots)
	b.openAI(ctx)
	b.choose(ctx, "purposes", "ai-training", "deny")
	b.choose(ctx, "crawlers", "ClaudeBot", "allow")
	b.paste(ctx, "policy-deny-more", "MyScraperBot")
	b.waitFor(ctx, `location.hash.startsWith('#z=') && document.getElementById('tab-ai').getAttribute('aria-selected') === 'true'`)
	time.Sleep(300 * time.Millisecond) // the permalink follows the last change after 150 ms
	b.do(ctx, chromedp.Click(chromedp.CSS("#permalink-btn")))
	link := eval[string](b, ctx, `location.href`)

	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	b.watch(tab)
	b.open(tab, link)
	b.waitFor(tab, `document.body.dataset.restored === 'true' && document.querySelector('#ai-out .ai-section') !== null && document.querySelector('#policy-crawler-list .stance') !== null`)
	type state struct {
		View, Training, Claude, More string
	}
	got := eval[state](b, tab, `({
		View: document.querySelector('#view-tabs [aria-selected=true]').id,
		Training: document.querySelector('#policy-form input[data-key="ai-training"]:checked').value,
		Claude: document.querySelector('#policy-form input[data-key="ClaudeBot"]:checked').value,
		More: document.getElementById('policy-deny-more').value,
	})`)
	if want := (state{"tab-ai", "deny", "allow", "MyScraperBot"}); got != want {
		t.Errorf("restored %+v, want %+v", got, want)
	}
	b.check()
}
