package cache

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// Every 304 renews the copy; the stored reason must not grow with each one
// (a site with max-age=60 would otherwise grow its entry by a sentence a
// minute, forever).
func TestRepeated304KeepsEntryBounded(t *testing.T) {
	h := newHarness(t, nil)
	var conditional atomic.Int64
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=60")
		if r.Header.Get("If-None-Match") == `"v1"` {
			conditional.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte(rules))
	})
	wantPolicy(t, h.get(srv.URL), fetch.Rules, Network)
	var sizes []int
	var reason string
	for range 10 {
		h.clk.Advance(time.Minute)
		a := h.get(srv.URL)
		wantPolicy(t, a, fetch.Rules, Network)
		e := h.entry(srv.URL)
		wantCopy(t, e, fetch.Rules, time.Minute)
		sizes = append(sizes, len(e.encode()))
		reason = e.Reason
		if !strings.Contains(a.Reason, "304") || !strings.Contains(a.Reason, "200 OK") {
			t.Errorf("reason %q does not say 304 and what the copy was", a.Reason)
		}
	}
	if conditional.Load() != 10 {
		t.Errorf("%d conditional requests", conditional.Load())
	}
	if sizes[9] != sizes[1] || strings.Count(reason, "304") != 1 {
		t.Errorf("entry sizes after each 304: %v; reason %q", sizes, reason)
	}
}
