package server

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/store"
)

// usageFile is the file of issue 34: about 500 KB of Content-Usage lines
// with a path each, all different (variant v changes every path).
func usageFile(v int) string {
	var sb strings.Builder
	sb.WriteString("User-agent: *\nDisallow: /private/\n")
	for i := 0; sb.Len() < 500_000; i++ {
		fmt.Fprintf(&sb, "Content-Usage: /p%d/v%d/ train-ai=n, search=y\n", i, v)
	}
	return sb.String()
}

// rssBytes is the process's resident memory, from /proc (0 elsewhere).
func rssBytes(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	return 0
}

// usageRSSBound is what 50 AI reports with "all" on 50 distinct usage
// files may add to the server's resident memory: measured, 101 MiB (the
// parse cache's 64 MiB, DefaultParsedBytes, and four reports in flight);
// asserted with a margin for the collector's timing. Before issue 34 one
// such report added 496 MB, 18 added 4.8 GB.
const usageRSSBound = 320 << 20

// TestUsageMemoryServer posts the usage file of issue 34 as 50 distinct
// variants to POST /v1/ai with "all" (four at a time) and to POST
// /v1/check with "usage" and every crawler, on a real server: the
// resident memory stays within usageRSSBound, the in-flight gauge holds
// what the reports build while they run, and the parse cache's gauge
// weighs what stays.
func TestUsageMemoryServer(t *testing.T) {
	if testing.Short() {
		t.Skip("posts 25 MB")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory")
	}
	ts := newTestServer(t, &Options{Store: store.NewMemory(nil), Rate: -1})
	debug.FreeOSMemory()
	before := rssBytes(t)
	var peakHeld atomic.Int64
	stop := make(chan struct{})
	var watch sync.WaitGroup
	watch.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			if h := ts.admit.work.held.Load(); h > peakHeld.Load() {
				peakHeld.Store(h)
			}
		}
	})
	var peakRSS atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	const variants = 50
	var built atomic.Int64
	for v := range variants {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			body, _ := json.Marshal(map[string]any{"robots": usageFile(v), "all": true})
			r := post(t, ts.URL+"/v1/ai", string(body))
			if r.status != 200 {
				t.Errorf("variant %d: %d %.300s", v, r.status, r.body)
				return
			}
			if v == 0 {
				src := ts.parsed.source(inlineName, []byte(usageFile(0)))
				agents, _ := fileCounts(src.Robots)
				in := &AIInput{All: true}
				built.Store(aiBuildCost(in, src, aiRows(in, agents)))
			}
			if n := rssBytes(t); n > peakRSS.Load() {
				peakRSS.Store(n)
			}
		}()
	}
	wg.Wait()
	// And a check with usage for every crawler, as issue 34 asked.
	var all []string
	for _, c := range robotstxt.Crawlers() {
		all = append(all, c.Name)
	}
	body, _ := json.Marshal(map[string]any{"robots": usageFile(variants), "urls": []string{"/p1/v50/x", "/q"}, "usage": true, "crawlers": all})
	if r := post(t, ts.URL+"/v1/check", string(body)); r.status != 200 {
		t.Errorf("check: %d %.300s", r.status, r.body)
	}
	close(stop)
	watch.Wait()
	runtime.GC()
	after := rssBytes(t)
	peak := max(peakRSS.Load(), after)
	files, cached := ts.parsed.usage()
	m := get(t, ts.URL+"/metrics")
	t.Logf("RSS %d MiB before, %d MiB at most, %d MiB after; in flight at most %d MiB (a report builds up to %d MiB); parse cache %d files, %d MiB",
		before>>20, peak>>20, after>>20, peakHeld.Load()>>20, built.Load()>>20, files, cached>>20)
	if before > 0 && peak-before > usageRSSBound {
		t.Errorf("resident memory grew by %d MiB, more than %d MiB", (peak-before)>>20, usageRSSBound>>20)
	}
	if peakHeld.Load() < built.Load() {
		t.Errorf("in flight at most %d bytes while a report builds up to %d", peakHeld.Load(), built.Load())
	}
	if cached <= 0 || cached > DefaultParsedBytes {
		t.Errorf("the parse cache weighs %d bytes, want some, at most %d", cached, DefaultParsedBytes)
	}
	var gauge float64 = -1
	for line := range strings.SplitSeq(string(m.body), "\n") {
		if v, ok := strings.CutPrefix(line, "robotstxt_parsed_bytes "); ok {
			gauge, _ = strconv.ParseFloat(v, 64)
		}
	}
	if int64(gauge) != cached {
		t.Errorf("/metrics: robotstxt_parsed_bytes %v, want %d", gauge, cached)
	}
}

// TestUsageCheckCost: a check with usage holds, in flight, what the usage
// tables of its readings hold while they are built: 32 bytes per byte of
// the file's Content-* lines a reading; without usage, nothing for them.
func TestUsageCheckCost(t *testing.T) {
	body := []byte(usageFile(0))
	lines := usageLineBytes(body)
	if lines < int64(len(body))*9/10 || lines > int64(len(body)) {
		t.Fatalf("usage lines %d bytes of %d", lines, len(body))
	}
	gb, _ := robotstxt.LookupCrawler("Googlebot")
	bd, _ := robotstxt.LookupCrawler("Baiduspider")
	for _, c := range []struct {
		crawlers []robotstxt.Crawler
		readings int64
	}{{nil, 1}, {[]robotstxt.Crawler{gb}, 1}, {[]robotstxt.Crawler{gb, bd}, 2}} {
		in := &CheckInput{Subject: Subject{Robots: body}, URLs: []string{"/"}, Crawlers: c.crawlers, Usage: true}
		with := checkCost(in)
		in.Usage = false
		without := checkCost(in)
		if got, want := with.memory-without.memory, c.readings*usageFactor*lines; got != want {
			t.Errorf("%d crawlers: usage holds %d more, want %d", len(c.crawlers), got, want)
		}
	}
}
