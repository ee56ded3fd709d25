package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/seed53c283f5/robotstxt/guard"
)

const guardExportHelp = `Usage: robotstxt guard export --to TARGET --robots FILE [--policy FILE]

Compiles the robots.txt the guard enforces, under its policy, into the rules
of a tool already in front of the site, exactly where the target can express
it: the rules ordered so that the first match is the crawler's own longest
match, * and $ as regular expressions, allow rules kept. Each rule the
target cannot express is named in a warning on stderr, with what was
written instead. The export cannot check identity: every claim is taken as
unverified (the policy's disallowed-unverified action).

  --to TARGET        nginx, anubis, caddy or haproxy
  --robots FILE      the robots.txt (- reads standard input)
  --policy FILE      the policy whose actions the export writes (default
                     403 for a crawler on a path its group disallows)

Exit status: 0 compiled exactly; 1 compiled, with warnings; 2 not done (bad
usage, a file that cannot be read, a policy with errors). A policy in mode
log gets a note (the export enforces), not a warning.

Examples:
  robotstxt guard export --to nginx --robots robots.txt > robots-map.conf
  robotstxt guard export --to anubis --robots robots.txt --policy guard.toml
`

// exportWarning is a rule the target cannot express (guard/export's
// Warning).
type exportWarning struct {
	line       int
	name, rule string
	why        string
}

// exportTargets are the targets export writes.
var exportTargets = []string{"nginx", "anubis", "caddy", "haproxy"}

func runGuardExport(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("guard export")
	to := fs.String("to", "", "target")
	robotsFile := fs.String("robots", "", "robots.txt")
	policyFile := fs.String("policy", "", "policy")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "guard export", guardExportHelp, args, err)
	}
	fail := func(format string, a ...any) int {
		complain(stderr, "guard export", format, a...)
		return 2
	}
	switch {
	case len(pos) > 0:
		return fail("unexpected argument %q (robotstxt guard export -h for help)", pos[0])
	case *to == "":
		return fail("give --to TARGET: %s", strings.Join(exportTargets, ", "))
	case *robotsFile == "":
		return fail("give --robots FILE, the robots.txt to compile")
	}
	target := strings.ToLower(*to)
	known := false
	for _, t := range exportTargets {
		known = known || t == target
	}
	if !known {
		return fail("--to: unknown target %q (%s)", *to, strings.Join(exportTargets, ", "))
	}
	robots, _, _, err := readInput(*robotsFile, os.Stdin)
	if err != nil {
		return fail("--robots: %v", err)
	}
	var pol *guard.Policy
	if *policyFile != "" {
		if pol, err = guard.LoadPolicy(*policyFile); err != nil {
			return fail("--policy: %v", strings.TrimPrefix(err.Error(), "guard: policy: "))
		}
	}
	out, warnings, err := exportCompile(target, robots, pol)
	if err != nil {
		return fail("%v", strings.TrimPrefix(err.Error(), "export: "))
	}
	if _, err := stdout.Write(out); err != nil {
		return fail("%v", err)
	}
	flagged := false
	for _, w := range warnings {
		where := "the whole export"
		if w.line > 0 {
			where = fmt.Sprintf("line %d: %s", w.line, w.rule)
		}
		kind := "warning"
		if w.name == "log-mode" {
			// The policy's mode, not a rule the target cannot express.
			kind = "note"
		} else {
			flagged = true
		}
		fmt.Fprintf(stderr, "robotstxt guard export: %s: %s [%s]: %s\n", kind, where, w.name, w.why)
	}
	if flagged {
		return 1
	}
	return 0
}

// guardCheckPolicy is guard --check-policy FILE: the policy explained,
// or its error (which names the line) and exit 1; 2 when the file cannot
// be read.
func guardCheckPolicy(file string, stdout, stderr io.Writer) int {
	data, err := os.ReadFile(file)
	if err != nil {
		complain(stderr, "guard", "--check-policy: %v", err)
		return 2
	}
	p, err := guard.ParsePolicy(file, data)
	if err != nil {
		fmt.Fprintln(stdout, strings.TrimPrefix(err.Error(), "guard: policy: "))
		return 1
	}
	if err := p.Explain(stdout); err != nil {
		complain(stderr, "guard", "%v", err)
		return 2
	}
	return 0
}
