package export

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/seed53c283f5/robotstxt/guard"
)

// header writes the comment lines every export starts with.
func header(b *strings.Builder, p *plan, prefix, target string, how []string) {
	fmt.Fprintf(b, "%s robotstxt guard export for %s: the robots.txt in force, as\n", prefix, target)
	fmt.Fprintf(b, "%s the guard enforces it (docs/guard.md, Exporters).\n", prefix)
	for _, l := range how {
		fmt.Fprintf(b, "%s %s\n", prefix, l)
	}
	n := 0
	for _, c := range p.classes {
		if c.blocking() {
			n++
		}
	}
	fmt.Fprintf(b, "%s %d classes of crawlers, %d with rules that refuse; %d warnings.\n",
		prefix, len(p.classes), n, len(p.warnings))
	for _, c := range p.classes {
		fmt.Fprintf(b, "%s %s (%s, %d rules): %s\n", prefix, c.id, actionName(c),
			len(c.rules), clip(strings.Join(c.names, " "), 50))
	}
}

func actionName(c *class) string {
	if statusOf(c.action) == 0 {
		return "passes"
	}
	return c.action.String()
}

// clip cuts s to n bytes, with "..." when cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// statuses returns the distinct blocking actions of the plan, sorted.
func statuses(p *plan) []guard.Action {
	seen := map[guard.Action]bool{}
	var out []guard.Action
	for _, c := range p.classes {
		if c.blocking() && !seen[c.action] {
			seen[c.action] = true
			out = append(out, c.action)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// warnTarpit names the tarpit a target answers as a plain 403.
func warnTarpit(p *plan, target string) {
	for _, a := range statuses(p) {
		if a == guard.ActionTarpit {
			p.warnOnce(Warning{Name: WarnStatus, Rule: "tarpit",
				Why: target + " has no tarpit: the export answers a plain 403 at once"})
		}
	}
}

// verdict is the value a rule sets: "" when it lets the request pass,
// else the action's name.
func verdict(c *class, r prule) string {
	if r.allow || statusOf(c.action) == 0 {
		return ""
	}
	return c.action.String()
}

// renderNginx writes two maps for the http {} context: the class of the
// User-Agent, then the verdict of the class and $request_uri (the URI as
// sent, query included, never decoded). Both are first-match: nginx tries
// a map's regular expressions in the order written.
func renderNginx(p *plan) []byte {
	var b strings.Builder
	how := []string{"Include this file in the http {} context, then in each location",
		"it guards (add_header, for 402 and 429, is not allowed in a server's if):"}
	for _, a := range statuses(p) {
		how = append(how, "    "+nginxIf(a, p))
	}
	warnTarpit(p, "nginx")
	header(&b, p, "#", "nginx", how)
	b.WriteString("\nmap $http_user_agent $robotstxt_agent {\n    default \"\";\n")
	for _, a := range p.agents {
		fmt.Fprintf(&b, "    # %s\n    \"~%s\" \"%s\";\n", clip(a.what, 70), a.re, classID(a.class))
	}
	b.WriteString("}\n\nmap \"$robotstxt_agent $request_uri\" $robotstxt_block {\n    default \"\";\n")
	for _, re := range p.passes {
		fmt.Fprintf(&b, "    \"~^[^ ]* %s\" \"\";\n", re[1:])
	}
	for _, c := range p.classes {
		if !c.blocking() {
			continue
		}
		for _, r := range c.rules {
			fmt.Fprintf(&b, "    # line %d: %s\n    \"~^%s %s\" \"%s\";\n", r.line, clip(r.text, 60), c.id, r.re[1:], verdict(c, r))
		}
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// nginxIf is the server-context statement that answers for action a.
func nginxIf(a guard.Action, p *plan) string {
	v := a.String()
	switch a {
	case guard.Action429:
		return fmt.Sprintf("if ($robotstxt_block = %s) { add_header Retry-After %d always; return 429; }", v, p.retryAfter)
	case guard.Action402:
		if p.price != "" {
			return fmt.Sprintf("if ($robotstxt_block = %s) { add_header crawler-price \"%s\" always; return 402; }", v, p.price)
		}
		return fmt.Sprintf("if ($robotstxt_block = %s) { return 402; }", v)
	default:
		return fmt.Sprintf("if ($robotstxt_block = %s) { return %d; }", v, statusOf(a))
	}
}

func classID(c *class) string {
	if c == nil {
		return "none"
	}
	return c.id
}

// renderHAProxy writes http-request rules for a frontend: the class of
// the User-Agent (req.fhdr, the whole header, commas included) into
// txn.robotstxt_agent, then the first rule that matches pathq (the path
// and query as sent) into txn.robotstxt, then the answer.
func renderHAProxy(p *plan) []byte {
	var b strings.Builder
	header(&b, p, "#", "HAProxy", []string{
		"Paste these lines into the frontend (or listen) section it guards,",
		"before its use_backend lines. HAProxy 2.2 or later (pathq), with PCRE2."})
	b.WriteString("\n")
	for _, a := range p.agents {
		fmt.Fprintf(&b, "# %s\nhttp-request set-var(txn.robotstxt_agent) str(%s) if !{ var(txn.robotstxt_agent) -m found } { req.fhdr(user-agent) -m reg '%s' }\n",
			clip(a.what, 70), classID(a.class), a.re)
	}
	for _, re := range p.passes {
		fmt.Fprintf(&b, "http-request set-var(txn.robotstxt) str(pass) if !{ var(txn.robotstxt) -m found } { pathq -m reg '%s' }\n", re)
	}
	for _, c := range p.classes {
		if !c.blocking() {
			continue
		}
		for _, r := range c.rules {
			v := verdict(c, r)
			if v == "" {
				v = "pass"
			}
			fmt.Fprintf(&b, "# line %d: %s\nhttp-request set-var(txn.robotstxt) str(%s) if !{ var(txn.robotstxt) -m found } { var(txn.robotstxt_agent) -m str %s } { pathq -m reg '%s' }\n",
				r.line, clip(r.text, 60), v, c.id, r.re)
		}
	}
	for _, a := range statuses(p) {
		cond := fmt.Sprintf("if { var(txn.robotstxt) -m str %s }", a.String())
		switch a {
		case guard.Action403:
			fmt.Fprintf(&b, "http-request deny deny_status 403 %s\n", cond)
		case guard.ActionTarpit:
			fmt.Fprintf(&b, "# needs 'timeout tarpit' in the defaults or the frontend\nhttp-request tarpit deny_status 403 %s\n", cond)
		case guard.Action429:
			fmt.Fprintf(&b, "http-request return status 429 hdr Retry-After %d %s\n", p.retryAfter, cond)
		case guard.Action402:
			if p.price != "" {
				fmt.Fprintf(&b, "http-request return status 402 hdr crawler-price \"%s\" %s\n", p.price, cond)
			} else {
				fmt.Fprintf(&b, "http-request return status 402 %s\n", cond)
			}
		default:
			fmt.Fprintf(&b, "http-request return status %d %s\n", statusOf(a), cond)
		}
	}
	return []byte(b.String())
}

// renderCaddy writes a Caddyfile snippet: two maps (the class of the
// User-Agent; the verdict of the class and the request's original URI
// as sent, query included), then the answers.
func renderCaddy(p *plan) []byte {
	var b strings.Builder
	warnTarpit(p, "Caddy")
	header(&b, p, "#", "Caddy", []string{
		"A Caddyfile snippet: put it at the top level, then `import robotstxt_guard`",
		"in each site block it guards."})
	b.WriteString("\n(robotstxt_guard) {\n\tmap {http.request.header.User-Agent} {robotstxt_agent} {\n")
	for _, a := range p.agents {
		fmt.Fprintf(&b, "\t\t# %s\n\t\t~%s %s\n", clip(a.what, 70), a.re, classID(a.class))
	}
	b.WriteString("\t\tdefault none\n\t}\n\tmap \"{robotstxt_agent} {http.request.orig_uri}\" {robotstxt_block} {\n")
	for _, re := range p.passes {
		fmt.Fprintf(&b, "\t\t~^[^\\x20]*\\x20%s pass\n", re[1:])
	}
	for _, c := range p.classes {
		if !c.blocking() {
			continue
		}
		for _, r := range c.rules {
			v := verdict(c, r)
			if v == "" {
				v = "pass"
			}
			fmt.Fprintf(&b, "\t\t# line %d: %s\n\t\t~^%s\\x20%s %s\n", r.line, clip(r.text, 60), c.id, r.re[1:], v)
		}
	}
	b.WriteString("\t\tdefault pass\n\t}\n")
	for _, a := range statuses(p) {
		name := "@robotstxt_" + a.String()
		fmt.Fprintf(&b, "\t%s vars {robotstxt_block} %s\n", name, a.String())
		if a == guard.Action429 {
			fmt.Fprintf(&b, "\theader %s Retry-After %d\n", name, p.retryAfter)
		}
		if a == guard.Action402 && p.price != "" {
			fmt.Fprintf(&b, "\theader %s crawler-price \"%s\"\n", name, p.price)
		}
		fmt.Fprintf(&b, "\trespond %s %d\n", name, statusOf(a))
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// renderAnubis writes bot rules for an Anubis policy, to import at the
// top of its bots: list. A rule carries headers_regex (User-Agent) and
// path_regex together (Anubis refuses user_agent_regex with path_regex);
// path_regex reads the decoded path without the query.
func renderAnubis(p *plan) []byte {
	var b strings.Builder
	warnTarpit(p, "Anubis")
	header(&b, p, "#", "Anubis", []string{
		"Import it first in the policy's bots: list (- import: /path/to/this.yaml).",
		"Anubis answers DENY with status_codes.DENY (200 unless set): set it to 403.",
		"ALLOW rules let a crawler's allowed paths skip the rules after them."})
	b.WriteString("\n")
	n := 0
	rule := func(name, action, path string, ua []string) {
		n++
		fmt.Fprintf(&b, "- name: robotstxt-%d-%s\n  action: %s\n  path_regex: %s\n", n, name, action, yamlQuote(path))
		if len(ua) > 0 {
			fmt.Fprintf(&b, "  headers_regex:\n    User-Agent: %s\n", yamlQuote(anyOf(ua)))
		}
	}
	for _, re := range p.passes {
		rule("rules", "ALLOW", re, nil)
	}
	// Anubis has no variables: each rule carries its class's
	// User-Agent expressions. A header another class's product
	// expression claims first is refused by that class's rules only
	// where the two agree, which they do for every header that names
	// one crawler (docs/guard.md).
	for _, c := range p.classes {
		if !c.blocking() {
			continue
		}
		ua := classAgents(p, c)
		if len(ua) == 0 {
			// No User-Agent names the class (a crawler known only by
			// a name with a space, "Linguee Bot"): the guard never
			// recognises it, and a rule without headers_regex would
			// hold every client.
			continue
		}
		for _, r := range c.rules {
			act := "DENY"
			if r.allow {
				act = "ALLOW"
			}
			rule(c.id+"-line-"+strconv.Itoa(r.line), act, r.re, ua)
		}
	}
	if n == len(p.passes) {
		b.WriteString("# nothing to refuse\n")
	}
	if statusOf(p.anyAction()) != 0 {
		p.warnOnce(Warning{Name: WarnStatus, Rule: "status_codes.DENY",
			Why: "Anubis answers DENY with its status_codes.DENY (200 unless set), one status for every rule, " +
				"without Retry-After or crawler-price: set it to the policy's status"})
	}
	return []byte(b.String())
}

func (p *plan) anyAction() guard.Action {
	for _, c := range p.classes {
		if c.blocking() {
			return c.action
		}
	}
	return 0
}

// classAgents returns the expressions that recognise class c.
func classAgents(p *plan, c *class) []string {
	var out []string
	for _, a := range p.agents {
		if a.class == c {
			out = append(out, a.re)
		}
	}
	return out
}

// anyOf joins expressions as one alternation.
func anyOf(res []string) string {
	if len(res) == 1 {
		return res[0]
	}
	return "(?:" + strings.Join(res, ")|(?:") + ")"
}

// yamlQuote writes s as a single-quoted YAML scalar.
func yamlQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
