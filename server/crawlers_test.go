package server

import (
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

func crawlersAnswer(t *testing.T, u string) CrawlersAnswer {
	t.Helper()
	r := get(t, u)
	if r.status != 200 {
		t.Fatalf("%s: status %d: %s", u, r.status, r.body)
	}
	var ans CrawlersAnswer
	if err := json.Unmarshal(r.body, &ans); err != nil {
		t.Fatal(err)
	}
	return ans
}

func answerNames(ans CrawlersAnswer) []string {
	var out []string
	for _, c := range ans.Crawlers {
		out = append(out, c.Name)
	}
	return out
}

// TestCrawlersCatalogue: every crawler comes with its catalogue entry, as
// the table holds it, and lists are never null.
func TestCrawlersCatalogue(t *testing.T) {
	ts := newTestServer(t, nil)
	ans := crawlersAnswer(t, ts.URL+"/v1/crawlers")
	table := robotstxt.Crawlers()
	if len(ans.Crawlers) != len(table) || len(ans.Purposes) != len(robotstxt.AllPurposes()) || len(ans.Defaults) == 0 {
		t.Fatalf("%d crawlers, %d purposes, defaults %v", len(ans.Crawlers), len(ans.Purposes), ans.Defaults)
	}
	for i, c := range table {
		got := ans.Crawlers[i]
		p, err := robotstxt.ParsePurpose(strings.Join(got.Purposes, ","))
		if err != nil || p != c.Purposes || got.ObeysRobots != c.ObeysRobots.String() || got.RobotsNote != c.RobotsNote ||
			got.Docs != c.Docs || !slices.Equal(got.IPRanges, c.IPRanges) || !slices.Equal(got.ReverseDNS, c.ReverseDNS) ||
			got.Source != c.Source || got.Checked != c.Checked || got.IgnoresCrawlDelay != c.IgnoresCrawlDelay {
			t.Errorf("crawler %d: %+v\ntable: %+v", i, got, c)
		}
		if got.Purposes == nil || got.IPRanges == nil || got.ReverseDNS == nil {
			t.Errorf("%s: a list encodes as null", c.Name)
		}
	}
}

// TestCrawlersFilters: purpose and operator keep the crawlers they name,
// in the table's order; several purposes or operators keep any of them.
func TestCrawlersFilters(t *testing.T) {
	ts := newTestServer(t, nil)
	ans := crawlersAnswer(t, ts.URL+"/v1/crawlers?purpose=ai-training")
	var want []string
	for _, c := range robotstxt.CrawlersByPurpose(robotstxt.PurposeAITraining) {
		want = append(want, c.Name)
	}
	if got := answerNames(ans); !slices.Equal(got, want) || !slices.Contains(got, "GPTBot") || slices.Contains(got, "Googlebot") {
		t.Errorf("ai-training: %q\nwant %q", got, want)
	}
	if len(ans.Defaults) == 0 || len(ans.Dialects) != len(robotstxt.Dialects()) || len(ans.Purposes) != len(robotstxt.AllPurposes()) {
		t.Errorf("a filter changed the rest of the answer: %v %v %v", ans.Defaults, ans.Dialects, ans.Purposes)
	}

	repeated := answerNames(crawlersAnswer(t, ts.URL+"/v1/crawlers?purpose=ai-search&purpose=user-fetch&operator=openai&operator=Anthropic"))
	commas := answerNames(crawlersAnswer(t, ts.URL+"/v1/crawlers?"+url.Values{"purpose": {"AI-search, user-triggered"}, "operator": {"OpenAI,anthropic"}}.Encode()))
	if !slices.Equal(repeated, commas) || !slices.Equal(repeated, []string{"OAI-SearchBot", "ChatGPT-User", "Claude-User", "Claude-SearchBot", "Claude-Web"}) {
		t.Errorf("repeated %q, separated by commas %q", repeated, commas)
	}
	for _, c := range crawlersAnswer(t, ts.URL+"/v1/crawlers?operator=google").Crawlers {
		if !strings.Contains(strings.ToLower(c.Operator), "google") {
			t.Errorf("operator=google: %s of %s", c.Name, c.Operator)
		}
	}
	if ans := crawlersAnswer(t, ts.URL+"/v1/crawlers?operator=nobody"); ans.Crawlers == nil || len(ans.Crawlers) != 0 {
		t.Errorf("no match: %+v", ans.Crawlers)
	}
}

func TestCrawlersParameterErrors(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, tt := range []struct{ query, field, text string }{
		{"purpose=nope", "purpose", `unknown purpose "nope"`},
		{"purpose=search,nope", "purpose", `unknown purpose "nope"`},
		{"purpose=", "purpose", "no purpose given"},
		{"operator=,", "operator", "no operator given"},
		{"purposes=search", "purposes", "unknown parameter (want purpose, operator)"},
	} {
		r := get(t, ts.URL+"/v1/crawlers?"+tt.query)
		r.wantError(t, 400, tt.field)
		if e, _ := r.json(t)["error"].(string); !strings.Contains(e, tt.text) || strings.Contains(e, "robotstxt:") {
			t.Errorf("%s: %q, want %q", tt.query, e, tt.text)
		}
	}
}

// TestCrawlersDocumented: the document's Crawler and Crawlers schemas list
// the fields of CrawlerInfo and CrawlersAnswer, and its purposes are the
// package's.
func TestCrawlersDocumented(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Items struct {
						Enum []string `json:"enum"`
					} `json:"items"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	for schema, typ := range map[string]any{"Crawler": CrawlerInfo{}, "Crawlers": CrawlersAnswer{}} {
		var documented, fields []string
		for name := range doc.Components.Schemas[schema].Properties {
			documented = append(documented, name)
		}
		rt := reflect.TypeOf(typ)
		for i := range rt.NumField() {
			tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			fields = append(fields, tag)
		}
		sort.Strings(documented)
		sort.Strings(fields)
		if !slices.Equal(documented, fields) {
			t.Errorf("schema %s: documented %v, fields %v", schema, documented, fields)
		}
	}
	var names []string
	for _, p := range robotstxt.AllPurposes() {
		names = append(names, p.String())
	}
	if got := doc.Components.Schemas["Crawler"].Properties["purposes"].Items.Enum; !slices.Equal(got, names) {
		t.Errorf("documented purposes %v, the package's %v", got, names)
	}
	names = nil
	for _, b := range robotstxt.AllBehaviours() {
		names = append(names, b.String())
	}
	if got := doc.Components.Schemas["Crawler"].Properties["behaviours"].Items.Enum; !slices.Equal(got, names) {
		t.Errorf("documented behaviours %v, the package's %v", got, names)
	}
}
