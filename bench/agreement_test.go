package bench

import (
	"os"
	"testing"

	"github.com/jimsmart/grobotstxt"
)

// TestAgreement counts, for each implementation, on how many golden
// questions it gives Google's answer. Only ours is required to agree on
// all of them; the others' counts are logged (go test -v -run Agreement).
// By default it uses the benchmarks' 1,000-file sample; with
// ROBOTSTXT_AGREE_ALL=1 it uses every file of the corpus.
func TestAgreement(t *testing.T) {
	var c *corpus
	if os.Getenv("ROBOTSTXT_AGREE_ALL") != "" {
		all, err := loadCorpus(0)
		c = mustData(t, all, err)
	} else {
		c = sample(t)
	}
	p := parseAll(c)
	impls := []struct {
		name string
		ask  func(i int, q *question) bool
	}{
		{"ours", func(_ int, q *question) bool { return p.ours[q.file].Allowed(q.ua, q.url) }},
		{"ours-decide", func(i int, q *question) bool { return p.ours[q.file].Decide(p.queries[i]).Allowed }},
		{"temoto", func(i int, q *question) bool { return temotoAllowed(p.temoto[q.file], q.ua, p.temotoPaths[i]) }},
		{"temoto-urlparse", func(_ int, q *question) bool { return temotoAllowedURL(p.temoto[q.file], q.ua, q.url) }},
		{"grobotstxt", func(_ int, q *question) bool { return grobotstxt.AgentAllowed(c.files[q.file].str, q.ua, q.url) }},
	}
	t.Logf("%d files, %d golden questions; temoto refused to parse %d files (taken as allowing everything)",
		len(c.files), len(c.questions), p.temotoErrs)
	for _, impl := range impls {
		agree, shown := 0, 0
		for i := range c.questions {
			q := &c.questions[i]
			if impl.ask(i, q) == q.allowed {
				agree++
				continue
			}
			if impl.name == "ours" || impl.name == "ours-decide" {
				if shown++; shown <= 20 {
					t.Errorf("%s: %s ua=%q url=%q: got %v, golden %v", impl.name, c.files[q.file].name, q.ua, q.url, !q.allowed, q.allowed)
				}
			}
		}
		t.Logf("%-16s agrees on %5d of %d (%.2f%%)", impl.name, agree, len(c.questions), 100*float64(agree)/float64(len(c.questions)))
	}
}
