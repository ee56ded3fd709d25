package cache

import (
	"encoding/binary"
	"hash/crc32"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// TestFlippedBitIsAMiss flips each bit of a stored entry in turn: a damaged
// disk or file must give a miss (the cache fetches again), never other
// rules.
func TestFlippedBitIsAMiss(t *testing.T) {
	e := &entry{
		ID: 7, HasCopy: true, Policy: fetch.Rules, Status: 200, Reason: "200 OK", Body: []byte(rules),
		FetchedAt: epoch, ValidatedAt: epoch, ExpiresAt: epoch.Add(24 * time.Hour), LastAttempt: epoch,
		Trace: []fetch.Request{{URL: "https://example.com/robots.txt", Status: 200, Bytes: int64(len(rules))}},
	}
	good := e.encode()
	if _, err := decodeEntry(good); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, len(good))
	for i := range len(good) * 8 {
		copy(b, good)
		b[i/8] ^= 1 << (i % 8)
		if got, err := decodeEntry(b); err == nil {
			t.Fatalf("bit %d of byte %d flipped: decoded, body %q", i%8, i/8, got.Body)
		}
	}
}

// TestEntryPayPerCrawl: the pay per crawl headers of a trace are kept
// (entry version 3), and a version 2 entry, which has none, still reads.
func TestEntryPayPerCrawl(t *testing.T) {
	e := &entry{HasCopy: true, Policy: fetch.AllowAll, Status: 402, Reason: "402 Payment Required",
		Trace: []fetch.Request{{URL: "http://a/robots.txt", Status: 402, CrawlerPrice: "USD 0.01", CrawlerError: "MissingCrawlerPrice"}}}
	got, err := decodeEntry(e.encode())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Trace) != 1 || got.Trace[0] != e.Trace[0] {
		t.Fatalf("round trip: %+v, want %+v", got.Trace, e.Trace)
	}
	if p := fetch.PaymentOfTrace(got.Status, got.Trace); p.Price.String() != "USD 0.01" || p.Code != "MissingCrawlerPrice" {
		t.Errorf("payment read back: %+v", p)
	}
	// Version 2: the same fields but the three headers (here empty: three
	// zero-length strings before the checksum).
	e.Trace[0].CrawlerPrice, e.Trace[0].CrawlerError = "", ""
	b := e.encode()
	v2 := append([]byte{2}, b[1:len(b)-checksumSize-3]...)
	v2 = binary.BigEndian.AppendUint32(v2, crc32.Checksum(v2, castagnoli))
	old, err := decodeEntry(v2)
	if err != nil {
		t.Fatalf("a version 2 entry: %v", err)
	}
	if old.Status != 402 || len(old.Trace) != 1 || old.Trace[0] != e.Trace[0] {
		t.Errorf("a version 2 entry read as %+v", old)
	}
}

// TestAnswer402KeepsPrice: a robots.txt answered 402 with crawler-price,
// read back from the store and re-read with another dialect's policy,
// still names its price.
func TestAnswer402KeepsPrice(t *testing.T) {
	h := newHarness(t, nil)
	srv := newServer(t, reply(402, "pay", "crawler-price", "USD 0.01"))
	first := h.get(srv.URL)
	again := h.get(srv.URL) // from the store
	if again.Source == Network {
		t.Fatalf("second Get fetched again: %+v", again)
	}
	for _, a := range []*Answer{first, again, again.For(robotstxt.Baidu)} {
		if a.Policy != fetch.AllowAll || a.Status != 402 {
			t.Errorf("%v: policy %v status %d, want allow-all 402", a.Dialect, a.Policy, a.Status)
		}
		if p := fetch.PaymentOfTrace(a.Status, a.Trace); p.Status != fetch.PaymentRequired || p.Price.String() != "USD 0.01" {
			t.Errorf("%v (%v): payment %+v", a.Dialect, a.Source, p)
		}
		if !strings.Contains(a.Reason, "(crawler-price: USD 0.01)") {
			t.Errorf("%v (%v): reason %q names no price", a.Dialect, a.Source, a.Reason)
		}
	}
}
