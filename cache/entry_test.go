package cache

import (
	"testing"
	"time"

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
