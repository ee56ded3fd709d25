package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	hostilegen "github.com/seed53c283f5/robotstxt/internal/hostile"
)

// hostileWeb is an HTTP proxy that stands in for the web: host hN.test
// serves the hostile file of shape N mod 4 (internal/hostile: about 500
// KiB of wildcard rules each), with a first line of its own, so that
// every origin is a file of its own to fetch and parse.
type hostileWeb struct {
	*httptest.Server
	mu     sync.Mutex
	robots int // robots.txt requests answered
}

var (
	hostileShapesOnce sync.Once
	hostileShapes     []hostilegen.Shape
)

func shapes() []hostilegen.Shape {
	hostileShapesOnce.Do(func() { hostileShapes = hostilegen.Shapes() })
	return hostileShapes
}

func (hw *hostileWeb) serve(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Hostname()
	if host == "" {
		host, _, _ = strings.Cut(r.Host, ":")
	}
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(host, "h"), ".test"))
	if err != nil || r.URL.Path != "/robots.txt" {
		http.NotFound(w, r)
		return
	}
	hw.mu.Lock()
	hw.robots++
	hw.mu.Unlock()
	s := shapes()[n%4]
	w.Header().Set("Content-Type", "text/plain")
	fmt.Fprintf(w, "# %s\n", host)
	io.WriteString(w, s.Body)
}

// hostileInput returns perOrigin URLs for each of origins hostile
// origins, origin by origin: 1 KiB URLs in the alphabet of the origin's
// shape (the ones the hostile benchmarks ask).
func hostileInput(origins, perOrigin int) string {
	var b strings.Builder
	for n := range origins {
		s := shapes()[n%4]
		for k := range perOrigin {
			u := hostilegen.URL(1<<10, s.Alphabet[k%len(s.Alphabet):]+s.Alphabet[:k%len(s.Alphabet)])
			b.WriteString(strings.Replace(u, "http://example.com/", fmt.Sprintf("http://h%d.test/", n), 1))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestBulkHostileWebServe is not a test: with ROBOTSTXT_HOSTILE_WEB=FILE
// set it serves the hostile web on loopback, writes its address to FILE
// and the input of ROBOTSTXT_HOSTILE_ORIGINS origins (default 500), four
// URLs each, to FILE.urls, and runs until SIGTERM. bench/bulk.sh --hostile
// measures robotstxt bulk's peak RSS against it.
func TestBulkHostileWebServe(t *testing.T) {
	file := os.Getenv("ROBOTSTXT_HOSTILE_WEB")
	if file == "" {
		t.Skip("set ROBOTSTXT_HOSTILE_WEB to serve the hostile web (bench/bulk.sh --hostile)")
	}
	origins := 500
	if s := os.Getenv("ROBOTSTXT_HOSTILE_ORIGINS"); s != "" {
		var err error
		if origins, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	hw := &hostileWeb{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(hw.serve)}
	go srv.Serve(l)
	defer srv.Close()
	if err := os.WriteFile(file+".urls", []byte(hostileInput(origins, 4)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(l.Addr().String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	t.Logf("%d robots.txt requests answered", hw.robots)
}
