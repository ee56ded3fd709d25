package guard

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/seed53c283f5/robotstxt"
)

// explainWidth is the width Explain's lines fit in.
const explainWidth = 80

// actedOutcomes are the outcomes a policy's tables name, in order.
var actedOutcomes = []Outcome{
	OutcomePass, OutcomeDisallowedVerified, OutcomeDisallowedUnverified,
	OutcomeSpoofed, OutcomePreferenceRefused, OutcomeOverCrawlDelay,
}

// Explain writes what the policy does, in words, in lines of at most 80
// columns: the mode, the action per outcome for every crawler, then
// each class's and crawler's own, the price, the tarpit's bounds and
// what is recorded.
func (p *Policy) Explain(w io.Writer) error {
	var b strings.Builder
	name := p.Name
	if name == "" {
		name = "(the built-in default)"
	}
	line := func(s string) { b.WriteString(s + "\n") }
	para := func(s string) { b.WriteString(wrap(s, explainWidth, "")) }
	para("Policy " + name + ": mode " + p.Mode.String() + ".")
	if p.Mode == ModeLog {
		para("It decides and records every request and blocks none; with mode = \"enforce\" it would act as below.")
	} else {
		para("It acts as below.")
	}
	para("Always passed, whatever the tables say: /robots.txt, /.well-known/..., the sitemaps robots.txt names, browsers and clients that claim no known crawler.")
	line("")
	line("Every crawler:")
	p.explainTable(&b, p.Actions, true)
	for _, pu := range sortedClasses(p.Purposes) {
		line("")
		p.explainClass(&b, "purpose "+pu.String(), robotstxt.CrawlersByPurpose(pu))
		p.explainTable(&b, p.Purposes[pu], false)
	}
	p.explainBehaviours(&b)
	names := make([]string, 0, len(p.Crawlers))
	for n := range p.Crawlers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		line("")
		line("crawler " + n + ":")
		p.explainTable(&b, p.Crawlers[n], false)
	}
	line("")
	if len(p.Purposes)+len(p.Crawlers)+len(p.behaviourTables()) > 0 {
		para("A crawler's own table comes first, then its behaviours', then its purposes' (the strictest of them), then every crawler's.")
	}
	if p.Price != "" {
		line("402 answers carry crawler-price: " + p.Price)
	}
	line("429 answers carry Retry-After: the seconds left of the crawl-delay.")
	para(fmt.Sprintf("Tarpit: a 403 spread over %v, at most %d connections at once; past that, a 403 at once.", p.Tarpit.Duration, p.Tarpit.Max))
	switch p.Record {
	case RecordAll:
		line("Recorded: every request.")
	case RecordActed:
		line("Recorded: the decisions the policy acts on (any action but allow).")
	default:
		line("Recorded: every request that claims a known crawler.")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// explainTable writes a table's actions; with all, every outcome (the
// default's marked), else those it sets.
func (p *Policy) explainTable(b *strings.Builder, t Actions, all bool) {
	for _, o := range actedOutcomes {
		a := t[o]
		note := ""
		if a == 0 {
			if !all {
				continue
			}
			a, note = DefaultActions[o], " (default)"
		}
		switch a {
		case Action402:
			note += " with crawler-price"
		case Action429:
			note += " with Retry-After"
		}
		fmt.Fprintf(b, "  %-24s %s%s\n", o, a, note)
	}
}

// explainClass writes a class's heading: its name and its crawlers.
func (p *Policy) explainClass(b *strings.Builder, name string, cs []robotstxt.Crawler) {
	var names []string
	for _, c := range cs {
		if !c.Control {
			names = append(names, c.Name)
		}
	}
	head := name + " (" + strconv.Itoa(len(names)) + " crawlers"
	if len(names) == 0 {
		b.WriteString(head + "):\n")
		return
	}
	head += ": "
	shown := 0
	for shown < len(names) {
		rest := len(names) - shown - 1
		more := ""
		if rest > 0 {
			more = ", and " + strconv.Itoa(rest) + " more"
		}
		next := head
		if shown > 0 {
			next += ", "
		}
		next += names[shown]
		if len(next)+len(more)+2 > explainWidth {
			break
		}
		head = next
		shown++
	}
	if shown < len(names) {
		head += ", and " + strconv.Itoa(len(names)-shown) + " more"
	}
	b.WriteString(head + "):\n")
}

func sortedClasses[K ~uint16](m map[K]Actions) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// wrap breaks s into lines of at most width columns, each starting with
// indent, at spaces.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	cur := indent
	for _, w := range strings.Fields(s) {
		if len(cur) > len(indent) && len(cur)+1+len(w) > width {
			b.WriteString(cur + "\n")
			cur = indent
		}
		if len(cur) > len(indent) {
			cur += " "
		}
		cur += w
	}
	if len(cur) > len(indent) {
		b.WriteString(cur + "\n")
	}
	return b.String()
}
