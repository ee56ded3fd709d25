package server

import (
	"strings"
	"testing"
)

// TestJSONMembersExact: every JSON body of the API matches member names
// exactly, as the API spells them, and refuses a member given twice
// (encoding/json alone took "URLs" for "urls", and the last of two
// "urls"): 400, naming the member.
func TestJSONMembersExact(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, c := range []struct {
		route, body, field, want string
	}{
		{"check", `{"robots": "User-agent: *", "URLs": ["/"]}`, "URLs", `did you mean "urls"`},
		{"check", `{"robots": "User-agent: *", "urls": ["/a"], "urls": ["/b"]}`, "urls", "given twice"},
		{"check", `{"robots": "User-agent: *", "Robots": "User-agent: x", "urls": ["/"]}`, "Robots", `did you mean "robots"`},
		{"lint", `{"Robots": ""}`, "Robots", `did you mean "robots"`},
		{"lint", `{"robots": "", "robots": "User-agent: *"}`, "robots", "given twice"},
		{"compare", `{"robots": "", "Urls": ["/"]}`, "Urls", `did you mean "urls"`},
		{"compare", `{"robots": "", "urls": ["/"], "urls": ["/"]}`, "urls", "given twice"},
		{"diff", `{"old": "", "NEW": ""}`, "NEW", `did you mean "new"`},
		{"diff", `{"old": "", "new": "", "old": "x"}`, "old", "given twice"},
		{"ai", `{"robots": "", "All": true}`, "All", `did you mean "all"`},
		{"ai", `{"robots": "", "all": true, "all": false}`, "all", "given twice"},
		{"policy", `{"robots": "", "Deny": ["ai-training"]}`, "Deny", `did you mean "deny"`},
		{"policy", `{"robots": "", "deny": ["ai-training"], "deny": []}`, "deny", "given twice"},
		{"bulk", `{"URLS": ["https://example.com/"]}`, "URLS", `did you mean "urls"`},
		{"bulk", `{"urls": ["https://example.com/"], "order": "any", "order": "input"}`, "order", "given twice"},
		{"audit", `{"log": "", "Robots": ""}`, "Robots", `did you mean "robots"`},
		{"audit", `{"log": "", "versions": [{"robots": ""}, {"robots": "", "Robots": ""}]}`, "versions[1].Robots", `did you mean "versions[1].robots"`},
		{"audit", `{"log": "", "versions": [{"robots": "", "robots": ""}]}`, "versions[0].robots", "given twice"},
		{"watches", `{"Origin": "https://example.com"}`, "Origin", `did you mean "origin"`},
		{"watches", `{"origin": "https://example.com", "origin": "https://example.org"}`, "origin", "given twice"},
	} {
		r := post(t, ts.URL+"/v1/"+c.route, c.body)
		if r.status != 400 {
			t.Errorf("%s %s: %d %s", c.route, c.body, r.status, r.body)
			continue
		}
		m := r.json(t)
		if m["field"] != c.field || !strings.Contains(m["error"].(string), c.want) {
			t.Errorf("%s %s: %s, want field %q and %q", c.route, c.body, r.body, c.field, c.want)
		}
	}
	// Spelled right and given once, the same bodies are answered.
	for route, body := range map[string]string{
		"check": `{"robots": "User-agent: *", "urls": ["/"]}`,
		"lint":  `{"robots": ""}`,
		"diff":  `{"old": "", "new": ""}`,
		"audit": `{"log": "", "versions": [{"robots": ""}]}`,
	} {
		if r := post(t, ts.URL+"/v1/"+route, body); r.status != 200 {
			t.Errorf("%s %s: %d %s", route, body, r.status, r.body)
		}
	}
}
