package server

import (
	"fmt"
	"net/http"

	"github.com/seed53c283f5/robotstxt/fetch"
)

func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	if e := onlyParams(q, "origin"); e != nil {
		return e
	}
	o, e := originParam(q.Get("origin"))
	if e != nil {
		return e
	}
	versions, err := s.history.list(r.Context(), o)
	if err != nil {
		s.metrics.historyErrors.Inc()
		return err
	}
	// Newest first.
	out := make([]Version, 0, len(versions))
	for i := len(versions) - 1; i >= 0; i-- {
		out = append(out, versions[i])
	}
	writeJSON(w, http.StatusOK, HistoryAnswer{Origin: o.String(), Versions: out})
	return nil
}

func originParam(raw string) (fetch.Origin, *Error) {
	if raw == "" {
		return fetch.Origin{}, badField("origin", "give the origin (?origin=https://example.com)")
	}
	o, err := parseOrigin(raw)
	if err != nil {
		return fetch.Origin{}, badField("origin", "%v", err)
	}
	return o, nil
}

func (s *Server) handleHistoryVersion(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	if e := onlyParams(q, "origin", "hash"); e != nil {
		return e
	}
	o, e := originParam(q.Get("origin"))
	if e != nil {
		return e
	}
	hash := q.Get("hash")
	if !validHash(hash) {
		return badField("hash", "want the 64 hexadecimal digits of a version's SHA-256 (from GET /v1/history)")
	}
	v, body, found, err := s.history.version(r.Context(), o, hash)
	if err != nil {
		s.metrics.historyErrors.Inc()
		return err
	}
	if !found {
		return &Error{Status: http.StatusNotFound, Message: fmt.Sprintf("no version %s of %s in the history", hash, o), Field: "hash"}
	}
	writeJSON(w, http.StatusOK, VersionAnswer{Origin: o.String(), Version: v, Body: string(body)})
	return nil
}
