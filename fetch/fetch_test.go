package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/seed53c283f5/robotstxt"
)

func TestOriginOf(t *testing.T) {
	for _, tc := range []struct{ in, want, robots string }{
		{"HTTP://Example.COM:80/a/b?c", "http://example.com", "http://example.com/robots.txt"},
		{"https://example.com:443", "https://example.com", "https://example.com/robots.txt"},
		{"https://example.com:80/", "https://example.com:80", "https://example.com:80/robots.txt"},
		{"http://example.com:8080/x", "http://example.com:8080", "http://example.com:8080/robots.txt"},
		{"http://www.exämple.com/", "http://www.xn--exmple-cua.com", "http://www.xn--exmple-cua.com/robots.txt"},
		{"http://WWW.EXÄMPLE.COM/", "http://www.xn--exmple-cua.com", ""},
		{"http://www.xn--exmple-cua.com/", "http://www.xn--exmple-cua.com", ""},
		{"ftp://files.example.com:21/pub", "ftp://files.example.com", "ftp://files.example.com/robots.txt"},
		{"http://[::1]:8080/", "http://[::1]:8080", "http://[::1]:8080/robots.txt"},
		{"http://[0:0::1]/", "http://[::1]", ""},
		{"http://127.0.0.1/", "http://127.0.0.1", ""},
		{"http://my_host.example/", "http://my_host.example", ""},
		{"  https://example.com/  ", "https://example.com", ""},
		{"https://user:pw@example.com/a", "https://example.com", ""},
	} {
		o, err := OriginOf(tc.in)
		if err != nil {
			t.Errorf("OriginOf(%q): %v", tc.in, err)
			continue
		}
		if o.String() != tc.want {
			t.Errorf("OriginOf(%q) = %q, want %q", tc.in, o, tc.want)
		}
		if tc.robots != "" && o.RobotsURL() != tc.robots {
			t.Errorf("OriginOf(%q).RobotsURL() = %q, want %q", tc.in, o.RobotsURL(), tc.robots)
		}
	}
	a, _ := OriginOf("http://Example.com:80/x")
	b, _ := OriginOf("http://example.COM/y")
	if a != b {
		t.Errorf("%+v != %+v", a, b)
	}
	for _, in := range []string{"mailto:a@example.com", "example.com/x", "http:///x", "http://h:99999/", "http://h:0/", "://x", "http://a b/", "file:///etc/passwd", "http://[fe80::1%25eth0]/"} {
		if o, err := OriginOf(in); err == nil {
			t.Errorf("OriginOf(%q) = %+v, want an error", in, o)
		} else if !strings.HasPrefix(err.Error(), "fetch: ") {
			t.Errorf("OriginOf(%q): error %q does not say where it comes from", in, err)
		}
	}
	if _, err := OriginOf("gopher://example.com/"); !errors.Is(err, ErrScheme) {
		t.Errorf("gopher: %v, want ErrScheme", err)
	}
}

// serve starts a server answering /robots.txt with h and returns its origin.
func serve(t *testing.T, h http.HandlerFunc) (Origin, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	o, err := OriginOf(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return o, srv
}

func status(code int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

func TestStatusPolicies(t *testing.T) {
	type want struct {
		policy      Policy
		unreachable bool
	}
	rules, allow, disallow, down := want{Rules, false}, want{AllowAll, false}, want{DisallowAll, false}, want{DisallowAll, true}
	openDown := want{AllowAll, true}
	for _, tc := range []struct {
		code                                int
		google, rfc, bing, yandex, original want
	}{
		{200, rules, rules, rules, rules, rules},
		{203, rules, rules, rules, allow, rules},
		{204, rules, rules, rules, allow, rules},
		{400, allow, allow, allow, allow, allow},
		{401, allow, allow, allow, allow, disallow},
		{403, allow, allow, allow, allow, disallow},
		{404, allow, allow, allow, allow, allow},
		{410, allow, allow, allow, allow, allow},
		{429, down, allow, down, openDown, down},
		{500, down, down, down, openDown, down},
		{503, down, down, down, openDown, down},
		{599, down, down, down, openDown, down},
	} {
		o, _ := serve(t, status(tc.code, "User-agent: *\nDisallow: /x\n"))
		for _, d := range []struct {
			dialect robotstxt.Dialect
			want    want
		}{{robotstxt.DefaultDialect, tc.google}, {robotstxt.RFC9309, tc.rfc}, {robotstxt.Bing, tc.bing}, {robotstxt.Yandex, tc.yandex}, {robotstxt.Original, tc.original}} {
			f := &Fetcher{Dialect: d.dialect}
			res, err := f.Fetch(context.Background(), o, Validators{})
			if err != nil {
				t.Errorf("%d %v: %v", tc.code, d.dialect, err)
				continue
			}
			if res.Policy != d.want.policy || res.Unreachable != d.want.unreachable || res.Status != tc.code {
				t.Errorf("%d %v: policy %v unreachable %v status %d, want %v %v (%s)", tc.code, d.dialect, res.Policy, res.Unreachable, res.Status, d.want.policy, d.want.unreachable, res.Reason)
			}
			if res.Policy == Rules && string(res.Body) != "User-agent: *\nDisallow: /x\n" && tc.code != 204 {
				t.Errorf("%d %v: body %q", tc.code, d.dialect, res.Body)
			}
			if res.Reason == "" || !strings.Contains(res.Reason, fmt.Sprint(tc.code)) {
				t.Errorf("%d %v: reason %q does not name the status", tc.code, d.dialect, res.Reason)
			}
		}
	}
}

func TestRequestHeaders(t *testing.T) {
	var got http.Header
	o, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		if r.URL.Path != "/robots.txt" {
			t.Errorf("path %q", r.URL.Path)
		}
		w.Header().Set("ETag", `"v2"`)
		w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		io.WriteString(w, "User-agent: *\n")
	})
	res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Get("User-Agent") != DefaultUserAgent || got.Get("Accept-Encoding") != "gzip, deflate, br" || got.Get("If-None-Match") != "" {
		t.Errorf("headers %v", got)
	}
	if res.Validators.ETag != `"v2"` || res.Validators.LastModified != "Mon, 02 Jan 2006 15:04:05 GMT" {
		t.Errorf("validators %+v", res.Validators)
	}
	if !res.CacheControl.HasMaxAge || res.CacheControl.MaxAge != time.Hour {
		t.Errorf("cache control %+v", res.CacheControl)
	}
	if len(res.Trace) != 1 || res.Trace[0].Status != 200 || res.Trace[0].Bytes != 14 || res.Trace[0].CacheControl != "public, max-age=3600" {
		t.Errorf("trace %+v", res.Trace)
	}
	_, err = (&Fetcher{UserAgent: "MyBot/1.0"}).Fetch(context.Background(), o, Validators{ETag: `"v1"`, LastModified: "Sun, 01 Jan 2006 00:00:00 GMT"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Get("User-Agent") != "MyBot/1.0" || got.Get("If-None-Match") != `"v1"` || got.Get("If-Modified-Since") != "Sun, 01 Jan 2006 00:00:00 GMT" {
		t.Errorf("conditional headers %v", got)
	}
}

func TestNotModified(t *testing.T) {
	o, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.Header().Set("Cache-Control", "max-age=60")
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.WriteHeader(http.StatusNotModified) // unasked: an error answer (issue 9.8)
	})
	res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{ETag: `"v1"`})
	if err != nil || !res.NotModified || res.Policy != Rules || res.Validators.ETag != `"v1"` || res.CacheControl.MaxAge != time.Minute {
		t.Errorf("conditional: %+v, %v", res, err)
	}
	res, err = (&Fetcher{}).Fetch(context.Background(), o, Validators{})
	if err != nil || res.NotModified || res.Policy != DisallowAll || !res.Unreachable {
		t.Errorf("unconditional 304: %+v, %v", res, err)
	}
}

// chain serves /robots.txt redirecting n times through /r1, /r2... then the
// rules.
func chain(n int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		i := 0
		if r.URL.Path != "/robots.txt" {
			fmt.Sscanf(r.URL.Path, "/r%d", &i)
		}
		if i < n {
			http.Redirect(w, r, fmt.Sprintf("/r%d", i+1), http.StatusMovedPermanently)
			return
		}
		io.WriteString(w, "User-agent: *\nDisallow: /\n")
	}
}

func TestRedirects(t *testing.T) {
	for _, tc := range []struct {
		hops     int
		policy   Policy
		requests int
	}{{1, Rules, 2}, {5, Rules, 6}, {6, AllowAll, 6}} {
		o, _ := serve(t, chain(tc.hops))
		res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
		if err != nil || res.Policy != tc.policy || len(res.Trace) != tc.requests {
			t.Errorf("%d hops: policy %v, %d requests, %v (%s)", tc.hops, res.Policy, len(res.Trace), err, res.Reason)
		}
		if res.Trace[0].Location != o.String()+"/r1" || res.Trace[0].Status != 301 {
			t.Errorf("%d hops: first request %+v", tc.hops, res.Trace[0])
		}
	}

	loop, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		to := "/a"
		if r.URL.Path == "/a" {
			to = "/robots.txt"
		}
		http.Redirect(w, r, to, http.StatusFound)
	})
	res, _ := (&Fetcher{}).Fetch(context.Background(), loop, Validators{})
	if res.Policy != AllowAll || !strings.Contains(res.Reason, "loop") || len(res.Trace) != 2 {
		t.Errorf("loop: %v %q %d", res.Policy, res.Reason, len(res.Trace))
	}

	noLoc, _ := serve(t, status(http.StatusMovedPermanently, ""))
	res, _ = (&Fetcher{}).Fetch(context.Background(), noLoc, Validators{})
	if res.Policy != AllowAll || !strings.Contains(res.Reason, "no Location") {
		t.Errorf("no location: %v %q", res.Policy, res.Reason)
	}

	// Across hosts: the rules of the target are the origin's.
	target, tsrv := serve(t, status(200, "User-agent: *\nDisallow: /private\n"))
	from, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, tsrv.URL+"/robots.txt", http.StatusMovedPermanently)
	})
	res, err := (&Fetcher{}).Fetch(context.Background(), from, Validators{})
	if err != nil || res.Policy != Rules || res.Origin != from || !strings.Contains(string(res.Body), "/private") || res.Trace[1].URL != target.RobotsURL() {
		t.Errorf("cross-host: %+v %v", res, err)
	}

	// The hook refuses.
	var asked []string
	f := &Fetcher{CheckRedirect: func(_ context.Context, from, to *url.URL) error {
		asked = append(asked, from.String()+" -> "+to.String())
		return errors.New("private address")
	}}
	res, err = f.Fetch(context.Background(), from, Validators{})
	var fe *Error
	if !errors.As(err, &fe) || fe.Step != StepRedirect || res.Policy != DisallowAll || !res.Unreachable || len(asked) != 1 {
		t.Errorf("refused redirect: %+v %v %v", res, err, asked)
	}

	// A redirect to another scheme is no robots.txt.
	mail, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "mailto:x@example.com")
		w.WriteHeader(http.StatusFound)
	})
	res, _ = (&Fetcher{}).Fetch(context.Background(), mail, Validators{})
	if res.Policy != AllowAll {
		t.Errorf("mailto redirect: %v %q", res.Policy, res.Reason)
	}
}

func TestBodyLimit(t *testing.T) {
	big := strings.Repeat("Disallow: /x\n", 50_000) // 650,000 bytes
	o, _ := serve(t, status(200, "User-agent: *\n"+big))
	res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
	if err != nil || res.Policy != Rules || !res.Truncated || len(res.Body) != DefaultMaxBytes || !res.Trace[0].Truncated {
		t.Errorf("google: %v truncated %v len %d, %v", res.Policy, res.Truncated, len(res.Body), err)
	}
	res, _ = (&Fetcher{Dialect: robotstxt.Yandex}).Fetch(context.Background(), o, Validators{})
	if res.Policy != AllowAll || !res.Truncated || res.Unreachable {
		t.Errorf("yandex: %v %q", res.Policy, res.Reason)
	}
	// Exactly the limit is not cut.
	exact, _ := serve(t, status(200, strings.Repeat("a", 100)))
	res, _ = (&Fetcher{MaxBytes: 100, Dialect: robotstxt.Yandex}).Fetch(context.Background(), exact, Validators{})
	if res.Policy != Rules || res.Truncated || len(res.Body) != 100 {
		t.Errorf("exact limit: %v %v %d", res.Policy, res.Truncated, len(res.Body))
	}

	// An endless body costs the limit and one byte.
	var sent atomic.Int64
	endless, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		line := []byte("Disallow: /forever\n")
		for r.Context().Err() == nil {
			n, err := w.Write(line)
			sent.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	res, err = (&Fetcher{MaxBytes: 1000}).Fetch(context.Background(), endless, Validators{})
	if err != nil || res.Policy != Rules || !res.Truncated || len(res.Body) != 1000 {
		t.Errorf("endless: %v %v %d %v", res.Policy, res.Truncated, len(res.Body), err)
	}
}

func compress(t *testing.T, enc string, data []byte) []byte {
	var b bytes.Buffer
	var w io.WriteCloser
	switch enc {
	case "gzip":
		w = gzip.NewWriter(&b)
	case "deflate":
		w = zlib.NewWriter(&b)
	case "rawdeflate":
		w, _ = flate.NewWriter(&b, flate.BestCompression)
	case "br":
		w = brotli.NewWriter(&b)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return b.Bytes()
}

func TestDecompression(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /compressed\n")
	for _, enc := range []string{"gzip", "deflate", "rawdeflate", "br"} {
		data := compress(t, enc, body)
		header := enc
		if enc == "rawdeflate" {
			header = "deflate"
		}
		o, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", header)
			w.Write(data)
		})
		res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
		if err != nil || res.Policy != Rules || !bytes.Equal(res.Body, body) {
			t.Errorf("%s: %v %q %v", enc, res.Policy, res.Body, err)
		}
	}

	// A bomb: 16 MiB of zeros in 16 KiB of gzip cost the limit.
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for range 16 {
		zw.Write(zero)
	}
	zw.Close()
	bomb := b.Bytes()
	o, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb)
	})
	res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
	if err != nil || res.Policy != Rules || !res.Truncated || len(res.Body) != DefaultMaxBytes {
		t.Errorf("bomb: %v %v %d %v", res.Policy, res.Truncated, len(res.Body), err)
	}

	// A corrupt body is unreachable, at the decompress step.
	bad, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write([]byte("User-agent: * (not gzip)"))
	})
	res, err = (&Fetcher{}).Fetch(context.Background(), bad, Validators{})
	var fe *Error
	if !errors.As(err, &fe) || fe.Step != StepDecompress || res.Policy != DisallowAll || !res.Unreachable {
		t.Errorf("corrupt gzip: %+v %v", res, err)
	}
	unknown, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "zstd")
		w.Write([]byte("whatever"))
	})
	if _, err = (&Fetcher{}).Fetch(context.Background(), unknown, Validators{}); !errors.As(err, &fe) || fe.Step != StepDecompress {
		t.Errorf("zstd: %v", err)
	}
}

func TestTimeoutIsTyped(t *testing.T) {
	release := make(chan struct{})
	o, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\n"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	res, err := (&Fetcher{Timeout: 100 * time.Millisecond}).Fetch(context.Background(), o, Validators{})
	var fe *Error
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &fe) || fe.Step != StepReadBody || !fe.Timeout() || fe.Origin != o {
		t.Fatalf("err = %v", err)
	}
	if res.Policy != DisallowAll || !res.Unreachable || !strings.Contains(err.Error(), o.RobotsURL()) {
		t.Errorf("%+v: %v", res, err)
	}
	// The caller's own cancellation is reported as such.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&Fetcher{}).Fetch(ctx, o, Validators{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestNetworkSteps(t *testing.T) {
	// A closed port: refused at dial.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	o, _ := OriginOf("http://" + addr)
	res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
	var fe *Error
	if !errors.As(err, &fe) || fe.Step != StepDial || res.Policy != DisallowAll || !res.Unreachable || len(res.Trace) != 1 || res.Trace[0].Err == "" {
		t.Errorf("refused: %+v %v", res, err)
	}
	// A name that does not resolve, through an injected resolver.
	f := &Fetcher{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
	}}
	o, _ = OriginOf("https://no-such-host.invalid/")
	res, err = f.Fetch(context.Background(), o, Validators{})
	var dnsErr *net.DNSError
	if !errors.As(err, &fe) || fe.Step != StepDNS || !errors.As(err, &dnsErr) || res.Policy != DisallowAll {
		t.Errorf("dns: %+v %v", res, err)
	}
	// A TLS server with a certificate the client does not trust.
	srv := httptest.NewTLSServer(status(200, "User-agent: *\n"))
	defer srv.Close()
	o, _ = OriginOf(srv.URL)
	res, err = (&Fetcher{}).Fetch(context.Background(), o, Validators{})
	if !errors.As(err, &fe) || fe.Step != StepTLS || res.Policy != DisallowAll {
		t.Errorf("tls: %+v %v", res, err)
	}
	// crypto/tls's error names the step itself: the reason, the trace
	// and the error say "tls: " once.
	if strings.Contains(res.Reason, "tls: tls:") || !strings.Contains(res.Reason, "(tls: failed to verify certificate") ||
		len(res.Trace) != 1 || !strings.HasPrefix(res.Trace[0].Err, "tls: failed") || strings.Contains(err.Error(), "tls: tls:") {
		t.Errorf("tls: the step named twice: reason %q, trace %+v, error %q", res.Reason, res.Trace, err)
	}
	// The same server through a transport that trusts it.
	res, err = (&Fetcher{Transport: srv.Client().Transport}).Fetch(context.Background(), o, Validators{})
	if err != nil || res.Policy != Rules {
		t.Errorf("trusted tls: %+v %v", res, err)
	}
}

func TestFTP(t *testing.T) {
	for _, tc := range []struct {
		name   string
		srv    *ftpServer
		f      *Fetcher
		policy Policy
		status int
		down   bool
	}{
		{"file", &ftpServer{body: []byte("User-agent: *\nDisallow: /pub/\n")}, &Fetcher{}, Rules, 226, false},
		{"550", &ftpServer{retrReply: "550 No such file or directory"}, &Fetcher{}, AllowAll, 550, false},
		{"530 at PASS", &ftpServer{passReply: "530 Login incorrect"}, &Fetcher{}, AllowAll, 530, false},
		{"530 at USER", &ftpServer{userReply: "530 No anonymous logins"}, &Fetcher{}, AllowAll, 530, false},
		{"530 original", &ftpServer{passReply: "530 Login incorrect"}, &Fetcher{Dialect: robotstxt.Original}, DisallowAll, 530, false},
		{"450 transient", &ftpServer{retrReply: "450 File busy"}, &Fetcher{}, DisallowAll, 450, true},
		{"421 at PASS", &ftpServer{passReply: "421 Too many users"}, &Fetcher{}, DisallowAll, 421, true},
		{"truncated", &ftpServer{body: bytes.Repeat([]byte("Disallow: /a\n"), 100)}, &Fetcher{MaxBytes: 500}, Rules, 226, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startFTP(t, tc.srv)
			o, err := OriginOf("ftp://" + s.addr() + "/")
			if err != nil {
				t.Fatal(err)
			}
			res, err := tc.f.Fetch(context.Background(), o, Validators{})
			if res.Policy != tc.policy || res.Status != tc.status || res.Unreachable != tc.down || (err != nil) != tc.down {
				t.Fatalf("policy %v status %d unreachable %v err %v (%s)", res.Policy, res.Status, res.Unreachable, err, res.Reason)
			}
			if tc.policy == Rules {
				want := tc.srv.body[:min(len(tc.srv.body), tc.f.maxBytes())]
				if !bytes.Equal(res.Body, want) || res.Truncated != (len(tc.srv.body) > tc.f.maxBytes()) {
					t.Errorf("body %q truncated %v", res.Body, res.Truncated)
				}
				cmds := strings.Join(s.commands(), "|")
				if !strings.Contains(cmds, "USER anonymous|PASS ") || !strings.Contains(cmds, "RETR /robots.txt") {
					t.Errorf("commands %s", cmds)
				}
			}
		})
	}
	// Nothing listening: unreachable at dial.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	o, _ := OriginOf("ftp://" + addr)
	res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
	var fe *Error
	if !errors.As(err, &fe) || fe.Step != StepDial || res.Policy != DisallowAll {
		t.Errorf("ftp refused: %+v %v", res, err)
	}
}

func TestCacheControlAndRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want CacheControl
	}{
		{[]string{"max-age=60"}, CacheControl{MaxAge: time.Minute, HasMaxAge: true}},
		{[]string{`public, MAX-AGE="120", no-cache`}, CacheControl{MaxAge: 2 * time.Minute, HasMaxAge: true, NoCache: true}},
		// An invalid max-age, or a first one invalid, makes the answer
		// stale: max-age 0 (issue 9.8, RFC 9111 §4.2.1).
		{[]string{"no-store", "max-age=x"}, CacheControl{NoStore: true, HasMaxAge: true}},
		{[]string{"max-age=-1, max-age=5"}, CacheControl{HasMaxAge: true}},
		{nil, CacheControl{}},
	} {
		if got := parseCacheControl(tc.in); got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.in, got, tc.want)
		}
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"120", 2 * time.Minute, true},
		{now.Add(time.Hour).Format(http.TimeFormat), time.Hour, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"soon", 0, false},
		{"-3", 0, false},
		{"", 0, false},
	} {
		if d, ok := parseRetryAfter(tc.in, now); d != tc.want || ok != tc.ok {
			t.Errorf("%q: %v %v", tc.in, d, ok)
		}
	}
}

func TestPolicyStrings(t *testing.T) {
	for _, p := range []Policy{Rules, AllowAll, DisallowAll} {
		if q, ok := ParsePolicy(p.String()); !ok || q != p {
			t.Errorf("%v", p)
		}
	}
	if _, ok := ParsePolicy("maybe"); ok || Policy(0).String() != "policy(0)" {
		t.Error("bad policy read")
	}
}

func FuzzOriginOf(f *testing.F) {
	for _, s := range []string{"https://example.com/", "http://www.exämple.com:80/x", "ftp://[::1]:21/", "http://EXAMPLE.com:08080", "http://%41.com/", "http://a..b/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := OriginOf(s)
		if err != nil {
			return
		}
		again, err := OriginOf(o.RobotsURL())
		if err != nil || again != o {
			t.Fatalf("OriginOf(%q) = %+v, but its robots URL %q gives %+v, %v", s, o, o.RobotsURL(), again, err)
		}
	})
}

func TestVersionInUserAgent(t *testing.T) {
	// A released build says MAJOR.MINOR.PATCH (a pre-release or git
	// describe's suffix after it); a build from a working tree says devel,
	// with its commit when the go command recorded one.
	if !regexp.MustCompile(`^([0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?|devel(\+[0-9a-f]+(-dirty)?)?)$`).MatchString(Version) {
		t.Errorf("Version %q is neither MAJOR.MINOR.PATCH nor devel", Version)
	}
	if want := "robotstxt/" + Version + " (+https://github.com/seed53c283f5/robotstxt)"; DefaultUserAgent != want {
		t.Errorf("DefaultUserAgent %q, want %q", DefaultUserAgent, want)
	}
}
