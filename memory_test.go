package robotstxt

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// hostileShape is a body of about 500 KiB built to make the parser keep or
// allocate as much as it can per input byte.
type hostileShape struct {
	name string
	body string
}

// repeatTo repeats line until the body is n bytes long (the last copy cut).
func repeatTo(head, line string, n int) string {
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteString(head)
	for sb.Len() < n {
		sb.WriteString(line)
	}
	return sb.String()[:n]
}

// numbered builds lines from f(i) until the body is n bytes long.
func numbered(head string, n int, f func(i int) string) string {
	var sb strings.Builder
	sb.Grow(n + 64)
	sb.WriteString(head)
	for i := 0; sb.Len() < n; i++ {
		sb.WriteString(f(i))
	}
	return sb.String()[:n]
}

func itoa26(i int) string {
	var b []byte
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}

func hostileShapes() []hostileShape {
	const n = DefaultMaxBytes
	return []hostileShape{
		{"one-token-lines", repeatTo("", "a\n", n)},
		{"newlines", repeatTo("", "\n", n)},
		{"cr-lines", repeatTo("", "\r", n)},
		{"crlf-lines", repeatTo("", "\r\n", n)},
		{"empty-keys", repeatTo("", ":\n", n)},
		{"unknown-keys", repeatTo("", "a:\n", n)},
		{"wild-rules", repeatTo("user-agent: *\n", "Disallow: /*a\n", n)},
		{"short-rules", repeatTo("user-agent: *\n", "allow:\n", n)},
		{"literal-rules", numbered("user-agent: *\n", n, func(i int) string { return "disallow:/" + itoa26(i) + "\n" })},
		{"index-htm-rules", repeatTo("user-agent: *\n", "allow:/index.htm\n", n)},
		{"escaped-rules", repeatTo("user-agent: *\n", "allow:/\xe9\n", n)},
		{"agent-lines", repeatTo("", "useragent:\n", n)},
		{"agent-tokens", numbered("", n, func(i int) string { return "user-agent:" + itoa26(i) + "\n" })},
		{"groups", repeatTo("", "useragent:\nallow:\n", n)},
		{"token-groups", numbered("", n, func(i int) string { return "user-agent:" + itoa26(i) + "\nallow:/\n" })},
		{"star-groups", repeatTo("", "user-agent:*\nallow:\n", n)},
		{"shared-token-groups", numbered("", n, func(i int) string { return "user-agent:a\nuser-agent:b\nuser-agent:" + itoa26(i) + "\nallow:/\n" })},
		{"crawl-delays", repeatTo("", "useragent:\ncrawl-delay:1\n", n)},
		{"request-rates", repeatTo("", "useragent:\nrequest-rate:1/1\nvisit-time:0000-0100\n", n)},
		{"sitemaps", repeatTo("", "sitemap:x\n", n)},
		{"hosts", repeatTo("", "host:x\n", n)},
		{"clean-params", repeatTo("", "clean-param:a\n", n)},
		{"clean-param-list", repeatTo("", "clean-param:"+strings.Repeat("a&", 8000)+"\n", n)},
		{"long-line", repeatTo("disallow:/", "a", n)},
		{"long-lines", repeatTo("user-agent:*\n", "disallow:/"+strings.Repeat("a*", 8000)+"\n", n)},
		{"nul-lines", repeatTo("user-agent:*\n", "allow:/\x00\n", n)},
	}
}

// memUse measures what f allocates and what stays reachable after it: the
// live heap after a collection, less the live heap before.
func memUse(f func() any) (alloc, kept int64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	x := f()
	runtime.ReadMemStats(&after)
	alloc = int64(after.TotalAlloc - before.TotalAlloc)
	runtime.GC()
	runtime.ReadMemStats(&after)
	kept = int64(after.HeapAlloc) - int64(before.HeapAlloc)
	runtime.KeepAlive(x)
	return alloc, kept
}

func TestMemoryReport(t *testing.T) {
	for _, s := range hostileShapes() {
		body := []byte(s.body)
		var r *Robots
		pa, pk := memUse(func() any { r = Parse(body); return r })
		ca, ck := memUse(func() any { r.Compile(); return r })
		la, lk := memUse(func() any {
			for range r.Lines() {
			}
			return r
		})
		n := float64(len(body))
		t.Logf("%-20s parse alloc %5.1fx kept %5.1fx | compile alloc %5.1fx kept %5.1fx | lines alloc %5.1fx kept %5.1fx",
			s.name, float64(pa)/n, float64(pk)/n, float64(ca)/n, float64(ck)/n, float64(la)/n, float64(lk)/n)
		runtime.KeepAlive(r)
	}
}

func TestMemoryReportCorpus(t *testing.T) {
	dir := "../shared/corpus/real"
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Skip(err)
	}
	var bodies [][]byte
	var n float64
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, b)
		n += float64(min(len(b), DefaultMaxBytes))
	}
	rs := make([]*Robots, len(bodies))
	pa, pk := memUse(func() any {
		for i, b := range bodies {
			rs[i] = Parse(b)
		}
		return rs
	})
	ca, ck := memUse(func() any {
		for _, r := range rs {
			r.Compile()
		}
		return rs
	})
	la, lk := memUse(func() any {
		for _, r := range rs {
			for range r.Lines() {
			}
		}
		return rs
	})
	t.Logf("%-20s parse alloc %5.2fx kept %5.2fx | compile alloc %5.2fx kept %5.2fx | lines alloc %5.2fx kept %5.2fx",
		"corpus", float64(pa)/n, float64(pk)/n, float64(ca)/n, float64(ck)/n, float64(la)/n, float64(lk)/n)
}
