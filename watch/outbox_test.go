package watch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
	"github.com/seed53c283f5/robotstxt/tester"
)

// change makes the watch of e on s find a change: a baseline, then a new
// file an hour later.
func change(t *testing.T, e *Engine, clk interface{ Advance(time.Duration) }, s *site, body string) {
	t.Helper()
	tick(t, e, 1)
	s.set(200, "text/plain", body)
	clk.Advance(time.Hour)
	tick(t, e, 1)
}

// TestOutboxSurvivesStop: an alert found while nothing delivers (a stop,
// a crash right after the check) is in the bbolt file, written with the
// state that found it; the next start sends it. Before the outbox, the
// alert lived in a channel and was lost.
func TestOutboxSurvivesStop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	rc := newReceiver(t)
	st, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, st, clk, nil)
	w, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/"}, Webhook: rc.URL, Secret: "k"}, "")
	if err != nil {
		t.Fatal(err)
	}
	change(t, e, clk, s, "User-agent: *\nDisallow: /\n")
	if n := e.Pending(context.Background()); n != 1 {
		t.Fatalf("%d alerts in the outbox, want 1", n)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st2, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	e2 := newEngine(t, st2, clk, nil)
	deliver(t, e2)
	r := rc.next(t)
	if r.header.Get(WatchHeader) != w.ID || !strings.Contains(string(r.body), `"severity":"critical"`) {
		t.Errorf("alert %v %s", r.header, r.body)
	}
	if err := Verify("k", r.header.Get(DeliveryHeader), r.body, r.header.Get(SignatureHeader), clk.Now()); err != nil {
		t.Error(err)
	}
	waitPending(t, e2, 0)
}

// TestOutboxWithState: the alert and the state are one write: a store
// that fails the write keeps neither, and the next check finds the change
// again, with the same delivery id.
func TestOutboxWithState(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	rc := newReceiver(t)
	fs := &failingBatch{Memory: store.NewMemory(nil)}
	e := newEngine(t, fs, clk, nil)
	if _, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/"}, Webhook: rc.URL}, ""); err != nil {
		t.Fatal(err)
	}
	tick(t, e, 1)
	s.set(200, "text/plain", "User-agent: *\nDisallow: /\n")
	clk.Advance(time.Hour)
	fs.fail.Store(true)
	tick(t, e, 0) // the write failed: not checked
	fs.fail.Store(false)
	if n := e.Pending(context.Background()); n != 0 {
		t.Fatalf("%d alerts in the outbox after a failed write", n)
	}
	clk.Advance(time.Hour)
	tick(t, e, 1)
	if n := e.Pending(context.Background()); n != 1 {
		t.Fatalf("%d alerts in the outbox, want 1", n)
	}
}

// failingBatch is a memory store whose Apply fails while fail is set.
type failingBatch struct {
	*store.Memory
	fail atomic.Bool
}

func (f *failingBatch) Apply(ctx context.Context, ops []store.Op) error {
	if f.fail.Load() {
		return fmt.Errorf("the disk is full")
	}
	return f.Memory.Apply(ctx, ops)
}

// TestHangingReceiverAlone: 20 watches whose webhook accepts and never
// answers, and one whose webhook answers: the good one's alert comes at
// once. Before, the hanging posts held the 4 shared workers 30 s a try.
func TestHangingReceiverAlone(t *testing.T) {
	release := make(chan struct{})
	var hung atomic.Int64
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // so that the server sees the client go
		hung.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hang.Close()
	defer close(release)
	clk := newClock()
	e := newEngine(t, store.NewMemory(nil), clk, nil)
	deliver(t, e)
	var sites []*site
	for i := range 20 {
		s := newSite(t, "User-agent: *\nAllow: /\n")
		sites = append(sites, s)
		if _, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/"}, Webhook: fmt.Sprintf("%s/%d", hang.URL, i)}, ""); err != nil {
			t.Fatal(err)
		}
	}
	good := newSite(t, "User-agent: *\nAllow: /\n")
	rc := newReceiver(t)
	if _, err := e.Create(context.Background(), &Spec{Origin: good.URL, URLs: []string{"/"}, Webhook: rc.URL}, ""); err != nil {
		t.Fatal(err)
	}
	tick(t, e, 21)
	for _, s := range append(sites, good) {
		s.set(200, "text/plain", "User-agent: *\nDisallow: /\n")
	}
	clk.Advance(time.Hour)
	start := time.Now()
	tick(t, e, 21)
	select {
	case <-rc.got:
	case <-time.After(4 * time.Second): // under the first try's 5 s timeout
		t.Fatalf("the good receiver's alert did not come in 4 s (%d posts hung)", hung.Load())
	}
	t.Logf("the good alert came %v after the check; %d posts hung", time.Since(start), hung.Load())
	waitPending(t, e, 20) // the 20 hung ones
}

// TestDeliveryIDStable: two servers that find the same change (a fleet
// split by a store's stall: each on its own copy) send it under the same
// delivery id, so that the receiver drops the copy. Before, each made its
// own random id.
func TestDeliveryIDStable(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	rc := newReceiver(t)
	spec := Spec{Origin: s.URL, URLs: []string{"/", "/a"}, Webhook: rc.URL}
	var engines []*Engine
	for range 2 {
		e := newEngine(t, store.NewMemory(nil), clk, nil)
		if _, err := e.Load(context.Background(), []Spec{spec}); err != nil {
			t.Fatal(err)
		}
		tick(t, e, 1)
		engines = append(engines, e)
	}
	s.set(200, "text/plain", "User-agent: *\nDisallow: /a\n")
	clk.Advance(time.Hour)
	for _, e := range engines {
		tick(t, e, 1)
		deliver(t, e)
	}
	a, b := rc.next(t), rc.next(t)
	if ia, ib := a.header.Get(DeliveryHeader), b.header.Get(DeliveryHeader); ia != ib || ia == "" {
		t.Errorf("delivery ids %q and %q: want one", ia, ib)
	}
	// Another change: another id.
	s.set(200, "text/plain", "User-agent: *\nDisallow: /\n")
	clk.Advance(time.Hour)
	tick(t, engines[0], 1)
	if c := rc.next(t); c.header.Get(DeliveryHeader) == a.header.Get(DeliveryHeader) {
		t.Error("another change has the same delivery id")
	}
}

// TestVerifyScheme: the signature covers the time, the delivery id and
// the body; an old time, another id or another body is refused.
func TestVerifyScheme(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"watch":"x"}`)
	h := Sign("k", "id1", body, now)
	if !strings.HasPrefix(h, "t=1800000000,v1=") || len(h) != len("t=1800000000,v1=")+64 {
		t.Fatalf("header %q", h)
	}
	if err := Verify("k", "id1", body, h, now.Add(time.Minute)); err != nil {
		t.Errorf("fresh: %v", err)
	}
	for _, c := range []struct {
		name, id string
		body     []byte
		header   string
		at       time.Time
	}{
		{"replayed later", "id1", body, h, now.Add(Tolerance + time.Second)},
		{"from the future", "id1", body, h, now.Add(-Tolerance - time.Second)},
		{"another id", "id2", body, h, now},
		{"another body", "id1", []byte(`{"watch":"y"}`), h, now},
		{"the time changed", "id1", body, strings.Replace(h, "t=1800000000", "t=1800000001", 1), now},
		{"the old scheme", "id1", body, "sha256=00", now},
		{"empty", "id1", body, "", now},
	} {
		if err := Verify("k", c.id, c.body, c.header, c.at); err == nil {
			t.Errorf("%s: verified", c.name)
		}
	}
	// Several v1 (a secret being changed): one that matches is enough.
	if err := Verify("k", "id1", body, strings.Replace(h, ",v1=", ",v1=00,v1=", 1), now); err != nil {
		t.Errorf("two v1: %v", err)
	}
}

// TestSlowOriginAlone: one origin's fetch hangs; another origin's watch is
// checked again and again meanwhile. Before, a round waited for every
// origin it took.
func TestSlowOriginAlone(t *testing.T) {
	st := store.NewMemory(nil)
	fast := newSite(t, "User-agent: *\nAllow: /\n")
	slow := newSite(t, "User-agent: *\nAllow: /\n")
	fetch := fetcherOver(st, time.Now)
	hold := make(chan struct{})
	defer close(hold)
	var fastChecks atomic.Int64
	e, err := New(&Options{Store: st, Now: time.Now, MinInterval: 20 * time.Millisecond, PollInterval: 5 * time.Millisecond,
		Jitter: func(d time.Duration) time.Duration { return d }, Key: testKey,
		Fetch: func(ctx context.Context, origin string) ([]byte, *tester.FetchInfo, error) {
			if origin == slow.URL {
				select {
				case <-hold:
				case <-ctx.Done():
				}
				return nil, nil, ctx.Err()
			}
			fastChecks.Add(1)
			return fetch(ctx, origin)
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*site{slow, fast} {
		if _, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/"}, Every: "1ms"}, ""); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.Run(ctx); close(done) }()
	deadline := time.Now().Add(10 * time.Second)
	for fastChecks.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if n := fastChecks.Load(); n < 3 {
		t.Errorf("the fast origin was checked %d times while the slow one hung, want 3 or more", n)
	}
}

// TestDrain: when Deliver's context ends, a queued alert is still sent
// within Drain; one whose receiver hangs past it stays in the outbox.
func TestDrain(t *testing.T) {
	for _, c := range []struct {
		name  string
		wait  time.Duration // the receiver's answer time
		drain time.Duration
		sent  bool
	}{
		{"sent within the drain", 100 * time.Millisecond, 5 * time.Second, true},
		{"kept past the drain", time.Minute, 200 * time.Millisecond, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got atomic.Int64
			rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.ReadAll(r.Body) // so that the server sees the client go
				select {
				case <-time.After(c.wait):
					got.Add(1)
				case <-r.Context().Done():
				}
			}))
			defer rcv.Close()
			clk := newClock()
			s := newSite(t, "User-agent: *\nAllow: /\n")
			e := newEngine(t, store.NewMemory(nil), clk, func(o *Options) { o.Drain = c.drain })
			if _, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/"}, Webhook: rcv.URL}, ""); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { e.Deliver(ctx); close(done) }()
			change(t, e, clk, s, "User-agent: *\nDisallow: /\n")
			time.Sleep(20 * time.Millisecond) // the post is on its way
			cancel()
			select {
			case <-done:
			case <-time.After(c.drain + 10*time.Second):
				t.Fatal("Deliver did not return after its drain")
			}
			if sent := got.Load() == 1; sent != c.sent {
				t.Errorf("sent %v, want %v", sent, c.sent)
			}
			if n, want := e.Pending(context.Background()), map[bool]int{true: 0, false: 1}[c.sent]; n != want {
				t.Errorf("%d alerts in the outbox, want %d", n, want)
			}
		})
	}
}

// TestOrderPerHost: the alerts of one host come in the order of their
// checks.
func TestOrderPerHost(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	var mu sync.Mutex
	var order []string
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var a Alert
		json.NewDecoder(r.Body).Decode(&a)
		mu.Lock()
		order = append(order, a.At.Format(time.RFC3339))
		mu.Unlock()
	}))
	defer rcv.Close()
	e := newEngine(t, store.NewMemory(nil), clk, nil)
	if _, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/"}, Webhook: rcv.URL}, ""); err != nil {
		t.Fatal(err)
	}
	tick(t, e, 1)
	var want []string
	for i := range 5 {
		s.set(200, "text/plain", map[bool]string{true: "User-agent: *\nDisallow: /\n", false: "User-agent: *\nAllow: /\n"}[i%2 == 0])
		clk.Advance(time.Hour)
		tick(t, e, 1)
		want = append(want, clk.Now().UTC().Format(time.RFC3339))
	}
	deliver(t, e)
	waitPending(t, e, 0)
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("order %q, want %q", order, want)
	}
}

// TestSealed: the store holds neither the webhook nor the secret in
// clear; a watch of the old format (both in clear) still loads and is
// alerted; a server with another key says the webhook is unreadable.
func TestSealed(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	rc := newReceiver(t)
	st := store.NewMemory(nil)
	e := newEngine(t, st, clk, nil)
	hook := rc.URL + "/hooks/T0KEN-in-the-path"
	w, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/"}, Webhook: hook, Secret: "s3cret-value"}, "")
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := st.Scan(context.Background(), "", 0)
	for _, kv := range ents {
		if bytes.Contains(kv.Value, []byte("s3cret-value")) || bytes.Contains(kv.Value, []byte("T0KEN-in-the-path")) {
			t.Errorf("%q holds the secret or the webhook in clear: %s", kv.Key, kv.Value)
		}
	}
	// The old format: the watch in clear.
	old := map[string]any{"id": "00000000000000aa", "origin": s.URL, "urls": []string{"/"}, "crawlers": []string{"Googlebot"},
		"every_ns": int64(time.Hour), "webhook": rc.URL, "secret": "old-secret", "created": clk.Now()}
	b, _ := json.Marshal(old)
	st.Put(context.Background(), watchPrefix+"00000000000000aa", b, 0)
	st.Put(context.Background(), indexKey, []byte(`["`+w.ID+`","00000000000000aa"]`), 0)
	deliver(t, e)
	tick(t, e, 2)
	s.set(200, "text/plain", "User-agent: *\nDisallow: /\n")
	clk.Advance(time.Hour)
	tick(t, e, 2)
	got := map[string]received{}
	for range 2 {
		r := rc.next(t)
		got[r.header.Get(WatchHeader)] = r
	}
	for id, secret := range map[string]string{w.ID: "s3cret-value", "00000000000000aa": "old-secret"} {
		r, ok := got[id]
		if !ok {
			t.Errorf("no alert for %s", id)
			continue
		}
		if err := Verify(secret, r.header.Get(DeliveryHeader), r.body, r.header.Get(SignatureHeader), clk.Now()); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	// The old watch is sealed now that it was read.
	if b, _, _ := st.Get(context.Background(), watchPrefix+"00000000000000aa"); bytes.Contains(b, []byte("old-secret")) {
		t.Errorf("the old watch is still in clear: %s", b)
	}
	// Another key: the webhook cannot be read, and the status says so.
	e2 := newEngine(t, st, clk, func(o *Options) { o.Key = bytes.Repeat([]byte{7}, KeySize) })
	stat, err := e2.Get(context.Background(), w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(stat.Warnings) == 0 || !strings.Contains(stat.Warnings[0], "another key") {
		t.Errorf("warnings %q", stat.Warnings)
	}
}

// TestKeyFile: a missing key file is made 0600 with a new key, read the
// same next time; a key file others may read is refused.
func TestKeyFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sub", "watch.key")
	k1, err := KeyFromFile(file)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := KeyFromFile(file)
	if err != nil || !bytes.Equal(k1, k2) || len(k1) != KeySize {
		t.Fatalf("%x %x %v", k1, k2, err)
	}
	if err := chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := KeyFromFile(file); err == nil {
		t.Error("a key file readable by others is accepted")
	}
	if _, err := ParseKey("abc"); err == nil {
		t.Error("a short key is accepted")
	}
}

// TestOwners: a watch made gets an owner secret that owns it, and only
// it; a secret given at creation owns the new watch too.
func TestOwners(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	e := newEngine(t, store.NewMemory(nil), clk, nil)
	ctx := context.Background()
	a, err := e.Create(ctx, &Spec{Origin: s.URL, URLs: []string{"/a"}}, "10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if !ValidOwnerSecret(a.OwnerSecret) {
		t.Fatalf("owner secret %q", a.OwnerSecret)
	}
	b, err := e.CreateAs(ctx, &Spec{Origin: s.URL, URLs: []string{"/b"}}, Maker{Client: "10.0.0.1", Owner: a.OwnerSecret})
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.Create(ctx, &Spec{Origin: s.URL, URLs: []string{"/c"}}, "10.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		w      *Watch
		secret string
		want   bool
	}{
		{a, a.OwnerSecret, true}, {b, a.OwnerSecret, true}, {c, a.OwnerSecret, false},
		{c, c.OwnerSecret, true}, {a, c.OwnerSecret, false}, {a, "", false},
	} {
		w, err := e.Lookup(ctx, x.w.ID)
		if err != nil {
			t.Fatal(err)
		}
		if w.OwnerSecret != "" {
			t.Error("Lookup returns the owner secret")
		}
		if got := w.OwnedBy(x.secret); got != x.want {
			t.Errorf("%s owned by %.8q: %v, want %v", x.w.URLs[0], x.secret, got, x.want)
		}
	}
	if _, err := e.CreateAs(ctx, &Spec{Origin: s.URL, URLs: []string{"/d"}}, Maker{Owner: "guess"}); err == nil {
		t.Error("an owner secret of the wrong form is taken")
	}
	ls, _ := e.ListFunc(ctx, func(w *Watch) bool { return w.OwnedBy(a.OwnerSecret) })
	if len(ls) != 2 {
		t.Errorf("%d watches owned by a's secret, want 2", len(ls))
	}
}

// TestNotDurable: Create and Delete refuse when Durable says the store
// would not keep them, and a watch made is undone when the store falls
// back during the write.
func TestNotDurable(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	var down atomic.Bool
	calls := atomic.Int64{}
	e := newEngine(t, store.NewMemory(nil), clk, func(o *Options) {
		o.Durable = func(context.Context) error {
			calls.Add(1)
			if down.Load() {
				return fmt.Errorf("redis is down: answering from memory")
			}
			return nil
		}
	})
	ctx := context.Background()
	w, err := e.Create(ctx, &Spec{Origin: s.URL, URLs: []string{"/"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	down.Store(true)
	if _, err := e.Create(ctx, &Spec{Origin: s.URL, URLs: []string{"/x"}}, ""); !isNotDurable(err) {
		t.Errorf("Create on a degraded store: %v", err)
	}
	if err := e.Delete(ctx, w.ID); !isNotDurable(err) {
		t.Errorf("Delete on a degraded store: %v", err)
	}
	if ls, _ := e.List(ctx); len(ls) != 1 {
		t.Errorf("%d watches, want 1", len(ls))
	}
}

func isNotDurable(err error) bool { return errors.Is(err, ErrNotDurable) }

func chmod(file string, mode os.FileMode) error { return os.Chmod(file, mode) }
