package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
)

// TestReadHistory: the versions a server recorded read back, oldest
// first, with their bodies and times.
func TestReadHistory(t *testing.T) {
	var body atomic.Value
	body.Store("User-agent: *\nDisallow: /a\n")
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body.Load().(string)))
	}))
	defer site.Close()
	clk := &clock{now: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	mem := store.NewMemory(&store.MemoryOptions{Now: clk.Now})
	ts := newTestServer(t, &Options{AllowPrivate: true, Now: clk.Now, Store: mem})
	o, _ := parseOrigin(site.URL)
	if vs, err := ReadHistory(context.Background(), mem, o); err != nil || len(vs) != 0 {
		t.Fatalf("before any fetch: %v, %v", vs, err)
	}
	get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(site.URL))
	clk.Add(48 * time.Hour)
	body.Store("User-agent: *\nDisallow: /b\n")
	get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(site.URL))
	vs, err := ReadHistory(context.Background(), mem, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || string(vs[0].Body) != "User-agent: *\nDisallow: /a\n" || string(vs[1].Body) != "User-agent: *\nDisallow: /b\n" ||
		vs[0].FetchedAt != "2026-03-01T00:00:00Z" || vs[1].FetchedAt != "2026-03-03T00:00:00Z" {
		t.Errorf("got %+v", vs)
	}
	mem.Put(context.Background(), listKey(o), []byte("{damaged"), 0)
	if _, err := ReadHistory(context.Background(), mem, o); err == nil {
		t.Error("a damaged list: no error")
	}
}
