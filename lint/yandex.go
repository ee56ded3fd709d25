package lint

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// Yandex's own fields, clean-param and host, checked as Yandex's robots.txt
// analyzer reads them (yandex.com/support/webmaster/robot-workings/
// clean-param.html and host.html):
//
//	Clean-param: p0[&p1&p2&..&pn] [path]
//	Host: [http:// | https://]name[:port]
//
// Yandex reads both wherever they stand in the file; the other crawlers skip
// them, which is harmless. Inside a group that only Yandex robots read they
// are correct usage and get no finding; elsewhere one info per file says
// that only Yandex reads them.

// yandexFields reports the clean-param and host lines: one yandex-only-field
// info for those outside a Yandex group, and the syntax errors Yandex's
// analyzer reports.
func (l *linter) yandexFields(groups []robotstxt.Group) {
	if len(l.yandexLines) == 0 {
		return
	}
	starts := make([]int, len(groups))
	for gi := range groups {
		starts[gi] = groups[gi].StartLine
	}
	var elsewhere []int
	var hosts []int
	for _, n := range l.yandexLines {
		// The group a line belongs to: the last one that starts above it.
		gi := sort.SearchInts(starts, n+1) - 1
		if gi < 0 || !yandexOnlyGroup(&groups[gi]) {
			elsewhere = append(elsewhere, n)
		}
		ln := &l.lines[n-1]
		if ln.Field == robotstxt.FieldHost {
			hosts = append(hosts, n)
			if msg := checkHost(ln.Value); msg != "" {
				l.add(n, valueColumn(ln), "yandex-bad-host", msg, nil)
			}
			continue
		}
		if msg := checkCleanParam(ln.Value); msg != "" {
			l.add(n, valueColumn(ln), "yandex-bad-clean-param", msg, nil)
		}
	}
	if len(hosts) > 1 {
		first := &l.lines[hosts[0]-1]
		same := true
		for _, n := range hosts[1:] {
			same = same && strings.EqualFold(l.lines[n-1].Value, first.Value)
		}
		msg := fmt.Sprintf("a second host line: Yandex reads only the first, line %d %q", hosts[0], clip(first.Value, 60))
		if len(hosts) > 2 {
			msg = fmt.Sprintf("%d host lines (lines %s): Yandex reads only the first, line %d %q", len(hosts), JoinLines(hosts, 8), hosts[0], clip(first.Value, 60))
		}
		if same && len(hosts) == 2 {
			msg += "; both name the same host: keep one"
		} else if same {
			msg += "; they all name the same host: keep one"
		} else {
			msg += "; keep only the main mirror's (Yandex now reads 301 redirects instead)"
		}
		ln := &l.lines[hosts[1]-1]
		l.add(hosts[1], keyColumn(ln), "yandex-bad-host", msg, nil)
	}
	if len(elsewhere) > 0 {
		n := elsewhere[0]
		hosts, cleans := 0, 0
		for _, m := range elsewhere {
			if l.lines[m-1].Field == robotstxt.FieldHost {
				hosts++
			} else {
				cleans++
			}
		}
		what := fmt.Sprintf("this %s line is read only by Yandex: Google, Bing and Baidu skip it, which is harmless", l.lines[n-1].Field)
		if len(elsewhere) > 1 {
			what = fmt.Sprintf("%d lines of clean-param or host (lines %s) are read only by Yandex: Google, Bing and Baidu skip them, which is harmless", len(elsewhere), JoinLines(elsewhere, 8))
		}
		if cleans > 0 {
			what += " (for them, rel=canonical does what clean-param does)"
		}
		if hosts > 0 {
			what += "; Yandex itself replaced host with 301 redirects in 2018"
		}
		l.add(n, keyColumn(&l.lines[n-1]), "yandex-only-field", what+"; to say whom they are for, put them in a User-agent: Yandex group", nil)
	}
}

// yandexOnlyGroup reports whether only Yandex robots read a group: every
// user-agent line of it names a Yandex token (Yandex, YandexBot...).
func yandexOnlyGroup(g *robotstxt.Group) bool {
	if len(g.Agents) == 0 {
		return false
	}
	for _, a := range g.Agents {
		if a.Global || !strings.HasPrefix(strings.ToLower(a.Token), "yandex") {
			return false
		}
	}
	return true
}

// checkCleanParam says what Yandex's analyzer finds wrong in a clean-param
// value, "" when nothing.
func checkCleanParam(v string) string {
	const syntax = "write Clean-param: name[&name...] [path]"
	fields := strings.Fields(v)
	if len(fields) == 0 {
		return "this clean-param line has no parameter: Yandex ignores it; " + syntax
	}
	var params []string
	path := ""
	if last := fields[len(fields)-1]; len(fields) > 1 && (last[0] == '/' || last[0] == '*') {
		path, fields = last, fields[:len(fields)-1]
	} else if len(fields) == 1 && fields[0][0] == '/' {
		return fmt.Sprintf("this clean-param line has a path, %q, but no parameter: Yandex ignores it; %s", clip(fields[0], 60), syntax)
	}
	var problems []string
	if len(fields) > 1 {
		if !(len(fields) == 2 && path == "") {
			problems = append(problems, "white space between parameters")
		} else {
			path = fields[1] // "ref forum/": a path that does not start with /
			fields = fields[:1]
		}
	}
	seps, values, bad := false, false, ""
	for _, f := range fields {
		for _, p := range strings.FieldsFunc(f, func(r rune) bool { return r == '&' || r == ',' || r == ';' || r == '|' }) {
			if name, _, ok := strings.Cut(p, "="); ok {
				values = true
				p = name
			}
			if p == "" {
				continue
			}
			if i := strings.IndexFunc(p, func(r rune) bool { return !isParamChar(r) }); i >= 0 && bad == "" {
				bad = p
			}
			params = append(params, p)
		}
		seps = seps || strings.ContainsAny(f, ",;|")
	}
	if seps {
		problems = append(problems, "parameters separated by something other than &")
	}
	if values {
		problems = append(problems, "parameters with values (name=value): Yandex wants their names only")
	}
	if bad != "" {
		problems = append(problems, fmt.Sprintf("%q is not a parameter name", clip(bad, 40)))
	}
	fixable := bad == ""
	if path != "" {
		if path[0] != '/' && path[0] != '*' {
			problems = append(problems, fmt.Sprintf("the path %q starts with neither / nor *", clip(path, 60)))
			if fixable && strings.IndexFunc(path, func(r rune) bool { return !isCleanPathChar(r) }) < 0 {
				path = "/" + path
			} else {
				fixable = false
			}
		} else if i := strings.IndexFunc(path, func(r rune) bool { return !isCleanPathChar(r) }); i >= 0 {
			problems = append(problems, fmt.Sprintf("the path %q holds %q: Yandex accepts only A-Z a-z 0-9 . - / * _ in it", clip(path, 60), path[i:i+1]))
			fixable = false
		}
	}
	if len(problems) == 0 {
		return ""
	}
	if len(params) == 0 {
		return "this clean-param line has no parameter: Yandex ignores it; " + syntax
	}
	msg := "Yandex's analyzer rejects this clean-param line: " + strings.Join(problems, "; ")
	if fixable {
		fix := "Clean-param: " + strings.Join(params, "&")
		if path != "" {
			fix += " " + path
		}
		return msg + fmt.Sprintf("; did you mean %q?", fix)
	}
	return msg + "; " + syntax
}

// isParamChar reports whether r may stand in a query parameter's name as
// Yandex reads clean-param: letters, digits, _ - . ~, brackets, and %
// for percent-encoded bytes.
func isParamChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.~[]%", r)
}

// isCleanPathChar reports whether r may stand in a clean-param path, by
// Yandex's documentation: A-Za-z0-9.-/*_.
func isCleanPathChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-/*_", r)
}

// checkHost says what Yandex's analyzer finds wrong in a host value, ""
// when nothing: a name, with an optional http:// or https:// and port.
func checkHost(v string) string {
	if v == "" {
		return "this host line has no value: Yandex ignores it; write Host: example.com (or with https://)"
	}
	rest := v
	if i := strings.Index(rest, "://"); i >= 0 {
		scheme := strings.ToLower(rest[:i])
		if scheme != "http" && scheme != "https" {
			return fmt.Sprintf("the host %q has the scheme %q: Yandex reads only a name, optionally with http:// or https:// and a port", clip(v, 60), clip(rest[:i], 20))
		}
		rest = rest[i+3:]
	}
	name, path, hasPath := strings.Cut(rest, "/")
	if hasPath && path != "" {
		return fmt.Sprintf("the host %q has a path: Yandex's analyzer rejects it and reads no host; write only the name (and port): Host: %s", clip(v, 60), v[:len(v)-len(path)-1])
	}
	if h, port, ok := strings.Cut(name, ":"); ok {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || port[0] == '+' {
			return fmt.Sprintf("the host %q has a bad port %q: a port is a number from 1 to 65535", clip(v, 60), clip(port, 20))
		}
		name = h
	}
	if name == "" || strings.ContainsAny(name, " \t?#@*,;=&") {
		return fmt.Sprintf("%q is not a host name: Yandex ignores it; write Host: example.com", clip(v, 60))
	}
	return ""
}
