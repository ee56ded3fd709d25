package lint

import (
	"slices"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// star-rules-dropped, decided once: lint asks it per token its groups
// name, the AI report (tester.AI) per crawler in its own dialect.

// StarDrop is what StarRulesDropped finds for one crawler: the * group's
// rules its own groups drop.
type StarDrop struct {
	Example string // the first probe the * group blocks and the crawler may fetch
	Rule    int    // the * group's rule that blocks Example
	Rules   []int  // every * rule that blocks such a probe, ascending
}

// StarRulesDropped reports whether the crawler q asks about (its Crawler,
// or its Agents; in q.Dialect, else the crawler's own, else Google's) has
// groups of its own that let it fetch paths the * group blocks: the
// probes are a path each of the * group's disallow rules matches (at most
// maxStarProbes), then the paths of urls. A probe counts when the * group
// blocks it by a rule that does not close the whole site ("Disallow: /"
// beside named groups is an allow-list, whose groups are meant to differ)
// and the crawler's groups allow it by default: not by a rule that says so
// itself (an empty "Disallow:" or "Allow:", or an allow at least as long
// as the * rule: "Allow: /$" beside "Disallow: /"). ok is false when no
// probe counts, or when no group names the crawler.
func StarRulesDropped(r *robotstxt.Robots, q robotstxt.Query, urls []string) (StarDrop, bool) {
	return NewStarCheck(r, q.ReadsIn()).Dropped(q, urls)
}

// StarCheck is StarRulesDropped for one file in one reading, asked about
// many crawlers: the * group and its probes are read once, so a file
// naming thousands of crawlers costs one reading of its groups, not one
// per crawler.
type StarCheck struct {
	r      *robotstxt.Robots
	d      robotstxt.Dialect
	star   *robotstxt.Decider
	probes []string
	ok     bool // the file has a * group in this reading
}

// NewStarCheck reads the * group of r in dialect d (DefaultDialect:
// Google's) and the probes its disallow rules give.
func NewStarCheck(r *robotstxt.Robots, d robotstxt.Dialect) *StarCheck {
	if d == robotstxt.DefaultDialect {
		d = robotstxt.Google
	}
	sc := &StarCheck{r: r, d: d}
	sc.star = r.Decider(robotstxt.Query{Agents: []string{probeToken}, Dialect: d})
	sd := sc.star.Decide("/")
	if sd.Group.Kind != robotstxt.GroupGlobal {
		return sc
	}
	sc.ok = true
	groups := r.GroupsFor(d)
	for _, gi := range sd.Group.Groups {
		for _, ru := range groups[gi].Rules {
			if !ru.Allow && ru.CanMatch && ru.Pattern != "" && len(sc.probes) < maxStarProbes {
				sc.probes = append(sc.probes, probePath(ru.Pattern))
			}
		}
	}
	return sc
}

// Dropped is StarRulesDropped for the crawler q asks about, read in the
// check's dialect (q.Dialect is set to it).
func (sc *StarCheck) Dropped(q robotstxt.Query, urls []string) (StarDrop, bool) {
	var out StarDrop
	if !sc.ok {
		return out, false
	}
	q.Dialect, q.URL, q.Explain = sc.d, "", false
	own := sc.r.Decider(q)
	if own.Decide("/").Group.Kind != robotstxt.GroupSpecific {
		return out, false
	}
	probes := sc.probes
	if len(urls) > 0 {
		probes = append(slices.Clip(probes), urls...)
	}
	for _, p := range probes {
		s := sc.star.Decide(p)
		if s.Allowed || !s.HasRule() || siteWide(s.Rule.Pattern) {
			continue
		}
		c := own.Decide(p)
		if !c.Allowed {
			continue
		}
		if ru := c.Rule; c.HasRule() && (ru.Pattern == "" || ru.Allow && len(ru.Pattern) >= len(s.Rule.Pattern)) {
			continue // the crawler's group says so itself
		}
		if out.Example == "" {
			out.Example, out.Rule = p, s.Line()
		}
		if !slices.Contains(out.Rules, s.Line()) {
			out.Rules = append(out.Rules, s.Line())
		}
	}
	slices.Sort(out.Rules)
	return out, out.Example != ""
}

// siteWide reports whether a normalised pattern matches every path: "/",
// "/*", "/*$" and the like.
func siteWide(p string) bool {
	return strings.TrimRight(strings.TrimSuffix(p, "$"), "*") == "/"
}
