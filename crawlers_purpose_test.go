package robotstxt

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestPurposeNames(t *testing.T) {
	all := AllPurposes()
	if len(all) != len(purposeNames) {
		t.Fatalf("%d purposes, %d names", len(all), len(purposeNames))
	}
	var every Purpose
	for i, p := range all {
		if p != 1<<i {
			t.Errorf("purpose %d is %#x, want one bit", i, uint16(p))
		}
		every |= p
		q, err := ParsePurpose(p.String())
		if err != nil || q != p {
			t.Errorf("ParsePurpose(%q) = %v, %v", p.String(), q, err)
		}
	}
	if every.String() != strings.Join(purposeNames[:], ",") {
		t.Errorf("every purpose: %q", every)
	}
	for _, tt := range []struct {
		in   string
		want Purpose
	}{
		{"", 0},
		{" , ", 0},
		{"search", PurposeSearch},
		{"AI-Training, ai-search", PurposeAITraining | PurposeAISearch},
		{"user-triggered", PurposeUserFetch},
		{"user-triggered-fetch,user-fetch", PurposeUserFetch},
		{"rag", PurposeAISearch},
		{"training", PurposeAITraining},
		{"seo", PurposeSEO},
		{"control", PurposeTokenOnly},
		{"token-only,other,archive", PurposeTokenOnly | PurposeOther | PurposeArchive},
	} {
		got, err := ParsePurpose(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParsePurpose(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"searching", "ai training", "search,nope", "*"} {
		if _, err := ParsePurpose(in); err == nil || !strings.HasPrefix(err.Error(), "robotstxt: unknown purpose") || !strings.Contains(err.Error(), "ai-training") {
			t.Errorf("ParsePurpose(%q): %v, want an error listing the names", in, err)
		}
	}
	if got := Purpose(0).String(); got != "" {
		t.Errorf("empty set: %q", got)
	}
	if got := (PurposeSearch | 1<<15).Names(); !slices.Equal(got, []string{"search", "purpose(32768)"}) {
		t.Errorf("unknown bit: %q", got)
	}
}

func TestPurposeSetOps(t *testing.T) {
	p := PurposeSearch | PurposeAITraining
	for _, tt := range []struct {
		q        Purpose
		has, any bool
	}{
		{PurposeSearch, true, true},
		{PurposeSearch | PurposeAITraining, true, true},
		{PurposeSearch | PurposeAgent, false, true},
		{PurposeAgent, false, false},
		{0, false, false},
	} {
		if p.Has(tt.q) != tt.has || p.Any(tt.q) != tt.any {
			t.Errorf("%v: Has(%v) = %v, Any = %v; want %v, %v", p, tt.q, p.Has(tt.q), p.Any(tt.q), tt.has, tt.any)
		}
	}
}

func TestPurposeAndObeysText(t *testing.T) {
	type entry struct {
		P Purpose
		O Obeys
	}
	in := entry{PurposeAISearch | PurposeUserFetch, ObeysPartly}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `{"P":"ai-search,user-fetch","O":"partly"}` {
		t.Fatalf("%s, %v", b, err)
	}
	var out entry
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Errorf("%+v, %v", out, err)
	}
	if err := json.Unmarshal([]byte(`{"P":"nope"}`), &out); err == nil {
		t.Error("an unknown purpose was read")
	}
	if err := json.Unmarshal([]byte(`{"O":"maybe"}`), &out); err == nil {
		t.Error("an unknown compliance was read")
	}
	for o := ObeysUnknown; o <= ObeysPartly; o++ {
		var back Obeys
		if err := back.UnmarshalText([]byte(strings.ToUpper(o.String()))); err != nil || back != o {
			t.Errorf("%v: %v, %v", o, back, err)
		}
	}
	if got := Obeys(9).String(); got != "obeys(9)" {
		t.Errorf("Obeys(9) = %q", got)
	}
}

func TestCrawlersByPurpose(t *testing.T) {
	if got := CrawlersByPurpose(0); len(got) != len(crawlers) {
		t.Errorf("the empty set: %d crawlers, want all %d", len(got), len(crawlers))
	}
	for _, p := range append(AllPurposes(), PurposeAITraining|PurposeAISearch) {
		got := CrawlersByPurpose(p)
		want := 0
		for _, c := range crawlers {
			if c.Purposes&p != 0 {
				want++
			}
		}
		if len(got) != want {
			t.Errorf("%v: %d crawlers, want %d", p, len(got), want)
		}
		for _, c := range got {
			if !c.Purposes.Any(p) {
				t.Errorf("%v: %s fetches for %v", p, c.Name, c.Purposes)
			}
		}
		if p != PurposeOther && want == 0 {
			t.Errorf("no crawler fetches for %v", p)
		}
	}
	names := func(cs []Crawler) (out []string) {
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	train := names(CrawlersByPurpose(PurposeAITraining))
	for _, n := range []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Applebot-Extended", "Meta-ExternalAgent", "Bytespider"} {
		if !slices.Contains(train, n) {
			t.Errorf("%s is not among the ai-training crawlers", n)
		}
	}
	if slices.Contains(train, "Googlebot") || slices.Contains(train, "OAI-SearchBot") {
		t.Errorf("search crawlers among ai-training: %q", train)
	}
}
