package server

import (
	"context"
	"net/http"
	"time"

	"github.com/seed53c283f5/robotstxt/store/storeopen"
)

func (s *Server) handleHealthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyKey is the key /readyz reads: a miss is an answer.
const readyKey = "readyz probe"

// handleReadyz says whether the store answers. With a token set, a
// request without it learns that alone (ready or not); the store's name,
// its error and whether it is degraded need the token.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	details := s.opts.Token == ""
	if !details && r.Header.Get("Authorization") != "" {
		if !s.authorize(w, r) {
			return
		}
		details = true
	}
	h := storeopen.Health(s.store)
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if _, _, err := s.store.Get(ctx, readyKey); err != nil {
		s.metrics.storeProbeErrors.Inc()
		out := map[string]any{"status": "unavailable"}
		if details {
			out["store"], out["error"] = h.Name, "the store does not answer: "+err.Error()
		}
		writeJSON(w, http.StatusServiceUnavailable, out)
		return
	}
	out := map[string]any{"status": "ready"}
	if details {
		out["store"] = h.Name
		if h.Degraded {
			// Answers still come, from memory: ready, and saying so.
			out["degraded"] = h.Message
		}
		if n := storeopen.Notice(s.store); n != "" {
			// The file was set aside at start: what it held (the
			// watches too) is not in this run.
			out["damaged"] = n + "; the watches, history and cache it held are in the file moved aside"
		}
	}
	writeJSON(w, http.StatusOK, out)
}
