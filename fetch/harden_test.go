package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestUnsolicited304 checks that a 304 to a request that was not
// conditional is an error answer, retried, not "no robots.txt".
func TestUnsolicited304(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotModified)
	}))
	defer srv.Close()
	o, _ := OriginOf(srv.URL)
	res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
	if err != nil || res.Policy != DisallowAll || !res.Unreachable || res.NotModified || res.Status != 304 ||
		!strings.Contains(res.Reason, "not conditional") {
		t.Fatalf("%+v, %v", res, err)
	}
}

// TestInvalidUserAgent checks that a User-Agent that cannot be sent is
// refused before any request.
func TestInvalidUserAgent(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	o, _ := OriginOf(srv.URL)
	for _, ua := range []string{"bot\r\nX-Injected: 1", "bot\x00", "bot\x7f", " ", "\t"} {
		if err := CheckUserAgent(ua); !errors.Is(err, ErrInvalidUserAgent) {
			t.Errorf("CheckUserAgent(%q) = %v", ua, err)
		}
		res, err := (&Fetcher{UserAgent: ua}).Fetch(context.Background(), o, Validators{})
		if !errors.Is(err, ErrInvalidUserAgent) || len(res.Trace) != 0 {
			t.Errorf("Fetch with User-Agent %q: %+v, %v", ua, res, err)
		}
	}
	for _, ua := range []string{"", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "bot\tv1", "robot-é"} {
		if err := CheckUserAgent(ua); err != nil {
			t.Errorf("CheckUserAgent(%q) = %v", ua, err)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("%d requests sent", hits.Load())
	}
}

// TestRedirectUserinfoRedacted checks that a redirect target's userinfo
// never reaches the trace, the reason or the error.
func TestRedirectUserinfoRedacted(t *testing.T) {
	var target *httptest.Server
	target = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/loop" {
			http.Redirect(w, r, "http://alice:s3cret@"+target.Listener.Addr().String()+"/loop", http.StatusFound)
			return
		}
		w.Write([]byte("User-agent: *\nDisallow: /\n"))
	}))
	defer target.Close()
	for _, path := range []string{"/robots.txt", "/loop"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://alice:s3cret@"+target.Listener.Addr().String()+path, http.StatusMovedPermanently)
		}))
		o, _ := OriginOf(srv.URL)
		f := &Fetcher{Timeout: 5 * time.Second}
		res, err := f.Fetch(context.Background(), o, Validators{})
		all := res.Reason
		if err != nil {
			all += err.Error()
		}
		for _, r := range res.Trace {
			all += r.URL + " " + r.Location + " " + r.Err
		}
		if strings.Contains(all, "s3cret") || strings.Contains(all, "alice") {
			t.Errorf("%s: userinfo shown: %s", path, all)
		}
		if !strings.Contains(all, "xxxxx@") {
			t.Errorf("%s: no sign of the redacted userinfo: %s", path, all)
		}
		f.CheckRedirect = func(ctx context.Context, from, to *url.URL) error { return errors.New("no") }
		_, err = f.Fetch(context.Background(), o, Validators{})
		if err == nil || strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "alice") {
			t.Errorf("%s: refused redirect: %v", path, err)
		}
		srv.Close()
	}
}

// TestMaxAgeInvalid checks max-age values that are not a delta-seconds: an
// overflow is the largest delta (RFC 9111 §1.2.2), anything else invalid a
// max-age of 0, which the cache raises to its least time to live.
func TestMaxAgeInvalid(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want CacheControl
	}{
		{"max-age=99999999999999999999999", CacheControl{MaxAge: 1 << 31 * time.Second, HasMaxAge: true}},
		{"max-age=4294967296", CacheControl{MaxAge: 1 << 31 * time.Second, HasMaxAge: true}},
		{"max-age=-1", CacheControl{HasMaxAge: true}},
		{"max-age=x", CacheControl{HasMaxAge: true}},
		{"max-age=+60", CacheControl{HasMaxAge: true}},
		{"max-age=1.5", CacheControl{HasMaxAge: true}},
		{"max-age=", CacheControl{HasMaxAge: true}},
		{"max-age=-1, max-age=60", CacheControl{HasMaxAge: true}}, // the first counts
		{"max-age=60", CacheControl{MaxAge: time.Minute, HasMaxAge: true}},
	} {
		if got := parseCacheControl([]string{tc.in}); got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.in, got, tc.want)
		}
	}
}
