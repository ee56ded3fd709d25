package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestChangelogHasNoDanglingLinks: the CHANGELOG's versions are milestones
// of main, not published tags, so it links to no tag, release or compare
// page of the project's repository (which would not resolve).
func TestChangelogHasNoDanglingLinks(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	bad := regexp.MustCompile(`seed53c283f5/robotstxt/(compare|releases|tree)/|^\[[0-9.]+\]:|^## \[`)
	for i, l := range strings.Split(string(b), "\n") {
		if bad.MatchString(l) {
			t.Errorf("CHANGELOG.md:%d links a tag or release that does not exist: %s", i+1, l)
		}
	}
}

// TestREADMELibraryFromClone runs the README's way of using the library
// before the module is published: a module beside the clone, the README's
// go mod edit line (require and replace), go mod tidy, and a program that
// imports the core package, built and run.
func TestREADMELibraryFromClone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module (the full run covers it)")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The README's command, its continuation line joined.
	text := strings.ReplaceAll(string(readme), "\\\n", " ")
	var edit string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "go mod edit -require github.com/seed53c283f5/robotstxt") {
			edit = strings.TrimSpace(l)
		}
	}
	if edit == "" {
		t.Fatal("README.md shows no go mod edit line for using the library from a clone")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	app := filepath.Join(dir, "app")
	if err := os.Symlink(root, filepath.Join(dir, "robotstxt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(app, 0o755); err != nil {
		t.Fatal(err)
	}
	prog := "package main\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/seed53c283f5/robotstxt\"\n)\n\nfunc main() {\n\tr := robotstxt.Parse([]byte(\"User-agent: *\\nDisallow: /private\\n\"))\n\tfmt.Println(r.Allowed(\"Googlebot\", \"https://example.com/private/x\"))\n}\n"
	if err := os.WriteFile(filepath.Join(app, "main.go"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = app
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("go", "mod", "init", "example.com/app")
	run(append([]string{"go"}, strings.Fields(edit)[1:]...)...)
	run("go", "mod", "tidy")
	if got := run("go", "run", "."); strings.TrimSpace(got) != "false" {
		t.Fatalf("the program printed %q, want false", got)
	}
}
