// Package redistest starts a real redis-server for tests, on a free port of
// the loopback address, and stops it when the test ends. Tests of the Redis
// store, and of the fleets that share one (the watch engine, the server, the
// bulk command), need the server itself, not a fake: the leases rely on its
// Lua scripts and its expiry, and the fallback on how its connections fail.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Install says how to get redis-server when it is missing.
const Install = "redis-server is not installed, and the Redis tests need a real server: " +
	"install it with `apt-get install -y redis-server` (Debian, Ubuntu; .ci/run does this), " +
	"`dnf install redis` (Fedora) or `brew install redis` (macOS)"

// Server is a redis-server started by a test.
type Server struct {
	// Addr is the server's address, 127.0.0.1 and its port.
	Addr string

	t    testing.TB
	bin  string
	dir  string
	port int
	args []string // more redis-server options
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// Start starts a redis-server for t and stops it when t ends. It fails t,
// saying how to install it, when redis-server is not in PATH.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartWith(t)
}

// StartWith is Start with more redis-server options, such as
// "--requirepass", "secret".
func StartWith(t testing.TB, args ...string) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal(Install)
	}
	s := &Server{t: t, bin: bin, dir: t.TempDir(), args: args}
	t.Cleanup(s.Kill)
	var last error
	for range 5 { // another process may take the free port first
		s.port = freePort(t)
		s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
		if last = s.start(); last == nil {
			return s
		}
	}
	t.Fatalf("redis-server did not start: %v", last)
	return nil
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (s *Server) start() error {
	log := filepath.Join(s.dir, "redis.log")
	s.cmd = exec.Command(s.bin,
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no",
		"--dir", s.dir, "--logfile", log)
	s.cmd.Args = append(s.cmd.Args, s.args...)
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) {
		_ = cmd.Wait()
		close(done)
	}(s.cmd, s.done)
	deadline := time.Now().Add(15 * time.Second)
	for {
		if ping(s.Addr) {
			return nil
		}
		select {
		case <-s.done:
			b, _ := os.ReadFile(log)
			return fmt.Errorf("it exited; its log:\n%s", b)
		default:
		}
		if time.Now().After(deadline) {
			s.Kill()
			return fmt.Errorf("it does not answer on %s", s.Addr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ping reports whether a Redis server answers PING at addr (refusing it
// for want of a password is an answer).
func ping(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && (strings.HasPrefix(line, "+PONG") || strings.HasPrefix(line, "-NOAUTH"))
}

// Kill stops the server at once (SIGKILL), as a crash would, and waits until
// it is gone. Killing a stopped server does nothing.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// Restart starts the server again on the same port and in the same
// directory: empty, since by default it saves nothing, or with its data
// when StartWith asked for persistence ("--appendonly", "yes").
func (s *Server) Restart() {
	s.t.Helper()
	s.Kill()
	if err := s.start(); err != nil {
		s.t.Fatalf("redis-server did not restart on %s: %v", s.Addr, err)
	}
}
