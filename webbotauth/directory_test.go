package webbotauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func verifyAt(t *testing.T, v *Verifier, s *signer, agent string, now time.Time) Result {
	t.Helper()
	r := request(t)
	s.sign(t, r, agent, now, sigSpec{})
	return v.Verify(context.Background(), r)
}

// TestDirectoryRedirect: a directory that redirects is not followed (the
// target is never fetched) and the request is Unverified.
func TestDirectoryRedirect(t *testing.T) {
	s := newSigner(t)
	d := newDirServer(t, s)
	var targetHits int
	var mu sync.Mutex
	target := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		targetHits++
		mu.Unlock()
		w.Header().Set("Content-Type", DirectoryMediaType)
		json.NewEncoder(w).Encode(map[string]any{"keys": []JWK{s.jwk}})
	}))
	defer target.Close()
	d.set(func(d *dirServer) { d.location = target.URL + WellKnownPath })
	clk := newClock()
	clk.t = time.Now()
	v, _ := d.verifier(clk, DirectoryOptions{})
	res := verifyAt(t, v, s, d.srv.URL, clk.Now())
	if res.Outcome != Unverified || !strings.Contains(res.Reason, "redirect") {
		t.Errorf("%s: %s", res.Outcome, res.Reason)
	}
	mu.Lock()
	defer mu.Unlock()
	if targetHits != 0 {
		t.Errorf("the redirect's target was fetched %d times", targetHits)
	}
}

// TestDirectoryLimits: a directory over the byte limit, over the key
// limit, slower than the timeout, not JSON, or not a key set leaves the
// request Unverified.
func TestDirectoryLimits(t *testing.T) {
	s := newSigner(t)
	for _, c := range []struct {
		name   string
		prep   func(d *dirServer)
		o      DirectoryOptions
		reason string
	}{
		{"bytes", func(d *dirServer) { d.pad = 70000 }, DirectoryOptions{}, "limit"},
		{"keys", func(d *dirServer) {
			for range 40 {
				d.extra = append(d.extra, newSigner(t).jwk)
			}
		}, DirectoryOptions{}, "over the limit of 32"},
		{"media type", func(d *dirServer) { d.ctype = "text/html" }, DirectoryOptions{}, "media type"},
		{"status", func(d *dirServer) { d.status = 404 }, DirectoryOptions{}, "HTTP 404"},
		{"timeout", func(d *dirServer) {}, DirectoryOptions{Timeout: 50 * time.Millisecond}, "deadline"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDirServer(t, s)
			d.set(c.prep)
			if c.name == "timeout" {
				release := make(chan struct{})
				slow := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					select {
					case <-release:
					case <-r.Context().Done():
					}
				}))
				defer slow.Close()
				defer close(release)
				d.srv = slow
			}
			clk := newClock()
			clk.t = time.Now()
			v, _ := d.verifier(clk, c.o)
			start := time.Now()
			res := verifyAt(t, v, s, d.srv.URL, clk.Now())
			if res.Outcome != Unverified || !strings.Contains(res.Reason, c.reason) {
				t.Errorf("%s: %s; want unverified with %q", res.Outcome, res.Reason, c.reason)
			}
			if time.Since(start) > 2*time.Second {
				t.Errorf("took %s", time.Since(start))
			}
		})
	}
	// A bare JWK, as one directory of the census serves, is not a set.
	bare := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", DirectoryMediaType)
		json.NewEncoder(w).Encode(s.jwk)
	}))
	defer bare.Close()
	clk := newClock()
	clk.t = time.Now()
	v := New(Options{Directories: NewDirectories(DirectoryOptions{Client: bare.Client(), Now: clk.Now}), Now: clk.Now})
	if res := verifyAt(t, v, s, bare.URL, clk.Now()); res.Outcome != Unverified || !strings.Contains(res.Reason, "keys") {
		t.Errorf("a bare JWK: %s: %s", res.Outcome, res.Reason)
	}
}

// TestDirectoryRotation: a directory on loopback rotates its keys: the
// new key is published beside the old one and verifies at once (a fresh
// copy that lacks a key is fetched again, once a rate window); once the
// old key is dropped and the copy refreshed, the old key's signatures are
// Spoofed.
func TestDirectoryRotation(t *testing.T) {
	oldKey, newKey := newSigner(t), newSigner(t)
	d := newDirServer(t, oldKey)
	d.set(func(d *dirServer) { d.selfSign = true })
	clk := newClock()
	clk.t = time.Now()
	v, dirs := d.verifier(clk, DirectoryOptions{})
	if res := verifyAt(t, v, oldKey, d.srv.URL, clk.Now()); res.Outcome != Verified || res.Directory.SelfSignature != "valid" {
		t.Fatalf("old key: %s: %s (%+v)", res.Outcome, res.Reason, res.Directory)
	}
	d.set(func(d *dirServer) { d.keys = []*signer{oldKey, newKey} })
	// Within the rate window the fresh copy stands: the new key is not
	// known yet, and no fetch is made.
	if res := verifyAt(t, v, newKey, d.srv.URL, clk.Now()); res.Outcome != Spoofed {
		t.Errorf("new key within the window: %s: %s", res.Outcome, res.Reason)
	}
	if n := dirs.Fetches(); n != 1 {
		t.Errorf("%d fetches within the rate window", n)
	}
	clk.Add(2 * time.Minute)
	if res := verifyAt(t, v, newKey, d.srv.URL, clk.Now()); res.Outcome != Verified {
		t.Errorf("new key after the window: %s: %s", res.Outcome, res.Reason)
	}
	if res := verifyAt(t, v, oldKey, d.srv.URL, clk.Now()); res.Outcome != Verified {
		t.Errorf("old key while both are published: %s: %s", res.Outcome, res.Reason)
	}
	d.set(func(d *dirServer) { d.keys = []*signer{newKey} })
	clk.Add(2 * time.Hour) // past max-age=3600
	if res := verifyAt(t, v, oldKey, d.srv.URL, clk.Now()); res.Outcome != Spoofed || !strings.Contains(res.Reason, "holds no key") {
		t.Errorf("old key after removal: %s: %s", res.Outcome, res.Reason)
	}
	if res := verifyAt(t, v, newKey, d.srv.URL, clk.Now()); res.Outcome != Verified {
		t.Errorf("new key after removal: %s: %s", res.Outcome, res.Reason)
	}
}

// TestDirectoryRateBound: a flood of signatures naming directories that
// fail costs one fetch per directory per rate window, however many
// requests name each; the next window allows one more.
func TestDirectoryRateBound(t *testing.T) {
	s := newSigner(t)
	d := newDirServer(t, s)
	d.set(func(d *dirServer) { d.status = 503 })
	clk := newClock()
	clk.t = time.Now()
	v, _ := d.verifier(clk, DirectoryOptions{MaxPerOrigin: 100})
	const dirsN, each = 10, 30
	var wg sync.WaitGroup
	for i := range dirsN {
		for range each {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// jwks_uri members on distinct paths: distinct directories.
				r := request(t)
				r.Header.Set("Signature-Agent", fmt.Sprintf("agent=%q;type=jwks_uri", fmt.Sprintf("%s/keys/%d.json", d.srv.URL, i)))
				s.sign(t, r, "", clk.Now(), sigSpec{})
				if res := v.Verify(context.Background(), r); res.Outcome != Unverified {
					t.Errorf("%s: %s", res.Outcome, res.Reason)
				}
			}()
		}
	}
	wg.Wait()
	if h := d.hits.Load(); h != dirsN {
		t.Errorf("%d fetches for %d requests naming %d directories; want %d", h, dirsN*each, dirsN, dirsN)
	}
	clk.Add(30 * time.Second)
	verifyAt(t, v, s, d.srv.URL, clk.Now())
	verifyAt(t, v, s, d.srv.URL, clk.Now())
	if h := d.hits.Load(); h != dirsN+1 {
		t.Errorf("%d fetches after a new directory was named twice", h)
	}
	clk.Add(2 * time.Minute)
	verifyAt(t, v, s, d.srv.URL, clk.Now())
	if h := d.hits.Load(); h != dirsN+2 {
		t.Errorf("%d fetches after the window passed", h)
	}
}

// TestDirectoryCaching: a copy is used while fresh (max-age); past it the
// fetch is conditional (If-None-Match) and a 304 renews it; when the
// directory then fails, the last good copy keeps verifying (stale) for
// StaleIfError, and after that the request is Unverified.
func TestDirectoryCaching(t *testing.T) {
	s := newSigner(t)
	d := newDirServer(t, s)
	d.set(func(d *dirServer) { d.etag = `"v1"`; d.maxAge = 600 })
	clk := newClock()
	clk.t = time.Now()
	v, _ := d.verifier(clk, DirectoryOptions{StaleIfError: time.Hour})
	for range 5 {
		if res := verifyAt(t, v, s, d.srv.URL, clk.Now()); res.Outcome != Verified {
			t.Fatalf("%s: %s", res.Outcome, res.Reason)
		}
		clk.Add(time.Minute)
	}
	if h := d.hits.Load(); h != 1 {
		t.Errorf("%d fetches while fresh", h)
	}
	clk.Add(10 * time.Minute)
	if res := verifyAt(t, v, s, d.srv.URL, clk.Now()); res.Outcome != Verified || res.Directory.Stale {
		t.Errorf("after revalidation: %s: %s", res.Outcome, res.Reason)
	}
	d.mu.Lock()
	saw := append([]string(nil), d.sawINM...)
	d.mu.Unlock()
	if len(saw) != 1 || saw[0] != `"v1"` {
		t.Errorf("If-None-Match sent: %q", saw)
	}
	d.set(func(d *dirServer) { d.status = 500 })
	clk.Add(20 * time.Minute)
	res := verifyAt(t, v, s, d.srv.URL, clk.Now())
	if res.Outcome != Verified || !res.Directory.Stale {
		t.Errorf("directory down, copy within stale-if-error: %s: %s (%+v)", res.Outcome, res.Reason, res.Directory)
	}
	clk.Add(2 * time.Hour)
	if res := verifyAt(t, v, s, d.srv.URL, clk.Now()); res.Outcome != Unverified || !strings.Contains(res.Reason, "HTTP 500") {
		t.Errorf("directory down past stale-if-error: %s: %s", res.Outcome, res.Reason)
	}
}

// TestDirectoryTypes: jwks_uri and cimd members resolve to their keys;
// a client metadata document whose client_id is not its URL does not.
func TestDirectoryTypes(t *testing.T) {
	s := newSigner(t)
	var srvURL string
	badID := false
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/jwks.json":
			json.NewEncoder(w).Encode(map[string]any{"keys": []JWK{s.jwk}})
		case "/card":
			id := srvURL + "/card"
			if badID {
				id = srvURL + "/other"
			}
			json.NewEncoder(w).Encode(map[string]any{"client_id": id, "jwks_uri": srvURL + "/jwks.json"})
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	srvURL = srv.URL
	for _, c := range []struct {
		member string
		want   Outcome
		bad    bool
	}{
		{fmt.Sprintf("agent=%q;type=jwks_uri", srv.URL+"/jwks.json?v=2"), Verified, false},
		{fmt.Sprintf("agent=%q;type=cimd", srv.URL+"/card"), Verified, false},
		{fmt.Sprintf("agent=%q;type=cimd", srv.URL+"/card"), Unverified, true},
	} {
		badID = c.bad
		clk := newClock()
		clk.t = time.Now()
		v := New(Options{Directories: NewDirectories(DirectoryOptions{Client: srv.Client(), Now: clk.Now}), Now: clk.Now})
		r := request(t)
		r.Header.Set("Signature-Agent", c.member)
		s.sign(t, r, "", clk.Now(), sigSpec{})
		res := v.Verify(context.Background(), r)
		if res.Outcome != c.want {
			t.Errorf("%s: %s: %s", c.member, res.Outcome, res.Reason)
		}
		if c.want == Verified && strings.Contains(res.Agent, "?") {
			t.Errorf("identifier %q keeps the query", res.Agent)
		}
	}
}

// TestDirectoryCallerGone: a caller that gives up while the directory is
// being fetched does not make the fetch fail for the others, nor leave a
// failure cached.
func TestDirectoryCallerGone(t *testing.T) {
	s := newSigner(t)
	d := newDirServer(t, s)
	clk := newClock()
	clk.t = time.Now()
	v, _ := d.verifier(clk, DirectoryOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := request(t)
	s.sign(t, r, d.srv.URL, clk.Now(), sigSpec{})
	v.Verify(ctx, r)
	if res := verifyAt(t, v, s, d.srv.URL, clk.Now()); res.Outcome != Verified {
		t.Errorf("after a caller gave up: %s: %s", res.Outcome, res.Reason)
	}
}

// TestDirectoryWindowLongerThanLifetime: with a rate window longer than a
// copy's lifetime, the copy is used stale until the window lets the next
// fetch go, rather than leaving requests unverified.
func TestDirectoryWindowLongerThanLifetime(t *testing.T) {
	s := newSigner(t)
	d := newDirServer(t, s)
	d.set(func(d *dirServer) { d.maxAge = 60 })
	clk := newClock()
	clk.t = time.Now()
	v, dirs := d.verifier(clk, DirectoryOptions{RateWindow: 10 * time.Minute})
	verifyAt(t, v, s, d.srv.URL, clk.Now())
	clk.Add(5 * time.Minute)
	res := verifyAt(t, v, s, d.srv.URL, clk.Now())
	if res.Outcome != Verified || !res.Directory.Stale || dirs.Fetches() != 1 {
		t.Errorf("%s: %s (%+v), %d fetches", res.Outcome, res.Reason, res.Directory, dirs.Fetches())
	}
	clk.Add(6 * time.Minute)
	res = verifyAt(t, v, s, d.srv.URL, clk.Now())
	if res.Outcome != Verified || res.Directory.Stale || dirs.Fetches() != 2 {
		t.Errorf("after the window: %s (%+v), %d fetches", res.Outcome, res.Directory, dirs.Fetches())
	}
}

// TestDirectoryOriginBound: signatures naming many jwks_uri paths of one
// host cost at most MaxPerOrigin fetches to that host per rate window.
func TestDirectoryOriginBound(t *testing.T) {
	s := newSigner(t)
	d := newDirServer(t, s)
	clk := newClock()
	clk.t = time.Now()
	v, _ := d.verifier(clk, DirectoryOptions{MaxPerOrigin: 4})
	for i := range 50 {
		r := request(t)
		r.Header.Set("Signature-Agent", fmt.Sprintf("agent=%q;type=jwks_uri", fmt.Sprintf("%s/k/%d", d.srv.URL, i)))
		s.sign(t, r, "", clk.Now(), sigSpec{})
		res := v.Verify(context.Background(), r)
		if want := i < 4; (res.Outcome == Verified) != want || !want && !strings.Contains(res.Reason, "origin") {
			t.Fatalf("directory %d: %s: %s", i, res.Outcome, res.Reason)
		}
	}
	if h := d.hits.Load(); h != 4 {
		t.Errorf("%d fetches to one origin, bound 4", h)
	}
	clk.Add(2 * time.Minute)
	if res := verifyAt(t, v, s, d.srv.URL, clk.Now()); res.Outcome != Verified {
		t.Errorf("the next window: %s: %s", res.Outcome, res.Reason)
	}
}

// TestDirectoryWaitBounded: a caller whose context ends stops waiting for
// a directory being fetched (Unverified), the fetch goes on and serves
// the next caller; past MaxPending directories being fetched, a new one
// is not fetched at all.
func TestDirectoryWaitBounded(t *testing.T) {
	s := newSigner(t)
	release := make(chan struct{})
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		<-release
		w.Header().Set("Content-Type", DirectoryMediaType)
		json.NewEncoder(w).Encode(map[string]any{"keys": []JWK{s.jwk}})
	}))
	defer srv.Close()
	clk := newClock()
	clk.t = time.Now()
	dirs := NewDirectories(DirectoryOptions{Client: srv.Client(), Now: clk.Now, MaxPending: 2})
	v := New(Options{Directories: dirs, Now: clk.Now})
	// Three jwks_uri paths of the one server: three directories.
	agents := []string{srv.URL + "/k1", srv.URL + "/k2", srv.URL + "/k3"}
	short := func(agent string) Result {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		r := request(t)
		r.Header.Set("Signature-Agent", fmt.Sprintf("agent=%q;type=jwks_uri", agent))
		s.sign(t, r, "", clk.Now(), sigSpec{})
		return v.Verify(ctx, r)
	}
	for _, a := range agents[:2] {
		start := time.Now()
		res := short(a)
		if res.Outcome != Unverified || !res.Pending || !strings.Contains(res.Reason, "still being fetched") || time.Since(start) > 2*time.Second {
			t.Errorf("%s held: %s: %s after %s", a, res.Outcome, res.Reason, time.Since(start))
		}
	}
	if res := short(agents[2]); res.Outcome != Unverified || res.Pending || !strings.Contains(res.Reason, "under way, the most allowed") {
		t.Errorf("third directory: %s: %s", res.Outcome, res.Reason)
	}
	close(release)
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if res := short(agents[0]); res.Outcome == Verified {
			break
		} else if time.Now().After(end) {
			t.Fatalf("after the release: %s: %s", res.Outcome, res.Reason)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if n := dirs.Fetches(); n != 2 || hits["/k3"] != 0 {
		t.Errorf("%d fetches, want 2 (the third directory not fetched)", n)
	}
}
