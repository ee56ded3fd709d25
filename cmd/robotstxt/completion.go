package main

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
	"github.com/seed53c283f5/robotstxt/lint"
)

const completionHelp = `Usage: robotstxt completion bash|zsh|fish

Prints a script that completes robotstxt's commands, each command's flags,
and the values of the flags that take names: crawlers (-c, --crawler),
dialects (-d), purposes (--purpose, --deny, --allow), behaviour classes
(--behaviour), lint codes
(--disable) and files. The flags are read from the help texts, so the
script is always the binary's own.

  bash          for bash 4 or later
  zsh           for zsh (loads bash's script through bashcompinit)
  fish          for fish 3

Install (see docs/ci.md):
  bash   in ~/.bashrc: source <(robotstxt completion bash)
         or: robotstxt completion bash \
               > ~/.local/share/bash-completion/completions/robotstxt
  zsh    in ~/.zshrc, after compinit: source <(robotstxt completion zsh)
  fish   robotstxt completion fish \
           > ~/.config/fish/completions/robotstxt.fish

Exit status: 0 once written, 2 on bad usage.
`

func runCompletion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("completion")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailed(stderr, "completion", completionHelp, args, err)
	}
	shells := []string{"bash", "zsh", "fish"}
	if len(pos) != 1 {
		complain(stderr, "completion", "want one shell: bash, zsh or fish (robotstxt completion -h)")
		return 2
	}
	var script string
	switch pos[0] {
	case "bash":
		script = bashCompletion()
	case "zsh":
		script = zshCompletion()
	case "fish":
		script = fishCompletion()
	default:
		did := ""
		if near := suggest.Nearest(pos[0], shells); near != "" {
			did = "; did you mean " + near + "?"
		}
		complain(stderr, "completion", "unknown shell %q%s (bash, zsh or fish)", pos[0], did)
		return 2
	}
	if _, err := io.WriteString(stdout, script); err != nil {
		complain(stderr, "completion", "%v", err)
		return 2
	}
	return 0
}

// cmdSpec is what completion knows of a command: its flags, read from its
// help text.
type cmdSpec struct {
	name, summary string
	flags         []flagSpec
}

// flagSpec is one flag of a command: its name as the help text writes it
// ("-c", "--store"), and the kind of value it takes ("" for a switch).
type flagSpec struct {
	name string
	kind string // "", valueAny, valueFile, valueCrawler, ...; or "words:a b"
}

// Kinds of flag values, for completion.
const (
	valueAny     = "any"
	valueFile    = "file"
	valueCrawler = "crawler"
	valueDialect = "dialect"
	valuePurpose = "purpose"
	valueCode    = "code"
	// valueBehaviour: a behaviour class (robotstxt.Behaviour), or "all".
	valueBehaviour = "behaviour"
)

// helpOf returns the help text of command c, as "robotstxt c -h" prints it.
func helpOf(c command) string {
	var b strings.Builder
	c.run([]string{"-h"}, strings.NewReader(""), io.Discard, &b)
	return b.String()
}

// flagLine finds a flag where a help text defines it: at the start of an
// indented line, with its value's name if it takes one.
var flagLine = regexp.MustCompile(`^ {2,4}(-{1,2}[a-zA-Z][a-zA-Z0-9-]*)(?:[ =]([A-Z][A-Z0-9_.,=-]*|[a-z]+(?:\|[a-z]+)+|[0-9][0-9a-z.]*|false|true))?(?: |$)`)

// usageFlag finds a flag in a usage line: "[--store STORE]", "[-v]".
var usageFlag = regexp.MustCompile(`[\[(| ](-{1,2}[a-zA-Z][a-zA-Z0-9-]*)(?:[ =]([A-Z][A-Z0-9_.,=-]*|[a-z]+(?:\|[a-z]+)+|[0-9][0-9a-z.]*|false|true))?[\])| ]`)

// specs returns every command with the flags its help text defines, in
// the order of commands().
func specs() []cmdSpec {
	var out []cmdSpec
	for _, c := range commands() {
		out = append(out, cmdSpec{name: c.name, summary: c.summary, flags: parseHelpFlags(helpOf(c))})
	}
	return out
}

// parseHelpFlags reads the flags of a help text: those of its usage lines
// (up to the first blank line) and those that start an indented line, in
// that order, each once.
func parseHelpFlags(help string) []flagSpec {
	var out []flagSpec
	seen := map[string]bool{}
	add := func(name, arg string) {
		if seen[name] || name == "-h" || name == "--help" {
			return
		}
		seen[name] = true
		out = append(out, flagSpec{name: name, kind: valueKind(name, arg)})
	}
	lines := strings.Split(help, "\n")
	i := 0
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		for _, m := range usageFlag.FindAllStringSubmatch(lines[i]+" ", -1) {
			add(m[1], m[2])
		}
	}
	for ; i < len(lines); i++ {
		if m := flagLine.FindStringSubmatch(lines[i]); m != nil {
			add(m[1], m[2])
		}
	}
	return out
}

// valueKind says what a flag's value is, from its name and the name the
// help text gives its value ("" for a switch).
func valueKind(name, arg string) string {
	if arg == "" || arg == "false" || arg == "true" {
		return ""
	}
	switch strings.TrimLeft(name, "-") {
	case "c", "crawler", "allow-crawler", "deny-crawler":
		return valueCrawler
	case "d":
		return valueDialect
	case "purpose", "deny", "allow":
		return valuePurpose
	case "behaviour", "behavior":
		return valueBehaviour
	case "disable":
		return valueCode
	case "f", "urls", "summary", "token-file", "write", "watch":
		return valueFile
	}
	if strings.Contains(arg, "|") {
		return "words:" + strings.ReplaceAll(arg, "|", " ")
	}
	return valueAny
}

// completionWords are the names completion offers for the kinds of values
// that are names.
func completionWords(kind string) []string {
	var out []string
	switch kind {
	case valueCrawler:
		for _, c := range robotstxt.Crawlers() {
			if shellSafe(c.Name) {
				out = append(out, c.Name)
			}
		}
	case valueDialect:
		for _, d := range robotstxt.Dialects() {
			out = append(out, d.String())
		}
	case valuePurpose:
		for _, p := range robotstxt.AllPurposes() {
			out = append(out, p.String())
		}
	case valueBehaviour:
		for _, b := range robotstxt.AllBehaviours() {
			out = append(out, b.String())
		}
		out = append(out, "all")
	case valueCode:
		for _, c := range lint.Codes() {
			out = append(out, c.Code)
		}
	default:
		if w, ok := strings.CutPrefix(kind, "words:"); ok {
			out = strings.Fields(w)
		}
	}
	return out
}

// shellSafe reports whether s can stand in a shell word list unquoted.
func shellSafe(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.+/:", r)) {
			return false
		}
	}
	return true
}

// positional is the kind of a command's positional arguments.
func positional(cmd string) string {
	switch cmd {
	case "crawlers":
		return valueCrawler
	case "help":
		return "commands"
	case "completion":
		return "words:bash zsh fish"
	case "version", "serve", "man":
		return "none"
	}
	return valueFile
}

func commandNames(sp []cmdSpec) []string {
	names := []string{"help"}
	for _, c := range sp {
		names = append(names, c.name)
	}
	slices.Sort(names)
	return names
}

// bashCompletion is the bash script: a completion function for robotstxt.
func bashCompletion() string {
	sp := specs()
	var b strings.Builder
	b.WriteString(`# bash completion for robotstxt: robotstxt completion bash
_robotstxt() {
    local cur prev cmd i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        -*) ;;
        *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
`)
	words := func(kind string) string {
		switch kind {
		case valueFile, valueAny, "none", "":
			return ""
		case "commands":
			return strings.Join(commandNames(sp), " ")
		}
		return strings.Join(completionWords(kind), " ")
	}
	fmt.Fprintf(&b, "    local commands=%q\n", words("commands"))
	for _, k := range []string{valueCrawler, valueDialect, valuePurpose, valueCode} {
		fmt.Fprintf(&b, "    local %ss=%q\n", k, words(k))
	}
	b.WriteString(`    # _robotstxt_names WORDS: complete a name, or the last of a comma
    # separated list of names.
    _robotstxt_names() {
        local pre=
        [[ $cur == *,* ]] && pre=${cur%,*},
        COMPREPLY=($(compgen -P "$pre" -W "$1" -- "${cur##*,}"))
    }
    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    local flags= args=file
    case $cmd in
`)
	for _, c := range append(sp, cmdSpec{name: "help"}) {
		fmt.Fprintf(&b, "    %s)\n", c.name)
		var names []string
		byKind := map[string][]string{}
		var kinds []string
		for _, f := range c.flags {
			names = append(names, f.name)
			if f.kind == "" {
				continue
			}
			if byKind[f.kind] == nil {
				kinds = append(kinds, f.kind)
			}
			byKind[f.kind] = append(byKind[f.kind], f.name, "-"+strings.TrimLeft(f.name, "-"), "--"+strings.TrimLeft(f.name, "-"))
		}
		if len(kinds) > 0 {
			b.WriteString("        case $prev in\n")
			for _, k := range kinds {
				alts := slices.Compact(slices.Sorted(slices.Values(byKind[k])))
				var reply string
				switch k {
				case valueFile:
					reply = `COMPREPLY=($(compgen -f -- "$cur"))`
				case valueAny:
					reply = `COMPREPLY=()`
				case valueCrawler, valueDialect, valuePurpose, valueCode:
					reply = fmt.Sprintf(`_robotstxt_names "$%ss"`, k)
				default:
					reply = fmt.Sprintf(`COMPREPLY=($(compgen -W %q -- "$cur"))`, words(k))
				}
				fmt.Fprintf(&b, "        %s) %s; return ;;\n", strings.Join(alts, "|"), reply)
			}
			b.WriteString("        esac\n")
		}
		fmt.Fprintf(&b, "        flags=%q\n", strings.Join(names, " "))
		switch k := positional(c.name); k {
		case valueFile:
		case "none":
			b.WriteString("        args=\n")
		case valueCrawler:
			b.WriteString("        args=\"$crawlers\"\n")
		case "commands":
			b.WriteString("        args=\"$commands\"\n")
		default:
			fmt.Fprintf(&b, "        args=%q\n", words(k))
		}
		b.WriteString("        ;;\n")
	}
	b.WriteString(`    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [[ $args == file ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    elif [[ -n $args ]]; then
        COMPREPLY=($(compgen -W "$args" -- "$cur"))
    else
        COMPREPLY=()
    fi
}
complete -o filenames -o bashdefault -F _robotstxt robotstxt
`)
	return b.String()
}

// zshCompletion is the zsh script: bash's, loaded through bashcompinit,
// which gives zsh the same completions from one source.
func zshCompletion() string {
	return "#compdef robotstxt\n# zsh completion for robotstxt: robotstxt completion zsh\n" +
		"autoload -U +X compinit && { (( $+functions[compdef] )) || compinit; }\n" +
		"autoload -U +X bashcompinit && bashcompinit\n" +
		bashCompletion()
}

// fishCompletion is the fish script: one complete line per command, flag
// and value list.
func fishCompletion() string {
	sp := specs()
	var b strings.Builder
	b.WriteString("# fish completion for robotstxt: robotstxt completion fish\ncomplete -c robotstxt -f\n")
	names := commandNames(sp)
	fmt.Fprintf(&b, "complete -c robotstxt -n 'not __fish_seen_subcommand_from %s' -a 'help' -d 'a command'\"'\"'s help'\n", strings.Join(names, " "))
	for _, c := range sp {
		fmt.Fprintf(&b, "complete -c robotstxt -n 'not __fish_seen_subcommand_from %s' -a %s -d %s\n", strings.Join(names, " "), c.name, fishQuote(c.summary))
	}
	fmt.Fprintf(&b, "complete -c robotstxt -n '__fish_seen_subcommand_from help' -a %s\n", fishQuote(strings.Join(names, " ")))
	for _, c := range sp {
		cond := fmt.Sprintf("'__fish_seen_subcommand_from %s'", c.name)
		switch k := positional(c.name); k {
		case valueFile:
			fmt.Fprintf(&b, "complete -c robotstxt -n %s -F\n", cond)
		case "none":
		default:
			var w []string
			if rest, ok := strings.CutPrefix(k, "words:"); ok {
				w = strings.Fields(rest)
			} else {
				w = completionWords(k)
			}
			fmt.Fprintf(&b, "complete -c robotstxt -n %s -a %s\n", cond, fishQuote(strings.Join(w, " ")))
		}
		for _, f := range c.flags {
			n := strings.TrimLeft(f.name, "-")
			opt := "-l " + n
			if len(n) == 1 {
				opt = "-s " + n
			}
			line := fmt.Sprintf("complete -c robotstxt -n %s -o %s", cond, n)
			if len(n) == 1 || strings.HasPrefix(f.name, "--") {
				line = fmt.Sprintf("complete -c robotstxt -n %s %s", cond, opt)
			}
			switch f.kind {
			case "":
			case valueFile:
				line += " -r -F"
			case valueAny:
				line += " -x"
			default:
				line += " -x -a " + fishQuote(strings.Join(completionWords(f.kind), " "))
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// fishQuote quotes s for fish, in single quotes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
