package guard

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

func TestParsePolicyErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		{"mode = \"enforce\"\nmoed = \"log\"\n", "p.toml:2: unknown key \"moed\""},
		{"mode = \"block\"\n", "p.toml:1: unknown mode \"block\""},
		{"\n[actions]\nspofed = \"403\"\n", "p.toml:3: unknown outcome \"spofed\" in [actions]"},
		{"[actions]\n\nspoofed = \"404\"\n", "p.toml:3: "},
		{"[actions]\nspoofed = 404\n", "p.toml:2: unknown action \"404\""},
		{"[actions]\nnot-crawler = \"403\"\n", "p.toml:2: not-crawler: the policy cannot act on not-crawler"},
		{"[actions]\nrules-path = \"403\"\n", "p.toml:2: rules-path: the policy cannot act on"},
		{"mode = \"enforce\"\n[actions]\nspoofed = \"402\"\n", "p.toml:3: a 402 needs a price"},
		{"price = \"0.01 dollars\"\n", "p.toml:1: price \"0.01 dollars\""},
		{"[purpose.ai-trainng]\npass = \"403\"\n", "p.toml:1: unknown purpose \"ai-trainng\""},
		{"[crawler.NoSuchBot]\npass = \"403\"\n", "p.toml:1: unknown crawler \"NoSuchBot\""},
		{"[crawler.GPTBot]\nfoo = \"403\"\n", "p.toml:2: unknown outcome \"foo\" in [crawler.GPTBot]"},
		{"[tarpit]\nduration = \"1h\"\n", "p.toml:2: tarpit duration \"1h\""},
		{"[tarpit]\nmax = 0\n", "p.toml:2: tarpit max 0"},
		{"[tarpit]\nmax = 3\nsize = 4\n", "p.toml:3: unknown key \"tarpit.size\""},
		{"record = \"some\"\n", "p.toml:1: record \"some\""},
		{"mode = \"enforce\"\nmode = \"log\"\n", "p.toml:2: "},
		{"[actions\n", "p.toml:2: "}, // the decoder's line: where the header should end
		{"[actions]\nspoofed = \"\"\n", "p.toml:2: an empty action"},
		{"mode = 3\n", "p.toml:1: mode: incompatible types"},
	} {
		_, err := ParsePolicy("p.toml", []byte(tc.text))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one starting %q", tc.text, err, tc.want)
		}
	}
}

func TestParsePolicy(t *testing.T) {
	p, err := ParsePolicy("p.toml", []byte(`# a policy
mode = "enforce"
price = "USD 0.01"
record = "all"

[tarpit]
duration = "10s"
max = 8

[actions]
over-crawl-delay = 429
spoofed = "tarpit"

[purpose.ai-training]
pass = "402"

[purpose.search]
pass = "allow"
disallowed-unverified = "log"

[crawler."GPTBot"]
pass = "allow"
`))
	if err != nil {
		t.Fatal(err)
	}
	if p.Mode != ModeEnforce || p.Price != "USD 0.01" || p.Record != RecordAll || p.Tarpit.Max != 8 || p.Tarpit.Duration.Seconds() != 10 {
		t.Fatalf("policy %+v", p)
	}
	look := func(name string) *robotstxt.Crawler {
		c, ok := robotstxt.LookupCrawler(name)
		if !ok {
			t.Fatalf("no crawler %s", name)
		}
		return &c
	}
	for _, tc := range []struct {
		crawler string
		o       Outcome
		want    Action
	}{
		{"CCBot", OutcomePass, Action402},                     // its purpose
		{"GPTBot", OutcomePass, ActionAllow},                  // its own table
		{"GPTBot", OutcomeSpoofed, ActionTarpit},              // every crawler's
		{"GPTBot", OutcomeDisallowedVerified, Action403},      // the default
		{"Bytespider", OutcomePass, Action402},                // search and training: the strictest
		{"Googlebot", OutcomeDisallowedUnverified, ActionLog}, // search
		{"Googlebot", OutcomeOverCrawlDelay, Action429},       // every crawler's
		{"Googlebot", OutcomePreferenceRefused, ActionLog},    // the default
		{"Googlebot", OutcomeNotCrawler, ActionAllow},         // never acted on
	} {
		if got := p.ActionFor(look(tc.crawler), tc.o); got != tc.want {
			t.Errorf("%s %s: %s, want %s", tc.crawler, tc.o, got, tc.want)
		}
	}
}

func TestDefaultPolicyIsSafe(t *testing.T) {
	p := DefaultPolicy()
	if p.Mode != ModeLog {
		t.Fatal("the default mode is not log")
	}
	c, _ := robotstxt.LookupCrawler("GPTBot")
	want := map[Outcome]Action{
		OutcomePass: ActionAllow, OutcomeNotCrawler: ActionAllow, OutcomeRulesPath: ActionAllow,
		OutcomeDisallowedVerified: Action403, OutcomeDisallowedUnverified: Action403, OutcomeSpoofed: Action403,
		OutcomePreferenceRefused: ActionLog, OutcomeOverCrawlDelay: ActionLog,
	}
	for o, a := range want {
		if got := p.ActionFor(&c, o); got != a {
			t.Errorf("%s: %s, want %s", o, got, a)
		}
	}
	if p.ActionFor(nil, OutcomeSpoofed) != ActionAllow {
		t.Error("a client that claims no crawler is acted on")
	}
}

func TestExplainFits80Columns(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "policy.toml")
	os.WriteFile(path, []byte("mode = \"enforce\"\nprice = \"USD 0.01\"\n[purpose.ai-training]\npass = \"402\"\n[purpose.user-fetch]\npass = \"allow\"\n[crawler.Meta-ExternalAgent]\ndisallowed-verified = \"tarpit\"\n"), 0o644)
	p, err := LoadPolicy(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, pol := range []*Policy{p, DefaultPolicy()} {
		var b bytes.Buffer
		if err := pol.Explain(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for i, l := range strings.Split(out, "\n") {
			if len(l) > 80 {
				t.Errorf("line %d is %d columns: %q", i+1, len(l), l)
			}
		}
		for _, want := range []string{"mode " + pol.Mode.String(), "disallowed-verified", "/robots.txt", "Tarpit:"} {
			if !strings.Contains(out, want) {
				t.Errorf("explanation lacks %q:\n%s", want, out)
			}
		}
		if pol == p && (!strings.Contains(out, "purpose ai-training (") || !strings.Contains(out, "crawler-price: USD 0.01") || !strings.Contains(out, "crawler Meta-ExternalAgent:\n  disallowed-verified      tarpit")) {
			t.Errorf("explanation of %s:\n%s", path, out)
		}
		if pol != p && !strings.Contains(out, "blocks none") {
			t.Errorf("the default's explanation does not say it blocks nothing:\n%s", out)
		}
	}
}

func TestPolicyByBehaviour(t *testing.T) {
	// The example: "training: 402, agents: allow, search: allow".
	p, err := ParsePolicy("p.toml", []byte(`mode = "enforce"
price = "USD 0.02"
[behaviour.training]
pass = "402"
disallowed-verified = "402"
[behaviour.agent]
pass = "allow"
disallowed-unverified = "allow"
[behaviour.search]
pass = "allow"
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		crawler string
		o       Outcome
		want    Action
	}{
		{"GPTBot", OutcomePass, Action402},
		{"CCBot", OutcomeDisallowedVerified, Action402},
		{"ChatGPT-User", OutcomeDisallowedUnverified, ActionAllow},
		{"ChatGPT-User", OutcomeSpoofed, Action403},
		{"OAI-SearchBot", OutcomePass, ActionAllow},
	} {
		c, ok := robotstxt.LookupCrawler(tc.crawler)
		if !ok {
			t.Fatalf("no %s", tc.crawler)
		}
		if got := p.ActionFor(&c, tc.o); got != tc.want {
			t.Errorf("%s (%s) %s: %s, want %s", tc.crawler, c.Behaviours, tc.o, got, tc.want)
		}
	}
	_, err = ParsePolicy("p.toml", []byte("\n[behaviour.trainin]\npass = \"403\"\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "p.toml:2: unknown behaviour \"trainin\"") {
		t.Errorf("unknown behaviour: %v", err)
	}
	var b bytes.Buffer
	p.Explain(&b)
	if !strings.Contains(b.String(), "behaviour training (") {
		t.Errorf("explanation:\n%s", b.String())
	}
}
