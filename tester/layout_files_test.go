package tester

import (
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/filelayers"
)

// TestFileLayers keeps the layout of the AI report's files and the policy
// writer's (docs/architecture.md): among ai*.go, policy*.go and words.go,
// each file calls only into files below it, never back. It builds the
// static graph of calls between the package's own functions, by file, and
// fails on any cycle among those files, naming the calls that close it.
func TestFileLayers(t *testing.T) {
	laidOut := func(f string) bool {
		return strings.HasPrefix(f, "ai") || strings.HasPrefix(f, "policy") || f == "words.go"
	}
	filelayers.Check(t, ".", "tester", laidOut, 5)
}
