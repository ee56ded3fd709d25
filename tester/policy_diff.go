package tester

import (
	"fmt"
	"slices"
	"strings"
)

// The unified diff of the policy writer's edit: the editor's lines, old
// and new, in hunks with diffContext lines of context around each change,
// as diff -u writes them (a byte order mark shown on each file's first
// line, a last line without an ending marked).

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// unified returns the edit as a unified diff of the file named name
// (both sides), with diffContext lines of context.
func (e *editor) unified(name string) string {
	ops := e.ops()
	if e.bom != "" {
		// The mark is on the first line of each file: an old first
		// line that is no longer first shows with it on one side only.
		first := slices.IndexFunc(ops, func(o op) bool { return o.kind != '+' })
		if first > 0 && ops[first].kind == ' ' && slices.ContainsFunc(ops[:first], func(o op) bool { return o.kind == '+' }) {
			o := ops[first]
			ops = slices.Insert(ops, first+1, op{'+', o.text, o.ending})
			ops[first].kind = '-'
		}
	}
	var changes []int
	for i, o := range ops {
		if o.kind != ' ' {
			changes = append(changes, i)
		}
	}
	if len(changes) == 0 {
		return ""
	}
	// oldAt[i] and newAt[i]: the lines of each file before op i.
	oldAt, newAt := make([]int, len(ops)+1), make([]int, len(ops)+1)
	for i, o := range ops {
		oldAt[i+1], newAt[i+1] = oldAt[i], newAt[i]
		if o.kind != '+' {
			oldAt[i+1]++
		}
		if o.kind != '-' {
			newAt[i+1]++
		}
	}
	lastOld, lastNew := -1, -1   // the ops of each file's last line
	firstOld, firstNew := -1, -1 // and first, which shows the byte order mark
	for i, o := range ops {
		if o.kind != '+' {
			lastOld = i
			if firstOld < 0 {
				firstOld = i
			}
		}
		if o.kind != '-' {
			lastNew = i
			if firstNew < 0 {
				firstNew = i
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", name, name)
	for k := 0; k < len(changes); {
		from := max(changes[k]-diffContext, 0)
		j := k
		for j+1 < len(changes) && changes[j+1]-changes[j] <= 2*diffContext {
			j++
		}
		to := min(changes[j]+diffContext+1, len(ops))
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(oldAt[from], oldAt[to]-oldAt[from]), hunkRange(newAt[from], newAt[to]-newAt[from]))
		for i := from; i < to; i++ {
			o := ops[i]
			b.WriteByte(o.kind)
			if i == firstOld && o.kind != '+' || i == firstNew && o.kind != '-' {
				b.WriteString(e.bom)
			}
			b.WriteString(o.text)
			b.WriteByte('\n')
			if o.ending == "" && (i == lastOld && o.kind != '+' || i == lastNew && o.kind != '-') {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
		k = j + 1
	}
	return b.String()
}

// hunkRange writes a hunk's side as unified diffs do: "start,count", the
// count left out when 1, the start the line before when the count is 0.
func hunkRange(before, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprint(before + 1)
	}
	return fmt.Sprintf("%d,%d", before+1, count)
}
