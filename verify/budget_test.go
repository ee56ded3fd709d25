package verify

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
)

// silentDNS is a UDP socket on loopback that reads every question and
// answers none: the resolver of issue 34, whose audit took addresses x
// 3 s / 16 (five hours for 100,000 addresses).
func silentDNS(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
		}
	}()
	return pc.LocalAddr().String()
}

// TestDNSBudget checks 500 distinct addresses claiming to be Googlebot
// against a silent resolver with a 1 s budget: the checks end within a
// few seconds (without the budget: 500 x 400 ms / 4, 50 s), every claim
// unverified, and the addresses not looked up counted.
func TestDNSBudget(t *testing.T) {
	gb, _ := robotstxt.LookupCrawler("Googlebot")
	v := New(&Options{Resolver: silentDNS(t), Timeout: 400 * time.Millisecond, Concurrency: 4, Budget: time.Second})
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[Outcome]int{}
	sem := make(chan struct{}, 16)
	for i := range 500 {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			ip := netip.AddrFrom4([4]byte{66, 249, byte(i >> 8), byte(i)})
			r := v.Check(context.Background(), ip, &gb)
			mu.Lock()
			outcomes[r.Outcome]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	took := time.Since(start)
	st := v.Stats()
	t.Logf("%v: %+v, %+v", took.Round(time.Millisecond), outcomes, st)
	if took > 5*time.Second {
		t.Errorf("500 checks took %v with a 1 s DNS budget", took)
	}
	if outcomes[Unverified] != 500 {
		t.Errorf("outcomes %v, want all 500 unverified", outcomes)
	}
	if st.Skipped < 400 || st.Skipped+st.Lookups != st.Addresses {
		t.Errorf("stats %+v: want most addresses skipped, each either looked up or skipped", st)
	}
}
