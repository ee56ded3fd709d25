package polite

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

// TestUsageOf: the preferences of robots.txt for a request's URL and of
// the response's Content-Usage header combine key by key.
func TestUsageOf(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nAllow: /\nContent-Usage: train-ai=y, search=y\nContent-Usage: /news/ train-ai=n\nContent-Signal: ai-train=no\n")
			return
		case "/a/header-n":
			w.Header().Add("Content-Usage", "train-ai=n")
		case "/a/two-lines":
			w.Header().Add("Content-Usage", "search=n")
			w.Header().Add("Content-Usage", "x-new=y")
		case "/a/invalid":
			w.Header().Set("Content-Usage", "Train-AI=n")
		}
		io.WriteString(w, "page")
	}))
	defer site.Close()
	tr, err := New(&Options{Token: "ExampleBot"})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: tr}
	for _, tc := range []struct {
		path, want string
		lines      []int
		invalid    bool
	}{
		{"/a/plain", "train-ai=y search=y", []int{3}, false},
		{"/news/1", "train-ai=n", []int{4}, false},
		{"/a/header-n", "train-ai=n search=y", []int{3}, false},
		{"/a/two-lines", "train-ai=y search=n x-new=y", []int{3}, false},
		{"/a/invalid", "train-ai=y search=y", []int{3}, true},
	} {
		resp, err := client.Get(site.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		u, ok := UsageOf(resp)
		if !ok {
			t.Fatalf("%s: no usage for a response of the Transport", tc.path)
		}
		var got []string
		for _, p := range u.Prefs {
			got = append(got, p.Key+"="+p.Pref.String())
		}
		if strings.Join(got, " ") != tc.want || u.HeaderInvalid != tc.invalid || !slices.Equal(u.Robots.Lines, tc.lines) {
			t.Errorf("%s: %q (robots lines %v, header invalid %v); want %q, %v, %v", tc.path, strings.Join(got, " "), u.Robots.Lines, u.HeaderInvalid, tc.want, tc.lines, tc.invalid)
		}
		if u.Get(robotstxt.UsageTrainAI) == robotstxt.PrefUnknown || u.Signals.AITrain != robotstxt.SignalNo || u.Signals.Line != 5 {
			t.Errorf("%s: Get %v, signals %+v", tc.path, u.Get(robotstxt.UsageTrainAI), u.Signals)
		}
	}
	if _, ok := UsageOf(&http.Response{Request: httptest.NewRequest("GET", "/", nil)}); ok {
		t.Error("UsageOf reports usage for a response the Transport did not give")
	}
}
