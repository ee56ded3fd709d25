package audit

import (
	"bytes"
	"context"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/accesslog"
	"github.com/seed53c283f5/robotstxt/internal/loggen"
)

var (
	benchOnce  sync.Once
	benchLog   []byte
	benchLines int64
)

// benchData is a generated log of 64 MB of combined lines.
func benchData() ([]byte, int64) {
	benchOnce.Do(func() {
		var b bytes.Buffer
		benchLines, _ = loggen.Write(&b, 64<<20, 7)
		benchLog = b.Bytes()
	})
	return benchLog, benchLines
}

// BenchmarkLineCount is the ceiling: the same log's lines only counted,
// through the same line scanner.
func BenchmarkLineCount(b *testing.B) {
	data, lines := benchData()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		s := accesslog.NewScanner(bytes.NewReader(data), 0)
		n := int64(0)
		for s.Scan() {
			n++
		}
		if n != lines {
			b.Fatalf("%d lines, want %d", n, lines)
		}
	}
	reportRates(b, lines, cpu0)
}

// BenchmarkAudit audits the same log with DNS off: parse, identify,
// judge by the version in force, track identities and top paths.
func BenchmarkAudit(b *testing.B) {
	data, lines := benchData()
	rb := robotstxt.ParseString(loggen.Robots)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		a, err := New(&Options{Versions: []Version{{Robots: rb}}, UnknownBots: true})
		if err != nil {
			b.Fatal(err)
		}
		if err := a.Scan(context.Background(), accesslog.NewScanner(bytes.NewReader(data), 0)); err != nil {
			b.Fatal(err)
		}
		if r := a.Report(); r.Lines != lines {
			b.Fatalf("%d lines, want %d", r.Lines, lines)
		}
		a.Close()
	}
	reportRates(b, lines, cpu0)
}

// reportRates reports lines a second of wall time, and lines a second of
// the process's CPU time (user and system): on a machine shared with
// other work the second says what the code does, the first what the
// machine gave it.
func reportRates(b *testing.B, lines int64, cpu0 time.Duration) {
	n := float64(lines) * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "lines/s")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(n/cpu.Seconds(), "lines/cpu-s")
	}
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
