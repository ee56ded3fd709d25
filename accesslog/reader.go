package accesslog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// The magic numbers of the compressed formats Open reads.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// MaxZstdWindow bounds the memory a zstd stream may ask for its window:
// a stream that needs more is refused rather than allowed to take it.
const MaxZstdWindow = 64 << 20

// Open opens a log: the file name, or stdin when name is "-". A gzip or
// zstd stream (told by its first bytes) is decompressed as it is read;
// concatenated gzip members are read as one stream, as gzip(1) does.
// The caller closes the result (which does not close stdin).
func Open(name string, stdin io.Reader) (io.ReadCloser, error) {
	var r io.Reader
	var closer io.Closer
	if name == "-" {
		if stdin == nil {
			return nil, errors.New("accesslog: no standard input")
		}
		r = stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		r, closer = f, f
	}
	rc, err := Decompress(r)
	if err != nil {
		if closer != nil {
			closer.Close()
		}
		return nil, fmt.Errorf("accesslog: %s: %w", shownName(name), err)
	}
	return &stacked{ReadCloser: rc, under: closer}, nil
}

func shownName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

type stacked struct {
	io.ReadCloser
	under io.Closer
}

func (s *stacked) Close() error {
	err := s.ReadCloser.Close()
	if s.under != nil {
		if e := s.under.Close(); err == nil {
			err = e
		}
	}
	return err
}

// Decompress returns r decompressed when it starts with a gzip or zstd
// header, else r as it is (buffered). A compressed stream is decompressed
// on a goroutine of its own, a bounded 1 MB ahead of the reader, so that
// decompressing and parsing use two cores: Close stops it. A stream that
// decompresses to more than MaxRatio times the bytes it was read from
// (past its first MinRatioBytes) stops with a *RatioError: a
// decompression bomb, not a log.
func Decompress(r io.Reader) (io.ReadCloser, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	head, _ := br.Peek(4)
	in := &countReader{r: br}
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		z, err := gzip.NewReader(in)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return newReadAhead(&ratioReader{r: z, in: in, format: "gzip", close: z}), nil
	case bytes.HasPrefix(head, zstdMagic):
		z, err := zstd.NewReader(in, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(MaxZstdWindow), zstd.WithDecoderLowmem(true))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return newReadAhead(&ratioReader{r: z, in: in, format: "zstd", close: zstdCloser{z}}), nil
	}
	return io.NopCloser(br), nil
}

// Compressed names the compression a log starting with head has: "gzip"
// or "zstd", or "" for none. It knows the magic numbers as bytes, and as
// a JSON string carries them once its decoder has replaced the bytes that
// are not UTF-8 with U+FFFD (a compressed file pasted as text).
func Compressed(head []byte) string {
	const bad = "\uFFFD"
	switch {
	case bytes.HasPrefix(head, gzipMagic), bytes.HasPrefix(head, []byte("\x1f"+bad)):
		return "gzip"
	case bytes.HasPrefix(head, zstdMagic), bytes.HasPrefix(head, []byte("("+bad+"/"+bad)):
		return "zstd"
	}
	return ""
}

// MaxRatio bounds how many bytes a compressed log may decompress to per
// byte read: logs compress 10 to 50 times (repetitive ones a few hundred);
// past it, the stream is taken for a decompression bomb and refused. A
// 132 KB zstd file of 4 GiB of newlines is refused after 132 MiB.
const MaxRatio = 1024

// MinRatioBytes is what a compressed stream may decompress to whatever
// its ratio: a small file of few distinct bytes is a log still.
const MinRatioBytes = 16 << 20

// RatioError is the error of a compressed stream that decompressed to
// more than MaxRatio times its bytes.
type RatioError struct {
	Format   string // "gzip" or "zstd"
	In, Out  int64  // the compressed bytes read, and what they gave
	MaxRatio int64
}

func (e *RatioError) Error() string {
	return fmt.Sprintf("%s: %d compressed bytes decompressed to %d, more than %d times as many: a decompression bomb, not a log; decompress it yourself if it is one", e.Format, e.In, e.Out, e.MaxRatio)
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ratioReader stops a decompressed stream past MaxRatio.
type ratioReader struct {
	r      io.Reader
	in     *countReader
	out    int64
	format string
	close  io.Closer
	err    error
}

func (z *ratioReader) Read(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	n, err := z.r.Read(p)
	z.out += int64(n)
	if z.out > MinRatioBytes && z.out > MaxRatio*max(z.in.n, 1) {
		z.err = &RatioError{Format: z.format, In: z.in.n, Out: z.out, MaxRatio: MaxRatio}
		return n, z.err
	}
	return n, err
}

func (z *ratioReader) Close() error { return z.close.Close() }

type zstdCloser struct{ *zstd.Decoder }

func (z zstdCloser) Close() error { z.Decoder.Close(); return nil }

// MaxLineBytes is the default bound of a line's length: longer lines are
// reported whole-less (Scanner.Long) and skipped.
const MaxLineBytes = 64 << 10

// Scanner reads the lines of a log. Unlike bufio.Scanner it never stops
// at a long line: it skips it, and Long says so.
type Scanner struct {
	r     *bufio.Reader
	max   int
	line  []byte
	long  bool
	err   error
	bytes int64
}

// NewScanner returns a scanner of r's lines, each at most maxLine bytes
// (0: MaxLineBytes).
func NewScanner(r io.Reader, maxLine int) *Scanner {
	if maxLine <= 0 {
		maxLine = MaxLineBytes
	}
	return &Scanner{r: bufio.NewReaderSize(r, max(maxLine, 256<<10)), max: maxLine}
}

// Scan advances to the next line, false at the end of the input or on a
// read error (Err).
func (s *Scanner) Scan() bool {
	s.long = false
	if s.err != nil {
		return false
	}
	line, err := s.r.ReadSlice('\n')
	s.bytes += int64(len(line))
	if err == bufio.ErrBufferFull {
		// A line past the buffer: skip the rest of it.
		s.long = true
		s.line = line[:0]
		for err == bufio.ErrBufferFull {
			line, err = s.r.ReadSlice('\n')
			s.bytes += int64(len(line))
		}
		if err == io.EOF {
			err = nil
		}
		if err != nil {
			s.err = err
		}
		return true
	}
	if err != nil && err != io.EOF {
		s.err = err
		return false
	}
	if len(line) == 0 && err == io.EOF {
		s.err = io.EOF
		return false
	}
	if err == io.EOF {
		s.err = io.EOF
	}
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if len(line) > s.max {
		s.long = true
		line = line[:0]
	}
	s.line = line
	return true
}

// Bytes returns the line read, without its "\n"; valid until the next
// Scan. It is empty for a long line.
func (s *Scanner) Bytes() []byte { return s.line }

// Long reports whether the line read was longer than the bound (and so
// skipped).
func (s *Scanner) Long() bool { return s.long }

// Read returns how many bytes the scanner has read, lines and ends.
func (s *Scanner) Read() int64 { return s.bytes }

// Peek returns up to n of the next lines without consuming them (for
// Detect), at most the reader's buffer.
func (s *Scanner) Peek(n int) [][]byte {
	buf, _ := s.r.Peek(s.r.Size())
	var out [][]byte
	for len(out) < n && len(buf) > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			out = append(out, buf)
			break
		}
		out = append(out, buf[:i])
		buf = buf[i+1:]
	}
	return out
}

// Err returns the read error that ended Scan, nil at the end of the input.
func (s *Scanner) Err() error {
	if s.err == io.EOF {
		return nil
	}
	return s.err
}
