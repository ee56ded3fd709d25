package cache

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// Test304KeepsFreshness: a 304 without Cache-Control keeps the freshness
// the copy was stored with (RFC 9111 §4.3.4: the stored headers stay), not
// the default 24 hours; one with Cache-Control takes the new one.
func Test304KeepsFreshness(t *testing.T) {
	for _, tc := range []struct {
		name, cc304 string
		want        time.Duration
	}{
		{"none", "", time.Hour},
		{"new max-age", "max-age=7200", 2 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("If-None-Match") == `"v1"` {
					if tc.cc304 != "" {
						w.Header().Set("Cache-Control", tc.cc304)
					}
					w.WriteHeader(http.StatusNotModified)
					return
				}
				w.Header().Set("ETag", `"v1"`)
				w.Header().Set("Cache-Control", "max-age=3600")
				w.Write([]byte(rules))
			})
			h.get(srv.URL)
			wantCopy(t, h.entry(srv.URL), fetch.Rules, time.Hour)
			h.clk.Advance(2 * time.Hour)
			a := h.get(srv.URL)
			wantPolicy(t, a, fetch.Rules, Network)
			wantCopy(t, h.entry(srv.URL), fetch.Rules, tc.want)
			h.clk.Advance(2 * time.Hour)
			h.get(srv.URL)
			wantCopy(t, h.entry(srv.URL), fetch.Rules, tc.want)
		})
	}
}

// TestMaxAgeClamped: an overflowing max-age is the longest freshness, a
// negative or garbage one the shortest.
func TestMaxAgeClamped(t *testing.T) {
	for _, tc := range []struct {
		cc   string
		want time.Duration
	}{
		{"max-age=999999999999999999999999", DefaultMaxTTL},
		{"max-age=-5", DefaultMinTTL},
		{"max-age=soon", DefaultMinTTL},
	} {
		h := newHarness(t, nil)
		srv := newServer(t, reply(200, rules, "Cache-Control", tc.cc))
		h.get(srv.URL)
		wantCopy(t, h.entry(srv.URL), fetch.Rules, tc.want)
	}
}

// TestUnsolicited304FirstContact: a 304 to the first, unconditional,
// request is a failure to retry, not "no robots.txt".
func TestUnsolicited304FirstContact(t *testing.T) {
	h := newHarness(t, nil)
	srv := newServer(t, reply(http.StatusNotModified, ""))
	a := h.get(srv.URL)
	wantPolicy(t, a, fetch.DisallowAll, Network)
	wantFailure(t, h.entry(srv.URL), 1, time.Minute)
}

// TestInvalidUserAgentNotCached: a fetcher whose User-Agent cannot be sent
// gets an error, and nothing is fetched or stored.
func TestInvalidUserAgentNotCached(t *testing.T) {
	h := newHarness(t, &fetch.Fetcher{UserAgent: "bot\r\nX-Injected: 1"})
	srv := newServer(t, reply(200, rules))
	if a, err := h.c.Get(context.Background(), srv.URL); !errors.Is(err, fetch.ErrInvalidUserAgent) {
		t.Fatalf("Get: %+v, %v", a, err)
	}
	if h.entry(srv.URL) != nil || srv.hits.Load() != 0 {
		t.Fatalf("stored %v, %d requests", h.entry(srv.URL) != nil, srv.hits.Load())
	}
}

// TestRedirectUserinfoNotStored: credentials in a redirect target never
// reach the stored entry.
func TestRedirectUserinfoNotStored(t *testing.T) {
	h := newHarness(t, nil)
	target := newServer(t, reply(200, rules))
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://alice:s3cret@"+target.Listener.Addr().String()+"/robots.txt", http.StatusMovedPermanently)
	})
	h.get(srv.URL)
	o, _ := fetch.OriginOf(srv.URL)
	b, _, _ := h.store.Get(context.Background(), o.String())
	if len(b) == 0 || strings.Contains(string(b), "s3cret") || strings.Contains(string(b), "alice") {
		t.Fatalf("stored entry: %q", b)
	}
}
