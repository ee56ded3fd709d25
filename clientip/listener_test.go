package clientip

import (
	"net"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"
)

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1":               "192.0.2.1",
		"::ffff:192.0.2.1":        "192.0.2.1",
		"2001:db8:1:2:3:4:5:6":    "2001:db8:1:2::",
		"2001:db8:1:2::9":         "2001:db8:1:2::",
		"fe80::1%eth0":            "fe80::",
		"2001:db8:1:3:ffff::ffff": "2001:db8:1:3::",
	} {
		if got := Key(netip.MustParseAddr(in)); got.String() != want {
			t.Errorf("Key(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestLimitPerClient: a client holds at most PerClient connections (the
// next is closed at once and counted refused); closing one frees its
// place; a trusted peer is never refused; Open follows what is open.
func TestLimitPerClient(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trusted string
		refuse  bool
	}{{"untrusted", "none", true}, {"trusted", "127.0.0.0/8", false}} {
		t.Run(tc.name, func(t *testing.T) {
			inner, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			trusted, err := Parse(tc.trusted)
			if err != nil {
				t.Fatal(err)
			}
			var open atomic.Int64
			var refused atomic.Int32
			ln := LimitPerClient(inner, ListenerOptions{PerClient: 2, Trusted: trusted, Open: &open, Refused: func() { refused.Add(1) }})
			defer ln.Close()
			accepted := make(chan net.Conn, 10)
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						close(accepted)
						return
					}
					accepted <- c
				}
			}()
			var clients []net.Conn
			for range 3 {
				c, err := net.Dial("tcp", inner.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				clients = append(clients, c)
			}
			var got []net.Conn
			for range 2 {
				got = append(got, <-accepted)
			}
			if tc.refuse {
				// The third is closed by the listener: the client reads EOF.
				clients[2].SetReadDeadline(time.Now().Add(5 * time.Second))
				if _, err := clients[2].Read(make([]byte, 1)); err == nil {
					t.Error("the third connection was not closed")
				}
				if refused.Load() != 1 || open.Load() != 2 {
					t.Errorf("refused %d, open %d; want 1 and 2", refused.Load(), open.Load())
				}
				// Closing one frees its place.
				got[0].Close()
				got[0].Close() // counted once
				c, err := net.Dial("tcp", inner.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				select {
				case a := <-accepted:
					a.Close()
				case <-time.After(5 * time.Second):
					t.Fatal("a place freed was not given to the next connection")
				}
			} else {
				select {
				case a := <-accepted:
					a.Close()
				case <-time.After(5 * time.Second):
					t.Fatal("a trusted peer's third connection was refused")
				}
				if refused.Load() != 0 {
					t.Errorf("refused %d of a trusted peer", refused.Load())
				}
			}
			for _, c := range got {
				c.Close()
			}
		})
	}
}
