package main

import (
	"strings"
	"testing"
)

// TestGuardCheckPolicy: --check-policy explains a valid policy (exit 0),
// prints the error of one that is not, naming its line (exit 1), and
// exits 2 when the file cannot be read.
func TestGuardCheckPolicy(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.toml", "mode = \"enforce\"\nprice = \"USD 0.01\"\n\n[crawler.GPTBot]\ndisallowed-unverified = \"402\"\n")
	code, out, stderr := runCmd(t, "", "guard", "--check-policy", good)
	if code != 0 || stderr != "" || !strings.Contains(out, "mode enforce") || !strings.Contains(out, "GPTBot") {
		t.Errorf("a good policy: exit %d\n%s%s", code, out, stderr)
	}
	for i, l := range strings.Split(out, "\n") {
		if w := displayWidth(l); w > termWidth {
			t.Errorf("line %d is %d columns: %q", i+1, w, l)
		}
	}
	bad := writeFile(t, dir, "bad.toml", "mode = \"enforce\"\n\n[actions]\nspoofed = \"418\"\n")
	code, out, _ = runCmd(t, "", "guard", "--check-policy", bad)
	if code != 1 || !strings.HasPrefix(out, bad+":4:") {
		t.Errorf("a bad policy: exit %d, %q; want 1 and the error at line 4", code, out)
	}
	code, _, stderr = runCmd(t, "", "guard", "--check-policy", dir+"/none.toml")
	if code != 2 || !strings.Contains(stderr, "--check-policy:") {
		t.Errorf("no file: exit %d, %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "", "guard", "--check-policy", good, "--mode", "log")
	if code != 2 || !strings.Contains(stderr, "takes no other flag") {
		t.Errorf("--check-policy with another flag: exit %d, %q", code, stderr)
	}
}

// TestGuardExportUsage: guard export checks its flags and files before
// it compiles, and each error is one line with exit 2.
func TestGuardExportUsage(t *testing.T) {
	dir := t.TempDir()
	robots := writeFile(t, dir, "robots.txt", testRobots)
	bad := writeFile(t, dir, "bad.toml", "price = \"free\"\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--robots", robots}, "give --to TARGET: nginx, anubis, caddy, haproxy"},
		{[]string{"--to", "nginx"}, "give --robots FILE"},
		{[]string{"--to", "apache", "--robots", robots}, `--to: unknown target "apache"`},
		{[]string{"--to", "nginx", "--robots", dir + "/none"}, "--robots:"},
		{[]string{"--to", "nginx", "--robots", robots, "--policy", bad}, "bad.toml:1:"},
		{[]string{"--to", "nginx", "--robots", robots, "x"}, `unexpected argument "x"`},
		{[]string{"--to"}, "--to needs a value"},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"guard", "export"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("guard export %q: exit %d, %q%q; want 2 and %q", tc.args, code, out, stderr, tc.want)
		}
	}
	if code, _, help := runCmd(t, "", "guard", "export", "-h"); code != 0 || !strings.HasPrefix(help, "Usage: robotstxt guard export") {
		t.Errorf("guard export -h: exit %d, %q", code, help)
	}
}
