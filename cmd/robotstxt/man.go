package main

import (
	"fmt"
	"io"
	"strings"
)

const manHelp = `Usage: robotstxt man [> robotstxt.1]

Prints the manual page of robotstxt in roff, made from the help texts:
the commands, each command's help (flags, exit status, examples) and the
exit status rule, so that the page is always the binary's own.

Read it with:  robotstxt man | man -l -
Install it:    robotstxt man > ~/.local/share/man/man1/robotstxt.1

Exit status: 0 once written, 2 on bad usage or when it cannot be written.
`

func runMan(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("man")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "man", manHelp, args, err)
	}
	if len(pos) > 0 {
		complain(stderr, "man", "unexpected argument %q", pos[0])
		return 2
	}
	if _, err := io.WriteString(stdout, manPage()); err != nil {
		complain(stderr, "man", "%v", err)
		return 2
	}
	return 0
}

// manPage is the manual page, robotstxt(1), in roff: the help texts, each
// in a block that keeps its lines as they are (they fit 80 columns).
func manPage() string {
	var b strings.Builder
	// No date: the page of one build is the same on every run.
	fmt.Fprintf(&b, ".TH ROBOTSTXT 1 \"\" \"robotstxt %s\" \"User Commands\"\n", roffText(version))
	b.WriteString(".SH NAME\nrobotstxt \\- the Robots Exclusion Protocol toolkit\n")
	b.WriteString(".SH SYNOPSIS\n.B robotstxt\n.I command\n[\\fIflags\\fR] [\\fIarguments\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n")
	b.WriteString("robotstxt tests, compares, lints and fetches robots.txt files as crawlers read them, " +
		"and serves a tester page and a JSON API. Each command is described below with its flags, " +
		"its exit status and examples; \\fBrobotstxt\\fR \\fIcommand\\fR \\fB\\-h\\fR prints the same text.\n")
	b.WriteString(".SH COMMANDS\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", roffText(c.name), roffText(c.summary))
	}
	for _, c := range commands() {
		fmt.Fprintf(&b, ".SS \"robotstxt %s\"\n", roffText(c.name))
		b.WriteString(roffBlock(helpOf(c)))
	}
	b.WriteString(".SH \"EXIT STATUS\"\n")
	b.WriteString(roffBlock(strings.TrimPrefix(exitStatusHelp, "\nExit status, the same rule for every command:\n")))
	b.WriteString(".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nwhen set, no colour, even on a terminal.\n" +
		".TP\n.B HTTP_PROXY, HTTPS_PROXY, NO_PROXY\nthe proxies of fetches (fetch, -u, bulk).\n")
	b.WriteString(".SH \"SEE ALSO\"\n" +
		"The guides in the source tree's docs/ directory: cli.md, ci.md (completion, this page, " +
		"deploy checks), service.md, library.md, protocol.md. RFC 9309, the Robots Exclusion Protocol.\n")
	return b.String()
}

// roffBlock is text as a roff block whose lines are kept as they are, in
// a fixed-width font, without hyphenation or filling.
func roffBlock(text string) string {
	var b strings.Builder
	b.WriteString(".PP\n.nf\n.in 0\n.ft CR\n")
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if l == "" {
			b.WriteString(".sp\n")
			continue
		}
		b.WriteString(roffText(l) + "\n")
	}
	b.WriteString(".ft R\n.fi\n.in\n")
	return b.String()
}

// roffText escapes a line of text for roff: backslashes, minus signs, and
// a control character (. or ') at the start of the line.
func roffText(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
