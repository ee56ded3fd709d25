package robotstxt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// refUsage answers a decider's usage question the plain way, rule by
// rule, from the file's lines: the reference the shared table is checked
// against.
func refUsage(p *Decider, path string) Usage {
	c := p.c
	type hit struct {
		n     uint32
		line  int
		prefs []UsagePref
	}
	var best, any []hit
	for _, gi := range p.base.Group.Groups {
		for _, l := range c.ai.lines {
			if int(l.group) != gi || l.kind != aiUsage {
				continue
			}
			v := c.body[l.off : l.off+l.n]
			pth, pref := splitUsage(v)
			prefs, ok := ParseUsagePreference(pref)
			if !ok {
				prefs = nil
			}
			if pth == "" {
				any = append(any, hit{0, int(l.line), prefs})
				continue
			}
			var arena strings.Builder
			s := &ruleSet{body: c.body}
			s.rules = c.addRule(nil, rawRule{off: l.off, n: uint32(len(pth)), line: uint32(l.line)}, &arena)
			s.extra = arena.String()
			r := &s.rules[0]
			if r.flags&ruleDead != 0 {
				continue
			}
			pr := newProbe(path, false)
			if pr.reject(r) || !s.matchRest(r, pr.pathFor(r)) {
				continue
			}
			switch {
			case len(best) == 0 || r.n > best[0].n:
				best = []hit{{r.n, int(l.line), prefs}}
			case r.n == best[0].n:
				best = append(best, hit{r.n, int(l.line), prefs})
			}
		}
	}
	hs := best
	if len(hs) == 0 {
		hs = any
	}
	var st [][]UsagePref
	var lines []int
	for _, h := range hs {
		st = append(st, h.prefs)
		lines = append(lines, h.line)
	}
	slices.Sort(lines)
	return Usage{Prefs: CombineUsage(st...), Lines: slices.Compact(lines)}
}

func usageString(u Usage) string {
	var b strings.Builder
	for _, p := range u.Prefs {
		fmt.Fprintf(&b, "%s=%v ", p.Key, p.Pref)
	}
	fmt.Fprintf(&b, "lines=%v", u.Lines)
	return b.String()
}

// TestUsageSharedTable checks the usage answers of the shared table (its
// rules longest first, large groups indexed, groups combined without a
// copy) against refUsage, on random files with many usage rules in
// several groups, some naming one crawler twice, in every dialect.
func TestUsageSharedTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	segs := []string{"a", "b", "ab", "p1", "p12", "x*", "*y", "z$", "%41", "é", "index.html"}
	stmts := []string{"train-ai=n", "train-ai=y", "search=n, train-ai=y", "bad stmt", "k1=y", "train-ai=y, k2=n", ""}
	pathOf := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteString("/" + segs[rng.IntN(len(segs))])
		}
		return b.String()
	}
	for iter := range 60 {
		var f strings.Builder
		rules := 4 + rng.IntN(8)
		if iter%4 == 0 {
			rules = 300 + rng.IntN(200) // past bigSet: the index
		}
		for g, agent := range []string{"*", "a", "b", "a"} {
			fmt.Fprintf(&f, "user-agent: %s\nallow: /\n", agent)
			for range rules / (1 + g%2) {
				if rng.IntN(5) == 0 {
					fmt.Fprintf(&f, "content-usage: %s\n", stmts[rng.IntN(len(stmts))])
				} else {
					fmt.Fprintf(&f, "content-usage: %s %s\n", pathOf(), stmts[rng.IntN(len(stmts))])
				}
			}
		}
		r := ParseString(f.String())
		for _, d := range Dialects() {
			for _, agent := range []string{"a", "b", "zzz"} {
				p := r.Decider(Query{Agents: []string{agent}, Dialect: d})
				if p.oversized {
					continue
				}
				for range 60 {
					path := pathOf() + "/" + segs[rng.IntN(len(segs))]
					a := p.Usage(path)
					if !a.Allowed {
						continue
					}
					want := refUsage(p, usagePath(path, d))
					if got := usageString(a.Usage); got != usageString(want) {
						t.Fatalf("%v %s %s: %s, want %s\n%s", d, agent, path, got, usageString(want), f.String())
					}
				}
			}
		}
	}
}

// TestUsageConcurrent asks usage questions of one file from many
// goroutines at once, through deciders of their own and a shared one:
// the table, and the index of its large group, are built once while they
// ask (run with -race).
func TestUsageConcurrent(t *testing.T) {
	var f strings.Builder
	f.WriteString("user-agent: *\n")
	for i := range 600 {
		fmt.Fprintf(&f, "content-usage: /p%d/ train-ai=n\ncontent-usage: /p%d/*x y=n\n", i, i)
	}
	r := ParseString(f.String())
	shared := r.Decider(Query{Agents: []string{"a"}})
	done := make(chan bool)
	for g := range 8 {
		go func() {
			own := r.Decider(Query{Agents: []string{"b"}})
			ok := true
			for i := range 200 {
				p := fmt.Sprintf("/p%d/z", (i*7+g)%600)
				for _, d := range []*Decider{shared, own} {
					if u := d.Usage(p); u.Usage.TrainAI() != PrefDisallow || len(u.Usage.Lines) != 1 {
						ok = false
					}
				}
			}
			done <- ok
		}()
	}
	for range 8 {
		if !<-done {
			t.Error("a usage answer was wrong")
		}
	}
}
