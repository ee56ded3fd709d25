// Package testweb holds the stand-ins for the web that the tests of the
// bulk engine and of the robotstxt commands fetch robots.txt files from:
// one in memory (Memory), and HTTP servers on loopback that a client
// reaches as its proxy, whatever host a URL names (Slow, Hostile). It
// also holds LockedBuffer, for what goroutines under test write.
package testweb

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	hostilegen "github.com/seed53c283f5/robotstxt/internal/hostile"
)

// Memory is an http.RoundTripper that answers robots.txt requests in
// memory as bench/fakeweb does: of hosts sN.test, one in ten answers 404,
// one in fifty 503, the others a small file.
type Memory struct{}

// RoundTrip answers r for its host at once.
func (Memory) RoundTrip(r *http.Request) (*http.Response, error) {
	host := r.URL.Hostname()
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(host, "s"), ".test"))
	resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Request: r, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	body := ""
	switch {
	case n%50 == 7:
		resp.StatusCode = http.StatusServiceUnavailable
	case n%10 == 3:
		resp.StatusCode = http.StatusNotFound
	default:
		resp.Header.Set("Content-Type", "text/plain")
		body = "User-agent: *\nDisallow: /private\nDisallow: /tmp/*.php$\nAllow: /private/ok\n\nUser-agent: Bingbot\nDisallow: /\n\nSitemap: http://" + host + "/sitemap.xml\n"
	}
	resp.Body = io.NopCloser(strings.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// MemoryInput is the input of bench/bulk.sh, smaller: urls URLs, one a
// line, over origins origins of Memory, the same each time.
func MemoryInput(urls, origins int) []byte {
	paths := [...]string{"/", "/private/a", "/private/ok/b", "/tmp/x.php", "/blog/post?id="}
	rnd := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for i := range urls {
		fmt.Fprintf(&b, "http://s%d.test%s%d\n", rnd.IntN(origins), paths[i%5], i)
	}
	return b.Bytes()
}

// Slow is an HTTP proxy that stands in for the web: slow.test answers its
// robots.txt once Free is called, every other host at once.
type Slow struct {
	*httptest.Server
	release chan struct{}
	once    sync.Once
}

// NewSlow starts a Slow web for t, and frees and stops it when t ends.
func NewSlow(t testing.TB) *Slow {
	sw := &Slow{release: make(chan struct{})}
	sw.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Hostname() == "slow.test" {
			select {
			case <-sw.release:
			case <-r.Context().Done():
				return
			}
		}
		io.WriteString(w, "User-agent: *\nDisallow: /private\n")
	}))
	t.Cleanup(func() {
		sw.Free()
		sw.CloseClientConnections()
		sw.Close()
	})
	return sw
}

// Free lets slow.test answer; calling it again does nothing.
func (sw *Slow) Free() { sw.once.Do(func() { close(sw.release) }) }

// Hostile is an http.Handler that stands in for the web: host hN.test
// serves the hostile file of shape N mod 4 (internal/hostile: about 500
// KiB of wildcard rules each), with a first line of its own, so that
// every origin is a file of its own to fetch and parse. It answers as a
// proxy (the host in the URL) or as the site itself (the Host header).
// Server is the one NewHostile starts; a Hostile of one's own serves with
// any server.
type Hostile struct {
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

// NewHostile starts a Hostile web on loopback for t, and stops it when t
// ends.
func NewHostile(t testing.TB) *Hostile {
	hw := &Hostile{}
	hw.Server = httptest.NewServer(hw)
	t.Cleanup(func() {
		hw.CloseClientConnections()
		hw.Close()
	})
	return hw
}

// ServeHTTP answers a robots.txt request, and 404 for anything else.
func (hw *Hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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

// Robots is how many robots.txt requests hw has answered.
func (hw *Hostile) Robots() int {
	hw.mu.Lock()
	defer hw.mu.Unlock()
	return hw.robots
}

// HostileInput returns perOrigin URLs for each of origins hostile
// origins, origin by origin: 1 KiB URLs in the alphabet of the origin's
// shape (the ones the hostile benchmarks ask).
func HostileInput(origins, perOrigin int) string {
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

// LockedBuffer is a bytes.Buffer that goroutines under test write to and
// the test reads while they run.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is what has been written so far.
func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
