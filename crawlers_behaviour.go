package robotstxt

import (
	"fmt"
	"math/bits"
	"strings"
)

// Behaviour is a set of the behaviour classes an edge operator places a
// crawler in: what the crawler does on a site, as Cloudflare's 2026
// taxonomy names it (search, agent, training, and eight more). A crawler
// may show several (Cloudflare places Googlebot under search and
// training). The zero Behaviour is the empty set: unclassified.
//
// Behaviour and Purpose answer different questions. A Purpose is what the
// operator says the fetched content is for, in the catalogue's own words,
// finer where operators draw lines (ai-search apart from search,
// user-fetch apart from agent, archive, token-only). A Behaviour is the
// class a CDN's policy acts on, so that a policy saying "training: 402"
// means the crawlers an operator's CDN means. Each purpose maps to at most
// one behaviour ([Purpose.Behaviours]); a catalogue entry's Behaviours
// start from that mapping and follow Cloudflare's classification where
// Cloudflare names the crawler (docs/crawlers.md, Behaviours).
type Behaviour uint16

// The behaviour classes. Their names (Behaviour.String, ParseBehaviour) are
// stable: they appear in the command's flags and output, in JSON and in
// policy files.
const (
	// BehaviourSearch: builds an index of the site to answer later
	// queries, for a search engine or an AI answer engine ("search").
	BehaviourSearch Behaviour = 1 << iota
	// BehaviourAgent: acts in real time for a person, to get a task done
	// now: a fetch a user asked for, a browsing agent ("agent").
	BehaviourAgent
	// BehaviourTraining: takes content to train or fine-tune a model
	// ("training").
	BehaviourTraining
	// BehaviourTransact: checks out or pays for a person ("transact").
	BehaviourTransact
	// BehaviourDataCollection: collects data for its operator or its
	// customers: price scraping, market intelligence, analytics, archives
	// ("data-collection").
	BehaviourDataCollection
	// BehaviourSecurityTesting: scans for vulnerabilities
	// ("security-testing").
	BehaviourSecurityTesting
	// BehaviourSEO: audits a site for search engine optimisation or
	// accessibility ("seo").
	BehaviourSEO
	// BehaviourAdsVerification: checks ad landing pages and placements
	// ("ads-verification").
	BehaviourAdsVerification
	// BehaviourLinkPreview: builds a preview when a link is shared on a
	// social platform or in a messenger ("link-preview").
	BehaviourLinkPreview
	// BehaviourFeedFetching: reads feeds for readers and aggregators
	// ("feed-fetching").
	BehaviourFeedFetching
	// BehaviourMonitoring: uptime and health checks, webhooks,
	// operations ("monitoring").
	BehaviourMonitoring

	behaviourEnd // one past the last behaviour
)

// behaviourNames are the behaviours' names, bit by bit.
var behaviourNames = [...]string{
	"search", "agent", "training", "transact", "data-collection",
	"security-testing", "seo", "ads-verification", "link-preview",
	"feed-fetching", "monitoring",
}

// behaviourAliases are other names ParseBehaviour accepts: Cloudflare's
// own spellings ("Social/Link Preview", "Monitoring & Operations", "AI
// Crawler" from its older categories) and the catalogue's purpose names
// where they map to one behaviour.
var behaviourAliases = map[string]Behaviour{
	"ai-search":                 BehaviourSearch,
	"search-engine":             BehaviourSearch,
	"search-engine-crawler":     BehaviourSearch,
	"ai-assistant":              BehaviourAgent,
	"user-fetch":                BehaviourAgent,
	"user-triggered":            BehaviourAgent,
	"ai-training":               BehaviourTraining,
	"ai-crawler":                BehaviourTraining,
	"transaction":               BehaviourTransact,
	"data":                      BehaviourDataCollection,
	"scraping":                  BehaviourDataCollection,
	"security":                  BehaviourSecurityTesting,
	"seo-tool":                  BehaviourSEO,
	"ads":                       BehaviourAdsVerification,
	"ad-verification":           BehaviourAdsVerification,
	"preview":                   BehaviourLinkPreview,
	"page-preview":              BehaviourLinkPreview,
	"social":                    BehaviourLinkPreview,
	"social-link-preview":       BehaviourLinkPreview,
	"feed":                      BehaviourFeedFetching,
	"feed-fetcher":              BehaviourFeedFetching,
	"monitoring-operations":     BehaviourMonitoring,
	"monitoring-and-operations": BehaviourMonitoring,
	"operations":                BehaviourMonitoring,
	"webhooks":                  BehaviourMonitoring,
}

// AllBehaviours returns every behaviour, one bit each, in the order of
// their names in Behaviour.String.
func AllBehaviours() []Behaviour {
	out := make([]Behaviour, 0, len(behaviourNames))
	for b := Behaviour(1); b < behaviourEnd; b <<= 1 {
		out = append(out, b)
	}
	return out
}

// Names returns the names of the behaviours in b, in the order of
// AllBehaviours; none for the empty set. A bit that names no behaviour is
// shown as "behaviour(N)" with N its value.
func (b Behaviour) Names() []string {
	out := make([]string, 0, bits.OnesCount16(uint16(b)))
	for rest := b; rest != 0; rest &= rest - 1 {
		i := bits.TrailingZeros16(uint16(rest))
		if i < len(behaviourNames) {
			out = append(out, behaviourNames[i])
		} else {
			out = append(out, fmt.Sprintf("behaviour(%d)", 1<<i))
		}
	}
	return out
}

// String returns the names of the behaviours in b separated by commas
// ("search,training"), or "" for the empty set. ParseBehaviour reads it
// back.
func (b Behaviour) String() string { return strings.Join(b.Names(), ",") }

// Has reports whether b holds every behaviour in o (and false for an
// empty o).
func (b Behaviour) Has(o Behaviour) bool { return o != 0 && b&o == o }

// Any reports whether b holds at least one behaviour of o.
func (b Behaviour) Any(o Behaviour) bool { return b&o != 0 }

// ParseBehaviour reads behaviours by name: one, or several separated by
// commas, ignoring case, spaces around names, and the difference between
// '-', '_', ' ', '/' and '&' inside them ("Social/Link Preview" is
// link-preview, "Monitoring & Operations" monitoring). It also takes the
// aliases listed in docs/crawlers.md ("ai-crawler" and "ai-training" for
// training, "ai-search" for search, "user-fetch" and "ai-assistant" for
// agent, "preview" for link-preview, ...). The empty string is the empty
// set. An unknown name is an error that lists the names.
func ParseBehaviour(name string) (Behaviour, error) {
	var b Behaviour
	for _, part := range strings.Split(name, ",") {
		n := behaviourKey(part)
		if n == "" {
			continue
		}
		o, ok := behaviourAliases[n]
		for i, bn := range behaviourNames {
			if n == bn {
				o, ok = 1<<i, true
			}
		}
		if !ok {
			return 0, fmt.Errorf("robotstxt: unknown behaviour %q (want one of %s)", strings.TrimSpace(part), strings.Join(behaviourNames[:], ", "))
		}
		b |= o
	}
	return b, nil
}

// behaviourKey is a name as ParseBehaviour compares it: lower case, words
// joined by single hyphens ("Social / Link  Preview" -> "social-link-preview").
func behaviourKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	words := strings.FieldsFunc(s, func(r rune) bool {
		return r == '-' || r == '_' || r == ' ' || r == '\t' || r == '/' || r == '&'
	})
	for i, w := range words {
		if w == "and" && i > 0 && i < len(words)-1 {
			words[i] = ""
		}
	}
	out := words[:0]
	for _, w := range words {
		if w != "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, "-")
}

// MarshalText writes b as String does.
func (b Behaviour) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText reads b as ParseBehaviour does.
func (b *Behaviour) UnmarshalText(text []byte) error {
	o, err := ParseBehaviour(string(text))
	if err != nil {
		return err
	}
	*b = o
	return nil
}

// Behaviours returns the behaviour classes the purposes in p map to: search
// and ai-search to search, ai-training to training, user-fetch and agent
// to agent, preview to link-preview, ads to ads-verification, seo-tool to
// seo, archive to data-collection. token-only and other map to none: a
// control token behaves as the use it controls (its other purposes say
// which), and "other" names no class. It is the one mapping from the
// operator's purposes to the edge's classes; the catalogue's entries start
// from it.
func (p Purpose) Behaviours() Behaviour {
	var b Behaviour
	if p.Any(PurposeSearch | PurposeAISearch) {
		b |= BehaviourSearch
	}
	if p.Any(PurposeAITraining) {
		b |= BehaviourTraining
	}
	if p.Any(PurposeUserFetch | PurposeAgent) {
		b |= BehaviourAgent
	}
	if p.Any(PurposePreview) {
		b |= BehaviourLinkPreview
	}
	if p.Any(PurposeAds) {
		b |= BehaviourAdsVerification
	}
	if p.Any(PurposeSEO) {
		b |= BehaviourSEO
	}
	if p.Any(PurposeArchive) {
		b |= BehaviourDataCollection
	}
	return b
}

// Access says how a crawler is operated: by its operator for itself, or
// by its operator on behalf of many end users or customers who each start
// what it fetches. Cloudflare labels every verified bot Direct or
// Intermediary (its page on verified bots, July 2026); a policy may trust
// a direct crawler's operator and still want to know who drives an
// intermediary.
type Access uint8

// The ways a crawler is operated.
const (
	// AccessUnknown: no source says ("unknown").
	AccessUnknown Access = iota
	// AccessDirect: one operator runs it, usually on its own
	// infrastructure, and only that operator sends requests presenting as
	// it, whether it crawls on its own schedule (Googlebot) or fetches
	// what the operator's users ask (ChatGPT-User) ("direct").
	AccessDirect
	// AccessIntermediary: a service or software that a wide range of end
	// users or customers operate: the operator runs it, each fetch is
	// started by a different customer (scraping and browser platforms,
	// crawlers that index whatever sites their customers name,
	// open-source crawlers anyone runs) ("intermediary").
	AccessIntermediary

	accessEnd
)

var accessNames = [...]string{"unknown", "direct", "intermediary"}

// String returns "unknown", "direct" or "intermediary".
func (a Access) String() string {
	if int(a) < len(accessNames) {
		return accessNames[a]
	}
	return fmt.Sprintf("access(%d)", uint8(a))
}

// ParseAccess reads one of the names String returns, ignoring case and
// spaces; "" is AccessUnknown.
func ParseAccess(name string) (Access, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return AccessUnknown, nil
	}
	for i, an := range accessNames {
		if n == an {
			return Access(i), nil
		}
	}
	return 0, fmt.Errorf("robotstxt: unknown access %q (want one of %s)", strings.TrimSpace(name), strings.Join(accessNames[:], ", "))
}

// MarshalText writes a as String does.
func (a Access) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads a as ParseAccess does.
func (a *Access) UnmarshalText(text []byte) error {
	o, err := ParseAccess(string(text))
	if err != nil {
		return err
	}
	*a = o
	return nil
}
