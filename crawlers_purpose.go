package robotstxt

import (
	"fmt"
	"math/bits"
	"strings"
)

// Purpose is a set of the uses a crawler fetches for, as its operator
// describes them: a crawler may fetch for several (Bytespider for search and
// for AI training). The zero Purpose is the empty set: the operator says
// nothing that places the crawler.
type Purpose uint16

// The purposes a crawler may fetch for. Their names (Purpose.String,
// ParsePurpose) are stable: they appear in the command's flags and output,
// in the service's JSON and in its query strings.
const (
	// PurposeSearch: a search engine's index ("search").
	PurposeSearch Purpose = 1 << iota
	// PurposeAITraining: content to train AI models on, or to sell or
	// give to those who do ("ai-training").
	PurposeAITraining
	// PurposeAISearch: an index that AI answers are drawn from: answer
	// engines, retrieval for generation (RAG), search APIs made for
	// language models ("ai-search").
	PurposeAISearch
	// PurposeUserFetch: a fetch a person asked for, one URL at a time:
	// an assistant reading the page a user named ("user-fetch"). Operators
	// often say such fetches may ignore robots.txt.
	PurposeUserFetch
	// PurposeAgent: a program that browses and acts for a person (fills
	// forms, follows links to finish a task), not one fetch ("agent").
	PurposeAgent
	// PurposePreview: a link preview or card when a URL is shared
	// ("preview").
	PurposePreview
	// PurposeAds: checks of advertising landing pages, or ad placement
	// ("ads").
	PurposeAds
	// PurposeArchive: a web archive ("archive").
	PurposeArchive
	// PurposeSEO: an SEO tool's link index or site audit ("seo-tool").
	PurposeSEO
	// PurposeTokenOnly: a product token that fetches nothing: crawlers of
	// the operator obey it for a use of what they fetched under their own
	// tokens (Google-Extended, Applebot-Extended) ("token-only").
	PurposeTokenOnly
	// PurposeOther: a use none of the others names: analytics, feeds,
	// accessibility checks, notifications ("other").
	PurposeOther

	purposeEnd // one past the last purpose
)

// purposeNames are the purposes' names, bit by bit.
var purposeNames = [...]string{
	"search", "ai-training", "ai-search", "user-fetch", "agent", "preview",
	"ads", "archive", "seo-tool", "token-only", "other",
}

// purposeAliases are other names ParsePurpose accepts.
var purposeAliases = map[string]Purpose{
	"training":             PurposeAITraining,
	"rag":                  PurposeAISearch,
	"user-triggered":       PurposeUserFetch,
	"user-triggered-fetch": PurposeUserFetch,
	"seo":                  PurposeSEO,
	"control":              PurposeTokenOnly,
}

// AllPurposes returns every purpose, one bit each, in the order of their
// names in Purpose.String.
func AllPurposes() []Purpose {
	out := make([]Purpose, 0, len(purposeNames))
	for p := Purpose(1); p < purposeEnd; p <<= 1 {
		out = append(out, p)
	}
	return out
}

// Names returns the names of the purposes in p, in the order of
// AllPurposes; none for the empty set. A bit that names no purpose is
// shown as "purpose(N)" with N its value.
func (p Purpose) Names() []string {
	out := make([]string, 0, bits.OnesCount16(uint16(p)))
	for rest := p; rest != 0; rest &= rest - 1 {
		i := bits.TrailingZeros16(uint16(rest))
		if i < len(purposeNames) {
			out = append(out, purposeNames[i])
		} else {
			out = append(out, fmt.Sprintf("purpose(%d)", 1<<i))
		}
	}
	return out
}

// String returns the names of the purposes in p separated by commas
// ("search,ai-training"), or "" for the empty set. ParsePurpose reads it
// back.
func (p Purpose) String() string { return strings.Join(p.Names(), ",") }

// Has reports whether p holds every purpose in q (and false for an empty q).
func (p Purpose) Has(q Purpose) bool { return q != 0 && p&q == q }

// Any reports whether p holds at least one purpose of q.
func (p Purpose) Any(q Purpose) bool { return p&q != 0 }

// ParsePurpose reads purposes by name: one, or several separated by commas,
// ignoring case and spaces around names ("ai-training, ai-search"). It also
// takes "training" for ai-training, "rag" for ai-search, "user-triggered"
// for user-fetch, "seo" for seo-tool and "control" for token-only. The
// empty string is the empty set. An unknown name is an error that lists the
// names.
func ParsePurpose(s string) (Purpose, error) {
	var p Purpose
	for _, name := range strings.Split(s, ",") {
		n := strings.ToLower(strings.TrimSpace(name))
		if n == "" {
			continue
		}
		q, ok := purposeAliases[n]
		for i, pn := range purposeNames {
			if n == pn {
				q, ok = 1<<i, true
			}
		}
		if !ok {
			return 0, fmt.Errorf("robotstxt: unknown purpose %q (want one of %s)", strings.TrimSpace(name), strings.Join(purposeNames[:], ", "))
		}
		p |= q
	}
	return p, nil
}

// MarshalText writes p as String does.
func (p Purpose) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads p as ParsePurpose does.
func (p *Purpose) UnmarshalText(b []byte) error {
	q, err := ParsePurpose(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// Obeys says whether a crawler's operator says it obeys robots.txt.
type Obeys uint8

// What an operator says of its crawler and robots.txt.
const (
	ObeysUnknown Obeys = iota // the operator says nothing we found
	ObeysYes                  // it obeys robots.txt
	ObeysNo                   // it does not read or does not obey robots.txt
	// ObeysPartly: it obeys some rules or in some cases: only groups
	// naming it (not '*'), or not for fetches a user asked for, or at
	// its customers' choice. Crawler.RobotsNote says which.
	ObeysPartly
)

var obeysNames = [...]string{"unknown", "yes", "no", "partly"}

// String returns "unknown", "yes", "no" or "partly".
func (o Obeys) String() string {
	if int(o) < len(obeysNames) {
		return obeysNames[o]
	}
	return fmt.Sprintf("obeys(%d)", uint8(o))
}

// MarshalText writes o as String does.
func (o Obeys) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads one of the names String returns, ignoring case.
func (o *Obeys) UnmarshalText(b []byte) error {
	n := strings.ToLower(strings.TrimSpace(string(b)))
	for i, name := range obeysNames {
		if n == name {
			*o = Obeys(i)
			return nil
		}
	}
	return fmt.Errorf("robotstxt: unknown robots.txt compliance %q (want one of %s)", string(b), strings.Join(obeysNames[:], ", "))
}
