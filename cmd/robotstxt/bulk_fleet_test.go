package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/bulk"
	"github.com/seed53c283f5/robotstxt/internal/redistest"
)

// TestBulkFleet runs three bulk processes on one Redis over the same 300
// origins (each in its own order), through a fake web behind HTTP_PROXY.
// One process is killed with SIGKILL mid-run, and Redis is restarted once.
// The two survivors answer every URL correctly, in order, and an origin is
// fetched more than once only when a survivor says it fetched alone (Redis
// unreachable) or after a dead process's lease expired.
func TestBulkFleet(t *testing.T) {
	fw := newFakeWeb(t)
	fw.delay = 250 * time.Millisecond
	// A redis-server that keeps its data across a restart (an append-only
	// file synced on every write), as a production one does.
	rd := redistest.StartWith(t, "--appendonly", "yes", "--appendfsync", "always")
	var hosts []string
	for n := 0; len(hosts) < 300; n++ {
		if siteKind(n) == "rules" {
			hosts = append(hosts, fmt.Sprintf("s%d.test", n))
		}
	}
	dir := t.TempDir()
	const procs = 3
	inputs := make([][]string, procs)
	for p := range procs {
		var urls []string
		for _, h := range hosts {
			urls = append(urls, "http://"+h+"/private/a", "http://"+h+"/b")
		}
		rng := rand.New(rand.NewPCG(uint64(p), 7))
		rng.Shuffle(len(urls), func(i, j int) { urls[i], urls[j] = urls[j], urls[i] })
		inputs[p] = urls
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("in%d.txt", p)), []byte(strings.Join(urls, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type result struct {
		out  []string
		sum  bulk.Summary
		err  error
		code int
	}
	results := make([]result, procs)
	cmds := make([]*exec.Cmd, procs)
	firstLine := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for p := range procs {
		sumFile := filepath.Join(dir, fmt.Sprintf("sum%d.json", p))
		cmd := exec.Command(os.Args[0], "bulk", "--quiet", "--store", "redis://"+rd.Addr, "--timeout", "2s",
			"--concurrency", "8", "--summary", sumFile, filepath.Join(dir, fmt.Sprintf("in%d.txt", p)))
		cmd.Env = append(os.Environ(), "ROBOTSTXT_RUN_MAIN=1", "HTTP_PROXY="+fw.URL, "NO_PROXY=", "http_proxy=", "no_proxy=")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[p] = cmd
		wg.Go(func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				results[p].out = append(results[p].out, sc.Text())
				if p == 0 {
					once.Do(func() { close(firstLine) })
				}
			}
			io.Copy(io.Discard, stdout)
			err := cmd.Wait()
			results[p].err = err
			if ee, ok := err.(*exec.ExitError); ok {
				results[p].code = ee.ExitCode()
			}
			if b, err := os.ReadFile(sumFile); err == nil {
				json.Unmarshal(b, &results[p].sum)
			}
		})
	}
	select {
	case <-firstLine:
	case <-time.After(60 * time.Second):
		t.Fatal("process 0 wrote nothing")
	}
	time.Sleep(300 * time.Millisecond)
	cmds[0].Process.Kill() // SIGKILL: leases it holds are never released
	time.Sleep(500 * time.Millisecond)
	rd.Kill()
	time.Sleep(300 * time.Millisecond)
	rd.Restart()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(120 * time.Second):
		for _, c := range cmds {
			c.Process.Kill()
		}
		t.Fatal("the fleet did not finish in 120 s")
	}
	var allowedDup uint64
	for p := 1; p < procs; p++ {
		r := results[p]
		if r.err != nil {
			t.Fatalf("process %d: %v", p, r.err)
		}
		if len(r.out) != len(inputs[p]) {
			t.Fatalf("process %d: %d results for %d URLs", p, len(r.out), len(inputs[p]))
		}
		for i, line := range r.out {
			var row bulkRow
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				t.Fatalf("process %d line %d: %v", p, i+1, err)
			}
			want := !strings.Contains(row.URL, "/private")
			if row.URL != inputs[p][i] || row.Allowed == nil || *row.Allowed != want || row.Policy != "rules" {
				t.Errorf("process %d result %d: %+v; want %s allowed %v", p, i, row, inputs[p][i], want)
			}
		}
		allowedDup += r.sum.Fleet.LocalFetches + r.sum.Fleet.Expired
		t.Logf("process %d: %d fetches, fleet %+v, store degraded at the end: %v", p, r.sum.Fetches.Made, r.sum.Fleet, r.sum.Degraded)
	}
	if results[0].code != -1 && results[0].err == nil {
		t.Errorf("process 0 was not killed: %v", results[0].err)
	}
	var dups uint64
	for _, h := range hosts {
		c := fw.count(h)
		if c == 0 {
			t.Errorf("%s never fetched", h)
		}
		if c > 1 {
			dups += uint64(c - 1)
		}
	}
	t.Logf("%d origins, %d fetched more than once (extra fetches: %d), survivors' local or after-lease fetches: %d", len(hosts), dups, dups, allowedDup)
	if dups > allowedDup {
		t.Errorf("%d extra fetches, more than the %d the survivors made alone or after a lease expired", dups, allowedDup)
	}
}
