package server

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"

	"github.com/seed53c283f5/robotstxt/guard"
	"github.com/seed53c283f5/robotstxt/internal/utc"
)

// The bounds of GET /v1/guard: the bytes read from the end of the decision
// log, and the decisions listed.
const (
	GuardViewBytes  = 1 << 20
	GuardViewRecent = 50
)

// GuardView is the answer of GET /v1/guard: the end of the decision log
// that robotstxt guard --decisions writes (Options.GuardDecisions), for the
// page's guard view.
type GuardView struct {
	// Configured is false when the server was given no decision log; the
	// rest is then empty.
	Configured bool   `json:"configured"`
	File       string `json:"file,omitempty"`
	// Read is the decisions read from the last GuardViewBytes of the log,
	// Unparsed the lines there that are not decisions.
	Read     int `json:"read"`
	Unparsed int `json:"unparsed"`
	// From and To are the times of the first and last decision read.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Counts are the decisions read by claimed crawler ("other" when none
	// was claimed), outcome and action, the most frequent first.
	Counts []GuardCount `json:"counts"`
	// Recent are the last decisions, newest first, at most
	// GuardViewRecent.
	Recent []guard.Decision `json:"recent"`
}

// GuardCount is how many decisions of the log's end had one crawler,
// outcome and action.
type GuardCount struct {
	Crawler string `json:"crawler"`
	Outcome string `json:"outcome"`
	Action  string `json:"action"`
	Count   int    `json:"count"`
}

func (s *Server) handleGuard(w http.ResponseWriter, r *http.Request) error {
	if e := onlyParams(r.URL.Query()); e != nil {
		return e
	}
	v, err := readGuardView(s.opts.GuardDecisions)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

// readGuardView reads the last GuardViewBytes of the decision log at path
// ("" for none).
func readGuardView(path string) (*GuardView, error) {
	v := &GuardView{Counts: []GuardCount{}, Recent: []guard.Decision{}}
	if path == "" {
		return v, nil
	}
	v.Configured, v.File = true, path
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return v, nil // nothing decided yet
		}
		return nil, fmt.Errorf("server: the decision log: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("server: the decision log: %w", err)
	}
	off := max(fi.Size()-GuardViewBytes, 0)
	buf := make([]byte, fi.Size()-off)
	n, err := f.ReadAt(buf, off)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("server: the decision log: %w", err)
	}
	buf = buf[:n]
	if off > 0 {
		// The first line was cut: start after it.
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		} else {
			buf = nil
		}
	}
	type key struct{ crawler, outcome, action string }
	counts := map[key]int{}
	var ring []guard.Decision
	for len(buf) > 0 {
		line := buf
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			line, buf = buf[:i], buf[i+1:]
		} else {
			buf = nil // a last line still being written is read if whole
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var d guard.Decision
		if err := json.Unmarshal(line, &d); err != nil || d.Time.IsZero() {
			// Not a decision: JSON of another shape has no time.
			v.Unparsed++
			continue
		}
		v.Read++
		if v.From == "" {
			v.From = utc.RFC3339(d.Time)
		}
		v.To = utc.RFC3339(d.Time)
		c := d.Claimed
		if c == "" {
			c = "other"
		}
		counts[key{c, d.Outcome.String(), d.Action.String()}]++
		if len(ring) == GuardViewRecent {
			ring = ring[1:]
		}
		ring = append(ring, d)
	}
	for k, n := range counts {
		v.Counts = append(v.Counts, GuardCount{Crawler: k.crawler, Outcome: k.outcome, Action: k.action, Count: n})
	}
	slices.SortFunc(v.Counts, func(a, b GuardCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Crawler, b.Crawler),
			cmp.Compare(a.Outcome, b.Outcome), cmp.Compare(a.Action, b.Action))
	})
	for i := len(ring) - 1; i >= 0; i-- {
		v.Recent = append(v.Recent, ring[i])
	}
	return v, nil
}
