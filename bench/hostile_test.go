package bench

import (
	"fmt"
	"testing"

	"github.com/jimsmart/grobotstxt"
	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/hostile"
	temoto "github.com/temoto/robotstxt"
)

// BenchmarkHostile asks the hostile shapes of internal/hostile (files of
// about 500 KiB built to make matching slow: shortfail, stars, dollars,
// groups; see hostile.Shapes) about URLs of 1 KiB and 16 KiB whose paths
// cycle through each shape's alphabet (hostile.URL). The sub-benchmarks are
// named shape=S/url=N/q=Q/impl=I, so that benchstat -col /impl puts the
// implementations side by side. Unlike the other benchmarks here it needs
// no shared data.
//
// q=Allowed: one question, the file parsed beforehand; one op is one
// question.
//
//   - ours: Robots.Allowed(agent, url), the file parsed, compiled
//     (Robots.Compile) and asked once beforehand, so that what is timed is
//     matching alone.
//   - temoto: FindGroup(agent).Test(path), the file parsed (FromBytes) and
//     the path taken out of the URL beforehand. temoto tries a regexp per
//     wildcard rule along the path: on a 2-core test machine it took 0.2 to
//     4 s a question with 1 KiB URLs and 4 to 85 s (stars) with 16 KiB URLs,
//     so a run spends about two minutes on it whatever -benchtime says
//     (each of these sub-benchmarks runs once). README.md says how to leave
//     them out.
//
// q=OneShot, with the 1 KiB URL only: parse the file, then ask it one
// question (a crawler meeting the file for the first time); one op is one
// file. MB/s counts the file's bytes.
//
//   - ours: robotstxt.Parse then Robots.Allowed, which compiles the
//     crawler's rule set on this first question.
//   - temoto: FromBytes then FindGroup(agent).Test(path), the path taken
//     out of the URL beforehand. Its parse compiles a regexp per wildcard
//     rule (60 to 160 ms a shape), then the question as above (over 50 ms
//     an op, like temoto's q=Allowed).
//   - grobotstxt: AgentAllowed(body, agent, url), its only form: it parses
//     the file again for every question, so it has no q=Allowed entry.
func BenchmarkHostile(b *testing.B) {
	for _, sh := range hostile.Shapes() {
		body := []byte(sh.Body)
		ours := robotstxt.Parse(body)
		ours.Compile()
		tem, err := temoto.FromBytes(body)
		if err != nil {
			b.Fatalf("%s: temoto refuses the file: %v", sh.Name, err)
		}
		for _, n := range []int{1 << 10, 16 << 10} {
			url := hostile.URL(n, sh.Alphabet)
			path := temotoPath(url)
			sinkBool = ours.Allowed(sh.Agent, url) // a first question, outside the timing
			prefix := fmt.Sprintf("shape=%s/url=%dKiB", sh.Name, n>>10)
			run := func(q, impl string, ask func() bool) {
				b.Run(prefix+"/q="+q+"/impl="+impl, func(b *testing.B) {
					if q == "OneShot" {
						b.SetBytes(int64(len(body)))
					}
					b.ReportAllocs()
					for b.Loop() {
						sinkBool = ask()
					}
				})
			}
			run("Allowed", "ours", func() bool { return ours.Allowed(sh.Agent, url) })
			run("Allowed", "temoto", func() bool { return temotoAllowed(tem, sh.Agent, path) })
			if n != 1<<10 {
				continue
			}
			run("OneShot", "ours", func() bool { return robotstxt.Parse(body).Allowed(sh.Agent, url) })
			run("OneShot", "temoto", func() bool {
				r, _ := temoto.FromBytes(body)
				return temotoAllowed(r, sh.Agent, path)
			})
			run("OneShot", "grobotstxt", func() bool { return grobotstxt.AgentAllowed(sh.Body, sh.Agent, url) })
		}
	}
}
