package server

import (
	"strings"

	"github.com/seed53c283f5/robotstxt/store"
)

// publicStoreName is how the answers every visitor sees (GET /v1/fetch,
// the page's fetch table, /v1/bulk's summary) name the service's store:
// its kind alone ("memory", "bbolt", "redis"), never the file path or the
// address the operator configured, which are the server's business.
// "memory, in place of bbolt" says a store fell back. The operator sees
// the whole name in the log and, with the token, on /readyz.
func publicStoreName(h store.Health) string {
	kind := func(name string) string {
		if i := strings.IndexAny(name, " \t"); i >= 0 {
			return name[:i]
		}
		return name
	}
	name := kind(h.Name)
	if h.Degraded && name != "memory" {
		return "memory, in place of " + name
	}
	return name
}
