package main

import (
	"github.com/seed53c283f5/robotstxt/guard"
	"github.com/seed53c283f5/robotstxt/guard/export"
)

// exportCompile compiles robots (and the policy's actions) for a target
// with package guard/export, its warnings in the command's form.
func exportCompile(target string, robots []byte, p *guard.Policy) ([]byte, []exportWarning, error) {
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
