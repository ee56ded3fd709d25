package main

import (
	"strings"
	"testing"
)

// TestGuardExportTargets: guard export writes each target's rules from
// the robots.txt under a policy; a rule the target cannot express is a
// warning and exit 1, the log mode of a policy only a note; without a
// policy the default enforce actions are exported.
func TestGuardExportTargets(t *testing.T) {
	dir := t.TempDir()
	robots := writeFile(t, dir, "robots.txt", "User-agent: GPTBot\nDisallow: /private/\nAllow: /private/ok$\n")
	policy := writeFile(t, dir, "guard.toml", "mode = \"enforce\"\n")
	for _, target := range exportTargets {
		code, out, stderr := runCmd(t, "", "guard", "export", "--to", target, "--robots", robots, "--policy", policy)
		if code == 2 || !strings.Contains(strings.ToLower(out), "gptbot") {
			t.Errorf("%s: exit %d\n%.300s\n%s", target, code, out, stderr)
		}
		if (code == 1) != strings.Contains(stderr, ": warning: ") {
			t.Errorf("%s: exit %d with stderr %q", target, code, stderr)
		}
	}
	// No policy: the default enforce actions (guard/export.Compile), no note.
	code, _, stderr := runCmd(t, "", "guard", "export", "--to", "nginx", "--robots", robots)
	if code != 0 || stderr != "" {
		t.Errorf("nginx, no policy: exit %d, %q; want 0 and nothing", code, stderr)
	}
	// A policy in log mode: exported all the same, with a note, exit 0.
	logPolicy := writeFile(t, dir, "log.toml", "mode = \"log\"\n")
	code, _, stderr = runCmd(t, "", "guard", "export", "--to", "nginx", "--robots", robots, "--policy", logPolicy)
	if code != 0 || !strings.Contains(stderr, "note: the whole export [log-mode]") {
		t.Errorf("nginx, log policy: exit %d, %q; want 0 and a note", code, stderr)
	}
}
