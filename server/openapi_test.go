package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/tester"
	"github.com/seed53c283f5/robotstxt/watch"
)

type apiDoc struct {
	OpenAPI string `json:"openapi"`
	Paths   map[string]map[string]struct {
		Parameters []struct {
			Name string `json:"name"`
			In   string `json:"in"`
		} `json:"parameters"`
		RequestBody *struct {
			Content map[string]struct {
				Schema struct {
					Ref string `json:"$ref"`
				} `json:"schema"`
			} `json:"content"`
		} `json:"requestBody"`
	} `json:"paths"`
	Components struct {
		Schemas map[string]struct {
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		} `json:"schemas"`
	} `json:"components"`
}

func loadDoc(t *testing.T) apiDoc {
	t.Helper()
	var d apiDoc
	if err := json.Unmarshal(openAPI, &d); err != nil {
		t.Fatal(err)
	}
	if d.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q", d.OpenAPI)
	}
	return d
}

// TestOpenAPIRoutes: every route in the document is registered, and every
// registered route is in the document.
func TestOpenAPIRoutes(t *testing.T) {
	d := loadDoc(t)
	var documented, registered []string
	for path, ops := range d.Paths {
		for method := range ops {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	s, _ := New(nil)
	for _, r := range s.routes {
		registered = append(registered, strings.TrimSuffix(r.pattern, "{$}"))
	}
	sort.Strings(documented)
	sort.Strings(registered)
	if !slices.Equal(documented, registered) {
		t.Errorf("documented %v\nregistered %v", documented, registered)
	}
	// And the server answers each documented route with its own handler.
	ts := newTestServer(t, nil)
	for _, route := range documented {
		method, path, _ := strings.Cut(route, " ")
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound && path != "/v1/history/version" || resp.StatusCode == http.StatusMethodNotAllowed {
			t.Errorf("%s: %d", route, resp.StatusCode)
		}
	}
}

// TestOpenAPIBodies: the fields of each request body in the document are
// the fields its decoder accepts, and those it requires are required.
func TestOpenAPIBodies(t *testing.T) {
	d := loadDoc(t)
	types := map[string]any{"/v1/check": CheckRequest{}, "/v1/lint": LintRequest{}, "/v1/compare": CompareRequest{}, "/v1/diff": DiffRequest{},
		"/v1/ai": AIRequest{}, "/v1/policy": PolicyRequest{}, "/v1/bulk": BulkRequest{}, "/v1/watches": watch.Spec{}, "/v1/audit": AuditRequest{}, "/v1/verify": VerifyRequest{}}
	for path, ops := range d.Paths {
		op, ok := ops["post"]
		if !ok {
			continue
		}
		typ, ok := types[path]
		if !ok {
			t.Errorf("POST %s: no decoder known to the test", path)
			continue
		}
		if op.RequestBody == nil {
			t.Errorf("POST %s: no request body", path)
			continue
		}
		ref := op.RequestBody.Content["application/json"].Schema.Ref
		schema, ok := d.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
		if !ok {
			t.Errorf("POST %s: schema %q missing", path, ref)
			continue
		}
		if schema.AdditionalProperties == nil || *schema.AdditionalProperties {
			t.Errorf("POST %s: additionalProperties must be false, as the decoder refuses unknown fields", path)
		}
		var docFields, goFields []string
		for name := range schema.Properties {
			docFields = append(docFields, name)
		}
		rt := reflect.TypeOf(typ)
		for i := range rt.NumField() {
			tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			goFields = append(goFields, tag)
		}
		sort.Strings(docFields)
		sort.Strings(goFields)
		if !slices.Equal(docFields, goFields) {
			t.Errorf("POST %s: documented fields %v, decoder's %v", path, docFields, goFields)
		}
		delete(types, path)
	}
	if len(types) > 0 {
		t.Errorf("undocumented bodies: %v", types)
	}
}

// TestOpenAPIParameters: each documented query parameter is accepted, and
// the handlers accept no other (they refuse unknown ones by name).
func TestOpenAPIParameters(t *testing.T) {
	d := loadDoc(t)
	ts := newTestServer(t, nil)
	for path, ops := range d.Paths {
		op, ok := ops["get"]
		if !ok || len(op.Parameters) == 0 {
			continue
		}
		q := url.Values{}
		for _, p := range op.Parameters {
			if p.In != "query" {
				t.Errorf("%s: parameter %s in %s", path, p.Name, p.In)
			}
			q.Set(p.Name, "x")
		}
		m := get(t, ts.URL+path+"?"+q.Encode()).json(t)
		if e, _ := m["error"].(string); strings.Contains(e, "unknown parameter") {
			t.Errorf("%s: a documented parameter is refused: %s", path, e)
		}
		q.Set("undocumented", "x")
		get(t, ts.URL+path+"?"+q.Encode()).wantError(t, 400, "undocumented")
	}
}

// TestOpenAPIResponses: the document names the answers of the service's
// checks: 421 for a Host not the server's on every route; on a POST, 403
// (another origin), 413 (the limits), 415 (not JSON) and 503 (memory in
// flight); 401 and 429 wherever a token is asked for; /metrics under the
// token.
func TestOpenAPIResponses(t *testing.T) {
	var d struct {
		Paths map[string]map[string]struct {
			Responses map[string]json.RawMessage `json:"responses"`
			Security  []map[string][]string      `json:"security"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(openAPI, &d); err != nil {
		t.Fatal(err)
	}
	for path, ops := range d.Paths {
		for method, op := range ops {
			want := []string{"421"}
			bearer := false
			for _, s := range op.Security {
				_, ok := s["bearer"]
				bearer = bearer || ok
			}
			if bearer {
				want = append(want, "401", "429")
			}
			if method == "post" {
				want = append(want, "403", "413", "415", "503")
			}
			if path == "/v1/fetch" {
				want = append(want, "403", "503")
			}
			if path == "/metrics" && !bearer {
				t.Errorf("GET /metrics: not under the bearer token")
			}
			for _, code := range want {
				if _, ok := op.Responses[code]; !ok {
					t.Errorf("%s %s: no %s answer documented", strings.ToUpper(method), path, code)
				}
			}
		}
	}
}

// TestAIDocumented: the schemas of the AI routes' answers list the JSON
// fields of the tester's reports, and the check's usage members are
// those it writes.
func TestAIDocumented(t *testing.T) {
	d := loadDoc(t)
	for schema, typ := range map[string]any{"AIReport": tester.AIReport{}, "AICrawler": tester.AICrawler{}, "PolicyReport": tester.PolicyReport{}} {
		var documented, fields []string
		for name := range d.Components.Schemas[schema].Properties {
			documented = append(documented, name)
		}
		rt := reflect.TypeOf(typ)
		for i := range rt.NumField() {
			if tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); tag != "-" && tag != "" {
				fields = append(fields, tag)
			}
		}
		sort.Strings(documented)
		sort.Strings(fields)
		if !slices.Equal(documented, fields) {
			t.Errorf("schema %s: documented %v, fields %v", schema, documented, fields)
		}
	}
	var usage struct {
		Components struct {
			Schemas struct {
				CheckUsage struct {
					Properties map[string]struct {
						Properties map[string]json.RawMessage `json:"properties"`
					} `json:"properties"`
				}
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPI, &usage); err != nil {
		t.Fatal(err)
	}
	u := newCheckUsage(tester.NewSource("robots", []byte("User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: search=yes\n")), 0)
	var written map[string]map[string]any
	b := u.appendUsage([]byte(`{"x":{}`), &tester.CheckResult{URL: "/", Who: "Googlebot", Crawler: "Googlebot", Dialect: "google", Allowed: true})
	if err := json.Unmarshal(append(b, '}'), &written); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	for _, member := range []string{"usage", "signals"} {
		var documented, keys []string
		for k := range usage.Components.Schemas.CheckUsage.Properties[member].Properties {
			documented = append(documented, k)
		}
		for k := range written[member] {
			keys = append(keys, k)
		}
		sort.Strings(documented)
		sort.Strings(keys)
		if !slices.Equal(documented, keys) {
			t.Errorf("%s: documented %v, written %v", member, documented, keys)
		}
	}
}
