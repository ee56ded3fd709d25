package server

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/internal/redistest"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
	"github.com/seed53c283f5/robotstxt/store/storetest"
	"github.com/seed53c283f5/robotstxt/watch"
)

// TestWatchOwners: a watch is read, listed and deleted by its owner (the
// secret its creation answered) or the admin, and by no one else: another
// client's GET and DELETE are 404, its list is empty. Before, any client
// read and deleted any watch.
func TestWatchOwners(t *testing.T) {
	ts := newTestServer(t, &Options{AllowPrivate: true, Watch: WatchOptions{AdminToken: "the-admin"}})
	r := post(t, ts.URL+"/v1/watches", `{"origin": "example.com", "urls": ["/"]}`)
	if r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	m := r.json(t)
	id := m["id"].(string)
	secret, _ := m["owner_secret"].(string)
	if secret == "" {
		t.Fatalf("no owner secret in %s", r.body)
	}
	// Another client: nothing.
	get(t, ts.URL+"/v1/watches/"+id).wantError(t, 404, "")
	get(t, ts.URL+"/v1/watches/"+id, OwnerHeader, "wo_"+strings.Repeat("A", 43)).wantError(t, 404, "")
	if l := get(t, ts.URL+"/v1/watches").json(t); len(l["watches"].([]any)) != 0 {
		t.Errorf("another client lists %v", l["watches"])
	}
	do(t, "DELETE", ts.URL+"/v1/watches/"+id, nil).wantError(t, 404, "")
	do(t, "DELETE", ts.URL+"/v1/watches/"+id, nil, AdminHeader, "not-the-admin").wantError(t, 404, "")
	// The owner: its watch; a second watch made with the same secret is
	// listed with it.
	if g := get(t, ts.URL+"/v1/watches/"+id, OwnerHeader, secret); g.status != 200 || strings.Contains(string(g.body), secret) {
		t.Fatalf("the owner's GET: %d %s", g.status, g.body)
	}
	r2 := post(t, ts.URL+"/v1/watches", `{"origin": "example.org", "urls": ["/"]}`, OwnerHeader, secret)
	if r2.status != 201 {
		t.Fatalf("%d %s", r2.status, r2.body)
	}
	post(t, ts.URL+"/v1/watches", `{"origin": "example.net", "urls": ["/"]}`) // another owner's
	if l := get(t, ts.URL+"/v1/watches", OwnerHeader, secret).json(t); len(l["watches"].([]any)) != 2 {
		t.Errorf("the owner lists %d watches, want 2", len(l["watches"].([]any)))
	}
	// The admin: all of them.
	if l := get(t, ts.URL+"/v1/watches", AdminHeader, "the-admin").json(t); len(l["watches"].([]any)) != 3 {
		t.Errorf("the admin lists %d watches, want 3", len(l["watches"].([]any)))
	}
	if d := do(t, "DELETE", ts.URL+"/v1/watches/"+id, nil, OwnerHeader, secret); d.status != 200 {
		t.Errorf("the owner's DELETE: %d %s", d.status, d.body)
	}
	id2 := r2.json(t)["id"].(string)
	if d := do(t, "DELETE", ts.URL+"/v1/watches/"+id2, nil, AdminHeader, "the-admin"); d.status != 200 {
		t.Errorf("the admin's DELETE: %d %s", d.status, d.body)
	}
}

// TestWatchPerClientIPv6: the per-client bound counts an IPv6 /64 as one
// client, as the rate limiter does. Before, each address of the /64 had
// its own 50.
func TestWatchPerClientIPv6(t *testing.T) {
	s, err := New(&Options{AllowPrivate: true, Rate: -1, Watch: WatchOptions{MaxPerClient: 2}})
	if err != nil {
		t.Fatal(err)
	}
	// Served in process: the client's address is the request's, not a
	// connection's.
	from := func(addr string, i int) int {
		req := httptest.NewRequest("POST", "/v1/watches", strings.NewReader(fmt.Sprintf(`{"origin": "example.com", "urls": ["/%d"]}`, i)))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = addr
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec.Code
	}
	for i, addr := range []string{"[2001:db8:1:2::1]:4000", "[2001:db8:1:2::2]:4000"} {
		if c := from(addr, i); c != 201 {
			t.Fatalf("watch %d: %d", i, c)
		}
	}
	if c := from("[2001:db8:1:2:ffff::3]:4000", 3); c != http.StatusTooManyRequests {
		t.Errorf("a third watch from the same /64: %d, want 429", c)
	}
	if c := from("[2001:db8:1:3::1]:4000", 4); c != 201 {
		t.Errorf("a watch from another /64: %d, want 201", c)
	}
}

// TestWatchDegradedRedis: with Redis gone, the store answers from memory,
// and a watch made or deleted would not last: 503. Before, 201.
func TestWatchDegradedRedis(t *testing.T) {
	rs := redistest.Start(t)
	st, err := storeopen.Open("redis://"+rs.Addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ts := newTestServer(t, &Options{Store: st, AllowPrivate: true})
	r := post(t, ts.URL+"/v1/watches", `{"origin": "example.com", "urls": ["/"]}`)
	if r.status != 201 {
		t.Fatalf("with Redis up: %d %s", r.status, r.body)
	}
	m := r.json(t)
	rs.Kill()
	p := post(t, ts.URL+"/v1/watches", `{"origin": "example.org", "urls": ["/"]}`)
	p.wantError(t, 503, "")
	if !strings.Contains(string(p.body), "memory") {
		t.Errorf("the 503 does not say why: %s", p.body)
	}
	do(t, "DELETE", ts.URL+"/v1/watches/"+m["id"].(string), nil, OwnerHeader, m["owner_secret"].(string)).wantError(t, 503, "")
}

// TestWatchDegradedBolt: a second server on a bbolt file another holds
// runs on memory: its watches would not last, so it makes none (503).
// Before, 201, and the watch was gone at the restart.
func TestWatchDegradedBolt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	first, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	st, err := storeopen.Open(path, &storeopen.Options{LockTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if !storeopen.Health(st).Degraded {
		t.Fatal("the second store is not degraded")
	}
	ts := newTestServer(t, &Options{Store: st, AllowPrivate: true})
	post(t, ts.URL+"/v1/watches", `{"origin": "example.com", "urls": ["/"]}`).wantError(t, 503, "")
}

// TestReadyzDamaged: a store file found damaged at start, and moved
// aside with the watches it held, is said on /readyz and in /metrics,
// not only on stderr.
func TestReadyzDamaged(t *testing.T) {
	healthy := healthyWatchFile(t)
	var st store.Store
	for _, v := range storetest.DamagedFiles(healthy, os.Getpagesize()) {
		path := filepath.Join(t.TempDir(), "cache.db")
		if err := os.WriteFile(path, v.Data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := storeopen.Open(path, nil)
		if err != nil {
			continue
		}
		if storeopen.Notice(s) != "" {
			st = s
			break
		}
		s.Close()
	}
	if st == nil {
		t.Fatal("no damaged variant was moved aside")
	}
	defer st.Close()
	ts := newTestServer(t, &Options{Store: st})
	r := get(t, ts.URL+"/readyz")
	if d, _ := r.json(t)["damaged"].(string); !strings.Contains(d, "was damaged") || !strings.Contains(d, "watches") {
		t.Errorf("/readyz: %s", r.body)
	}
	if m := string(get(t, ts.URL+"/metrics").body); !strings.Contains(m, "robotstxt_store_damaged 1") {
		t.Error("/metrics lacks robotstxt_store_damaged 1")
	}
	// A healthy store says 0.
	ok := newTestServer(t, nil)
	if m := string(get(t, ok.URL+"/metrics").body); !strings.Contains(m, "robotstxt_store_damaged 0") {
		t.Error("/metrics lacks robotstxt_store_damaged 0")
	}
}

// healthyWatchFile is the bytes of a bbolt cache file that holds
// watches.
func healthyWatchFile(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cache.db")
	st, err := boltstore.Open(path, &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(&Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if _, err := s.watches.Create(context.Background(), watchSpec(fmt.Sprintf("https://site-%d.example", i)), ""); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 40 {
		st.Put(context.Background(), fmt.Sprintf("https://other-%d.example", i), make([]byte, 3000), 0)
	}
	st.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Only the pages bbolt counts (see storeopen's test).
	ps := os.Getpagesize()
	m0, m1 := b[:ps], b[ps:2*ps]
	if binary.NativeEndian.Uint64(m1[64:]) > binary.NativeEndian.Uint64(m0[64:]) {
		m0 = m1
	}
	return b[:binary.NativeEndian.Uint64(m0[56:])*uint64(ps)]
}

// TestWatchTestNet: a webhook on an address for documentation or another
// special purpose is refused, even with --allow-private. Before,
// http://192.0.2.1/ was taken.
func TestWatchTestNet(t *testing.T) {
	for _, allow := range []bool{false, true} {
		ts := newTestServer(t, &Options{AllowPrivate: allow})
		for _, hook := range []string{"http://192.0.2.1/", "http://198.51.100.7/h", "https://203.0.113.200/", "http://[2001:db8::1]/",
			"http://198.18.0.1/", "http://[100::1]/", "http://[3fff::1]/", "http://[::ffff:192.0.2.9]/"} {
			r := post(t, ts.URL+"/v1/watches", fmt.Sprintf(`{"origin": "example.com", "urls": ["/"], "webhook": %q}`, hook))
			r.wantError(t, 400, "webhook")
			if !strings.Contains(string(r.body), "not for delivery") {
				t.Errorf("allow-private %v, %s: %s", allow, hook, r.body)
			}
		}
	}
}

func watchSpec(origin string) *watch.Spec {
	return &watch.Spec{Origin: origin, URLs: []string{"/"}}
}
