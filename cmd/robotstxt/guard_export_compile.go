//go:build guardexport

// This file joins package guard/export (branch export) to robotstxt guard
// export. Delete the build constraint above once that package is merged.

package main

import (
	"github.com/seed53c283f5/robotstxt/guard"
	"github.com/seed53c283f5/robotstxt/guard/export"
)

func init() {
	exportCompile = func(target string, robots []byte, p *guard.Policy) ([]byte, []exportWarning, error) {
		t, err := export.ParseTarget(target)
		if err != nil {
			return nil, nil, err
		}
		out, ws, err := export.Compile(t, robots, p)
		var warnings []exportWarning
		for _, w := range ws {
			warnings = append(warnings, exportWarning{line: w.Line, name: w.Name, rule: w.Rule, why: w.Why})
		}
		return out, warnings, err
	}
}
