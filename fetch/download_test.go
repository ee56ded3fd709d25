package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingConn counts the bytes a client reads from the network.
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// endlessServer streams robots.txt lines forever and reports, on done, how
// many bytes its handler managed to write before the client went away.
func endlessServer(t *testing.T, h2 bool) (*httptest.Server, *atomic.Int64, chan struct{}) {
	t.Helper()
	var written atomic.Int64
	done := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		line := []byte("Disallow: /forever/and/ever/and/ever\n")
		for r.Context().Err() == nil {
			n, err := w.Write(line)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	if h2 {
		srv.EnableHTTP2 = true
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, &written, done
}

func TestEndlessBodyIsNotDownloaded(t *testing.T) {
	for _, tc := range []struct {
		name string
		h2   bool
	}{{"http1", false}, {"h2", true}} {
		t.Run(tc.name, func(t *testing.T) {
			srv, written, done := endlessServer(t, tc.h2)
			var read atomic.Int64
			f := &Fetcher{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				var d net.Dialer
				c, err := d.DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return countingConn{c, &read}, nil
			}}
			if tc.h2 {
				tr := f.roundTripper().(*http.Transport)
				pool := x509.NewCertPool()
				pool.AddCert(srv.Certificate())
				if tr.TLSClientConfig == nil {
					tr.TLSClientConfig = &tls.Config{}
				}
				tr.TLSClientConfig.RootCAs = pool
			}
			o, _ := OriginOf(srv.URL)
			res, err := f.Fetch(context.Background(), o, Validators{})
			if err != nil || res.Policy != Rules || !res.Truncated || len(res.Body) != DefaultMaxBytes {
				t.Fatalf("%v truncated %v len %d: %v", res.Policy, res.Truncated, len(res.Body), err)
			}
			if tc.h2 && res.Trace[0].Status != 200 {
				t.Fatal("no answer")
			}
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("the server is still sending after the fetch returned")
			}
			t.Logf("client read %d bytes, server wrote %d", read.Load(), written.Load())
			if max := int64(DefaultMaxBytes + 96<<10); read.Load() > max {
				t.Errorf("the client read %d bytes from the network for a %d-byte limit", read.Load(), DefaultMaxBytes)
			}
		})
	}
}

// An error after a redirect to another host names the origin whose
// robots.txt was being fetched, not only the URL that failed.
func TestErrorNamesOriginAfterRedirect(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String() + "/robots.txt"
	ln.Close()
	from, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, dead, http.StatusMovedPermanently)
	})
	res, err := (&Fetcher{}).Fetch(context.Background(), from, Validators{})
	var fe *Error
	if !errors.As(err, &fe) || fe.Step != StepDial || res.Policy != DisallowAll {
		t.Fatalf("%+v %v", res, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, from.String()) || !strings.Contains(msg, dead) || !strings.Contains(msg, StepDial) {
		t.Errorf("error %q does not name the origin %s, the URL %s and the step", msg, from, dead)
	}
	if !strings.Contains(res.Reason, from.String()) && !strings.Contains(res.Reason, dead) {
		t.Errorf("reason %q names neither the origin nor the URL", res.Reason)
	}
}

// A transient refusal of USER (421: too many users, closing) is
// "unreachable", not a refused login: the FTP client library gives the
// text of a USER refusal without its code, which must not be read as 530.
func TestFTPTransientReplyToUser(t *testing.T) {
	for _, tc := range []struct {
		reply  string
		policy Policy
		status int
		down   bool
	}{
		{"421 Too many connections, try later", DisallowAll, 421, true},
		{"530 No anonymous logins", AllowAll, 530, false},
		{"550 Permission denied", AllowAll, 550, false},
	} {
		s := startFTP(t, &ftpServer{userReply: tc.reply})
		o, _ := OriginOf("ftp://" + s.addr() + "/")
		res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
		if res.Policy != tc.policy || res.Status != tc.status || res.Unreachable != tc.down || (err != nil) != tc.down {
			t.Errorf("%s: policy %v status %d unreachable %v err %v (%s)", tc.reply, res.Policy, res.Status, res.Unreachable, err, res.Reason)
		}
	}
}

// A body compressed many times over, each layer named in Content-Encoding,
// makes a decoder (and its window) per layer: the number of layers is
// bounded, so a small answer cannot make the fetcher allocate without limit.
func TestManyContentCodingsBounded(t *testing.T) {
	const layers = 1000
	body := []byte("User-agent: *\nDisallow: /x\n")
	zw, _ := gzip.NewWriterLevel(nil, gzip.HuffmanOnly)
	for range layers {
		var b bytes.Buffer
		zw.Reset(&b)
		zw.Write(body)
		zw.Close()
		body = b.Bytes()
	}
	enc := strings.TrimSuffix(strings.Repeat("gzip,", layers), ",")
	o, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", enc)
		w.Write(body)
	})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
	runtime.ReadMemStats(&after)
	t.Logf("%d compressed bytes, allocated %d bytes, policy %v, err %v", len(body), after.TotalAlloc-before.TotalAlloc, res.Policy, err)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("a %d-byte answer made the fetcher allocate %d MB", len(body), alloc>>20)
	}
	var fe *Error
	if !errors.As(err, &fe) || fe.Step != StepDecompress || res.Policy != DisallowAll {
		t.Errorf("%d content codings: %v %v", layers, res.Policy, err)
	}
	// A few layers are still decoded.
	two := compress(t, "gzip", compress(t, "deflate", []byte("User-agent: *\nDisallow: /x\n")))
	o2, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "deflate, gzip")
		w.Write(two)
	})
	res, err = (&Fetcher{}).Fetch(context.Background(), o2, Validators{})
	if err != nil || res.Policy != Rules || string(res.Body) != "User-agent: *\nDisallow: /x\n" {
		t.Errorf("two codings: %v %q %v", res.Policy, res.Body, err)
	}
}
