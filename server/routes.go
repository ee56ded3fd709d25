package server

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
)

// route is one pattern of the mux; api routes are under auth and the
// rate limit.
type route struct {
	pattern string
	api     bool
	handler http.HandlerFunc
}

//go:embed openapi.json
var openAPI []byte

//go:embed web
var webFiles embed.FS

func (s *Server) routeTable() []route {
	return []route{
		{"GET /{$}", false, s.handle(s.handlePage)},
		{"GET /healthz", false, s.handleHealthz},
		{"GET /readyz", false, s.handleReadyz},
		{"GET /metrics", false, s.tokenGate(s.metrics.handler()).ServeHTTP},
		{"GET /app.js", false, servePageFile("app.js", pageFiles["app.js"])},
		{"GET /style.css", false, servePageFile("style.css", pageFiles["style.css"])},
		{"GET /js/{name}", false, servePageModule},
		{"GET /v1/openapi.json", false, s.handleOpenAPI},
		{"GET /v1/crawlers", true, s.handle(s.handleCrawlers)},
		{"GET /v1/fetch", true, s.handle(s.handleFetch)},
		{"GET /v1/history", true, s.handle(s.handleHistory)},
		{"GET /v1/history/version", true, s.handle(s.handleHistoryVersion)},
		{"POST /v1/check", true, s.handle(s.handleCheck)},
		{"POST /v1/lint", true, s.handle(s.handleLint)},
		{"POST /v1/compare", true, s.handle(s.handleCompare)},
		{"POST /v1/diff", true, s.handle(s.handleDiff)},
		{"POST /v1/ai", true, s.handleAI},
		{"POST /v1/policy", true, s.handlePolicy},
		{"POST /v1/bulk", true, s.handle(s.handleBulk)},
		{"POST /v1/audit", true, s.handle(s.handleAudit)},
		{"POST /v1/verify", true, s.handle(s.handleVerify)},
		{"GET /v1/guard", true, s.handle(s.handleGuard)},
		{"POST /v1/watches", true, s.handle(s.handleWatchCreate)},
		{"GET /v1/watches", true, s.handle(s.handleWatchList)},
		{"GET /v1/watches/{id}", true, s.handle(s.handleWatchGet)},
		{"DELETE /v1/watches/{id}", true, s.handle(s.handleWatchDelete)},
	}
}

// jsonMisses answers a request under /v1/ that no route takes (404, or
// 405 with its Allow header) in JSON, as every other answer of the API;
// mux answers the rest.
func jsonMisses(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/v1/") {
			mux.ServeHTTP(w, r)
			return
		}
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		// No pattern: a miss, or a redirect to the cleaned path. The
		// mux's own answer says which.
		rec := &missRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		switch rec.status {
		case http.StatusNotFound:
			writeError(w, &Error{Status: http.StatusNotFound, Message: fmt.Sprintf("no route %s %s; the API's routes are in GET /v1/openapi.json", r.Method, r.URL.Path)})
		case http.StatusMethodNotAllowed:
			allow := rec.header.Get("Allow")
			w.Header().Set("Allow", allow)
			writeError(w, &Error{Status: http.StatusMethodNotAllowed, Message: fmt.Sprintf("%s takes %s, not %s", r.URL.Path, allow, r.Method)})
		default:
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.status)
			w.Write(rec.body.Bytes())
		}
	})
}

// missRecorder keeps the mux's answer to a request no route takes.
type missRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (m *missRecorder) Header() http.Header { return m.header }

func (m *missRecorder) WriteHeader(code int) {
	if m.status == 0 {
		m.status = code
	}
}

func (m *missRecorder) Write(b []byte) (int, error) {
	m.WriteHeader(http.StatusOK)
	if m.body.Len() < 4<<10 {
		m.body.Write(b)
	}
	return len(b), nil
}

// routeOf is the route of a request in logs and metrics: its pattern.
func routeOf(r *http.Request) string {
	if r.Pattern == "" {
		return "unmatched"
	}
	return r.Pattern
}

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) error {
	b, err := fs.ReadFile(webFiles, "web/index.html")
	if err != nil {
		return &Error{Message: "the page is missing from the binary"}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b)
	return nil
}

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(openAPI)
}
