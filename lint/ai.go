package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/suggest"
)

// The checks of AI usage lines: Content-Usage (the IETF AI preferences
// drafts), Content-Signal (Cloudflare's), and the earlier and competing
// forms site owners still write. docs/protocol.md, "AI usage preferences",
// says how the toolkit reads them.

// legacyLabels are the usage category labels of earlier versions of
// draft-ietf-aipref-vocab: what each meant, and what to write today.
// "ai-use" is not among them: -02 had it (input to any trained model),
// -03 to -07 did not, and -08 has it again (input to a generative AI
// model), so it is a category of today's vocabulary.
var legacyLabels = map[string]string{
	"tdm":         `"tdm" (text and data mining, 2025 drafts) is no category today; to refuse AI training write train-ai=n`,
	"ai":          `"ai" (AI training, May 2025 draft) is now train-ai: write train-ai=`,
	"genai":       `"genai" (generative AI training, 2025 drafts) is part of train-ai today: write train-ai=`,
	"train-genai": `"train-genai" (generative AI training, July to October 2025 drafts) is part of train-ai today: write train-ai=`,
	"inference":   `"inference" (AI inference, June 2025 draft) is no category today; ai-use (input to a generative AI model) is the nearest`,
	"ai-output":   `"ai-output" (AI output, October 2025 draft) is no category today; ai-use (input to a generative AI model) or search is the nearest`,
	"all":         `"all" (automated processing, July 2025 draft) is no category today`,
	"bots":        `"bots" (automated processing, September 2025 draft) is no category today`,
}

// legacyFields are fields written for AI crawlers before Content-Usage:
// what each does and what to write instead.
var legacyFields = map[string]string{
	"disallowaitraining": "DisallowAITraining is no standard field: Google's reading takes any key that starts with \"disallow\" for Disallow, so this line blocks crawling for the group's crawlers; RFC 9309's and the drafts' readers skip it. To refuse AI training write Content-Usage: train-ai=n (or Content-Usage: /path/ train-ai=n)",
	"allowaitraining":    "AllowAITraining is no standard field: Google's reading takes any key that starts with \"allow\" for Allow, so this line allows crawling for the group's crawlers; RFC 9309's and the drafts' readers skip it. To allow AI training write Content-Usage: train-ai=y",
	"user-agent-purpose": "User-Agent-Purpose is no standard field: Google's reading takes any key that starts with \"user-agent\" for User-agent, so this line names a crawler and may start or join a group; the others skip it. Name crawlers with User-agent and state uses with Content-Usage",
	"llm-policy":         "LLM-Policy is no standard field (it points to a policy page): crawlers skip it; state uses in robots.txt with Content-Usage (train-ai, ai-use, search) or Content-Signal",
}

// signalKeys are the uses a Content-Signal line names, each yes or no;
// its key "use" takes a level instead (signalUseKey).
var signalKeys = []string{"search", "ai-input", "ai-train"}

// signalUseKey is the key of a Content-Signal line's level of use.
const signalUseKey = "use"

// useLevels are the levels "use" takes, least permissive first.
var useLevels = []string{robotstxt.UseImmediate.String(), robotstxt.UseReference.String(), robotstxt.UseFull.String()}

// aiLine checks a Content-Usage or Content-Signal line; inGroup says a
// user-agent line came before it.
func (l *linter) aiLine(ln *robotstxt.Line, inGroup bool) {
	switch ln.Field {
	case robotstxt.FieldContentUsage:
		if !inGroup {
			l.add(ln.Number, keyColumn(ln), "ai-line-outside-group", "this Content-Usage line comes before any user-agent line: it belongs to no group and applies to no crawler; put a User-agent line above it", nil)
			return
		}
		l.usageStatement(ln)
	case robotstxt.FieldContentSignal:
		if !inGroup {
			l.add(ln.Number, keyColumn(ln), "ai-line-outside-group", "this Content-Signal line comes before any user-agent line: it belongs to no group and applies to no crawler; put it in a group (User-agent: * for every crawler)", nil)
			return
		}
		l.signalPairs(ln)
	}
}

// usageStatement checks a Content-Usage rule's statement of preference.
func (l *linter) usageStatement(ln *robotstxt.Line) {
	// A value starting with '/' starts with a path, up to white space.
	pref := ln.Value
	if strings.HasPrefix(pref, "/") {
		pref = ""
		if i := strings.IndexAny(ln.Value, " \t"); i >= 0 {
			pref = strings.TrimLeft(ln.Value[i:], " \t")
		}
	}
	prefs, ok := robotstxt.ParseUsagePreference(pref)
	if !ok {
		l.add(ln.Number, valueColumn(ln), "usage-bad-statement", fmt.Sprintf("the statement %q is not an RFC 9651 dictionary, so it expresses nothing (every preference is unknown for these paths); %s", clip(pref, 60), statementHint(pref)), nil)
		return
	}
	for _, p := range prefs {
		if hint, old := legacyLabels[p.Key]; old {
			l.add(ln.Number, valueColumn(ln), "usage-legacy-label", hint, nil)
			continue
		}
		cats := robotstxt.UsageCategories()
		if !slices.Contains(cats, p.Key) {
			msg := fmt.Sprintf("%q is no usage category of the vocabulary (%s): crawlers ignore it", p.Key, strings.Join(cats, ", "))
			if s := suggest.Nearest(p.Key, cats); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			l.add(ln.Number, valueColumn(ln), "usage-unknown-label", msg, nil)
			continue
		}
		if p.Pref == robotstxt.PrefUnknown {
			l.add(ln.Number, valueColumn(ln), "usage-unknown-preference", fmt.Sprintf("%s has no preference: only the tokens y and n count (not yes, no, true or a quoted string), so it is unknown; write %s=y or %s=n", p.Key, p.Key, p.Key), nil)
		}
	}
}

// statementHint says what most likely makes a statement fail to parse.
func statementHint(s string) string {
	switch {
	case strings.ToLower(s) != s:
		return "labels are lower case: write e.g. train-ai=n"
	case strings.Contains(s, " =") || strings.Contains(s, "= "):
		return "write no space around '=': train-ai=n"
	case strings.HasSuffix(strings.TrimSpace(s), ","):
		return "remove the trailing comma"
	case strings.ContainsAny(s, ";") && !strings.Contains(s, "="):
		return "separate preferences with commas: train-ai=n, search=y"
	}
	return "write labels and y or n separated by commas: train-ai=n, search=y"
}

// signalPairs checks a Content-Signal line's pairs.
func (l *linter) signalPairs(ln *robotstxt.Line) {
	s := robotstxt.ParseContentSignal(ln.Value)
	if len(s.Pairs) == 0 {
		l.add(ln.Number, valueColumn(ln), "signal-bad-pair", "this Content-Signal line names no use: write e.g. Content-Signal: search=yes, ai-input=yes, ai-train=no", nil)
		return
	}
	for _, p := range s.Pairs {
		if p.Key == signalUseKey {
			l.signalUse(ln, p.Value)
			continue
		}
		known := slices.Contains(signalKeys, p.Key)
		switch {
		case !known:
			msg := fmt.Sprintf("%q is no Content-Signal use (search, ai-input, ai-train): crawlers ignore it", p.Key)
			if near := suggest.Nearest(p.Key, signalKeys); near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
			l.add(ln.Number, valueColumn(ln), "signal-bad-pair", msg, nil)
		case !strings.EqualFold(p.Value, "yes") && !strings.EqualFold(p.Value, "no"):
			l.add(ln.Number, valueColumn(ln), "signal-bad-pair", fmt.Sprintf("%s=%s: a Content-Signal value is yes or no, so this says nothing; write %s=yes or %s=no", p.Key, clip(p.Value, 20), p.Key, p.Key), nil)
		}
	}
}

// signalUse checks the level of a Content-Signal line's use= pair, v as
// written.
func (l *linter) signalUse(ln *robotstxt.Line, v string) {
	if _, ok := robotstxt.ParseContentUse(v); ok {
		return
	}
	msg := fmt.Sprintf("use=%s: the level of use is immediate, reference or full (least permissive first), so this limits nothing", clip(v, 20))
	if near := suggest.Nearest(strings.ToLower(v), useLevels); near != "" && v != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	l.add(ln.Number, valueColumn(ln), "signal-bad-use", msg, nil)
}

// aiGroups checks where the AI lines stand among the groups, as the core
// reads them (Robots.GroupOf, the one answer to which group a line is
// in): a second Content-Signal line in a group, which is ignored; and a
// Content-Usage line after which a user-agent line of the same group
// follows in Google's reading (which skips Content-Usage lines) while
// RFC 9309's, as the AI preferences draft updates it, starts a new group
// at that line (the groups compared by their first lines, the same in
// both readings).
func (l *linter) aiGroups(groups []robotstxt.Group) {
	firstSignal := map[int]int{} // Google's group: its first Content-Signal line
	rfc := l.r.GroupsFor(robotstxt.RFC9309)
	for i := range l.lines {
		ln := &l.lines[i]
		if !ln.HasDirective {
			continue
		}
		switch ln.Field {
		case robotstxt.FieldContentUsage:
			gi, ok := l.r.GroupOf(robotstxt.Google, ln.Number)
			if !ok {
				break
			}
			next := 0 // the group's first user-agent line after this one
			for _, a := range groups[gi].Agents {
				if a.Line > ln.Number {
					next = a.Line
					break
				}
			}
			if next == 0 {
				break
			}
			ru, ok1 := l.r.GroupOf(robotstxt.RFC9309, ln.Number)
			ra, ok2 := l.r.GroupOf(robotstxt.RFC9309, next)
			if !ok1 || !ok2 || rfc[ru].StartLine == rfc[ra].StartLine {
				break
			}
			l.add(ln.Number, 1, "usage-groups-differ", fmt.Sprintf("the user-agent line %d follows this Content-Usage line with no allow or disallow between: Google's reading, which skips Content-Usage, puts line %d in this group (its crawlers get these preferences), RFC 9309's as the AI preferences draft updates it starts a new group there; put an Allow or Disallow rule above line %d, or a blank line and the group's own rules", next, next, next), nil)
		case robotstxt.FieldContentSignal:
			gi, ok := l.r.GroupOf(robotstxt.Google, ln.Number)
			if !ok {
				break
			}
			if first, seen := firstSignal[gi]; seen {
				l.add(ln.Number, keyColumn(ln), "signal-repeated", fmt.Sprintf("a second Content-Signal line in the group of line %d: only the first counts; merge them into one line", first), nil)
			} else {
				firstSignal[gi] = ln.Number
			}
		}
	}
}

// legacyAIField reports the finding for a field written for AI crawlers
// before Content-Usage; false when ln is none.
func (l *linter) legacyAIField(ln *robotstxt.Line) bool {
	msg, ok := legacyFields[strings.ToLower(ln.Key)]
	if !ok {
		return false
	}
	l.add(ln.Number, keyColumn(ln), "legacy-ai-field", msg, nil)
	return true
}
