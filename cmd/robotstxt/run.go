package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// version is the toolkit's version, printed by "robotstxt version": the
// one the fetcher's User-Agent sends.
const version = fetch.Version

// command is one subcommand of robotstxt.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"ai", "who may use the content: each crawler by purpose, its verdict, its AI preferences", runAI},
		{"bulk", "check millions of URLs against their origins' live robots.txt, each fetched once", runBulk},
		{"check", "say whether crawlers may fetch URLs, which line decided and why", runCheck},
		{"compare", "show how crawlers and their dialects read one file, URL by URL", runCompare},
		{"crawlers", "the crawler catalogue: purposes, operators, robots.txt, verification", runCrawlers},
		{"diff", "list the (crawler, URL) verdicts that change between two versions of a file", runDiff},
		{"eval", "answer robots.txt questions given as JSON Lines (for pipelines and cross-checks)", runEval},
		{"fetch", "fetch a site's robots.txt as crawlers must: requests, policy, cache expiry", runFetch},
		{"lint", "report mistakes and readings that differ between crawlers (text, JSON, SARIF)", runLint},
		{"policy", "write the lines of a stance towards crawlers (no AI training, keep search) into a file", runPolicy},
		{"serve", "run the tester page and the JSON API (check, lint, fetch, history, metrics)", runServe},
		{"version", "print the version", runVersion},
	}
}

// run is the whole program: it returns the exit status. Exit status 2 means
// bad usage or input.
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
	fmt.Fprintf(stderr, "robotstxt: unknown command %q\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("robotstxt: the Robots Exclusion Protocol toolkit\n\nUsage:\n  robotstxt <command> [flags] [arguments]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.summary)
	}
	b.WriteString("\nRun \"robotstxt <command> -h\" for a command's flags and examples.\n")
	io.WriteString(w, b.String())
}

const versionHelp = `Usage: robotstxt version [--json]

Prints the version: the one the fetcher's User-Agent sends.

  --json        {"version": "..."}
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
	if *jsonOut {
		writeJSON(stdout, struct {
			Version string `json:"version"`
		}{version})
		return 0
	}
	fmt.Fprintln(stdout, "robotstxt", version)
	return 0
}
