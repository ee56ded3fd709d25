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
	}
	for _, c := range cases {
		if got := buildVersion(c.stamp, info(c.bi)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
