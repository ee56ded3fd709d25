package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// handlerFunc is a route that returns its error rather than writing it:
// handle writes it. A handler returns an error only while it has written
// nothing; one that streams its answer writes, or breaks the connection
// on, the errors it meets after its start itself.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handle adapts h to net/http. It is the one place where a route's error
// becomes its answer: failure turns it into an *Error (kept as it is when
// it is one), writeError writes it.
func (s *Server) handle(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			writeError(w, s.failure(r.Context(), err))
		}
	}
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(&Error{Message: "the answer cannot be encoded: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, e *Error) {
	status := e.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if e.Retry > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.Retry))
	}
	writeJSON(w, status, &Error{Message: plainText(e.Message), Field: e.Field})
}

// cutPackagePrefix removes a leading "server: ", "tester: ", "fetch: ",
// "cache: " or "robotstxt: " from msg.
func cutPackagePrefix(msg string) (string, bool) {
	for _, p := range []string{"server: ", "tester: ", "fetch: ", "cache: ", "robotstxt: "} {
		if rest, ok := strings.CutPrefix(msg, p); ok {
			return rest, true
		}
	}
	return msg, false
}

// onlyParams refuses query parameters other than names, as the JSON
// bodies refuse unknown fields.
func onlyParams(q map[string][]string, names ...string) *Error {
	for k, v := range q {
		known := false
		for _, n := range names {
			known = known || k == n
		}
		if !known {
			return badField(k, "unknown parameter (want %s)", strings.Join(names, ", "))
		}
		if len(v) > 1 {
			return badField(k, "given %d times", len(v))
		}
	}
	return nil
}

// failure turns an error that is not the client's into its answer.
func (s *Server) failure(ctx context.Context, err error) *Error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return &Error{Status: http.StatusGatewayTimeout, Message: fmt.Sprintf("the request took longer than its deadline (%v)", s.opts.RequestTimeout)}
	}
	s.log.Error("request failed", "err", err)
	return &Error{Status: http.StatusInternalServerError, Message: err.Error()}
}
