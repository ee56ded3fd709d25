package fetch

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	info := func(bi *debug.BuildInfo) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) { return bi, bi != nil }
	}
	main := func(v string, settings ...debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: v}, Settings: settings}
	}
	cases := []struct {
		name  string
		stamp string
		bi    *debug.BuildInfo
		want  string
	}{
		{"make build's stamp wins", "v0.5.0-3-g38d6731", main("v0.4.0"), "0.5.0-3-g38d6731"},
		{"go install module@version", "", main("v0.5.0"), "0.5.0"},
		{"a working tree, no VCS data", "", main("(devel)"), "devel"},
		{"a checkout with VCS data", "", main("(devel)",
			debug.BuildSetting{Key: "vcs.revision", Value: "38d6731f0e2a"},
			debug.BuildSetting{Key: "vcs.modified", Value: "false"}), "devel+38d6731"},
		{"a checkout with changes", "", main("(devel)",
			debug.BuildSetting{Key: "vcs.revision", Value: "38d6731f0e2a"},
			debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "devel+38d6731-dirty"},
		{"a program that requires the toolkit", "", &debug.BuildInfo{
			Main: debug.Module{Path: "example.com/crawler", Version: "(devel)"},
			Deps: []*debug.Module{{Path: "golang.org/x/net", Version: "v0.62.0"}, {Path: modulePath, Version: "v0.4.1"}},
		}, "0.4.1"},
		{"a replaced requirement", "", &debug.BuildInfo{
			Main: debug.Module{Path: "example.com/crawler"},
			Deps: []*debug.Module{{Path: modulePath, Version: "v0.4.1", Replace: &debug.Module{Path: "../robotstxt", Version: "(devel)"}}},
		}, "0.4.1"},
		{"no build information", "", nil, "devel"},
		// Go 1.24 and later stamp a checkout's build with a pseudo-version.
		{"go install from a checkout", "", main("v0.0.0-20261127234935-648ec9324475",
			debug.BuildSetting{Key: "vcs.revision", Value: "648ec9324475588d9afc00288e837fe2ad4e9a25"},
			debug.BuildSetting{Key: "vcs.modified", Value: "false"}), "devel+648ec93"},
		{"a checkout with changes, pseudo-version", "", main("v0.0.0-20261127234935-648ec9324475+dirty",
			debug.BuildSetting{Key: "vcs.revision", Value: "648ec9324475588d9afc00288e837fe2ad4e9a25"},
			debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "devel+648ec93-dirty"},
		{"a pseudo-version after a tag, no VCS settings", "", main("v0.4.1-0.20261127234935-648ec9324475"), "devel+648ec93"},
		{"a pre-release is a release", "", main("v0.5.0-rc.1"), "0.5.0-rc.1"},
	}
	for _, c := range cases {
		if got := buildVersion(c.stamp, info(c.bi)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestBuildOf(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261127234935-648ec9324475"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "648ec9324475588d9afc00288e837fe2ad4e9a25"},
			{Key: "vcs.time", Value: "2026-11-27T23:49:35Z"},
			{Key: "vcs.modified", Value: "true"},
		}}
	got := buildOf("", func() (*debug.BuildInfo, bool) { return bi, true })
	want := Build{Version: "devel+648ec93-dirty", Commit: "648ec9324475588d9afc00288e837fe2ad4e9a25", CommitTime: "2026-11-27T23:49:35Z", Modified: true, Go: "go1.26.8"}
	if got != want {
		t.Errorf("buildOf = %+v, want %+v", got, want)
	}
	// A stamp keeps the commit it was built from.
	if got := buildOf("v0.5.0", func() (*debug.BuildInfo, bool) { return bi, true }); got.Version != "0.5.0" || got.Commit == "" {
		t.Errorf("stamped: %+v", got)
	}
}
