package robotstxt

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentQuestions asks a freshly parsed file questions from many
// goroutines at once, so that the lazy work (laying out the sets, compiling
// each set, the index of a large set, the line report) races with itself;
// run with -race. Every goroutine must get the answers a single goroutine
// gets.
func TestConcurrentQuestions(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /private\nAllow: /private/ok\n")
	for i := 0; i < 3*bigSet; i++ {
		fmt.Fprintf(&b, "Disallow: /big/%d/*x\nAllow: /big/%d\n", i, i)
	}
	b.WriteString("\nUser-agent: FooBot\nDisallow: /foo\n\nUser-agent: BarBot\nUser-agent: FooBot\nAllow: /foo/bar\n")
	body := b.String()
	agents := []string{"FooBot", "BarBot", "OtherBot", "foobot"}
	urls := []string{"/private/x", "/private/ok", "/foo/bar", "/foo/x", "/big/7/ax", "/big/7/a", "/x"}
	want := map[string]bool{}
	ref := ParseString(body)
	for _, a := range agents {
		for _, u := range urls {
			want[a+" "+u] = ref.Allowed(a, u)
		}
	}
	for round := 0; round < 20; round++ {
		r := ParseString(body)
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := 0; i < 50; i++ {
					a, u := agents[(g+i)%len(agents)], urls[(g*3+i)%len(urls)]
					if got := r.Allowed(a, u); got != want[a+" "+u] {
						errs <- fmt.Sprintf("Allowed(%s, %s) = %v", a, u, got)
						return
					}
					if round%2 == 1 {
						// Allowed alone: the answers read from the
						// lines give way to the compiled sets while
						// other goroutines ask.
						continue
					}
					d := r.Decide(Query{URL: u, Agents: []string{a}, Explain: true})
					if d.Allowed != want[a+" "+u] {
						errs <- fmt.Sprintf("Decide(%s, %s) = %v", a, u, d.Allowed)
						return
					}
					if g%2 == 0 {
						r.Lines()
						r.GroupsFor(Original)
					}
				}
			}(g)
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	}
}
