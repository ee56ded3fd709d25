package guard

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// DefaultSinkBuffer is how many decisions a FileSink holds for its writer
// by default.
const DefaultSinkBuffer = 4096

// FileSink writes decisions as JSON lines, one object a decision, on a
// goroutine of its own. Record never blocks: a decision that finds the
// buffer full is dropped and counted (Dropped). Close writes what is
// buffered and closes the file.
type FileSink struct {
	ch      chan Decision
	w       io.Writer
	closer  io.Closer
	done    chan struct{}
	once    sync.Once
	mu      sync.RWMutex // read-held by Record while sending, held by Close to close ch
	closed  bool
	dropped atomic.Int64
	written atomic.Int64
	err     error
}

// OpenFileSink appends decisions to the file at path (made 0640 when it
// does not exist); buffer decisions wait for the writer (0:
// DefaultSinkBuffer).
func OpenFileSink(path string, buffer int) (*FileSink, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return nil, err
	}
	s := NewWriterSink(f, buffer)
	s.closer = f
	return s, nil
}

// NewWriterSink writes decisions to w (buffer as OpenFileSink takes it).
func NewWriterSink(w io.Writer, buffer int) *FileSink {
	if buffer <= 0 {
		buffer = DefaultSinkBuffer
	}
	s := &FileSink{ch: make(chan Decision, buffer), w: w, done: make(chan struct{})}
	go s.run()
	return s
}

// Record queues d for writing, or drops it when the queue is full.
func (s *FileSink) Record(d Decision) {
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		s.dropped.Add(1)
		return
	}
	select {
	case s.ch <- d:
	default:
		s.dropped.Add(1)
	}
	s.mu.RUnlock()
}

// Dropped returns the decisions dropped because the writer was behind
// (or the sink closed).
func (s *FileSink) Dropped() int64 { return s.dropped.Load() }

// Written returns the decisions written.
func (s *FileSink) Written() int64 { return s.written.Load() }

func (s *FileSink) run() {
	defer close(s.done)
	bw := bufio.NewWriterSize(s.w, 64<<10)
	// The encoder escapes <, > and & as json.Marshal does, so that each
	// line is byte for byte Decision.MarshalJSON's, written without its
	// second pass (a Marshaler's output is checked and copied again).
	enc := json.NewEncoder(bw)
	for d := range s.ch {
		if err := enc.Encode(d.logged()); err != nil {
			s.fail(err)
			continue
		}
		s.written.Add(1)
		if len(s.ch) == 0 {
			if err := bw.Flush(); err != nil {
				s.fail(err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		s.fail(err)
	}
}

func (s *FileSink) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// Close writes the decisions queued, stops the writer and closes the
// file; it returns the first write error.
func (s *FileSink) Close() error {
	s.once.Do(func() {
		s.mu.Lock()
		s.closed = true
		close(s.ch)
		s.mu.Unlock()
		<-s.done
		if s.closer != nil {
			if err := s.closer.Close(); err != nil && s.err == nil {
				s.err = err
			}
		}
	})
	return s.err
}
