package fetch

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"

	"github.com/andybalholm/brotli"
)

// limitedReader reads at most limit bytes of r, and remembers the error r
// itself returned, so that a failure of the connection is told apart from a
// failure of a decoder reading through it.
type limitedReader struct {
	r     io.Reader
	n     int64
	limit int64
	err   error // r's own error, other than io.EOF
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n >= l.limit {
		return 0, io.EOF
	}
	if int64(len(p)) > l.limit-l.n {
		p = p[:l.limit-l.n]
	}
	n, err := l.r.Read(p)
	l.n += int64(n)
	if err != nil && err != io.EOF {
		l.err = err
	}
	return n, err
}

// full reports whether the limit was reached: the rest of the stream, if
// any, was not read.
func (l *limitedReader) full() bool { return l.n >= l.limit }

// readBody reads at most limit bytes of a body, decoded by its
// Content-Encoding, reading at most limit+1 bytes from the connection and
// limit+1 decoded bytes (the extra byte tells that there was more). It returns
// the body cut to limit, whether it was cut, and on failure the step that
// failed (reading or decoding).
func readBody(r io.Reader, encoding string, limit int) (body []byte, truncated bool, step string, err error) {
	raw := &limitedReader{r: r, limit: int64(limit) + 1}
	var src io.Reader = raw
	encs := splitEncodings(encoding)
	if len(encs) > maxCodings {
		// Each layer costs a decoder and its window: a header naming
		// thousands would cost hundreds of megabytes.
		return nil, false, StepDecompress, fmt.Errorf("%d content codings (at most %d are decoded)", len(encs), maxCodings)
	}
	for _, enc := range encs {
		src, err = decoder(src, enc)
		if err != nil {
			if raw.err != nil {
				return nil, false, StepReadBody, raw.err
			}
			if errors.Is(err, io.EOF) {
				// An empty compressed body: nothing to decode.
				return nil, false, "", nil
			}
			return nil, false, StepDecompress, fmt.Errorf("%s body: %w", enc, err)
		}
	}
	body, err = io.ReadAll(io.LimitReader(src, int64(limit)+1))
	switch {
	case raw.err != nil:
		return body, false, StepReadBody, raw.err
	case err != nil && raw.full():
		// The compressed stream was cut by our limit: what was decoded
		// so far is the body, and it is truncated.
		truncated = true
	case err != nil:
		return body, false, StepDecompress, fmt.Errorf("%s body: %w", encoding, err)
	}
	if len(body) > limit {
		body, truncated = body[:limit], true
	}
	if raw.full() && encoding != "" {
		truncated = true
	}
	return body, truncated, "", nil
}

// maxCodings is how many content codings a body may have: real servers
// apply one.
const maxCodings = 4

// splitEncodings returns the content codings applied to a body, the last
// applied first (the order to undo them), without "identity".
func splitEncodings(h string) []string {
	var out []string
	parts := strings.Split(h, ",")
	for i := len(parts) - 1; i >= 0; i-- {
		e := strings.ToLower(strings.TrimSpace(parts[i]))
		if e != "" && e != "identity" {
			out = append(out, e)
		}
	}
	return out
}

// decoder returns a reader decoding content coding enc from r.
func decoder(r io.Reader, enc string) (io.Reader, error) {
	switch enc {
	case "gzip", "x-gzip":
		return gzip.NewReader(r)
	case "br":
		return brotli.NewReader(r), nil
	case "deflate":
		// RFC 9110 says zlib; some servers send raw deflate. The zlib
		// header tells them apart.
		br := bufio.NewReader(r)
		head, err := br.Peek(2)
		if err != nil {
			if len(head) == 0 {
				return nil, io.EOF
			}
			return nil, err
		}
		if head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
			return zlib.NewReader(br)
		}
		return flate.NewReader(br), nil
	}
	return nil, fmt.Errorf("unsupported content encoding %q", enc)
}

// mediaType returns the media type of a Content-Type header, lower-case.
func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
	}
	return mt
}
