package webbotauth

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/internal/cputime"
)

// BenchmarkVerifyCached: one Web Bot Auth request (the draft's minimum:
// @authority and the Signature-Agent member, Ed25519) verified with its
// directory's copy in the cache: parsing, the base, the key lookup, the
// signature. Compare BenchmarkEd25519Verify for the signature's share.
func BenchmarkVerifyCached(b *testing.B) {
	s := newSigner(b)
	d := newDirServer(b, s)
	clk := newClock()
	clk.t = time.Now()
	v, _ := d.verifier(clk, DirectoryOptions{})
	r := request(b)
	s.sign(b, r, d.srv.URL, clk.Now(), sigSpec{})
	if res := v.Verify(context.Background(), r); res.Outcome != Verified {
		b.Fatal(res.Reason)
	}
	ctx := context.Background()
	b.ReportAllocs()
	cpu := cputime.Process()
	for b.Loop() {
		if res := v.Verify(ctx, r); res.Outcome != Verified {
			b.Fatal(res.Reason)
		}
	}
	reportCPU(b, cpu)
}

// reportCPU reports the process's CPU time per operation since cpu
// (with -cpu 1 the benchmark's own; GC included).
func reportCPU(b *testing.B, cpu time.Duration) {
	if d := cputime.Process() - cpu; d > 0 && b.N > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkVerifyCachedNonce: the same with a fresh nonce each time (the
// replay memory's check and record included).
func BenchmarkVerifyCachedNonce(b *testing.B) {
	s := newSigner(b)
	clk := newClock()
	clk.t = time.Now()
	v := New(Options{Keys: NewKeySet(mustKey(b, s.jwk)), Now: clk.Now})
	reqs := make([]*http.Request, 1024)
	for i := range reqs {
		reqs[i] = request(b)
		s.sign(b, reqs[i], "https://bot.example", clk.Now(), sigSpec{nonce: fmt.Sprintf("n%d", i)})
	}
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	cpu := cputime.Process()
	for b.Loop() {
		r := reqs[i%len(reqs)]
		i++
		v.nonces = newNoncesIfWrapped(v.nonces, i, len(reqs))
		if res := v.Verify(ctx, r); res.Outcome != Verified {
			b.Fatal(res.Reason)
		}
	}
	reportCPU(b, cpu)
}

// newNoncesIfWrapped starts a new replay memory each time the requests
// are reused, so that each verification is a first use.
func newNoncesIfWrapped(n *nonces, i, size int) *nonces {
	if i%size == 1 {
		return newNonces(0)
	}
	return n
}

// BenchmarkEd25519Verify: crypto/ed25519's verification of a signature
// base the size of the minimal Web Bot Auth one.
func BenchmarkEd25519Verify(b *testing.B) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	msg := make([]byte, 330)
	sig := ed25519.Sign(priv, msg)
	cpu := cputime.Process()
	for b.Loop() {
		if !ed25519.Verify(pub, msg, sig) {
			b.Fatal("no")
		}
	}
	reportCPU(b, cpu)
}
