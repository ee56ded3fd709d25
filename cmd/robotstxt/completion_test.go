package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCompletionFlagsAreReal: every flag the completion offers (read from
// the help texts) is one the command accepts, and the commands' main flags
// are among them.
func TestCompletionFlagsAreReal(t *testing.T) {
	sp := specs()
	if len(sp) != len(commands()) {
		t.Fatalf("%d specs for %d commands", len(sp), len(commands()))
	}
	byName := map[string][]string{}
	for _, c := range sp {
		for _, f := range c.flags {
			byName[c.name] = append(byName[c.name], f.name)
			args := []string{c.name, f.name}
			if f.kind != "" {
				args = append(args, "x")
			}
			// Not run to the end: only whether the flag is known. An
			// unknown flag is the first error a command reports.
			if c.name == "serve" || c.name == "bulk" || c.name == "eval" {
				args = append(args, "--no-such-flag-here")
			}
			_, _, stderr := runCmd(t, "", args...)
			if strings.Contains(stderr, "unknown flag "+f.name) || strings.Contains(stderr, f.name+" needs a value") {
				t.Errorf("robotstxt %s offers %s, which the command does not take: %s", c.name, f.name, stderr)
			}
		}
	}
	for cmd, want := range map[string][]string{
		"check":   {"-f", "-u", "--store", "--cached", "-c", "-a", "--agents", "-d", "-v", "--json", "--csv", "--markdown", "--crawlers"},
		"compare": {"-f", "-u", "-c", "-a", "--probe", "--json", "--original"},
		"diff":    {"--urls", "-c", "-d", "--json", "--fail-on"},
		"lint":    {"--json", "--sarif", "--all", "--disable", "--codes", "-u", "--original"},
		"fetch":   {"--json", "--body", "--refresh", "--store", "-d", "-A", "--timeout"},
		"bulk":    {"-c", "--format", "--order", "--summary"},
	} {
		for _, f := range want {
			if !slices.Contains(byName[cmd], f) {
				t.Errorf("completion of %s lacks %s: %v", cmd, f, byName[cmd])
			}
		}
	}
}

// TestCompletionBash: the bash script loads, registers the function, and
// completes commands, flags, crawler, dialect and code names.
func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	code, script, stderr := runCmd(t, "", "completion", "bash")
	if code != 0 || stderr != "" {
		t.Fatalf("completion bash: exit %d, %s", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "robotstxt.bash")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	probe := `source "$1" || exit 1
complete -p robotstxt || exit 1
t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _robotstxt; echo "${COMPREPLY[*]}"; }
t robotstxt chec
t robotstxt check -c Bingb
t robotstxt diff --fail
t robotstxt check -d rfc
t robotstxt lint --disable wildcards-in
t robotstxt ai --crawler GPTBot,ClaudeB
t robotstxt completion fi
t robotstxt help compa
`
	out, err := exec.Command(bash, "--norc", "--noprofile", "-c", probe, "bash", file).CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	want := []string{
		"complete -o bashdefault -o filenames -F _robotstxt robotstxt",
		"check", "Bingbot", "--fail-on", "rfc9309", "wildcards-in-original", "GPTBot,ClaudeBot", "fish", "compare",
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if !slices.Equal(got, want) {
		t.Errorf("bash completions:\n%q\nwant\n%q", got, want)
	}
}

// TestCompletionOtherShells: zsh's and fish's scripts name every command
// and load where the shell is installed.
func TestCompletionOtherShells(t *testing.T) {
	for _, sh := range []string{"zsh", "fish"} {
		code, script, stderr := runCmd(t, "", "completion", sh)
		if code != 0 || stderr != "" {
			t.Fatalf("completion %s: exit %d, %s", sh, code, stderr)
		}
		for _, c := range commands() {
			if !strings.Contains(script, " "+c.name) {
				t.Errorf("the %s script does not name %s", sh, c.name)
			}
		}
		path, err := exec.LookPath(sh)
		if err != nil {
			continue // checked for its text only
		}
		file := filepath.Join(t.TempDir(), "robotstxt."+sh)
		os.WriteFile(file, []byte(script), 0o644)
		probe := map[string]string{
			"zsh":  `source "$1" && (( $+functions[_robotstxt] ))`,
			"fish": `source $argv[1]; and complete -c robotstxt | string match -q '*--fail-on*'`,
		}[sh]
		args := []string{"-c", probe, sh, file}
		if sh == "fish" {
			args = []string{"-c", probe, file}
		}
		if out, err := exec.Command(path, args...).CombinedOutput(); err != nil {
			t.Errorf("%s does not load its script: %v\n%s", sh, err, out)
		}
	}
	code, _, stderr := runCmd(t, "", "completion", "bsh")
	if code != 2 || !strings.Contains(stderr, "did you mean bash?") {
		t.Errorf("completion bsh: exit %d, %q", code, stderr)
	}
}
