package cache

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRefreshAfterSameSecondEdit is issue 35 item 7 as a site owner meets
// it: robots.txt written, checked, and rewritten within the same second
// (a deploy script), then checked again with Refresh (what check -u and
// the service's "fetch now" call). The site is net/http's FileServer,
// which sends Last-Modified to the second and answers If-Modified-Since
// with 304 when the file's time is not later; both versions get the same
// second so that the test does not depend on the clock's ticks.
func TestRefreshAfterSameSecondEdit(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	mtime := time.Now().Truncate(time.Second)
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	write("User-agent: *\nDisallow: /private\n")
	srv := newServer(t, http.FileServer(http.Dir(dir)).ServeHTTP)
	h := newHarness(t, nil)
	if a := h.refresh(srv.URL); a.Allowed("bot", srv.URL+"/private") {
		t.Fatalf("first check: /private allowed (%s)", a.Reason)
	}
	write("User-agent: *\nDisallow: /other\n")
	a := h.refresh(srv.URL)
	if !a.Allowed("bot", srv.URL+"/private") || a.Allowed("bot", srv.URL+"/other") {
		t.Errorf("the check after a same-second edit shows the old file: %s", a.Reason)
	}
	if hits := srv.hits.Load(); hits != 2 {
		t.Errorf("%d fetches, want 2", hits)
	}
}
