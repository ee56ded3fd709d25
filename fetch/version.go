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

// Build describes the build of the running program, as "robotstxt
// version" shows it.
type Build struct {
	// Version is Version.
	Version string `json:"version"`
	// Commit is the commit the binary was built from, when the go command
	// recorded it (a build from a git checkout) or a pseudo-version names
	// it; CommitTime is its time (RFC 3339) when recorded.
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commit_time,omitempty"`
	// Modified says the checkout had uncommitted changes.
	Modified bool `json:"modified,omitempty"`
	// Go is the Go release that built it ("go1.26.8").
	Go string `json:"go,omitempty"`
}

// BuildInfo is the running program's Build.
var BuildInfo = buildOf(stamp, readBuildInfo)

// Version is the toolkit's version: the one DefaultUserAgent sends and the
// one "robotstxt version" prints. It comes from the build, in this order:
// the version "make build" stamps (git describe); a release's module
// version the go command records ("go install .../cmd/robotstxt@v1.2.3"
// records v1.2.3, and a program that imports the toolkit records the
// version it requires); the commit the go command records from a checkout,
// or that a pseudo-version names ("devel+38d6731", "-dirty" with
// uncommitted changes); else "devel". A leading "v" is dropped: "1.2.3",
// as a User-Agent product version.
var Version = BuildInfo.Version

// readBuildInfo is debug.ReadBuildInfo, a variable for the tests.
var readBuildInfo = debug.ReadBuildInfo

// buildVersion works Version out of a stamp and the build information.
func buildVersion(stamp string, info func() (*debug.BuildInfo, bool)) string {
	return buildOf(stamp, info).Version
}

// buildOf works the Build out of a stamp and the build information.
func buildOf(stamp string, info func() (*debug.BuildInfo, bool)) Build {
	var b Build
	bi, ok := info()
	if ok && bi != nil {
		b.Go = bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.time":
				b.CommitTime = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if stamp != "" {
		b.Version = strings.TrimPrefix(stamp, "v")
		return b
	}
	if !ok || bi == nil {
		b.Version = "devel"
		return b
	}
	mainVersion := ""
	if bi.Main.Path == modulePath {
		mainVersion = bi.Main.Version
	}
	if released(mainVersion) {
		b.Version = strings.TrimPrefix(mainVersion, "v")
		return b
	}
	if mainVersion == "" || mainVersion == "(devel)" {
		for _, d := range bi.Deps {
			if d.Path != modulePath {
				continue
			}
			if d.Replace != nil && released(d.Replace.Version) {
				b.Version = strings.TrimPrefix(d.Replace.Version, "v")
				return b
			}
			if released(d.Version) {
				b.Version = strings.TrimPrefix(d.Version, "v")
				return b
			}
		}
	}
	if hash, dirty, ok := pseudoCommit(mainVersion); ok {
		// A build from a checkout (Go 1.24 and later stamp the main
		// module with a pseudo-version): its commit, not a release.
		if b.Commit == "" {
			b.Commit = hash
		}
		b.Modified = b.Modified || dirty
	}
	if b.Commit == "" {
		b.Version = "devel"
		return b
	}
	b.Version = "devel+" + b.Commit[:min(len(b.Commit), 7)]
	if b.Modified {
		b.Version += "-dirty"
	}
	return b
}

// released says whether v is a release's module version: not the
// "(devel)" of a build from a working tree, nor the pseudo-version the go
// command gives a checkout's commit.
func released(v string) bool {
	if v == "" || v == "(devel)" {
		return false
	}
	_, _, pseudo := pseudoCommit(v)
	return !pseudo
}

// pseudoCommit reads a pseudo-version (v0.0.0-20261127234935-648ec9324475,
// v0.4.1-0.20261127234935-648ec9324475, with +dirty after a checkout with
// changes): the commit's 12-digit prefix, and whether it is dirty.
func pseudoCommit(v string) (hash string, dirty bool, ok bool) {
	if i := strings.IndexByte(v, '+'); i >= 0 {
		dirty = strings.Contains(v[i:], "dirty")
		v = v[:i]
	}
	parts := strings.Split(v, "-")
	if len(parts) < 3 {
		return "", false, false
	}
	hash, stampPart := parts[len(parts)-1], parts[len(parts)-2]
	if i := strings.LastIndexByte(stampPart, '.'); i >= 0 {
		stampPart = stampPart[i+1:]
	}
	if len(hash) != 12 || len(stampPart) != 14 || !allIn(hash, "0123456789abcdef") || !allIn(stampPart, "0123456789") {
		return "", false, false
	}
	return hash, dirty, true
}

// allIn says whether every byte of s is one of set's.
func allIn(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			return false
		}
	}
	return true
}
