package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// floodCountConn counts the bytes read from a connection.
type floodCountConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *floodCountConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// startFlood starts an FTP server on loopback that answers with flood, a
// function that writes to the connection until it fails.
func startFlood(t *testing.T, flood func(c net.Conn, r *bufio.Reader)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				flood(c, bufio.NewReader(c))
			}()
		}
	}()
	return ln.Addr().String()
}

// writeForever writes chunk to c until the client goes away.
func writeForever(c net.Conn, chunk []byte) {
	for {
		if _, err := c.Write(chunk); err != nil {
			return
		}
	}
}

// TestFTPFlood: a server that sends an endless reply on the control
// connection (one endless line, endless "220-" lines, or an endless reply
// to USER) gets an error once 64 KiB of one reply are read; the client
// reads and allocates a bounded amount, not what the server sends.
func TestFTPFlood(t *testing.T) {
	line := []byte("220-" + strings.Repeat("x", 70) + "\r\n")
	for _, tc := range []struct {
		name  string
		flood func(c net.Conn, r *bufio.Reader)
	}{
		{"endless greeting line", func(c net.Conn, _ *bufio.Reader) {
			c.Write([]byte("220 "))
			writeForever(c, bytes.Repeat([]byte("A"), 32<<10))
		}},
		{"endless 220- lines", func(c net.Conn, _ *bufio.Reader) {
			writeForever(c, bytes.Repeat(line, 400))
		}},
		{"endless reply to USER", func(c net.Conn, r *bufio.Reader) {
			c.Write([]byte("220 ready\r\n"))
			r.ReadString('\n')
			writeForever(c, bytes.Repeat([]byte("331-more\r\n"), 3000))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := startFlood(t, tc.flood)
			var read atomic.Int64
			f := &Fetcher{Timeout: 10 * time.Second, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				var d net.Dialer
				c, err := d.DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return &floodCountConn{Conn: c, n: &read}, nil
			}}
			o, err := OriginOf("ftp://" + addr)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			res, err := f.Fetch(context.Background(), o, Validators{})
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrFTPReplyTooLong) || !strings.Contains(err.Error(), "64 KiB") {
				t.Fatalf("error %v, want ErrFTPReplyTooLong", err)
			}
			var fe *Error
			if !errors.As(err, &fe) || fe.Step != StepFTPLogin || !res.Unreachable || res.Policy != DisallowAll {
				t.Errorf("result %+v, error %v", res, err)
			}
			if n := read.Load(); n > 64<<10+64<<10 {
				t.Errorf("read %d bytes of the control connection, want at most 64 KiB and a buffer", n)
			}
			t.Logf("%d bytes read, %d allocated", read.Load(), after.TotalAlloc-before.TotalAlloc)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
				t.Errorf("allocated %d bytes", alloc)
			}
		})
	}
}

// TestFTPLargeFile checks that the control connection's bound does not
// apply to the data connection.
func TestFTPLargeFile(t *testing.T) {
	body := bytes.Repeat([]byte("Disallow: /a\n"), 30_000) // 390 KB
	s := startFTP(t, &ftpServer{body: body})
	o, err := OriginOf("ftp://" + s.addr())
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Fetcher{}).Fetch(context.Background(), o, Validators{})
	if err != nil || res.Policy != Rules || !bytes.Equal(res.Body, body) {
		t.Fatalf("policy %v, %d bytes, error %v", res.Policy, len(res.Body), err)
	}
}
