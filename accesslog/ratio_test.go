package accesslog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// newlines is an endless reader of newlines, n bytes of them.
type newlines struct{ n int64 }

func (r *newlines) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), r.n)
	for i := range p[:k] {
		p[i] = '\n'
	}
	r.n -= k
	return int(k), nil
}

// bomb returns n newlines compressed with format.
func bomb(t testing.TB, format string, n int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch format {
	case "zstd":
		z, err := zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
		if err != nil {
			t.Fatal(err)
		}
		w = z
	default:
		z, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		w = z
	}
	if _, err := io.Copy(w, &newlines{n}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDecompressRatio reads the file of issue 34, made smaller: a zstd stream of 256 MiB
// of newlines (the was 4 GiB in 132 KB: it ran audit past 120 s).
func TestDecompressRatio(t *testing.T) {
	for _, format := range []string{"zstd", "gzip"} {
		size := int64(256 << 20)
		if format == "gzip" {
			size = 64 << 20 // deflate's ratio is 1,032 at most: past MaxRatio
		}
		b := bomb(t, format, size)
		start := time.Now()
		rc, err := Decompress(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, rc)
		rc.Close()
		var re *RatioError
		t.Logf("%s: %d bytes compressed, %d read in %v: %v", format, len(b), n, time.Since(start).Round(time.Millisecond), err)
		if format == "gzip" && float64(size)/float64(len(b)) <= MaxRatio {
			if err != nil {
				t.Errorf("gzip at ratio %.0f: %v", float64(size)/float64(len(b)), err)
			}
			continue
		}
		if !errors.As(err, &re) || re.Format != format {
			t.Fatalf("%s bomb: read %d bytes, error %v; want a RatioError", format, n, err)
		}
		if n > MaxRatio*int64(len(b))+MinRatioBytes+4<<20 {
			t.Errorf("%s bomb: read %d bytes before stopping, more than %d times its %d", format, n, MaxRatio, len(b))
		}
	}
	// A repetitive log (a probe's, every second, from a few addresses)
	// is read whole.
	var logs bytes.Buffer
	for i := range 200_000 {
		fmt.Fprintf(&logs, "10.0.0.%d - - [10/Oct/2026:%02d:%02d:%02d +0000] \"GET /healthz HTTP/1.1\" 200 2 \"-\" \"kube-probe/1.29\"\n",
			i%4, i/3600%24, i/60%60, i%60)
	}
	for _, format := range []string{"zstd", "gzip"} {
		var buf bytes.Buffer
		var w io.WriteCloser
		if format == "zstd" {
			w, _ = zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
		} else {
			w = gzip.NewWriter(&buf)
		}
		w.Write(logs.Bytes())
		w.Close()
		rc, _ := Decompress(&buf)
		n, err := io.Copy(io.Discard, rc)
		rc.Close()
		if err != nil || n != int64(logs.Len()) {
			t.Errorf("%s log of one repeated line: %d of %d bytes, %v", format, n, logs.Len(), err)
		}
	}
}
