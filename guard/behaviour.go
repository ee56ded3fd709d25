package guard

import (
	"fmt"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// addBehaviour adds the table of the class a name names.
func (p *Policy) addBehaviour(name string, a Actions) error {
	b, err := robotstxt.ParseBehaviour(name)
	if err != nil || b == 0 || strings.Contains(name, ",") {
		var all robotstxt.Behaviour
		for _, x := range robotstxt.AllBehaviours() {
			all |= x
		}
		return fmt.Errorf("unknown behaviour %q (want one of %s)", name, strings.Join(all.Names(), ", "))
	}
	if p.Behaviours == nil {
		p.Behaviours = map[robotstxt.Behaviour]Actions{}
	}
	p.Behaviours[b] = merge(p.Behaviours[b], a)
	return nil
}

// behaviourAction is the strictest action the tables of c's behaviour
// classes give outcome o; 0 when none names it.
func (p *Policy) behaviourAction(c *robotstxt.Crawler, o Outcome) Action {
	return strictest(p.Behaviours, c.Behaviours, o)
}

func (p *Policy) behaviourTables() []Actions {
	out := make([]Actions, 0, len(p.Behaviours))
	for _, t := range p.Behaviours {
		out = append(out, t)
	}
	return out
}

func (p *Policy) explainBehaviours(b *strings.Builder) {
	for _, k := range sortedClasses(p.Behaviours) {
		b.WriteString("\n")
		p.explainClass(b, "behaviour "+k.String(), robotstxt.CrawlersByBehaviour(k))
		p.explainTable(b, p.Behaviours[k], false)
	}
}
