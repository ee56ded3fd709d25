package tester

import (
	"fmt"
	"strings"
)

// Words of the reports' messages and notes, shared by the AI report and
// the policy writer: lines named, names listed, a word chosen.

// linesWord says "line 4" or "lines 4, 7".
func linesWord(ns []int) string {
	if len(ns) == 1 {
		return fmt.Sprintf("line %d", ns[0])
	}
	var parts []string
	for i, n := range ns {
		if i == 8 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, fmt.Sprint(n))
	}
	return "lines " + strings.Join(parts, ", ")
}

// listNames joins names, at most max of them, then "and N more".
func listNames(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
}

// pick is a if cond, else b.
func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}
