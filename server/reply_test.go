package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestHandleWritesReturnedErrors checks the one error writer: what a
// handlerFunc returns is written as writeError writes the answer failure
// makes of it, and nothing is written for nil.
func TestHandleWritesReturnedErrors(t *testing.T) {
	s, err := New(&Options{RequestTimeout: 7 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		err    error
		status int
		body   string
		retry  string
	}{
		{"bad field", badField("url", "fetch: not a URL"), 400,
			`{"error":"url: not a URL","field":"url"}` + "\n", ""},
		{"wrapped *Error", fmt.Errorf("outer: %w", &Error{Status: 404, Message: "tester: none"}), 404,
			`{"error":"none"}` + "\n", ""},
		{"retry", &Error{Status: 503, Message: "busy", Retry: 3}, 503,
			`{"error":"busy"}` + "\n", "3"},
		{"status 0 is 500", &Error{Message: "the page is missing"}, 500,
			`{"error":"the page is missing"}` + "\n", ""},
		{"deadline", fmt.Errorf("fetch: %w", context.DeadlineExceeded), 504,
			`{"error":"the request took longer than its deadline (7s)"}` + "\n", ""},
		{"other", errors.New("server: the disk is on fire"), 500,
			`{"error":"the disk is on fire"}` + "\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := s.handle(func(w http.ResponseWriter, r *http.Request) error { return c.err })
			rec := httptest.NewRecorder()
			h(rec, httptest.NewRequest("GET", "/x", nil))
			if rec.Code != c.status || rec.Body.String() != c.body {
				t.Errorf("got %d %q, want %d %q", rec.Code, rec.Body.String(), c.status, c.body)
			}
			if got := rec.Header().Get("Content-Type"); got != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", got)
			}
			if got := rec.Header().Get("Retry-After"); got != c.retry {
				t.Errorf("Retry-After %q, want %q", got, c.retry)
			}
		})
	}
	h := s.handle(func(w http.ResponseWriter, r *http.Request) error {
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
	rec := httptest.NewRecorder()
	h(rec, httptest.NewRequest("GET", "/x", nil))
	if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Errorf("nil error: got %d %q, want the handler's own 204", rec.Code, rec.Body.String())
	}
}
