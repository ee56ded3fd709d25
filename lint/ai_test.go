package lint

import (
	"slices"
	"strings"
	"testing"
)

// TestLintAI checks the findings on AI usage lines: each code on the line it
// concerns, with what its message must say, and the clean forms silent.
func TestLintAI(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		want       []string // code:line, exactly (of the AI codes and the others named in not)
		msg        string   // in the first wanted finding's message
	}{
		{"clean", "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\nContent-Usage: /free/ train-ai=y\nContent-Signal: search=yes, ai-input=yes, ai-train=no\n", nil, ""},
		{"before any group", "Content-Usage: train-ai=n\nContent-Signal: ai-train=no\nUser-agent: *\nDisallow: /x\n",
			[]string{"ai-line-outside-group:1", "ai-line-outside-group:2"}, "applies to no crawler"},
		{"upper case", "User-agent: *\nDisallow: /x\nContent-Usage: Train-AI=n\n", []string{"usage-bad-statement:3"}, "labels are lower case"},
		{"spaces around =", "User-agent: *\nDisallow: /x\nContent-Usage: /a/ train-ai = n\n", []string{"usage-bad-statement:3"}, "no space around"},
		{"trailing comma", "User-agent: *\nDisallow: /x\nContent-Usage: train-ai=n,\n", []string{"usage-bad-statement:3"}, "trailing comma"},
		{"yes instead of y", "User-agent: *\nDisallow: /x\nContent-Usage: train-ai=yes, search=\"y\"\n",
			[]string{"usage-unknown-preference:3", "usage-unknown-preference:3"}, "only the tokens y and n"},
		{"earlier labels", "User-agent: *\nDisallow: /x\nContent-Usage: train-genai=n, tdm=n, bots=y\n",
			[]string{"usage-legacy-label:3", "usage-legacy-label:3", "usage-legacy-label:3"}, "part of train-ai today"},
		{"a misspelt label", "User-agent: *\nDisallow: /x\nContent-Usage: train_ai=n\n", []string{"usage-unknown-label:3"}, `did you mean "train-ai"?`},
		{"readings differ", "User-agent: *\nContent-Usage: train-ai=n\n\nUser-agent: FooBot\nDisallow: /x\n", []string{"usage-groups-differ:2"}, "puts line 4 in this group"},
		{"a rule between: no difference", "User-agent: *\nContent-Usage: train-ai=n\nDisallow: /y\n\nUser-agent: FooBot\nDisallow: /x\n", nil, ""},
		{"two signals", "User-agent: *\nDisallow: /x\nContent-Signal: search=yes\nContent-Signal: ai-train=no\n", []string{"signal-repeated:4"}, "group of line 3"},
		{"signals of two groups", "User-agent: *\nDisallow: /x\nContent-Signal: search=yes\n\nUser-agent: a\nDisallow: /y\nContent-Signal: ai-train=no\n", nil, ""},
		{"bad signal pairs", "User-agent: *\nDisallow: /x\nContent-Signal: ai_train=no, search=maybe\n",
			[]string{"signal-bad-pair:3", "signal-bad-pair:3"}, `did you mean "ai-train"?`},
		{"Cloudflare's managed line", "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n", nil, ""},
		{"every use level", "User-agent: *\nDisallow: /x\nContent-Signal: use=immediate\n\nUser-agent: a\nDisallow: /x\nContent-Signal: use=Full\n", nil, ""},
		{"a use level that is none", "User-agent: *\nDisallow: /x\nContent-Signal: search=yes, use=verbatim\n",
			[]string{"signal-bad-use:3"}, "immediate, reference or full"},
		{"a misspelt use level", "User-agent: *\nDisallow: /x\nContent-Signal: use=referense\n",
			[]string{"signal-bad-use:3"}, `did you mean "reference"?`},
		{"an empty use", "User-agent: *\nDisallow: /x\nContent-Signal: use=\n", []string{"signal-bad-use:3"}, "immediate, reference or full"},
		{"ai-use is a category of vocab-08", "User-agent: *\nDisallow: /x\nContent-Usage: train-ai=n, ai-use=n, search=y\n", nil, ""},
		{"a misspelt ai-use", "User-agent: *\nDisallow: /x\nContent-Usage: ai_use=n\n", []string{"usage-unknown-label:3"}, `did you mean "ai-use"?`},
		{"DisallowAITraining", "User-agent: *\nDisallowAITraining: /\n", []string{"legacy-ai-field:2"}, "blocks crawling"},
		{"LLM-Policy", "User-agent: *\nDisallow: /x\nLLM-Policy: https://example.com/ai.txt\n", []string{"legacy-ai-field:3"}, "Content-Usage"},
		{"User-Agent-Purpose", "User-agent: *\nUser-Agent-Purpose: ai\nDisallow: /x\n", []string{"legacy-ai-field:2"}, "names a crawler"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(&File{Name: "r.txt", Body: []byte(tt.body)})
			var codes []string
			var first string
			for _, fd := range got {
				switch fd.Code {
				case "legacy-ai-field", "ai-line-outside-group", "usage-bad-statement", "usage-unknown-preference",
					"usage-legacy-label", "usage-unknown-label", "usage-groups-differ", "signal-bad-pair", "signal-repeated",
					"signal-bad-use", "unknown-field", "accepted-typo":
					codes = append(codes, fd.Code+":"+itoa(fd.Line))
					if first == "" {
						first = fd.Message
					}
				}
			}
			if !slices.Equal(codes, tt.want) {
				t.Errorf("findings %v, want %v", codes, tt.want)
			}
			if tt.msg != "" && !strings.Contains(first, tt.msg) {
				t.Errorf("message %q, want it to say %q", first, tt.msg)
			}
		})
	}
}
