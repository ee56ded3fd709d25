package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFlagErrorsAreOneLine(t *testing.T) {
	for _, cmd := range []string{"check", "compare", "diff", "eval", "fetch", "lint", "version"} {
		for _, tt := range []struct{ arg, want string }{
			{"--nosuch", "unknown flag --nosuch ("},
			{"-nosuch=3", "unknown flag -nosuch ("},
		} {
			code, out, stderr := runCmd(t, "", cmd, tt.arg)
			want := "robotstxt " + cmd + ": " + tt.want + "robotstxt " + cmd + " -h lists the flags)\n"
			if code != 2 || out != "" || !strings.HasPrefix(stderr, "robotstxt "+cmd+": "+tt.want) || stderr != want {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", cmd, tt.arg, code, out, stderr, want)
			}
		}
	}
	code, _, stderr := runCmd(t, "", "check", "-f")
	if code != 2 || stderr != "robotstxt check: -f needs a value (robotstxt check -h lists the flags)\n" {
		t.Errorf("check -f: exit %d, %q", code, stderr)
	}
}

func TestVersionJSON(t *testing.T) {
	code, out, _ := runCmd(t, "", "version", "--json")
	var v struct{ Version string }
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || v.Version != version {
		t.Errorf("version --json: exit %d, %v, %q", code, err, out)
	}
}
