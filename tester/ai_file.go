package tester

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// The file as the AI report's findings read it (aiFile): its groups in
// each dialect, the decider of a crawler no group names, the lines of a
// field in given groups, and lines quoted as written; each read once per
// report.

// aiFile answers the questions the findings ask of one file: its groups
// in each dialect, and what the * group says there.
type aiFile struct {
	r      *robotstxt.Robots
	groups map[robotstxt.Dialect][]robotstxt.Group
	star   map[robotstxt.Dialect]*robotstxt.Decider
	// fields holds fieldLines' answers: every crawler asks about the *
	// group's lines, which a file of thousands of groups and lines
	// would otherwise read again for each (issue 34).
	fields map[string][]int
}

func newAIFile(r *robotstxt.Robots) *aiFile {
	return &aiFile{r: r, groups: map[robotstxt.Dialect][]robotstxt.Group{}, star: map[robotstxt.Dialect]*robotstxt.Decider{},
		fields: map[string][]int{}}
}

// groupsFor returns the groups as dialect d reads them.
func (x *aiFile) groupsFor(d robotstxt.Dialect) []robotstxt.Group {
	g, ok := x.groups[d]
	if !ok {
		g = x.r.GroupsFor(d)
		x.groups[d] = g
	}
	return g
}

// starOf returns the decider of a crawler no group names, in dialect d.
func (x *aiFile) starOf(d robotstxt.Dialect) *robotstxt.Decider {
	p, ok := x.star[d]
	if !ok {
		p = x.r.Decider(robotstxt.Query{Agents: []string{probeToken}, Dialect: d})
		x.star[d] = p
	}
	return p
}

// fieldLines returns the lines of field in the groups gs (indexes in
// dialect d's groups), ascending.
func (x *aiFile) fieldLines(d robotstxt.Dialect, gs []int, field robotstxt.Field) []int {
	key := fmt.Sprint(d, field, gs)
	if out, ok := x.fields[key]; ok {
		return out
	}
	out := x.readFieldLines(d, gs, field)
	x.fields[key] = out
	return out
}

// readFieldLines is fieldLines, read from the lines.
func (x *aiFile) readFieldLines(d robotstxt.Dialect, gs []int, field robotstxt.Field) []int {
	groups := x.groupsFor(d)
	var out []int
	for _, gi := range gs {
		if gi < 0 || gi >= len(groups) {
			continue
		}
		g := &groups[gi]
		for n := g.StartLine; n <= g.EndLine; n++ {
			if l, ok := x.r.Line(n); ok && l.Field == field {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// text returns line n as written, trimmed.
func (x *aiFile) text(n int) string {
	l, ok := x.r.Line(n)
	if !ok {
		return ""
	}
	return strings.TrimSpace(l.Text)
}

// lines returns the lines ns, ascending, once each, with their text.
func (x *aiFile) lines(ns ...int) []AILine {
	ns = slices.Clone(ns)
	slices.Sort(ns)
	ns = slices.Compact(ns)
	out := make([]AILine, 0, len(ns))
	for _, n := range ns {
		if n > 0 {
			out = append(out, AILine{Line: n, Text: x.text(n)})
		}
	}
	return out
}
