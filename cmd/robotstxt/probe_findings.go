package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// answerKey is what makes two fetches the same answer.
func answerKey(f *probeFetch) string {
	switch f.kind {
	case kindRules, kindHTML:
		return f.kind + " " + f.SHA256
	case kindChallenge:
		return fmt.Sprintf("%s %s %d", f.kind, f.Challenge, f.Status)
	case kindNoAnswer, kindNotAsked:
		return f.kind
	}
	return fmt.Sprintf("%s %d %s", f.kind, f.Status, f.Policy)
}

// analyseProbe groups the fetches into answers and finds what differs.
func analyseProbe(site *probeSite, o *probeOptions) {
	byKey := map[string]*probeAnswer{}
	var answers []*probeAnswer
	for i := range site.Fetches {
		f := &site.Fetches[i]
		if f.kind == kindNotAsked {
			site.NotAsked++
		} else {
			site.Asked++
		}
		k := answerKey(f)
		a := byKey[k]
		if a == nil {
			a = &probeAnswer{Kind: f.kind, Status: f.Status, SHA256: f.SHA256, Bytes: f.Bytes, Challenge: f.Challenge, What: answerWhat(f), key: k}
			if body := site.bodies.get(f.SHA256); f.kind == kindRules && body != nil {
				a.Groups, a.kept = groupNames(body), true
			}
			byKey[k] = a
			answers = append(answers, a)
		}
		a.Crawlers = append(a.Crawlers, f.Crawler)
	}
	sort.SliceStable(answers, func(i, j int) bool { return len(answers[i].Crawlers) > len(answers[j].Crawlers) })
	for i, a := range answers {
		a.ID = answerID(i)
		site.Answers = append(site.Answers, *a)
	}
	for i := range site.Fetches {
		site.Fetches[i].Answer = byKey[answerKey(&site.Fetches[i])].ID
	}
	if site.Asked > 0 && len(byKey) == 1 && answers[0].Kind == kindNoAnswer {
		site.Error = "no crawler got an answer: " + site.Fetches[0].Error
	}
	site.Findings = probeFindings(site, o)
	site.Agree = len(site.Findings) == 0
}

// answerID is "A" for 0, ..., "Z", then "AA", "AB", ...
func answerID(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return answerID(i/26-1) + string(rune('A'+i%26))
}

// answerWhat is an answer in a few words.
func answerWhat(f *probeFetch) string {
	sl := statusText("", f.Status)
	switch f.kind {
	case kindRules:
		return fmt.Sprintf("%s, rules, %s, sha256:%s", sl, nOf(f.Bytes, "byte"), f.SHA256[:12])
	case kindHTML:
		return fmt.Sprintf("%s, an HTML page, %s, sha256:%s", sl, nOf(f.Bytes, "byte"), f.SHA256[:12])
	case kindChallenge:
		return fmt.Sprintf("%s, a challenge page (%s)", sl, f.Challenge)
	case kindNoAnswer:
		return "no answer"
	case kindNotAsked:
		return "not asked"
	case kindAllowAll:
		return sl + ", read as no rules (" + f.Policy + ")"
	}
	return sl + ", read as " + f.Policy
}

// groupNames are the user-agent values of a file's groups, as written,
// each once, in file order.
func groupNames(body []byte) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range robotstxt.Parse(body).Groups() {
		for _, a := range g.Agents {
			if k := strings.ToLower(a.Value); !seen[k] {
				seen[k] = true
				out = append(out, a.Value)
			}
		}
	}
	return out
}

// probeFindings says what differs between the answers of site, and what
// keeps crawlers from reading the rules. The answer most crawlers got is
// the reference; files of rules are compared with the most common one.
func probeFindings(site *probeSite, o *probeOptions) []probeFinding {
	out := []probeFinding{}
	if len(site.Answers) == 0 {
		return out
	}
	ref := &site.Answers[0]
	var refRules *probeAnswer
	for i := range site.Answers {
		if site.Answers[i].Kind == kindRules {
			refRules = &site.Answers[i]
			break
		}
	}
	others := func(a, ref *probeAnswer) string {
		switch {
		case len(site.Answers) == 1:
			return "every crawler asked got it"
		case a == ref:
			return "the answer most crawlers got"
		}
		return fmt.Sprintf("%d other %s got answer %s", len(ref.Crawlers), plural(len(ref.Crawlers), "crawler"), ref.ID)
	}
	for i := range site.Answers {
		a := &site.Answers[i]
		benign := a.Kind == kindRules || a.Kind == kindAllowAll || a.Kind == kindStatus && a.Status == http.StatusNotFound
		if benign && a == ref {
			continue // the reference, and no obstacle to reading the rules
		}
		add := func(kind, detail string) {
			out = append(out, probeFinding{Kind: kind, Crawlers: a.Crawlers, Detail: detail + "; " + others(a, ref)})
		}
		switch {
		case a.Kind == kindChallenge:
			add("challenge", fmt.Sprintf("a challenge page (%s, %s) instead of robots.txt", a.Challenge, statusText("", a.Status)))
		case a.Kind == kindHTML:
			add("html", "an HTML page where a text file of rules is expected ("+a.What+")")
		case a.Kind == kindNoAnswer:
			add("no-answer", "no answer: "+firstError(site, a.ID))
		case a.Kind == kindNotAsked && len(site.Answers) == 1:
			out = append(out, probeFinding{Kind: "not-asked", Crawlers: a.Crawlers, Detail: "no crawler asked: the time allowed ran out first"})
		case a.Kind == kindNotAsked:
			add("not-asked", "not asked: the time allowed ran out")
		case a.Kind == kindStatus && (a.Status == http.StatusUnauthorized || a.Status == http.StatusForbidden):
			add("refused", statusText("", a.Status)+" for robots.txt")
		case a.Kind == kindStatus && a.Status == http.StatusTooManyRequests:
			add("rate-limited", statusText("", a.Status)+" for robots.txt")
		case a.Kind == kindStatus && a.Status >= 500:
			add("server-error", statusText("", a.Status)+" for robots.txt")
		case a.Kind == kindRules && a != refRules:
			out = append(out, probeFinding{Kind: "body-differs", Crawlers: a.Crawlers,
				Detail: fmt.Sprintf("a different file (answer %s); %d other %s got answer %s", a.ID, len(refRules.Crawlers), plural(len(refRules.Crawlers), "crawler"), refRules.ID)})
			if a.kept && refRules.kept {
				out = append(out, groupFindings(a, refRules)...)
			}
		default:
			add("status", "a different answer: "+a.What)
		}
	}
	if o.origin != nil {
		out = append(out, originFindings(site, o)...)
	}
	slices.SortStableFunc(out, func(a, b probeFinding) int { return findingRank(a.Kind) - findingRank(b.Kind) })
	return out
}

// findingKinds are the kinds of findings, those that keep crawlers from
// the rules first: the order of the report.
var findingKinds = []string{"challenge", "html", "refused", "rate-limited", "server-error", "no-answer", "not-asked",
	"status", "body-differs", "injected-group", "missing-group", "not-origin"}

func findingRank(kind string) int { return slices.Index(findingKinds, kind) }

// nOf is "1 line", "2 lines".
func nOf(n int, word string) string { return fmt.Sprintf("%d %s", n, plural(n, word)) }

// firstError is the error of the first fetch with answer id.
func firstError(site *probeSite, id string) string {
	for _, f := range site.Fetches {
		if f.Answer == id && f.Error != "" {
			return f.Error
		}
	}
	return "unknown"
}

// groupFindings are the groups file a has that the reference file ref
// lacks (injected for a's crawlers), and those it lacks.
func groupFindings(a, ref *probeAnswer) []probeFinding {
	var out []probeFinding
	in := func(list []string, v string) bool {
		return slices.ContainsFunc(list, func(s string) bool { return strings.EqualFold(s, v) })
	}
	for _, g := range a.Groups {
		if !in(ref.Groups, g) {
			out = append(out, probeFinding{Kind: "injected-group", Crawlers: a.Crawlers,
				Detail: fmt.Sprintf("a group for %q in the file these crawlers got (answer %s), not in answer %s", g, a.ID, ref.ID)})
		}
	}
	for _, g := range ref.Groups {
		if !in(a.Groups, g) {
			out = append(out, probeFinding{Kind: "missing-group", Crawlers: a.Crawlers,
				Detail: fmt.Sprintf("no group for %q in the file these crawlers got (answer %s), though answer %s has one", g, a.ID, ref.ID)})
		}
	}
	return out
}

// originFindings compares every file of rules the site served with the
// owner's: the same rules (line ends and trailing white space aside), or
// a finding naming the groups added and missing.
func originFindings(site *probeSite, o *probeOptions) []probeFinding {
	sum := sha256.Sum256(o.origin)
	site.OriginFile = &probeOrigin{File: o.originName, SHA256: hex.EncodeToString(sum[:]), Matches: []string{}}
	want := normalizedRobots(o.origin)
	wantGroups := groupNames(o.origin)
	var out []probeFinding
	for i := range site.Answers {
		a := &site.Answers[i]
		if a.Kind != kindRules && a.Kind != kindHTML {
			continue
		}
		body := site.bodies.get(a.SHA256)
		if body == nil {
			out = append(out, probeFinding{Kind: "not-origin", Crawlers: a.Crawlers,
				Detail: fmt.Sprintf("the file these crawlers got (answer %s) is not compared with %s: the site served more than %d different files", a.ID, o.originName, probeMaxBodies)})
			continue
		}
		if normalizedRobots(body) == want {
			site.OriginFile.Matches = append(site.OriginFile.Matches, a.ID)
			continue
		}
		added, missing := diffLines(want, normalizedRobots(body))
		detail := fmt.Sprintf("the file these crawlers got (answer %s) is not the origin file %s: %s added, %s removed",
			a.ID, o.originName, nOf(added, "line"), nOf(missing, "line"))
		var extra, lacks []string
		for _, g := range groupNames(body) {
			if !slices.ContainsFunc(wantGroups, func(s string) bool { return strings.EqualFold(s, g) }) {
				extra = append(extra, g)
			}
		}
		for _, g := range wantGroups {
			if !slices.ContainsFunc(groupNames(body), func(s string) bool { return strings.EqualFold(s, g) }) {
				lacks = append(lacks, g)
			}
		}
		if len(extra) > 0 {
			detail += "; groups added: " + strings.Join(extra, ", ")
		}
		if len(lacks) > 0 {
			detail += "; groups missing: " + strings.Join(lacks, ", ")
		}
		out = append(out, probeFinding{Kind: "not-origin", Crawlers: a.Crawlers, Detail: detail})
	}
	return out
}

// normalizedRobots is a file as probe compares it with the origin's: LF
// line ends, no trailing white space on a line, no blank lines at the
// end, no byte-order mark.
func normalizedRobots(b []byte) string {
	s := strings.TrimPrefix(string(b), "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// diffLines counts the lines of got that want lacks and the lines of want
// that got lacks, as multisets (order aside).
func diffLines(want, got string) (added, missing int) {
	count := map[string]int{}
	for _, l := range strings.Split(want, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(got, "\n") {
		if count[l] > 0 {
			count[l]--
		} else {
			added++
		}
	}
	for _, n := range count {
		missing += n
	}
	return added, missing
}
