package robotstxt

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestBehaviourNames(t *testing.T) {
	all := AllBehaviours()
	if len(all) != 11 {
		t.Fatalf("%d behaviours, %d names; Cloudflare's taxonomy has 11", len(all), len(behaviourNames))
	}
	var every Behaviour
	for i, b := range all {
		if b != 1<<i {
			t.Errorf("behaviour %d is %#x, want one bit", i, uint16(b))
		}
		every |= b
		o, err := ParseBehaviour(b.String())
		if err != nil || o != b {
			t.Errorf("ParseBehaviour(%q) = %v, %v", b.String(), o, err)
		}
	}
	if every.String() != strings.Join(behaviourNames[:], ",") {
		t.Errorf("every behaviour: %q", every)
	}
	for _, tt := range []struct {
		in   string
		want Behaviour
	}{
		{"", 0},
		{" , ", 0},
		{"search", BehaviourSearch},
		{"Training, agent", BehaviourTraining | BehaviourAgent},
		{"AI Crawler", BehaviourTraining},
		{"ai-training", BehaviourTraining},
		{"AI Search", BehaviourSearch},
		{"AI Assistant", BehaviourAgent},
		{"user-fetch", BehaviourAgent},
		{"Social/Link Preview", BehaviourLinkPreview},
		{"social / link  preview", BehaviourLinkPreview},
		{"Monitoring & Operations", BehaviourMonitoring},
		{"monitoring and operations", BehaviourMonitoring},
		{"Data Collection", BehaviourDataCollection},
		{"data_collection", BehaviourDataCollection},
		{"Security Testing,SEO", BehaviourSecurityTesting | BehaviourSEO},
		{"Ads Verification", BehaviourAdsVerification},
		{"Feed Fetching", BehaviourFeedFetching},
		{"transact", BehaviourTransact},
	} {
		got, err := ParseBehaviour(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseBehaviour(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"searching", "and", "search,nope", "*", "link-preview-and"} {
		if _, err := ParseBehaviour(in); err == nil || !strings.HasPrefix(err.Error(), "robotstxt: unknown behaviour") || !strings.Contains(err.Error(), "training") {
			t.Errorf("ParseBehaviour(%q): %v, want an error listing the names", in, err)
		}
	}
	if got := Behaviour(0).String(); got != "" {
		t.Errorf("empty set: %q", got)
	}
	if got := (BehaviourSearch | 1<<15).Names(); !slices.Equal(got, []string{"search", "behaviour(32768)"}) {
		t.Errorf("unknown bit: %q", got)
	}
}

func TestBehaviourSetOps(t *testing.T) {
	b := BehaviourSearch | BehaviourTraining
	for _, tt := range []struct {
		o        Behaviour
		has, any bool
	}{
		{BehaviourSearch, true, true},
		{BehaviourSearch | BehaviourTraining, true, true},
		{BehaviourSearch | BehaviourAgent, false, true},
		{BehaviourAgent, false, false},
		{0, false, false},
	} {
		if b.Has(tt.o) != tt.has || b.Any(tt.o) != tt.any {
			t.Errorf("%v: Has(%v) = %v, Any = %v; want %v, %v", b, tt.o, b.Has(tt.o), b.Any(tt.o), tt.has, tt.any)
		}
	}
}

func TestBehaviourAndAccessText(t *testing.T) {
	type entry struct {
		B Behaviour
		A Access
	}
	in := entry{BehaviourSearch | BehaviourTraining, AccessIntermediary}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `{"B":"search,training","A":"intermediary"}` {
		t.Fatalf("%s, %v", b, err)
	}
	var out entry
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Errorf("%+v, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"B":"nope"}`), &out); err == nil {
		t.Error("an unknown behaviour was read")
	}
	if err := json.Unmarshal([]byte(`{"A":"indirect"}`), &out); err == nil {
		t.Error("an unknown access was read")
	}
	for a := AccessUnknown; a < accessEnd; a++ {
		back, err := ParseAccess(" " + strings.ToUpper(a.String()))
		if err != nil || back != a {
			t.Errorf("%v: %v, %v", a, back, err)
		}
	}
	if a, err := ParseAccess(""); err != nil || a != AccessUnknown {
		t.Errorf("ParseAccess(\"\") = %v, %v", a, err)
	}
	if got := Access(9).String(); got != "access(9)" {
		t.Errorf("Access(9) = %q", got)
	}
}

// TestPurposeBehaviours checks the one mapping from purposes to classes,
// purpose by purpose.
func TestPurposeBehaviours(t *testing.T) {
	want := map[Purpose]Behaviour{
		PurposeSearch:     BehaviourSearch,
		PurposeAITraining: BehaviourTraining,
		PurposeAISearch:   BehaviourSearch,
		PurposeUserFetch:  BehaviourAgent,
		PurposeAgent:      BehaviourAgent,
		PurposePreview:    BehaviourLinkPreview,
		PurposeAds:        BehaviourAdsVerification,
		PurposeArchive:    BehaviourDataCollection,
		PurposeSEO:        BehaviourSEO,
		PurposeTokenOnly:  0,
		PurposeOther:      0,
	}
	for _, p := range AllPurposes() {
		w, ok := want[p]
		if !ok {
			t.Errorf("purpose %v: no expected behaviour (a new purpose needs one)", p)
			continue
		}
		if got := p.Behaviours(); got != w {
			t.Errorf("%v.Behaviours() = %v, want %v", p, got, w)
		}
	}
	if got := (PurposeTokenOnly | PurposeAITraining).Behaviours(); got != BehaviourTraining {
		t.Errorf("a training control token: %v", got)
	}
	if got := Purpose(0).Behaviours(); got != 0 {
		t.Errorf("no purpose: %v", got)
	}
}

// TestCatalogueBehaviours checks every entry's behaviour columns: each is
// classified, or left unclassified with a reason the table states; its
// access is known when its operator is; the facts have a source; and every
// name behaviourFacts holds is an entry of the table.
func TestCatalogueBehaviours(t *testing.T) {
	for i := range crawlers {
		c := &crawlers[i]
		who := c.Name
		if c.Behaviours&^(behaviourEnd-1) != 0 {
			t.Errorf("%s: behaviours %v hold an unknown bit", who, c.Behaviours)
		}
		f, listed := behaviourFacts[c.Name]
		unclassified := strings.HasPrefix(c.BehaviourNote, "unclassified: ")
		switch {
		case c.Behaviours == 0 && !(listed && unclassified):
			t.Errorf("%s: no behaviour, and behaviourFacts gives no reason (note %q)", who, c.BehaviourNote)
		case c.Behaviours != 0 && unclassified:
			t.Errorf("%s: behaviours %v, yet noted %q", who, c.Behaviours, c.BehaviourNote)
		}
		if unclassified && len(c.BehaviourNote) < len("unclassified: ")+10 {
			t.Errorf("%s: the reason %q says nothing", who, c.BehaviourNote)
		}
		if c.BehaviourNote == "" {
			t.Errorf("%s: no note on how its behaviours were decided", who)
		}
		if c.Access >= accessEnd {
			t.Errorf("%s: access %v", who, c.Access)
		}
		if c.Operator != "" && c.Access == AccessUnknown {
			t.Errorf("%s: operated by %s, access unknown", who, c.Operator)
		}
		if strings.HasPrefix(c.Operator, "anyone") && c.Access != AccessIntermediary {
			t.Errorf("%s: anyone runs it, so it is an intermediary, not %v", who, c.Access)
		}
		if c.Access == AccessIntermediary && !listed {
			t.Errorf("%s: intermediary with no fact saying why", who)
		}
		if c.BehaviourSource != srcEarlier {
			checkHTTPS(t, who+" BehaviourSource", c.BehaviourSource)
		}
		if listed && f.b == 0 && f.access == 0 && f.src == "" && !unclassified && f.note == "" {
			t.Errorf("%s: an empty behaviour fact", who)
		}
		if listed && f.b != 0 && f.b == c.Purposes.Behaviours() && f.access == 0 && f.src == "" {
			t.Errorf("%s: its fact repeats what its purposes give (%v)", who, f.b)
		}
		if c.Purposes.Any(PurposeAITraining) && !c.Behaviours.Has(BehaviourTraining) {
			t.Errorf("%s: fetches for AI training, yet not in the training class (%v)", who, c.Behaviours)
		}
	}
	for name := range behaviourFacts {
		if c, ok := LookupCrawler(name); !ok || c.Name != name {
			t.Errorf("behaviourFacts names %q, which is no entry's name", name)
		}
	}
}

// TestCrawlersByBehaviour checks the filter against the table and a few
// classifications Cloudflare states.
func TestCrawlersByBehaviour(t *testing.T) {
	if got := CrawlersByBehaviour(0); len(got) != len(crawlers) {
		t.Errorf("the empty set: %d crawlers, want all %d", len(got), len(crawlers))
	}
	for _, b := range append(AllBehaviours(), BehaviourSearch|BehaviourAgent) {
		got := CrawlersByBehaviour(b)
		want := 0
		for _, c := range crawlers {
			if c.Behaviours&b != 0 {
				want++
			}
		}
		if len(got) != want {
			t.Errorf("%v: %d crawlers, want %d", b, len(got), want)
		}
		for _, c := range got {
			if !c.Behaviours.Any(b) {
				t.Errorf("%v: %s shows %v", b, c.Name, c.Behaviours)
			}
		}
		if b != BehaviourSecurityTesting && want == 0 && b != BehaviourTransact {
			t.Errorf("no crawler shows %v", b)
		}
	}
	for name, want := range map[string]Behaviour{
		"GPTBot":           BehaviourTraining,
		"ChatGPT-User":     BehaviourAgent,
		"OAI-SearchBot":    BehaviourSearch,
		"ClaudeBot":        BehaviourTraining,
		"Claude-SearchBot": BehaviourSearch,
		"Claude-User":      BehaviourAgent,
		"PerplexityBot":    BehaviourSearch,
		"Perplexity-User":  BehaviourAgent,
		"Googlebot":        BehaviourSearch | BehaviourTraining,
		"Bingbot":          BehaviourSearch | BehaviourTraining,
		"CCBot":            BehaviourTraining,
		"DuckAssistBot":    BehaviourAgent,
		"AdsBot-Google":    BehaviourAdsVerification,
		"Twitterbot":       BehaviourLinkPreview,
		"SemrushBot":       BehaviourSEO,
		"Google-Extended":  BehaviourTraining,
		"AmazonBuyForMe":   BehaviourAgent | BehaviourTransact,
	} {
		c, ok := LookupCrawler(name)
		if !ok || c.Behaviours != want {
			t.Errorf("%s: %v, want %v", name, c.Behaviours, want)
		}
	}
	for name, want := range map[string]Access{
		"Googlebot":      AccessDirect,
		"ChatGPT-User":   AccessDirect,
		"FirecrawlAgent": AccessIntermediary,
		"bedrockbot":     AccessIntermediary,
		"Scrapy":         AccessIntermediary,
		"WRTNBot":        AccessUnknown,
	} {
		if c, _ := LookupCrawler(name); c.Access != want {
			t.Errorf("%s: access %v, want %v", name, c.Access, want)
		}
	}
}
