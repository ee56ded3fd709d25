package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
)

// version is the toolkit's version, printed by "robotstxt version": the
// one the fetcher's User-Agent sends.
var version = fetch.Version

// command is one subcommand of robotstxt.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"ai", "who may use the content: crawlers by purpose, their AI preferences", runAI},
		{"audit", "which crawlers broke robots.txt, from access logs", runAudit},
		{"bulk", "check millions of URLs against their origins' live robots.txt", runBulk},
		{"check", "say whether crawlers may fetch URLs, which line decided and why", runCheck},
		{"compare", "show how crawlers and their dialects read one file, URL by URL", runCompare},
		{"completion", "print a shell completion script: bash, zsh or fish", runCompletion},
		{"crawlers", "the crawler catalogue: purposes, operators, verification", runCrawlers},
		{"diff", "the (crawler, URL) verdicts that change between two versions", runDiff},
		{"eval", "answer robots.txt questions given as JSON Lines (for pipelines)", runEval},
		{"fetch", "fetch a site's robots.txt as crawlers must: policy, cache expiry", runFetch},
		{"guard", "a reverse proxy that makes robots.txt hold; GET /v1/decide", runGuard},
		{"lint", "report mistakes and readings that differ between crawlers", runLint},
		{"man", "print the manual page (roff), made from the help texts", runMan},
		{"policy", "merge a stance towards crawlers (no AI training...) into a file", runPolicy},
		{"probe", "robots.txt as each crawler gets it: challenges, 403s, CDN groups", runProbe},
		{"serve", "run the tester page and the JSON API", runServe},
		{"verify", "is this address the crawler it claims; Web Bot Auth", runVerify},
		{"version", "print the version", runVersion},
	}
}

// run is the whole program: it returns the exit status, by the rule of
// exitStatusHelp (2: bad usage or input).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			for _, c := range commands() {
				if c.name == args[1] {
					return c.run([]string{"-h"}, stdin, stdout, stderr)
				}
			}
			return unknownCommand(stderr, args[1])
		}
		usage(stdout)
		return 0
	case "-version", "--version":
		name = "version"
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	return unknownCommand(stderr, name)
}

// unknownCommand reports a command robotstxt does not have and returns
// the exit status, 2: with the command meant when one is near ("chek"),
// in one line; else with the list of commands.
func unknownCommand(stderr io.Writer, name string) int {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if near := suggest.Nearest(name, names); near != "" {
		fmt.Fprintf(stderr, "robotstxt: unknown command %q; did you mean robotstxt %s? (robotstxt help lists the commands)\n", name, near)
		return 2
	}
	fmt.Fprintf(stderr, "robotstxt: unknown command %q\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("robotstxt: the Robots Exclusion Protocol toolkit\n\nUsage:\n  robotstxt <command> [flags] [arguments]\n\nCommands:\n")
	for _, c := range commands() {
		b.WriteString(wrapIndent(c.summary, termWidth, fmt.Sprintf("  %-10s ", c.name), strings.Repeat(" ", 13)))
	}
	b.WriteString("\nRun \"robotstxt <command> -h\" for a command's flags and examples.\n")
	b.WriteString(exitStatusHelp)
	io.WriteString(w, b.String())
}

// exitStatusHelp is the one rule every command's exit status follows.
const exitStatusHelp = `
Exit status, the same rule for every command:
  0    done, and nothing to flag
  1    done, and the output flags what the command looks for:
         check          a URL is blocked
         lint, ai       an error finding
         diff           a verdict changes
         policy         the file would change (without --write)
         eval, bulk     a question or input line got an error, not an answer
         audit          a crawler's request was disallowed (any identity)
         verify         an address or request not verified, a key directory
                        with errors
         probe          answers differ between crawlers, or no crawler can
                        read the rules
         guard          --check-policy: the policy has errors; export: a
                        rule the target cannot express
       compare, crawlers, fetch, serve and version flag nothing
  2    not done, or not all of it: bad usage (a flag, command, crawler or
       dialect unknown), a file that cannot be read, a store that cannot be
       opened, output that cannot be written, an address serve cannot
       listen on
  130  bulk stopped by Ctrl-C (143: by SIGTERM); every line written is whole
`

const versionHelp = `Usage: robotstxt version [--json]

Prints the version (the one the fetcher's User-Agent sends) and, when the
build recorded them, the commit it was built from, its time, whether the
checkout had uncommitted changes, and the Go release. A build from a
checkout without a release tag is "devel+COMMIT".

  --json        {"version", "commit", "commit_time", "modified", "go"}
`

func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("version")
	jsonOut := fs.Bool("json", false, "JSON output")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "version", versionHelp, args, err)
	}
	if len(pos) > 0 {
		complain(stderr, "version", "unexpected argument %q", pos[0])
		return 2
	}
	b := fetch.BuildInfo
	b.Version = version
	if *jsonOut {
		if err := writeJSON(stdout, b); err != nil {
			complain(stderr, "version", "%v", err)
			return 2
		}
		return 0
	}
	fmt.Fprintln(stdout, "robotstxt", version)
	if b.Commit != "" {
		line := "commit " + b.Commit
		if b.CommitTime != "" {
			line += " (" + b.CommitTime + ")"
		}
		if b.Modified {
			line += ", with uncommitted changes"
		}
		fmt.Fprintln(stdout, line)
	}
	if b.Go != "" {
		fmt.Fprintln(stdout, "built with", b.Go)
	}
	return 0
}
