package accesslog

import (
	"errors"
	"io"
	"sync"
)

// readAheadChunk and readAheadDepth size the read-ahead: at most
// readAheadDepth chunks are decompressed ahead of the reader.
const (
	readAheadChunk = 256 << 10
	readAheadDepth = 4
)

// readAhead reads r on a goroutine of its own, up to readAheadDepth
// chunks ahead of its reader, so that decompressing the next chunk and
// parsing this one use two cores. Close stops the goroutine (and closes
// r when it is a Closer).
type readAhead struct {
	r     io.Reader
	full  chan chunk
	free  chan []byte
	quit  chan struct{}
	done  chan struct{}
	cur   chunk
	off   int
	once  sync.Once
	ended error
}

type chunk struct {
	b   []byte
	err error
}

var errClosed = errors.New("accesslog: read after Close")

func newReadAhead(r io.Reader) *readAhead {
	ra := &readAhead{r: r, full: make(chan chunk, readAheadDepth), free: make(chan []byte, readAheadDepth+1), quit: make(chan struct{}), done: make(chan struct{})}
	for range readAheadDepth + 1 {
		ra.free <- make([]byte, readAheadChunk)
	}
	go ra.fill()
	return ra
}

func (ra *readAhead) fill() {
	defer close(ra.done)
	defer close(ra.full)
	for {
		var buf []byte
		select {
		case buf = <-ra.free:
		case <-ra.quit:
			return
		}
		// Fill the chunk; the reader's own errors (io.ErrUnexpectedEOF of a
		// cut stream among them) pass as they are.
		n := 0
		var err error
		for n < len(buf) && err == nil {
			var k int
			k, err = ra.r.Read(buf[n:])
			n += k
		}
		select {
		case ra.full <- chunk{buf[:n], err}:
		case <-ra.quit:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read reads from the chunks read ahead.
func (ra *readAhead) Read(p []byte) (int, error) {
	for ra.off >= len(ra.cur.b) {
		if ra.ended != nil {
			return 0, ra.ended
		}
		if ra.cur.b != nil {
			ra.free <- ra.cur.b[:cap(ra.cur.b)]
			ra.cur.b = nil
		}
		c, ok := <-ra.full
		if !ok {
			ra.ended = errClosed
			return 0, ra.ended
		}
		ra.cur, ra.off = c, 0
		if c.err != nil {
			ra.ended = c.err
		}
		if len(c.b) == 0 && c.err != nil {
			return 0, c.err
		}
	}
	n := copy(p, ra.cur.b[ra.off:])
	ra.off += n
	return n, nil
}

// Close stops the read-ahead and closes the reader under it.
func (ra *readAhead) Close() error {
	ra.once.Do(func() { close(ra.quit) })
	<-ra.done
	if c, ok := ra.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
