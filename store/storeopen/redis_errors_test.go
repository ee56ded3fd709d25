package storeopen

import (
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/redistest"
)

// TestRedisRefused: a Redis server that answers but refuses the store (a
// wrong or missing password, a database that does not exist) is reported
// as such, never as unreachable; the store answers from memory meanwhile.
func TestRedisRefused(t *testing.T) {
	secured := redistest.StartWith(t, "--requirepass", "s3cret")
	open := redistest.Start(t)
	for _, tc := range []struct {
		name, url, want string
	}{
		{"wrong password", "redis://:wrong@" + secured.Addr + "/0", "authentication"},
		{"no password", "redis://" + secured.Addr + "/0", "authentication"},
		{"no such database", "redis://" + open.Addr + "/99", "database"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustOpen(t, tc.url, nil)
			h := Health(s)
			if !h.Degraded || strings.Contains(h.Message, "unreachable") || !strings.Contains(h.Message, " refuses ") ||
				!strings.Contains(h.Message, tc.want) || strings.Contains(h.Message, "s3cret") || strings.Contains(h.Message, "wrong@") {
				t.Fatalf("Health = %+v", h)
			}
			works(t, s) // from memory
		})
	}
	// The right password works.
	s := mustOpen(t, "redis://:s3cret@"+secured.Addr+"/0", nil)
	works(t, s)
	if h := Health(s); h.Degraded {
		t.Fatalf("Health = %+v", h)
	}
}
