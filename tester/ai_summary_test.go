package tester

import (
	"strconv"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

// TestAISummary: the summary of an AI report, a line a purpose, counts
// the crawlers of each purpose that are blocked and the preferences the
// others read (issue 35 item 9).
func TestAISummary(t *testing.T) {
	body := "User-agent: *\nDisallow: /admin/\nContent-Usage: train-ai=n\nContent-Signal: search=yes, ai-train=no\n\n" +
		"User-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /\n\nUser-agent: ClaudeBot\nAllow: /\n"
	src := &Source{Name: "robots.txt", Body: []byte(body), Robots: robotstxt.Parse([]byte(body))}
	rep, err := AI(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Summary) == 0 || rep.Summary[0].Purpose != "ai-training" {
		t.Fatalf("summary %+v", rep.Summary)
	}
	// Count the training crawlers from the table, as a reader would.
	var training, blocked, full int
	for _, c := range rep.Crawlers {
		for _, p := range c.Purposes {
			if p == "ai-training" {
				training++
				if !c.Answers[0].Allowed {
					blocked++
				} else if c.Signals != nil && c.Answers[0].Usage != nil && c.Answers[0].Usage.TrainAI == "n" {
					full++
				}
			}
		}
	}
	s := rep.Summary[0]
	if s.Crawlers != training || s.Blocked != blocked || blocked != 1 || s.Partly != 0 {
		t.Errorf("AI training: %+v; the table has %d training crawlers, %d blocked", s, training, blocked)
	}
	if len(s.Preferences) != 2 || s.Preferences[0].Stated != "train-ai=n, ai-train=no" || s.Preferences[0].Crawlers != full ||
		s.Preferences[1].Stated != "" || s.Preferences[1].Crawlers != training-blocked-full {
		t.Errorf("AI training preferences %+v (%d read the * group's)", s.Preferences, full)
	}
	want := "AI training: blocked for 1 of " + strconv.Itoa(training) + " crawlers; preferences of the " + strconv.Itoa(training-1) +
		" others: train-ai=n, ai-train=no (" + strconv.Itoa(full) + "); none (" + strconv.Itoa(training-1-full) + ")"
	if s.Text != want {
		t.Errorf("text %q\nwant %q", s.Text, want)
	}
	var search, star *AISummaryLine
	for i := range rep.Summary {
		switch rep.Summary[i].Purpose {
		case "search":
			search = &rep.Summary[i]
		case "*":
			star = &rep.Summary[i]
		}
	}
	if search == nil || search.Blocked != 1 || search.Preferences[0].Stated != "search=yes" {
		t.Errorf("search: %+v", search)
	}
	if star == nil || star.Text != "Any other crawler (the * group): allowed; preferences: train-ai=n, ai-train=no, search=yes" {
		t.Errorf("*: %+v", star)
	}
	if rep.Summary[len(rep.Summary)-1].Purpose != "*" {
		t.Error("the * group's line is not last")
	}

	// Several URLs: a crawler blocked from some is counted apart.
	rep, err = AI(src, &AIOptions{URLs: []string{"/", "/admin/x"}, Crawlers: []string{"CCBot", "GPTBot"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Summary[0]; s.Crawlers != 2 || s.Blocked != 1 || s.Partly != 1 ||
		s.Text != "AI training: blocked for 1 of 2 crawlers, 1 more for some URLs; preferences of the other: train-ai=n, ai-train=no" {
		t.Errorf("two URLs: %+v", s)
	}
}

// TestAISummaryAIUse: for AI search and answers, the summary names the
// preference of draft-ietf-aipref-vocab-08's AI Use category beside the
// Content-Signal ai-input value.
func TestAISummaryAIUse(t *testing.T) {
	body := "User-agent: *\nContent-Usage: ai-use=n\nContent-Signal: ai-input=no, use=reference\nAllow: /\n"
	src := &Source{Name: "robots.txt", Body: []byte(body), Robots: robotstxt.Parse([]byte(body))}
	rep, err := AI(src, &AIOptions{Crawlers: []string{"PerplexityBot"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Summary {
		if s.Purpose == "ai-search" {
			if len(s.Preferences) != 1 || s.Preferences[0].Stated != "ai-use=n, ai-input=no" {
				t.Errorf("AI search and answers: %+v", s)
			}
			return
		}
	}
	t.Errorf("no AI search line in %+v", rep.Summary)
}
