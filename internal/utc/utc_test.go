package utc

import (
	"testing"
	"time"
)

func TestRFC3339(t *testing.T) {
	if got := RFC3339(time.Time{}); got != "" {
		t.Errorf("zero time: %q", got)
	}
	at := time.Date(2026, 1, 2, 16, 4, 5, 999, time.FixedZone("CET", 3600))
	if got := RFC3339(at); got != "2026-01-02T15:04:05Z" {
		t.Errorf("got %q", got)
	}
}
