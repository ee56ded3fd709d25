// Package utc formats the times the toolkit's JSON answers carry: RFC
// 3339 in UTC, and "" for no time. The CLI, the service and the audit
// report share it, so that a time reads the same in each.
package utc

import "time"

// RFC3339 formats t in UTC as RFC 3339 ("2026-01-02T15:04:05Z"), or gives
// "" for the zero time.
func RFC3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
