package watch

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/tester"
)

// BenchmarkEvaluate: one check of a watch at its bound (2,000 questions:
// 40 URLs for the 48 or so AI-training crawlers and Googlebot) against a
// large real file (3.7 MB, read as crawlers read it: its first 500 KiB),
// and the size of the state it keeps.
func BenchmarkEvaluate(b *testing.B) {
	body, err := os.ReadFile("../testdata/corpus/real/7cb5e464a2e6d26b.txt")
	if err != nil {
		b.Skip("the shared corpus is not here")
	}
	e := &Engine{opts: Options{Jitter: func(d time.Duration) time.Duration { return d }}}
	crawlers, err := resolveCrawlers([]string{"Googlebot", "ai-training"}, 64)
	if err != nil {
		b.Fatal(err)
	}
	w := &Watch{ID: "w", Origin: "https://example.com", Crawlers: crawlers, Every: time.Hour}
	for i := 0; len(w.URLs)*len(crawlers) < MaxQuestions-len(crawlers); i++ {
		w.URLs = append(w.URLs, fmt.Sprintf("/section%d/page?id=%d", i%7, i))
	}
	info := &tester.FetchInfo{Origin: w.Origin, Policy: "rules", Status: 200, Source: "network",
		Bytes: len(body)}
	now := time.Now()
	b.ReportAllocs()
	var st *State
	for b.Loop() {
		st = &State{}
		e.evaluate(w, st, body, nil, info, now)
	}
	out, _ := json.Marshal(st)
	b.ReportMetric(float64(len(out)), "state-bytes")
	b.ReportMetric(float64(len(w.URLs)*len(crawlers)), "questions")
}
