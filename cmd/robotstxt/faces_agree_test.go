package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

// facesRobots is the file the 200 site serves: rules with a bare '%'.
const facesRobots = "User-agent: *\nDisallow: /private\nDisallow: /a%\n\nUser-agent: Baiduspider\nAllow: /private/ok\nDisallow: /\n\nUser-agent: Yandex\nDisallow: /%zz\n"

// TestFacesAgree asks bulk, check -u, eval (with the site's status) and
// POST /v1/bulk the same questions, every crawler of the table and a
// product token about URLs with a bare '%' on loopback sites answering
// 200, 401, 403, 429, 500 and 503, and fails on any answer two faces give
// differently. bulk refused the bare '%' ("invalid URL escape") that the
// others answer, and read every answer with Google's fetch policy where
// the others use each crawler's own (403: Baiduspider disallowed; 503:
// YandexBot allowed).
func TestFacesAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("asks four faces about 216 crawlers")
	}
	statuses := []int{200, 401, 403, 429, 500, 503}
	paths := []string{"/", "/a%zz", "/%", "/a%", "/private/%", "/private/ok%2", "/%zz/x?q=%%"}
	var crawlers []string
	for _, c := range robotstxt.Crawlers() {
		crawlers = append(crawlers, c.Name)
	}
	subjects := append(append([]string{}, crawlers...), "MyBot") // MyBot: a token
	type site struct {
		status int
		url    string
	}
	var sites []site
	for _, st := range statuses {
		body := ""
		if st == 200 {
			body = facesRobots
		}
		sites = append(sites, site{st, newPolicySite(t, st, body, "text/plain").URL})
	}
	var urls []string
	for _, s := range sites {
		for _, p := range paths {
			urls = append(urls, s.url+p)
		}
	}
	// answers[face][url+" "+who] = "allowed/line"
	answers := map[string]map[string]string{}
	put := func(face, url, who string, allowed *bool, line int, errText string) {
		if answers[face] == nil {
			answers[face] = map[string]string{}
		}
		v := "error: " + errText
		if allowed != nil {
			v = fmt.Sprintf("allowed %v, line %d", *allowed, line)
		}
		answers[face][url+" "+who] = v
	}
	var cflags []string
	for _, c := range crawlers {
		cflags = append(cflags, "-c", c)
	}
	cflags = append(cflags, "-a", "MyBot")

	// check -u, one site at a time.
	for _, s := range sites {
		args := append([]string{"check", "--json", "-u", s.url, "--store", "memory"}, cflags...)
		for _, p := range paths {
			args = append(args, s.url+p)
		}
		code, out, stderr := runCmd(t, "", args...)
		if code == 2 {
			t.Fatalf("check -u %s: exit 2: %s", s.url, stderr)
		}
		var rep struct {
			Results []struct {
				URL, Input, Who string
				Allowed         bool
				Line            int
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("check -u %s: %v", s.url, err)
		}
		for _, r := range rep.Results {
			u := r.URL
			if r.Input != "" {
				u = r.Input
			}
			put("check", u, r.Who, &r.Allowed, r.Line, "")
		}
	}

	// bulk, every URL in one run.
	list := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(list, []byte(strings.Join(urls, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, "", append(append([]string{"bulk", "--store", "memory", "--quiet"}, cflags...), list)...)
	if code != 0 {
		t.Errorf("bulk: exit %d: %s", code, stderr)
	}
	bulkLines := func(face string, r io.Reader) {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var res struct {
				URL, Crawler, Agent, Error string
				Allowed                    *bool
				Line                       int
			}
			if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
				t.Fatalf("%s: %v: %s", face, err, sc.Bytes())
			}
			put(face, res.URL, res.Crawler+res.Agent, res.Allowed, res.Line, res.Error)
		}
	}
	bulkLines("bulk", strings.NewReader(out))

	// POST /v1/bulk of robotstxt serve.
	page, _, _ := startServe(t, "--addr", "127.0.0.1:0", "--store", "memory", "--rate", "0", "--log-level", "error", "--allow-private")
	body, _ := json.Marshal(map[string]any{"urls": urls, "crawlers": crawlers, "agents": []string{"MyBot"}})
	resp, err := http.Post(page+"v1/bulk", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST /v1/bulk: %d %s", resp.StatusCode, b)
	}
	bulkLines("/v1/bulk", resp.Body)
	resp.Body.Close()

	// eval: the file as each site serves it, with its status.
	var in bytes.Buffer
	type asked struct{ url, who string }
	var order []asked
	for _, s := range sites {
		robots := ""
		if s.status == 200 {
			robots = facesRobots
		}
		for _, p := range paths {
			for _, who := range subjects {
				q := map[string]any{"robots": robots, "url": s.url + p, "status": s.status}
				if who == "MyBot" {
					q["ua"] = who
				} else {
					q["crawler"] = who
				}
				b, _ := json.Marshal(q)
				in.Write(append(b, '\n'))
				order = append(order, asked{s.url + p, who})
			}
		}
	}
	code, out, stderr = runCmd(t, in.String(), "eval")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var a struct {
			Allowed *bool
			Line    int
			Error   string
		}
		if err := json.Unmarshal([]byte(l), &a); err != nil || i >= len(order) {
			t.Fatalf("eval answer %d: %v: %s", i, err, l)
		}
		put("eval", order[i].url, order[i].who, a.Allowed, a.Line, a.Error)
	}

	// Every question, every face, the same answer.
	faces := []string{"check", "bulk", "/v1/bulk", "eval"}
	differ, asked1 := 0, 0
	for _, u := range urls {
		for _, who := range subjects {
			k := u + " " + who
			asked1++
			want := answers["check"][k]
			for _, f := range faces[1:] {
				if got := answers[f][k]; got != want || want == "" {
					if differ++; differ <= 12 {
						t.Errorf("%s: check says %q, %s %q", k, want, f, got)
					}
				}
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d answers differ, of %d questions asked of %d faces", differ, asked1, len(faces))
	}
	t.Logf("%d questions, each asked of %s", asked1, strings.Join(faces, ", "))
}
