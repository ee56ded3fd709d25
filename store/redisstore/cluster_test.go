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
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/internal/redistest"
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
	for i := range caches {
		s, err := OpenCluster(cl.url(), nil)
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
	cl.kill(1)
	start := time.Now()
	ask(60, 120)
	t.Logf("60 origins asked by 3 caches with a master down: %v", time.Since(start))
	// Fallback degrades the whole store for RetryAfter when a call fails,
	// and tries the cluster again after it: a call that reaches a live
	// master clears Health, so it is the fetches that say it.
	var local uint64
	for _, c := range caches {
		local += c.Stats().LocalFetches
	}
	mu.Lock()
	defer mu.Unlock()
	for o := 60; o < 120; o++ {
		if got := fetches[fmt.Sprintf("s%d.test", o)]; got < 1 || got > n {
			t.Errorf("s%d.test fetched %d times, want 1 to %d", o, got, n)
		}
	}
	if local == 0 {
		t.Errorf("with a master down: no fetch made alone, want some")
	}
}
