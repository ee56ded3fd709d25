package tester

import (
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// The preference statements the policy writes: the Content-Usage and
// Content-Signal keys its stances give (usageKeys, signalKeys), and a
// statement as written amended key by key, the rest of it kept (setUsage,
// setSignal, replaceValue).

// prefKey is one key of a Content-Usage or Content-Signal statement and
// the value the policy gives it.
type prefKey struct{ key, value string }

// usageKeys are the Content-Usage preferences the stances state: train-ai
// from ai-training, search from search.
func usageKeys(req *PolicyRequest) []prefKey {
	var out []prefKey
	for _, k := range []struct {
		p   robotstxt.Purpose
		key string
	}{{robotstxt.PurposeAITraining, robotstxt.UsageTrainAI}, {robotstxt.PurposeSearch, robotstxt.UsageSearch}} {
		switch {
		case req.Deny.Has(k.p):
			out = append(out, prefKey{k.key, "n"})
		case req.Allow.Has(k.p):
			out = append(out, prefKey{k.key, "y"})
		}
	}
	return out
}

// signalKeys are the Content-Signal values the stances state: search from
// search, ai-input from ai-search, ai-train from ai-training.
func signalKeys(req *PolicyRequest) []prefKey {
	var out []prefKey
	for _, k := range []struct {
		p   robotstxt.Purpose
		key string
	}{{robotstxt.PurposeSearch, "search"}, {robotstxt.PurposeAISearch, "ai-input"}, {robotstxt.PurposeAITraining, "ai-train"}} {
		switch {
		case req.Deny.Has(k.p):
			out = append(out, prefKey{k.key, "no"})
		case req.Allow.Has(k.p):
			out = append(out, prefKey{k.key, "yes"})
		}
	}
	return out
}

// joinKeys writes keys as a statement: "train-ai=n, search=y".
func joinKeys(keys []prefKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.key + "=" + k.value
	}
	return strings.Join(parts, ", ")
}

// splitPathValue splits a Content-Usage value into its path and its
// statement, as the core does.
func splitPathValue(v string) (path, st string) {
	i := strings.IndexAny(v, " \t")
	if i < 0 {
		return v, ""
	}
	return v[:i], strings.TrimLeft(v[i:], " \t")
}

// members splits a statement at its top-level commas (not inside a
// quoted string): each member's start and end in s.
func members(s string) [][2]int {
	var out [][2]int
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			out = append(out, [2]int{start, i})
			start = i + 1
		}
	}
	return append(out, [2]int{start, len(s)})
}

// memberKey returns a member's key: what comes before '=' or ';', trimmed.
func memberKey(m string) string {
	if i := strings.IndexAny(m, "=;"); i >= 0 {
		m = m[:i]
	}
	return strings.Trim(m, " \t")
}

// setUsage sets keys in a Content-Usage statement: each member of those
// keys that says otherwise is rewritten in place, and, with add, the keys
// it lacks are appended. ok is false when the statement does not parse:
// then, with add, it is replaced whole.
func setUsage(v string, keys []prefKey, add bool) (string, bool) {
	if _, ok := robotstxt.ParseUsagePreference(v); !ok {
		if add {
			return joinKeys(keys), false
		}
		return v, false
	}
	return setMembers(v, keys, add, func(m string, k prefKey) bool {
		p, ok := robotstxt.ParseUsagePreference(strings.Trim(m, " \t"))
		return ok && len(p) == 1 && p[0].Pref.String() == k.value
	}, func(key string, k prefKey) bool { return key == k.key }), true
}

// setSignal sets keys in a Content-Signal value, as setUsage does; keys are
// compared without regard to case, values too.
func setSignal(v string, keys []prefKey) string {
	return setMembers(v, keys, true, func(m string, k prefKey) bool {
		_, val, _ := strings.Cut(m, "=")
		return strings.EqualFold(strings.Trim(val, " \t"), k.value)
	}, func(key string, k prefKey) bool { return strings.EqualFold(key, k.key) })
}

// setMembers sets keys in a statement of comma-separated members: a
// member of a key (same reports whether a member names it) that does not
// already say the key's value (says) is rewritten in place as key=value,
// the rest of the statement kept as written; with add, the keys no member
// names are appended.
func setMembers(v string, keys []prefKey, add bool, says func(m string, k prefKey) bool, same func(key string, k prefKey) bool) string {
	ms := members(v)
	var b strings.Builder
	last := 0
	found := make([]bool, len(keys))
	for _, m := range ms {
		text := v[m[0]:m[1]]
		key := memberKey(text)
		for i, k := range keys {
			if !same(key, k) {
				continue
			}
			found[i] = true
			if says(text, k) {
				break
			}
			// Only the value changes: the key, its parameters and the
			// white space around stay as written.
			from, to := m[0]+strings.Index(text, key)+len(key), m[1]
			if eq := strings.IndexByte(v[from:to], '='); eq >= 0 && !strings.Contains(v[from:from+eq], ";") {
				from += eq + 1
				if semi := strings.IndexByte(v[from:to], ';'); semi >= 0 {
					to = from + semi
				} else {
					to = from + len(strings.TrimRight(v[from:to], " \t"))
				}
				b.WriteString(v[last:from])
				b.WriteString(k.value)
			} else {
				// A bare key (true, not a Token): give it the value.
				to = from
				b.WriteString(v[last:from])
				b.WriteString("=" + k.value)
			}
			last = to
			break
		}
	}
	b.WriteString(v[last:])
	out := b.String()
	if add {
		for i, k := range keys {
			if found[i] {
				continue
			}
			if strings.TrimSpace(out) != "" {
				out += ", "
			}
			out += k.key + "=" + k.value
		}
	}
	return out
}

// replaceValue returns text, the line l reports on as written, with its
// value replaced by v: the key, the white space and any comment kept.
func replaceValue(text string, l robotstxt.Line, v string) string {
	colon := strings.IndexByte(text, ':')
	if colon < 0 {
		return l.Key + ": " + v
	}
	rest := text[colon+1:]
	i := strings.Index(rest, l.Value)
	if i < 0 || l.Value == "" {
		// An empty value: put the new one after the colon's white space.
		i = len(rest) - len(strings.TrimLeft(rest, " \t"))
		if i == 0 {
			return text[:colon+1] + " " + v + rest
		}
		return text[:colon+1] + rest[:i] + v + rest[i:]
	}
	return text[:colon+1] + rest[:i] + v + rest[i+len(l.Value):]
}
