package fetch

import (
	"runtime/debug"
	"strings"
)

// modulePath is the toolkit's module, looked for in the build information.
const modulePath = "github.com/seed53c283f5/robotstxt"

// stamp is the version "make build" and "make release" write into the
// binary (-ldflags "-X github.com/seed53c283f5/robotstxt/fetch.stamp=...").
var stamp string

// Version is the toolkit's version: the one DefaultUserAgent sends and the
// one "robotstxt version" prints. It comes from the build, in this order:
// the version "make build" stamps (git describe); the module version the
// go command records ("go install .../cmd/robotstxt@v1.2.3" records
// v1.2.3, and a program that imports the toolkit records the version it
// requires); the commit the go command records from a checkout
// ("devel+38d6731", "-dirty" with uncommitted changes); else "devel".
// A leading "v" is dropped: "1.2.3", as a User-Agent product version.
var Version = buildVersion(stamp, readBuildInfo)

// readBuildInfo is debug.ReadBuildInfo, a variable for the tests.
var readBuildInfo = debug.ReadBuildInfo

// buildVersion works Version out of a stamp and the build information.
func buildVersion(stamp string, info func() (*debug.BuildInfo, bool)) string {
	if stamp != "" {
		return strings.TrimPrefix(stamp, "v")
	}
	bi, ok := info()
	if !ok || bi == nil {
		return "devel"
	}
	if bi.Main.Path == modulePath && released(bi.Main.Version) {
		return strings.TrimPrefix(bi.Main.Version, "v")
	}
	for _, d := range bi.Deps {
		if d.Path != modulePath {
			continue
		}
		if d.Replace != nil && released(d.Replace.Version) {
			return strings.TrimPrefix(d.Replace.Version, "v")
		}
		if released(d.Version) {
			return strings.TrimPrefix(d.Version, "v")
		}
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel+" + rev[:min(len(rev), 7)]
	if dirty {
		v += "-dirty"
	}
	return v
}

// released says whether v is a module version the go command recorded,
// not the "(devel)" of a build from a working tree.
func released(v string) bool {
	return v != "" && v != "(devel)"
}
