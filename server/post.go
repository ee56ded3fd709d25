package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/seed53c283f5/robotstxt/tester"
)

// respond answers a POST route with the engine's value, and notes about
// files past the size limit: a check's answer as it is made (writeCheck),
// any other encoded whole, within MaxAnswerBytes. It returns the error
// of an answer not started, for handle to write.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, v any, err error, notes []string) error {
	if err != nil {
		return apiError(err)
	}
	if cs, ok := v.(*checkStream); ok {
		return s.writeCheck(w, r, cs, notes)
	}
	if rep, ok := v.(*tester.CheckReport); ok && len(notes) == 0 && writeCheckReport(w, rep, s.opts.MaxAnswerBytes) {
		return nil
	}
	if len(notes) == 0 {
		// Encoded into one buffer and written from it, not copied.
		aw := &answerWriter{w: w, max: s.opts.MaxAnswerBytes}
		switch err := json.NewEncoder(aw).Encode(v); {
		case aw.size > 0:
			return s.answerTooLarge(aw.size)
		case err != nil && !aw.started:
			return &Error{Message: "the answer cannot be encoded: " + err.Error()}
		}
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return &Error{Message: "the answer cannot be encoded: " + err.Error()}
	}
	if len(b) > 1 && b[0] == '{' && b[len(b)-1] == '}' {
		// The notes go last: {..., "size_notes": [...]}.
		n, _ := json.Marshal(notes)
		sep := ","
		if len(b) == 2 {
			sep = ""
		}
		b = append(append(append(b[:len(b)-1], sep+`"size_notes":`...), n...), '}')
	}
	b = append(b, '\n')
	if int64(len(b)) > s.opts.MaxAnswerBytes {
		return s.answerTooLarge(int64(len(b)))
	}
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Cache-Control"] = noStore
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	return nil
}

// stallWriter is the writer of a streamed answer: each piece past the
// first few kilobytes must be taken by the client within stall (a write
// deadline on the connection, set before the piece), so that a client
// that does not read holds its request's memory for stall, not for the
// server's WriteTimeout.
type stallWriter struct {
	http.ResponseWriter
	rc       *http.ResponseController
	stall    time.Duration
	written  int64
	timedOut bool
}

// stallFree is what an answer writes before its pieces are timed: a small
// answer goes out in one write, to the connection's buffers.
const stallFree = 32 << 10

func (w *stallWriter) Write(p []byte) (int, error) {
	if w.written+int64(len(p)) > stallFree {
		w.rc.SetWriteDeadline(time.Now().Add(w.stall))
	}
	n, err := w.ResponseWriter.Write(p)
	w.written += int64(n)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		w.timedOut = true
	}
	return n, err
}

// stalled reports whether the answer was cut because its client stopped
// reading (err is the writer's).
func (w *stallWriter) stalled(err error) bool {
	return err != nil && (w.timedOut || errors.Is(err, os.ErrDeadlineExceeded))
}

// Unwrap lets http.ResponseController reach the connection.
func (w *stallWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// answerWriter is the writer of a JSON answer encoded whole (one Write):
// it sends the status and headers with it, or, for more than max bytes,
// writes nothing and notes the size.
type answerWriter struct {
	w       http.ResponseWriter
	max     int64
	started bool
	size    int64 // of an answer refused
}

func (a *answerWriter) Write(p []byte) (int, error) {
	if !a.started {
		if int64(len(p)) > a.max {
			a.size = int64(len(p))
			return 0, errAnswerTooLarge
		}
		h := a.w.Header()
		h["Content-Type"] = jsonContentType
		h["Cache-Control"] = noStore
		a.w.WriteHeader(http.StatusOK)
		a.started = true
	}
	return a.w.Write(p)
}

// answerTooLarge is the error of an answer found past MaxAnswerBytes
// (n bytes, or more when n is 0).
func (s *Server) answerTooLarge(n int64) *Error {
	size := "more"
	if n > 0 {
		size = sizeString(n) + ","
	}
	return &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf(
		"the answer is %s more than %s (--max-answer-bytes); ask about fewer or shorter URLs, or fewer crawlers, in several requests", size, sizeString(s.opts.MaxAnswerBytes))}
}

// writeCheck answers a check with writeCheck, result by result. An answer
// cut after its start breaks the connection (http.ErrAbortHandler), so
// that the client does not take a part for the whole; the error of an
// answer not started is returned, for handle to write.
func (s *Server) writeCheck(w http.ResponseWriter, r *http.Request, cs *checkStream, notes []string) error {
	ctx := r.Context()
	sw := &stallWriter{ResponseWriter: w, rc: http.NewResponseController(w), stall: s.opts.StallTimeout}
	started, err := writeCheck(sw, cs, notes, s.opts.MaxAnswerBytes, func() bool { return expired(ctx) })
	if sw.stalled(err) {
		s.metrics.stalls.Inc()
	}
	switch {
	case err == nil:
		return nil
	case started:
		s.log.Warn("check answer cut", "err", err, "client", s.clientIP(r).String())
		panic(http.ErrAbortHandler)
	case errors.Is(err, errAnswerTooLarge):
		return s.answerTooLarge(0)
	case errors.Is(err, errNotFinite):
		return &Error{Message: err.Error()}
	default:
		return apiError(err)
	}
}

type sizeFile = struct {
	name string
	cut  bool
	size int
}

// answerPost answers a POST route: servePost, its errors written by
// handle. The routes whose handlers are plain http.HandlerFuncs (AI,
// policy) call it.
func answerPost[Req, In any](s *Server, w http.ResponseWriter, r *http.Request,
	decodeReq func(http.ResponseWriter, *http.Request, *Req) *Error,
	input func(*Req) (In, *Error),
	costOf func(In) cost,
	run func(context.Context, In) (any, error),
	sizes func(In) []sizeFile) {
	s.handle(func(w http.ResponseWriter, r *http.Request) error {
		return servePost(s, w, r, decodeReq, input, costOf, run, sizes)
	})(w, r)
}

// servePost answers a POST route: it decodes the request, validates it
// into the engine's input, checks its cost against the limits and takes
// the memory it needs, asks the engine, and answers with the value and
// the notes on files past the size limit.
func servePost[Req, In any](s *Server, w http.ResponseWriter, r *http.Request,
	decodeReq func(http.ResponseWriter, *http.Request, *Req) *Error,
	input func(*Req) (In, *Error),
	costOf func(In) cost,
	run func(context.Context, In) (any, error),
	sizes func(In) []sizeFile) error {
	var req Req
	if e := decodeReq(w, r, &req); e != nil {
		return e
	}
	in, e := input(&req)
	if e != nil {
		return e
	}
	c := costOf(in)
	if e := s.checkLimits(c); e != nil {
		return e
	}
	if c.memory > 0 {
		release, e := s.acquire(r.Context(), s.admit.work, c.memory)
		if e != nil {
			return e
		}
		defer release()
	}
	v, err := run(r.Context(), in)
	return s.respond(w, r, v, err, truncationNotes(sizes(in)...))
}

// decodeAny is decode for a request type (the routes other than check).
func decodeAny[Req any](w http.ResponseWriter, r *http.Request, req *Req) *Error {
	return decode(w, r, req)
}

// handleCheck is servePost written out: the hot route, with its own
// decoder, keeps every allocation it can.
func (s *Server) handleCheck(w http.ResponseWriter, r *http.Request) error {
	var req CheckRequest
	if e := decodeCheck(w, r, &req, s.strings); e != nil {
		return e
	}
	in, e := s.checkInput(&req)
	if e != nil {
		return e
	}
	c := checkCost(in)
	if e := s.checkLimits(c); e != nil {
		return e
	}
	if c.memory > 0 {
		release, e := s.acquire(r.Context(), s.admit.work, c.memory)
		if e != nil {
			return e
		}
		defer release()
	}
	v, err := s.opts.Engine.Check(r.Context(), in)
	return s.respond(w, r, v, err, truncationNotes(sizeFile{"robots", in.Truncated, len(in.Robots)}))
}

func (s *Server) handleLint(w http.ResponseWriter, r *http.Request) error {
	return servePost(s, w, r, decodeAny[LintRequest], s.lintInput, lintCost, s.opts.Engine.Lint, func(in *LintInput) []sizeFile {
		return []sizeFile{{"robots", in.Truncated, len(in.Robots)}}
	})
}

func (s *Server) handleCompare(w http.ResponseWriter, r *http.Request) error {
	return servePost(s, w, r, decodeAny[CompareRequest], s.compareInput, compareCost, s.opts.Engine.Compare, func(in *CompareInput) []sizeFile {
		return []sizeFile{{"robots", in.Truncated, len(in.Robots)}}
	})
}

func (s *Server) handleDiff(w http.ResponseWriter, r *http.Request) error {
	return servePost(s, w, r, decodeAny[DiffRequest], s.diffInput, s.diffCost, s.opts.Engine.Diff, func(in *DiffInput) []sizeFile {
		return []sizeFile{{"old", in.OldTruncated, len(in.Old)}, {"new", in.NewTruncated, len(in.New)}}
	})
}
