package redisstore

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/redistest"
	"github.com/seed53c283f5/robotstxt/store"
)

// cluster is a three-master Redis Cluster started on loopback ports.
type cluster struct {
	addrs []string
	cmds  []*exec.Cmd
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal(redistest.Install)
	}
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		t.Fatal(redistest.Install)
	}
	dir := t.TempDir()
	c := &cluster{}
	t.Cleanup(func() {
		for _, cmd := range c.cmds {
			if cmd != nil {
				cmd.Process.Kill()
				cmd.Wait()
			}
		}
	})
	for i := range 3 {
		port := freePort(t)
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		nd := filepath.Join(dir, strconv.Itoa(i))
		cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
			"--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(nd, "nodes.conf"),
			"--cluster-node-timeout", "1000", "--cluster-require-full-coverage", "no",
			"--save", "", "--appendonly", "no", "--dir", dir, "--logfile", filepath.Join(dir, fmt.Sprintf("%d.log", i)))
		if err := exec.Command("mkdir", "-p", nd).Run(); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatalf("redis-server: %v", err)
		}
		c.cmds = append(c.cmds, cmd)
		c.addrs = append(c.addrs, addr)
	}
	for _, a := range c.addrs {
		waitFor(t, "redis-server on "+a, func() bool {
			conn, err := net.DialTimeout("tcp", a, 100*time.Millisecond)
			if err == nil {
				conn.Close()
			}
			return err == nil
		})
	}
	args := append([]string{"--cluster", "create"}, c.addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	for _, a := range c.addrs {
		host, port, _ := net.SplitHostPort(a)
		waitFor(t, "cluster_state:ok on "+a, func() bool {
			out, _ := exec.Command(cli, "-h", host, "-p", port, "cluster", "info").Output()
			return strings.Contains(string(out), "cluster_state:ok")
		})
	}
	return c
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill stops master i at once, as a crash would.
func (c *cluster) kill(i int) {
	c.cmds[i].Process.Kill()
	c.cmds[i].Wait()
	c.cmds[i] = nil
}

func (c *cluster) url() string { return "redis-cluster://" + strings.Join(c.addrs, ",") }

// TestClusterStore: the store on a real three-master cluster keeps values
// and leases, and an origin's entry and lease are in one slot.
func TestClusterStore(t *testing.T) {
	cl := startCluster(t)
	s, err := OpenCluster(cl.url()+"?prefix=t:", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if h := s.Health(); !strings.HasPrefix(h.Name, "redis cluster ") {
		t.Errorf("Health = %+v", h)
	}
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: cl.addrs})
	defer cc.Close()
	masters := map[string]bool{}
	for i := range 200 {
		key := fmt.Sprintf("https://s%d.example", i)
		if err := s.Put(ctx, key, []byte("v"+key), time.Hour); err != nil {
			t.Fatalf("Put: %v", err)
		}
		if got, err := s.Lease(ctx, key, "a", time.Minute); err != nil || !got {
			t.Fatalf("Lease: %v, %v", got, err)
		}
		if got, err := s.Lease(ctx, key, "b", time.Minute); err != nil || got {
			t.Fatalf("Lease by another owner: %v, %v", got, err)
		}
		v, ok, err := s.Get(ctx, key)
		if err != nil || !ok || string(v) != "v"+key {
			t.Fatalf("Get = %q, %v, %v", v, ok, err)
		}
		es, err1 := cc.ClusterKeySlot(ctx, s.entryKey(key)).Result()
		ls, err2 := cc.ClusterKeySlot(ctx, s.leaseKey(key)).Result()
		if err1 != nil || err2 != nil || es != ls {
			t.Fatalf("%s: entry in slot %d, lease in slot %d (%v, %v)", key, es, ls, err1, err2)
		}
		if err := s.Release(ctx, key, "a"); err != nil {
			t.Fatal(err)
		}
		addr, err := masterOf(cc, s.entryKey(key))
		if err != nil {
			t.Fatal(err)
		}
		masters[addr] = true
	}
	if len(masters) != 3 {
		t.Errorf("keys spread over %d masters, want 3", len(masters))
	}
}

// masterOf returns the address of the master that holds key.
func masterOf(cc *redis.ClusterClient, key string) (string, error) {
	var addr string
	err := cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
		n, err := c.Exists(ctx, key).Result()
		if err == nil && n == 1 {
			addr = c.Options().Addr
		}
		return nil
	})
	return addr, err
}

// TestClusterMasterDown: with one master of three killed, a Fallback on the
// cluster answers from memory for that master's keys alone: the keys of
// the other two are still read and written on the cluster, and their
// leases taken there. (Any failure used to send every key to memory.)
func TestClusterMasterDown(t *testing.T) {
	cl := startCluster(t)
	s, err := OpenCluster(cl.url()+"?prefix=t:", nil)
	if err != nil {
		t.Fatal(err)
	}
	// No second try of the lost master while the test runs.
	f := store.NewFallback(s, &store.FallbackOptions{RetryAfter: time.Hour})
	defer f.Close()
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: cl.addrs})
	defer cc.Close()

	const n = 300
	keys := make([]string, n)
	on := map[string]string{} // key: the address of its master
	for i := range keys {
		key := fmt.Sprintf("https://s%d.example", i)
		keys[i] = key
		if err := f.Put(ctx, key, []byte("before"), time.Hour); err != nil {
			t.Fatal(err)
		}
		m, err := cc.MasterForKey(ctx, s.entryKey(key))
		if err != nil {
			t.Fatal(err)
		}
		on[key] = m.Options().Addr
		if part := s.Part(key); part != "master "+on[key] {
			t.Fatalf("Part(%q) = %q, want master %s", key, part, on[key])
		}
	}
	lost := cl.addrs[1]
	cl.kill(1)
	var lostKeys, liveKeys []string
	for _, key := range keys {
		if on[key] == lost {
			lostKeys = append(lostKeys, key)
		} else {
			liveKeys = append(liveKeys, key)
		}
	}
	if len(lostKeys) == 0 || len(liveKeys) == 0 {
		t.Fatalf("%d keys on the lost master, %d on the others", len(lostKeys), len(liveKeys))
	}

	// A key of the lost master fails first, and is answered from memory.
	if v, ok, err := f.Get(ctx, lostKeys[0]); err != nil || !ok || string(v) != "before" {
		t.Fatalf("Get(%q) = %q, %v, %v", lostKeys[0], v, ok, err)
	}
	// Values written on the cluster by another process are read back
	// from the cluster for the live masters' keys; memory answers the
	// others.
	for _, key := range liveKeys {
		if err := cc.Set(ctx, s.entryKey(key), "another's", time.Hour).Err(); err != nil {
			t.Fatal(err)
		}
	}
	for _, key := range keys {
		want := "another's"
		if on[key] == lost {
			want = "before"
		}
		if v, ok, err := f.Get(ctx, key); err != nil || !ok || string(v) != want {
			t.Fatalf("Get(%q) on %s = %q, %v, %v; want %q", key, on[key], v, ok, err, want)
		}
		if got := f.KeyDegraded(key); got != (on[key] == lost) {
			t.Fatalf("KeyDegraded(%q) on %s = %v", key, on[key], got)
		}
	}
	h := f.Health()
	if want := h.Name + ": master " + lost + " unreachable since "; !h.Degraded || !strings.HasPrefix(h.Message, want) ||
		!strings.HasSuffix(h.Message, "; answering its keys from memory") {
		t.Fatalf("Health = %+v", h)
	}
	// Writes and leases of the live masters' keys reach the cluster.
	for _, key := range liveKeys {
		if err := f.Put(ctx, key, []byte("after"), time.Hour); err != nil {
			t.Fatal(err)
		}
		if v, err := cc.Get(ctx, s.entryKey(key)).Result(); err != nil || v != "after" {
			t.Fatalf("%s on the cluster: %q, %v", key, v, err)
		}
		if got, err := f.Lease(ctx, key, "me", time.Minute); err != nil || !got {
			t.Fatalf("Lease(%q) = %v, %v", key, got, err)
		}
		if v, err := cc.Get(ctx, s.leaseKey(key)).Result(); err != nil || v != "me" {
			t.Fatalf("the lease of %s on the cluster: %q, %v", key, v, err)
		}
	}
	// Those of the lost master's keys are this process's alone.
	for _, key := range lostKeys {
		if got, err := f.Lease(ctx, key, "me", time.Minute); err != nil || !got {
			t.Fatalf("Lease(%q) = %v, %v", key, got, err)
		}
	}
	if h2 := f.Health(); h2 != h {
		t.Fatalf("Health = %+v, was %+v", h2, h)
	}
	t.Logf("%d keys on the lost master answered from memory, %d on the others from the cluster", len(lostKeys), len(liveKeys))
}

// TestClusterFleet: three caches share a cluster and fetch each origin once;
// then a master is killed mid-run: every answer stays correct, and the
// caches fall back to memory and fetch on their own for what they cannot
// reach.
func TestClusterFleet(t *testing.T) {
	cl := startCluster(t)
	var mu sync.Mutex
	fetches := map[string]int{}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			mu.Lock()
			fetches[r.Host]++
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		}
		w.Write([]byte("User-agent: *\nDisallow: /private\n"))
	}))
	defer site.Close()
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, site.Listener.Addr().String())
	}
	const n = 3
	caches := make([]*cache.Cache, n)
	stores := make([]*store.Fallback, n)
	var s *Store
	for i := range caches {
		var err error
		s, err = OpenCluster(cl.url(), nil)
		if err != nil {
			t.Fatal(err)
		}
		stores[i] = store.NewFallback(s, &store.FallbackOptions{RetryAfter: 200 * time.Millisecond})
		defer stores[i].Close()
		caches[i] = cache.New(&cache.Options{Store: stores[i], Fetcher: &fetch.Fetcher{DialContext: dial, Timeout: 5 * time.Second}})
	}
	ask := func(from, to int) {
		t.Helper()
		var wg sync.WaitGroup
		var bad atomic.Int64
		for _, c := range caches {
			wg.Go(func() {
				for o := from; o < to; o++ {
					for _, p := range []string{"/private/a", "/b"} {
						ok, err := c.Allowed(context.Background(), "bot", fmt.Sprintf("http://s%d.test%s", o, p))
						if err != nil || ok != (p == "/b") {
							bad.Add(1)
						}
					}
				}
			})
		}
		wg.Wait()
		if bad.Load() != 0 {
			t.Errorf("origins %d to %d: %d wrong answers", from, to, bad.Load())
		}
	}
	ask(0, 60)
	for o := range 60 {
		if got := fetches[fmt.Sprintf("s%d.test", o)]; got != 1 {
			t.Errorf("s%d.test fetched %d times by %d caches on a cluster, want 1", o, got, n)
		}
	}
	// Where each origin's entry lives.
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: cl.addrs})
	defer cc.Close()
	on := map[int]string{}
	for o := 60; o < 120; o++ {
		m, err := cc.MasterForKey(ctx, s.entryKey(fmt.Sprintf("http://s%d.test", o)))
		if err != nil {
			t.Fatal(err)
		}
		on[o] = m.Options().Addr
	}
	lost := cl.addrs[1]
	cl.kill(1)
	start := time.Now()
	ask(60, 120)
	t.Logf("60 origins asked by 3 caches with a master down: %v", time.Since(start))
	// Each Fallback sends to memory the origins of the lost master only:
	// those are fetched by each cache on its own, the others once by
	// the three, through the cluster's leases.
	var local uint64
	for _, c := range caches {
		local += c.Stats().LocalFetches
	}
	mu.Lock()
	defer mu.Unlock()
	lostOrigins := 0
	for o := 60; o < 120; o++ {
		got := fetches[fmt.Sprintf("s%d.test", o)]
		switch {
		case on[o] == lost:
			lostOrigins++
			if got < 1 || got > n {
				t.Errorf("s%d.test, on the lost master, fetched %d times, want 1 to %d", o, got, n)
			}
		case got != 1:
			t.Errorf("s%d.test, on the live master %s, fetched %d times by %d caches, want 1", o, on[o], got, n)
		}
	}
	if lostOrigins == 0 || local == 0 {
		t.Errorf("with a master down: %d origins on it, %d fetches made alone; want some", lostOrigins, local)
	}
}
