package server

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
)

// TestFetchHidesStorePath: GET /v1/fetch, which the page's fetch table
// shows to every visitor, names the store's kind, not the server's cache
// file path (issue 35 item 6).
func TestFetchHidesStorePath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret-place", "cache.db")
	st, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /x\n"))
	}))
	defer site.Close()
	ts := newTestServer(t, &Options{AllowPrivate: true, Store: st})
	r := get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(site.URL))
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if strings.Contains(string(r.body), "secret-place") || strings.Contains(string(r.body), dir) {
		t.Errorf("the answer shows the store's path: %s", r.body)
	}
	if got := r.json(t)["store"]; got != "bbolt" {
		t.Errorf("store %q, want bbolt", got)
	}
}

func TestPublicStoreName(t *testing.T) {
	for _, tc := range []struct {
		h    store.Health
		want string
	}{
		{store.Health{Name: "memory"}, "memory"},
		{store.Health{Name: "bbolt /var/lib/robotstxt/cache.db"}, "bbolt"},
		{store.Health{Name: "redis 10.0.0.5:6379"}, "redis"},
		{store.Health{Name: "bbolt /srv/cache.db", Degraded: true, Message: "locked"}, "memory, in place of bbolt"},
		{store.Health{Name: "memory", Degraded: true}, "memory"},
	} {
		if got := publicStoreName(tc.h); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.h, got, tc.want)
		}
	}
}
