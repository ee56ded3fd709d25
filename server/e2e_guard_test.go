package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2EGuard: the page's Guard section shows the end of the guard's
// decision log: the counts by crawler, outcome and action, and the last
// decisions newest first, a refused one marked, and what came from the
// log as text, not markup.
func TestE2EGuard(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "decisions.jsonl")
	lines := `{"time":"2026-11-28T03:00:00Z","ip":"192.0.2.7","method":"GET","host":"example.com","path":"/private/<b>x</b>","user_agent":"GPTBot/1.2","claimed":"GPTBot","identity":{"crawler":"GPTBot","ip":"192.0.2.7","outcome":"verified","method":"ip-ranges","reason":"in its list","checked":"2026-11-28T03:00:00Z"},"outcome":"disallowed-verified","allowed":false,"line":3,"line_text":"Disallow: /private/","reason":"r","version":"sha256:ab","action":"403","would":"403","mode":"enforce","status":403}
{"time":"2026-11-28T03:00:01Z","ip":"192.0.2.8","method":"GET","host":"example.com","path":"/","user_agent":"Firefox","outcome":"not-crawler","allowed":true,"action":"allow","would":"allow","mode":"enforce"}
`
	if err := os.WriteFile(log, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, 1400, 1000, func(o *Options) { o.GuardDecisions = log })
	ctx := b.ctx
	b.open(ctx, b.base+"/")
	b.do(ctx, chromedp.Click(chromedp.CSS("#guard-refresh")))
	b.waitFor(ctx, `document.getElementById('guard-summary') !== null || document.querySelector('#guard-status.error') !== null`)
	if msg := eval[string](b, ctx, `document.querySelector('#guard-status.error') ? document.getElementById('guard-status').textContent : ''`); msg != "" {
		t.Fatalf("guard: %s", msg)
	}
	if s := eval[string](b, ctx, `document.getElementById('guard-summary').textContent`); !strings.HasPrefix(s, "2 decisions at the end of ") {
		t.Errorf("summary: %q", s)
	}
	out := eval[string](b, ctx, `document.getElementById('guard-out').textContent`)
	for _, want := range []string{"GPTBotdisallowed-verified4031", "othernot-crawlerallow1", "/private/<b>x</b>", "line 3: Disallow: /private/", "verified"} {
		if !strings.Contains(out, want) {
			t.Errorf("the view lacks %q: %q", want, out)
		}
	}
	if n := eval[int](b, ctx, `document.querySelectorAll('#guard-out b').length`); n != 0 {
		t.Errorf("a logged path became markup: %d <b> elements", n)
	}
	if n := eval[int](b, ctx, `document.querySelectorAll('#guard-out tr.guard-blocked').length`); n != 2 {
		t.Errorf("%d rows marked refused, want 2 (the count and the decision)", n)
	}
	first := eval[string](b, ctx, `document.querySelectorAll('#guard-out table')[1].querySelector('tbody tr').textContent`)
	if !strings.Contains(first, "192.0.2.8") {
		t.Errorf("the newest decision is not first: %q", first)
	}
	b.screenshot(ctx, "guard")
	b.check()
}
