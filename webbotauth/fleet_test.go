package webbotauth

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/internal/redistest"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
	"github.com/seed53c283f5/robotstxt/store/redisstore"
)

// TestDirectoryFleet: two verifiers (two processes of a fleet) on one
// store fetch a directory once between them: the second reads the first's
// copy; asked at once, one holds the lease and fetches while the other
// waits for its copy; a copy past its freshness is fetched again by one;
// a failed fetch is remembered for the rate window by both (the stale
// copy serving).
func TestDirectoryFleet(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		st, err := boltstore.Open(filepath.Join(t.TempDir(), "cache.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		testFleet(t, st, st)
	})
	t.Run("redis", func(t *testing.T) {
		addr := redistest.Start(t).Addr
		var sts [2]store.Store
		for i := range sts {
			st, err := redisstore.Open("redis://"+addr+"/0", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			sts[i] = st
		}
		testFleet(t, sts[0], sts[1])
	})
	t.Run("memory", func(t *testing.T) {
		// No leases: the copy is shared, the fetches at once are not.
		st := store.NewMemory(nil)
		testFleetCopy(t, st, st)
	})
}

// fleetPair is two verifiers of a fleet on stores a and b.
func fleetPair(t *testing.T, d *dirServer, clk *clock, a, b store.Store) (va, vb *Verifier) {
	mk := func(st store.Store) *Verifier {
		dirs := NewDirectories(DirectoryOptions{Client: d.srv.Client(), Now: clk.Now, Store: st})
		return New(Options{Directories: dirs, Now: clk.Now})
	}
	return mk(a), mk(b)
}

func testFleetCopy(t *testing.T, a, b store.Store) {
	s := newSigner(t)
	d := newDirServer(t, s)
	clk := newClock()
	clk.t = time.Now()
	va, vb := fleetPair(t, d, clk, a, b)
	for _, v := range []*Verifier{va, vb, va, vb} {
		if res := verifyAt(t, v, s, d.srv.URL, clk.Now()); res.Outcome != Verified {
			t.Fatalf("%s: %s", res.Outcome, res.Reason)
		}
	}
	if n := d.hits.Load(); n != 1 {
		t.Errorf("%d fetches for two verifiers on one store, want 1", n)
	}
}

func testFleet(t *testing.T, a, b store.Store) {
	testFleetCopy(t, a, b)

	// At once: one fetches, the other waits for its copy.
	s := newSigner(t)
	d := newDirServer(t, s)
	gate := make(chan struct{})
	d.set(func(d *dirServer) { d.gate = gate })
	clk := newClock()
	clk.t = time.Now()
	va, vb := fleetPair(t, d, clk, a, b)
	var wg sync.WaitGroup
	results := make([]Result, 2)
	for i, v := range []*Verifier{va, vb} {
		wg.Go(func() { results[i] = verifyAt(t, v, s, d.srv.URL, clk.Now()) })
	}
	time.Sleep(100 * time.Millisecond) // both are asking
	close(gate)
	wg.Wait()
	for i, res := range results {
		if res.Outcome != Verified {
			t.Errorf("verifier %d: %s: %s", i, res.Outcome, res.Reason)
		}
	}
	if n := d.hits.Load(); n != 1 {
		t.Errorf("%d fetches for two verifiers asking at once, want 1", n)
	}

	// Past its freshness (an hour): fetched again by one of them.
	clk.Add(2 * time.Hour)
	for _, v := range []*Verifier{va, vb, vb, va} {
		if res := verifyAt(t, v, s, d.srv.URL, clk.Now()); res.Outcome != Verified {
			t.Fatalf("after an hour: %s: %s", res.Outcome, res.Reason)
		}
	}
	if n := d.hits.Load(); n != 2 {
		t.Errorf("%d fetches after the copy went stale, want 2", n)
	}

	// The directory fails: one attempt, remembered by both for the rate
	// window; the stale copy serves.
	d.set(func(d *dirServer) { d.status = 503 })
	clk.Add(2 * time.Hour)
	for _, v := range []*Verifier{vb, va, vb} {
		res := verifyAt(t, v, s, d.srv.URL, clk.Now())
		if res.Outcome != Verified || res.Directory == nil || !res.Directory.Stale {
			t.Fatalf("directory down: %s: %s (%+v)", res.Outcome, res.Reason, res.Directory)
		}
	}
	if n := d.hits.Load(); n != 3 {
		t.Errorf("%d fetches with the directory down, want 3", n)
	}
}

// TestDirectoryFleetBadRecord: a record in the store that cannot be read
// (keys that are not a key set, or not JSON at all) is not trusted: the
// directory is fetched.
func TestDirectoryFleetBadRecord(t *testing.T) {
	for _, rec := range []string{`{"id": "%s", "keys": "bm90IGEga2V5IHNldA==", "fresh": "2999-01-01T00:00:00Z", "attempt": "%s"}`, `not json %s %s`} {
		s := newSigner(t)
		d := newDirServer(t, s)
		clk := newClock()
		clk.t = time.Now()
		st := store.NewMemory(nil)
		id := d.srv.URL + WellKnownPath
		if err := st.Put(t.Context(), storeKey(id), fmt.Appendf(nil, rec, id, clk.Now().Format(time.RFC3339)), time.Hour); err != nil {
			t.Fatal(err)
		}
		v, _ := fleetPair(t, d, clk, st, st)
		if res := verifyAt(t, v, s, d.srv.URL, clk.Now()); res.Outcome != Verified {
			t.Errorf("record %q: %s: %s", rec, res.Outcome, res.Reason)
		}
		if n := d.hits.Load(); n != 1 {
			t.Errorf("record %q: %d fetches, want 1", rec, n)
		}
	}
}
