package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/accesslog"
	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/verify"
)

// AuditRequest is the body of POST /v1/audit: an access log and the
// robots.txt versions to judge it by (robotstxt audit, in the service).
// Exactly one of Robots, Versions and Origin gives the versions.
type AuditRequest struct {
	// Log is the access log's lines (combined, common, JSON lines or
	// Cloudflare's JSON), at most MaxBodyBytes with the rest of the body.
	Log string `json:"log"`
	// Robots is one robots.txt for the whole log.
	Robots string `json:"robots,omitempty"`
	// Versions are the versions in force, each from its time.
	Versions []AuditVersion `json:"versions,omitempty"`
	// Origin takes the versions the server's history holds for the site.
	Origin string `json:"origin,omitempty"`
	// Format names the log's format ("auto" or empty: detected); Fields
	// maps a JSON log's field names ("ip=client_ip,ua=agent").
	Format string `json:"format,omitempty"`
	Fields string `json:"fields,omitempty"`
	// UnknownBots lists the bot-like agents the catalogue does not know;
	// Top is how many disallowed paths each crawler lists (default 10,
	// at most 100).
	UnknownBots bool `json:"unknown_bots,omitempty"`
	Top         int  `json:"top,omitempty"`
}

// AuditVersion is a robots.txt version in force from From (RFC 3339;
// empty: since ever).
type AuditVersion struct {
	From   string `json:"from,omitempty"`
	Robots string `json:"robots"`
	Source string `json:"source,omitempty"`
}

// maxAuditVersions bounds the versions of one request.
const maxAuditVersions = 100

// handleAudit answers POST /v1/audit with the report robotstxt audit
// --json writes. With Options.Identity the claims are checked as the
// command line checks them (the service's address lists, reverse DNS
// bounded by a total budget); without it every claim is unverified.
func (s *Server) handleAudit(w http.ResponseWriter, r *http.Request) error {
	var req AuditRequest
	if e := decodeFrom(http.MaxBytesReader(w, r.Body, MaxBodyBytes), &req); e != nil {
		return e
	}
	if c := accesslog.Compressed([]byte(req.Log[:min(len(req.Log), 16)])); c != "" {
		// Compressed bytes do not survive a JSON string (the ones that
		// are not UTF-8 become U+FFFD): they would be read as lines of
		// noise, or a bomb's worth of them.
		return badField("log", "the log is %s-compressed: the service reads a log as text; decompress it first, or use robotstxt audit, which reads gzip and zstd files", c)
	}
	versions, e := s.auditVersions(r.Context(), &req)
	if e != nil {
		return e
	}
	format := accesslog.Auto
	if req.Format != "" {
		f, err := accesslog.ParseFormat(req.Format)
		if err != nil {
			return badField("format", "%s", strings.TrimPrefix(err.Error(), "accesslog: "))
		}
		format = f
	}
	var fields *accesslog.FieldMap
	if req.Fields != "" {
		m, err := accesslog.ParseFieldMap(req.Fields)
		if err != nil {
			return badField("fields", "%s", strings.TrimPrefix(err.Error(), "accesslog: "))
		}
		fields = m
	}
	if req.Top < 0 || req.Top > 100 {
		return badField("top", "want 1 to 100, got %d", req.Top)
	}
	var v *verify.Verifier
	if s.identity != nil {
		v = s.identity.verifier(r.Context(), s.store)
	}
	a, err := audit.New(&audit.Options{Versions: versions, Format: format, Fields: fields, Verifier: v, UnknownBots: req.UnknownBots, TopPaths: req.Top})
	if err != nil {
		return &Error{Status: http.StatusBadRequest, Message: err.Error()}
	}
	defer a.Close()
	if err := a.Scan(r.Context(), accesslog.NewScanner(strings.NewReader(req.Log), 0)); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, a.Report())
	return nil
}

// auditVersions reads the versions a request gives.
func (s *Server) auditVersions(ctx context.Context, req *AuditRequest) ([]audit.Version, *Error) {
	given := 0
	for _, set := range []bool{req.Robots != "", len(req.Versions) > 0, req.Origin != ""} {
		if set {
			given++
		}
	}
	if given != 1 {
		return nil, badField("robots", "give exactly one of robots (one file), versions (each from its time) and origin (the history's versions)")
	}
	switch {
	case req.Robots != "":
		return []audit.Version{{Source: "robots", Robots: robotstxt.ParseString(req.Robots)}}, nil
	case len(req.Versions) > 0:
		if len(req.Versions) > maxAuditVersions {
			return nil, badField("versions", "at most %d versions, got %d", maxAuditVersions, len(req.Versions))
		}
		var out []audit.Version
		untimed := 0
		for i, v := range req.Versions {
			var from time.Time
			if v.From != "" {
				t, err := time.Parse(time.RFC3339, v.From)
				if err != nil {
					return nil, badField(fmt.Sprintf("versions[%d].from", i), "want an RFC 3339 time (2026-11-10T12:00:00Z), got %q", v.From)
				}
				from = t
			} else {
				untimed++
			}
			src := v.Source
			if src == "" {
				src = fmt.Sprintf("versions[%d]", i)
			}
			out = append(out, audit.Version{From: from, Source: src, Robots: robotstxt.ParseString(v.Robots)})
		}
		if untimed > 1 {
			return nil, badField("versions", "more than one version without a time (from)")
		}
		return out, nil
	}
	o, e := originParam(req.Origin)
	if e != nil {
		return nil, e
	}
	hv, err := ReadHistory(ctx, s.store, o)
	if err != nil {
		return nil, s.failure(ctx, err)
	}
	if len(hv) == 0 {
		return nil, &Error{Status: http.StatusNotFound, Message: fmt.Sprintf("no history of %s: the server records a version at each live fetch (GET /v1/fetch); or give robots or versions", o)}
	}
	var out []audit.Version
	for i, h := range hv {
		t, _ := time.Parse(time.RFC3339, h.FetchedAt)
		if i == 0 {
			t = time.Time{}
		}
		out = append(out, audit.Version{From: t, Source: fmt.Sprintf("%s@%s (%s)", o, h.FetchedAt, h.Hash[:12]), Robots: robotstxt.Parse(h.Body)})
	}
	return out, nil
}
