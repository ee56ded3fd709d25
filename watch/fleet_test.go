package watch

import (
	"bufio"
	"context"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store/redisstore"
)

// startRedis starts a redis-server on a free loopback port for t, and
// stops it when t ends; it returns its address.
func startRedis(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server is not installed (apt-get install -y redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := t.TempDir()
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-done })
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	for range 1500 {
		if redisPing(addr) {
			return addr
		}
		select {
		case <-done:
			t.Fatal("redis-server exited")
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("redis-server does not answer on %s", addr)
	return ""
}

func redisPing(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "+PONG")
}

// TestFleet: two engines on one Redis share the watches; each check runs
// on one of them, and one alert is sent.
func TestFleet(t *testing.T) {
	addr := startRedis(t)
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	rc := newReceiver(t)
	var engines []*Engine
	for range 2 {
		st, err := redisstore.Open("redis://"+addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		engines = append(engines, newEngine(t, st, clk, nil))
	}
	ctx := context.Background()
	w, err := engines[0].Create(ctx, &Spec{Origin: s.URL, URLs: []string{"/shop/"}, Webhook: rc.URL}, "")
	if err != nil {
		t.Fatal(err)
	}
	// The other engine knows it.
	got, err := engines[1].Get(ctx, w.ID)
	if err != nil || got.Origin != s.URL {
		t.Fatalf("the second engine: %v %+v", err, got)
	}
	both := func() int {
		var wg sync.WaitGroup
		var n [2]int
		for i, e := range engines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n[i], _ = e.Tick(ctx)
			}()
		}
		wg.Wait()
		// The engine that found the origin's lease taken checks on its
		// next tick, and finds the check done.
		for i, e := range engines {
			m, _ := e.Tick(ctx)
			n[i] += m
		}
		return n[0] + n[1]
	}
	if n := both(); n != 1 {
		t.Fatalf("the baseline: %d checks, want 1", n)
	}
	s.set(200, "text/plain", "User-agent: *\nDisallow: /shop/\n")
	clk.Advance(time.Hour)
	if n := both(); n != 1 {
		t.Fatalf("after the change: %d checks, want 1", n)
	}
	if q := len(engines[0].queue) + len(engines[1].queue); q != 1 {
		t.Fatalf("%d alerts queued, want 1", q)
	}
	if f := s.fetches.Load(); f != 2 {
		t.Errorf("%d fetches, want 2", f)
	}
	for _, e := range engines {
		deliver(t, e)
	}
	r := rc.next(t)
	if !strings.Contains(string(r.body), `"crawler":"Googlebot"`) {
		t.Errorf("alert %s", r.body)
	}
	// Deleted on one, stopped on both.
	if err := engines[1].Delete(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	if n := both(); n != 0 {
		t.Errorf("%d checks of a deleted watch", n)
	}
	if f := s.fetches.Load(); f != 2 {
		t.Errorf("%d fetches after the delete, want 2", f)
	}
}
