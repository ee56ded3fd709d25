package tester

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// aiUsageFile is the file of issue 34: about 500 KB of Content-Usage lines
// with a path each, all different.
func aiUsageFile() []byte {
	var sb strings.Builder
	sb.WriteString("User-agent: *\nDisallow: /private/\n")
	for i := 0; sb.Len() < 500_000; i++ {
		fmt.Fprintf(&sb, "Content-Usage: /p%d/ train-ai=n, search=y\n", i)
	}
	return []byte(sb.String())
}

func liveHeap() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestAIFootprint asks the AI report of the whole catalogue about the
// usage file of issue 34 and checks that the source's Footprint accounts
// for what the report leaves on it: before issue 34 the source kept 88 MB
// more than its 3 MB footprint, and the report took 4.7 s.
func TestAIFootprint(t *testing.T) {
	body := aiUsageFile()
	h0 := liveHeap()
	src := NewSource("usage", body)
	fp0 := src.Footprint()
	start := time.Now()
	rep, err := AI(src, &AIOptions{All: true, URLs: []string{"/p1/x", "/q", "/private/x"}})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	kept := liveHeap() - h0
	fp := src.Footprint()
	t.Logf("%d crawlers in %v; the source keeps %d KiB, its footprint %d KiB (%d KiB before the report)",
		len(rep.Crawlers), took.Round(time.Millisecond), kept>>10, fp>>10, fp0>>10)
	const slack = 64 << 10
	if kept > fp+slack {
		t.Errorf("the source keeps %d bytes after the report, but its Footprint is %d", kept, fp)
	}
	if fp < fp0 {
		t.Errorf("Footprint went down from %d to %d", fp0, fp)
	}
	if u := rep.Crawlers[0].Answers[0].Usage; u == nil || u.TrainAI != "n" {
		t.Errorf("the first crawler's usage at /p1/x: %+v, want train-ai=n", u)
	}
	runtime.KeepAlive(src)
}

// TestAIManyGroups asks the AI report of the whole catalogue about a file
// whose * group has 6,000 Content-Usage lines and which names 10,269
// crawlers in groups of their own: each crawler read the * group's lines
// again and added them to the finding's list (63 M line reads and 63 M
// list entries: 48 s). The finding lists them once.
func TestAIManyGroups(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("User-agent: *\nDisallow: /private/\n")
	for i := range 6000 {
		fmt.Fprintf(&sb, "Content-Usage: /p%d/ train-ai=n\n", i)
	}
	for i := 0; sb.Len() < 500_000; i++ {
		fmt.Fprintf(&sb, "\nUser-agent: bot%s\nAllow: /\n", letters26(i))
	}
	src := NewSource("many", []byte(sb.String()))
	start := time.Now()
	rep, err := AI(src, &AIOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("%d crawlers, %d findings, %v", len(rep.Crawlers), len(rep.Findings), took.Round(time.Millisecond))
	var f *AIFinding
	for i := range rep.Findings {
		if rep.Findings[i].Code == AIUsageNotInherited {
			f = &rep.Findings[i]
		}
	}
	if f == nil || len(f.Crawlers) < 10_000 || len(f.Lines) != 6000+8 {
		t.Fatalf("want one %s finding of over 10,000 crawlers and 6,008 lines: %+v", AIUsageNotInherited, f != nil)
	}
	if took > 20*time.Second {
		t.Errorf("the report took %v", took)
	}
}

// letters26 names i with letters only (a product token).
func letters26(i int) string {
	var b []byte
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}
