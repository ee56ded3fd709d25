package redistest

import (
	"strings"
	"testing"
)

// recorder is a testing.TB whose Fatal records the message and stops the
// caller, as the real one does, by a panic the test recovers.
type recorder struct {
	testing.TB
	fatal string
}

type stopped struct{}

func (r *recorder) Helper() {}
func (r *recorder) Fatal(args ...any) {
	for _, a := range args {
		r.fatal += a.(string)
	}
	panic(stopped{})
}

func TestMissingServerFails(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // nothing there
	r := &recorder{TB: t}
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(stopped); !ok {
					panic(v)
				}
			}
		}()
		Start(r)
	}()
	if !strings.Contains(r.fatal, "redis-server is not installed") || !strings.Contains(r.fatal, "apt-get install -y redis-server") {
		t.Fatalf("Start without redis-server: %q, want a failure saying how to install it", r.fatal)
	}
}

func TestStartKillRestart(t *testing.T) {
	s := Start(t)
	if !ping(s.Addr) {
		t.Fatal("the server does not answer after Start")
	}
	s.Kill()
	if ping(s.Addr) {
		t.Fatal("the server answers after Kill")
	}
	addr := s.Addr
	s.Restart()
	if s.Addr != addr || !ping(s.Addr) {
		t.Fatalf("after Restart: %s answers %v, want %s", s.Addr, ping(s.Addr), addr)
	}
	s.Kill()
	s.Kill() // twice: nothing to do
}
