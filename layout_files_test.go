package robotstxt

import (
	"testing"

	"github.com/seed53c283f5/robotstxt/internal/filelayers"
)

// TestFileLayers keeps the package's layout (docs/architecture.md): its
// files form layers, each calling only into files below it, so that a
// reader follows a URL's trip downward and never climbs back. It builds
// the static graph of calls between the package's own functions, by file,
// and fails on any cycle of files, naming the calls that close it.
func TestFileLayers(t *testing.T) {
	filelayers.Check(t, ".", "robotstxt", func(string) bool { return true }, 10)
}
