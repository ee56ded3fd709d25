package tester

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/words"
)

// AISummaryLine is one line of an AI report's summary: for one purpose,
// how many of the crawlers asked about that fetch for it are blocked, and
// which usage preferences the others read. It answers a site owner's
// first questions ("may AI train on my content? may AI search use it?")
// before the table of every crawler. The page, "robotstxt ai" and
// POST /v1/ai show Text as it is.
type AISummaryLine struct {
	// Purpose is ai-training, ai-search, search, user-fetch or agent;
	// "*" for every crawler no group names.
	Purpose string `json:"purpose"`
	// Title names the purpose for people: "AI training".
	Title string `json:"title"`
	// Crawlers counts the crawlers asked about that fetch for the purpose
	// (a crawler of several purposes counts in each); 0 for "*".
	Crawlers int `json:"crawlers"`
	// Blocked counts those blocked from every URL asked about; Partly
	// those blocked from some of them only. For "*", Blocked is 1 when
	// the * group blocks every URL.
	Blocked int `json:"blocked"`
	Partly  int `json:"partly"`
	// Preferences are what the crawlers not blocked from every URL read
	// for the purpose (Content-Usage and Content-Signal), most crawlers
	// first.
	Preferences []AIPreferenceCount `json:"preferences"`
	// Text is the line as every face shows it.
	Text string `json:"text"`
}

// AIPreferenceCount is how many crawlers read one set of preferences.
type AIPreferenceCount struct {
	// Stated is the preferences as written ("train-ai=n, ai-train=no");
	// "" when the crawlers read none for the purpose, "varies by URL"
	// when they read different ones for different URLs.
	Stated   string `json:"stated"`
	Crawlers int    `json:"crawlers"`
}

// aiSummaryPurposes are the purposes a summary has a line for, in order:
// the three a site owner asks about first always, the others when a
// crawler asked about has them.
var aiSummaryPurposes = []struct {
	purpose, title string
	always         bool
}{
	{"ai-training", "AI training", true},
	{"ai-search", "AI search and answers", true},
	{"search", "Search", true},
	{"user-fetch", "Fetches a person asks an assistant for", false},
	{"agent", "Agents acting for a person", false},
}

// AISummary is the summary of rep, one line a purpose, then one for every
// crawler no group names: the one place it is decided (tester.AI fills
// AIReport.Summary with it; the faces render its Text).
func AISummary(rep *AIReport) []AISummaryLine {
	out := []AISummaryLine{}
	for _, p := range aiSummaryPurposes {
		s := AISummaryLine{Purpose: p.purpose, Title: p.title, Preferences: []AIPreferenceCount{}}
		counts := map[string]int{}
		for i := range rep.Crawlers {
			c := &rep.Crawlers[i]
			if !slices.Contains(c.Purposes, p.purpose) {
				continue
			}
			s.Crawlers++
			blocked := 0
			for _, a := range c.Answers {
				if !a.Allowed {
					blocked++
				}
			}
			switch {
			case len(c.Answers) > 0 && blocked == len(c.Answers):
				s.Blocked++
				continue
			case blocked > 0:
				s.Partly++
			}
			counts[statedFor(c, p.purpose)]++
		}
		if s.Crawlers == 0 && !p.always {
			continue
		}
		s.Preferences = preferenceCounts(counts)
		s.Text = summaryText(&s)
		out = append(out, s)
	}
	star := AISummaryLine{Purpose: "*", Title: "Any other crawler (the * group)", Preferences: []AIPreferenceCount{}}
	blocked := 0
	for _, a := range rep.Others.Answers {
		if !a.Allowed {
			blocked++
		}
	}
	text := "allowed"
	switch {
	case len(rep.Others.Answers) > 0 && blocked == len(rep.Others.Answers):
		star.Blocked, text = 1, "blocked"
	case blocked > 0:
		star.Partly, text = 1, fmt.Sprintf("blocked from %d of %s", blocked, words.Count(len(rep.Others.Answers), "URL"))
	}
	var prefs []string
	if star.Blocked == 0 {
		for _, p := range aiSummaryPurposes {
			st := statedFor(&rep.Others, p.purpose)
			if st == "varies by URL" {
				st = strings.ToLower(p.title[:1]) + p.title[1:] + ": varies by URL"
				st = strings.Replace(st, "aI ", "AI ", 1)
			}
			if st != "" && !slices.Contains(prefs, st) {
				prefs = append(prefs, st)
			}
		}
	}
	if len(prefs) > 0 {
		star.Preferences = append(star.Preferences, AIPreferenceCount{Stated: strings.Join(prefs, ", "), Crawlers: 1})
		text += "; preferences: " + strings.Join(prefs, ", ")
	} else if star.Blocked == 0 {
		text += "; no preference stated"
	}
	star.Text = star.Title + ": " + text
	return append(out, star)
}

// statedFor is what c reads for purpose, over the URLs it may fetch: the
// Content-Usage and Content-Signal values that speak of it, as written
// ("train-ai=n, ai-train=no"; for AI search and answers, ai-use and
// ai-input); "" when none; "varies by URL" when they
// differ from URL to URL.
func statedFor(c *AICrawler, purpose string) string {
	stated, first := "", true
	for _, a := range c.Answers {
		if !a.Allowed {
			continue
		}
		var parts []string
		if u := a.Usage; u != nil {
			switch purpose {
			case "ai-training":
				if u.TrainAI == "y" || u.TrainAI == "n" {
					parts = append(parts, "train-ai="+u.TrainAI)
				}
			case "ai-search":
				// AI Use (draft-ietf-aipref-vocab-08): input to a
				// generative AI model, as answers use it.
				if v := u.Other[robotstxt.UsageAIUse]; v == "y" || v == "n" {
					parts = append(parts, robotstxt.UsageAIUse+"="+v)
				}
			case "search":
				if u.Search == "y" || u.Search == "n" {
					parts = append(parts, "search="+u.Search)
				}
			}
		}
		if s := c.Signals; s != nil && a.Usage != nil {
			v := ""
			switch purpose {
			case "ai-training":
				v = signalValue("ai-train", s.AITrain)
			case "ai-search":
				v = signalValue("ai-input", s.AIInput)
			case "search":
				v = signalValue("search", s.Search)
			}
			if v != "" {
				parts = append(parts, v)
			}
		}
		this := strings.Join(parts, ", ")
		if first {
			stated, first = this, false
		} else if this != stated {
			return "varies by URL"
		}
	}
	return stated
}

// signalValue is "key=value" for a Content-Signal value that says yes or
// no, "" otherwise.
func signalValue(key, v string) string {
	if v == "yes" || v == "no" {
		return key + "=" + v
	}
	return ""
}

// preferenceCounts lists counts, most crawlers first, then by text.
func preferenceCounts(counts map[string]int) []AIPreferenceCount {
	out := make([]AIPreferenceCount, 0, len(counts))
	for s, n := range counts {
		out = append(out, AIPreferenceCount{Stated: s, Crawlers: n})
	}
	slices.SortFunc(out, func(a, b AIPreferenceCount) int {
		if a.Crawlers != b.Crawlers {
			return b.Crawlers - a.Crawlers
		}
		return strings.Compare(a.Stated, b.Stated)
	})
	return out
}

// summaryText is the line of s: "AI training: blocked for 1 of 8
// crawlers; preferences of the 7 others: train-ai=n, ai-train=no (5);
// none (2)".
func summaryText(s *AISummaryLine) string {
	if s.Crawlers == 0 {
		return s.Title + ": no crawler of this purpose asked about"
	}
	var b strings.Builder
	b.WriteString(s.Title + ": ")
	switch {
	case s.Blocked == 0 && s.Partly == 0 && s.Crawlers == 1:
		b.WriteString("allowed for the 1 crawler")
	case s.Blocked == 0 && s.Partly == 0:
		fmt.Fprintf(&b, "allowed for all %d crawlers", s.Crawlers)
	case s.Blocked == s.Crawlers && s.Crawlers == 1:
		b.WriteString("blocked for the 1 crawler")
	case s.Blocked == s.Crawlers:
		fmt.Fprintf(&b, "blocked for all %d crawlers", s.Crawlers)
	case s.Blocked == 0 && s.Partly == s.Crawlers:
		fmt.Fprintf(&b, "blocked from some of the URLs for all %s", words.Count(s.Crawlers, "crawler"))
	case s.Blocked == 0:
		fmt.Fprintf(&b, "blocked from some of the URLs for %d of %s", s.Partly, words.Count(s.Crawlers, "crawler"))
	default:
		fmt.Fprintf(&b, "blocked for %d of %s", s.Blocked, words.Count(s.Crawlers, "crawler"))
	}
	if s.Partly > 0 && s.Blocked > 0 {
		fmt.Fprintf(&b, ", %d more for some URLs", s.Partly)
	}
	rest := s.Crawlers - s.Blocked
	if rest == 0 {
		return b.String()
	}
	if s.Blocked == 0 {
		b.WriteString("; preferences: ")
	} else if rest == 1 {
		b.WriteString("; preferences of the other: ")
	} else {
		fmt.Fprintf(&b, "; preferences of the %d others: ", rest)
	}
	for i, p := range s.Preferences {
		if i > 0 {
			b.WriteString("; ")
		}
		what := p.Stated
		if what == "" {
			what = "none"
		}
		b.WriteString(what)
		if len(s.Preferences) > 1 {
			fmt.Fprintf(&b, " (%d)", p.Crawlers)
		}
	}
	return b.String()
}
