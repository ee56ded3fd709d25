package tester

import (
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// The line editor the policy writer plans its edits with: a file's lines
// kept byte for byte, deleted, replaced or with lines inserted around
// them, in the old file's line numbers; rendered as the new file (render),
// as the new file with a block tried in (renderWith, renderMap), or as a
// list of kept, deleted and added lines (ops) for the unified diff.

// editor edits a file line by line, in the old file's line numbers: lines
// deleted, replaced, or with lines inserted before or after them, and
// blocks appended at the end; every other line is kept byte for byte.
// Inserted lines take the file's line ending.
type editor struct {
	text    []string // the old lines, without their endings (1-based: text[0] unused)
	ending  []string // their endings ("" for a last line without one)
	eol     string   // the file's line ending
	del     map[int]bool
	repl    map[int]string
	before  map[int][]string
	after   map[int][]string
	end     [][]string // blocks appended, each after a blank line
	comment map[int]bool
	bom     string // what comes before line 1: a byte order mark, or ""
}

// newEditor returns an editor of body, whose parse is r.
func newEditor(r *robotstxt.Robots, body string) *editor {
	e := &editor{text: []string{""}, ending: []string{""}, eol: "\n", del: map[int]bool{}, repl: map[int]string{},
		before: map[int][]string{}, after: map[int][]string{}, comment: map[int]bool{}}
	var starts []int
	for i, l := range r.Lines() {
		if i == 0 {
			e.bom = body[:min(l.Offset, len(body))] // a byte order mark: it stays first
		}
		if l.Offset < len(body) {
			starts = append(starts, l.Offset)
		}
		if l.Comment {
			e.comment[i+1] = true
		}
	}
	if body == "" {
		return e
	}
	for i, s := range starts {
		end := len(body)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		line := body[s:end]
		text := strings.TrimRight(line, "\r\n")
		e.text = append(e.text, text)
		e.ending = append(e.ending, line[len(text):])
	}
	for _, end := range e.ending {
		if end != "" {
			e.eol = end
			break
		}
	}
	return e
}

// lines is the number of old lines.
func (e *editor) lines() int { return len(e.text) - 1 }

// blank reports whether old line n is empty or white space.
func (e *editor) blank(n int) bool { return strings.TrimSpace(e.text[n]) == "" }

// above returns the first line of the comment lines right above line n
// (n when there are none): what describes a group goes with it.
func (e *editor) above(n int) int {
	for n > 1 && e.comment[n-1] {
		n--
	}
	return n
}

// op is one line of an edit: kept (' '), deleted ('-') or added ('+').
type op struct {
	kind   byte
	text   string // without its ending
	ending string
}

// ops returns the edit, line by line, in order. Runs of blank lines left
// by deleted lines are cut to one (none at the start or end of the file).
func (e *editor) ops() []op {
	var out []op
	add := func(lines []string) {
		for _, t := range lines {
			out = append(out, op{'+', t, e.eol})
		}
	}
	n := e.lines()
	e.cutBlanks()
	for i := 1; i <= n; i++ {
		add(e.before[i])
		switch r, ok := e.repl[i]; {
		case e.del[i]:
			out = append(out, op{'-', e.text[i], e.ending[i]})
		case ok:
			out = append(out, op{'-', e.text[i], e.ending[i]}, op{'+', r, e.ending[i]})
		default:
			out = append(out, op{' ', e.text[i], e.ending[i]})
		}
		add(e.after[i])
	}
	for _, block := range e.end {
		// A blank line between the file and the block.
		if k := lastKept(out); k >= 0 && strings.TrimSpace(out[k].text) != "" {
			add([]string{""})
		}
		add(block)
	}
	// Every line of the new file but its last ends with a line ending:
	// a last line without one that is no longer last gets one.
	last := lastKept(out)
	for i := 0; i < last; i++ {
		if out[i].kind == '-' || out[i].ending != "" {
			continue
		}
		if out[i].kind == '+' {
			out[i].ending = e.eol
			continue
		}
		out[i].kind = '-'
		out = slices.Insert(out, i+1, op{'+', out[i].text, e.eol})
		last++
		i++
	}
	// In each run of changes, the lines that go come first, as diffs
	// show them; the new file's lines keep their order.
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && out[j].kind != ' ' {
			j++
		}
		if j == i {
			i++
			continue
		}
		run := out[i:j]
		slices.SortStableFunc(run, func(a, b op) int { return cmpKind(a.kind) - cmpKind(b.kind) })
		// Lines that go and come back the same, at the start or the
		// end of the run, are kept lines.
		gone := slices.IndexFunc(run, func(o op) bool { return o.kind == '+' })
		if gone < 0 {
			gone = len(run)
		}
		del, ins := run[:gone], run[gone:]
		var keep []op
		for len(del) > 0 && len(ins) > 0 && del[0].text == ins[0].text && del[0].ending == ins[0].ending {
			keep = append(keep, op{' ', del[0].text, del[0].ending})
			del, ins = del[1:], ins[1:]
		}
		var tail []op
		for len(del) > 0 && len(ins) > 0 && del[len(del)-1].text == ins[len(ins)-1].text && del[len(del)-1].ending == ins[len(ins)-1].ending {
			tail = append([]op{{' ', del[len(del)-1].text, del[len(del)-1].ending}}, tail...)
			del, ins = del[:len(del)-1], ins[:len(ins)-1]
		}
		merged := slices.Concat(keep, del, ins, tail)
		out = slices.Concat(out[:i], merged, out[j:])
		i += len(merged)
	}
	return out
}

// cmpKind orders deleted lines before added ones.
func cmpKind(k byte) int {
	if k == '-' {
		return 0
	}
	return 1
}

// lastKept is the index of the last line of out in the new file, -1 when
// none.
func lastKept(out []op) int {
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].kind != '-' {
			return i
		}
	}
	return -1
}

// cutBlanks deletes the blank lines that deleted lines leave doubled: in
// a run of old lines that are blank or deleted, holding a deleted line
// and no insertion, one blank line stays (none at the start or the end of
// the file).
func (e *editor) cutBlanks() {
	n := e.lines()
	for i := 1; i <= n; {
		if !e.del[i] && !e.blank(i) {
			i++
			continue
		}
		j, deleted, inserts := i, false, false
		for j <= n && (e.del[j] || e.blank(j) && e.repl[j] == "") {
			deleted = deleted || e.del[j]
			inserts = inserts || len(e.before[j]) > 0 || len(e.after[j]) > 0 && j < n
			j++
		}
		if deleted && !inserts {
			keep := 1
			if i == 1 || j > n {
				keep = 0
			}
			for k := i; k < j; k++ {
				if !e.del[k] {
					if keep > 0 {
						keep--
					} else {
						e.del[k] = true
					}
				}
			}
		}
		i = j
	}
}

// render returns the new file.
func (e *editor) render() string {
	var b strings.Builder
	b.WriteString(e.bom)
	for _, o := range e.ops() {
		if o.kind != '-' {
			b.WriteString(o.text + o.ending)
		}
	}
	return b.String()
}

// renderWith returns the new file as it would be with block inserted at
// line at (replacing, or before), or appended when at is 0: the file the
// allowed crawlers are asked about before the usage lines are planned.
func (e *editor) renderWith(block []string, at int, replace bool) string {
	text, _ := e.renderMap(block, at, replace)
	return text
}

// renderMap is renderWith, with the line of the old file each line of the
// new file is (new line: old line), for the old lines it keeps (as they
// were, or replaced) and the lines added after them (which are of their
// group): a question about the new file's lines is asked of the old
// file's by line number.
func (e *editor) renderMap(block []string, at int, replace bool) (string, map[int]int) {
	c := *e
	c.del, c.before, c.end = maps(e.del), mapsOf(e.before), slices.Clone(e.end)
	if len(block) > 0 {
		switch {
		case at > 0 && replace:
			c.before[at] = append(slices.Clone(c.before[at]), block...)
		case at > 0:
			c.before[at] = append(slices.Clone(c.before[at]), append(slices.Clone(block), "")...)
		default:
			c.end = append(c.end, block)
		}
	}
	text := c.render() // and the blank lines it cuts, in c.del
	oldOf := map[int]int{}
	n := 0
	for i := 1; i <= c.lines(); i++ {
		n += len(c.before[i])
		if !c.del[i] {
			n++
			oldOf[n] = i
		}
		// Lines after a line are of its group (the writer puts there
		// the group's preference lines and the user-agent lines it
		// moves up: keepMembers).
		for range c.after[i] {
			n++
			oldOf[n] = i
		}
	}
	return text, oldOf
}

func maps(m map[int]bool) map[int]bool {
	out := make(map[int]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func mapsOf(m map[int][]string) map[int][]string {
	out := make(map[int][]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
