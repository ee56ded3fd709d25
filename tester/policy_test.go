package tester_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

func ExamplePolicy() {
	src := tester.NewSource("robots.txt", []byte(`# Our robots.txt
User-agent: *
Disallow: /admin/

User-agent: GPTBot
Disallow: /private/

Sitemap: https://example.com/sitemap.xml
`))
	rep, err := tester.Policy(&tester.PolicyRequest{Source: src,
		DenyCrawlers: []string{"GPTBot", "CCBot"}, Allow: robotstxt.PurposeSearch})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(rep.Body)
	fmt.Println("---")
	fmt.Println(rep.ContentUsage, "|", rep.ContentSignal)
	for _, c := range rep.Verdicts.Changes {
		if c.URL == "/" {
			fmt.Println(c.Crawler, c.URL, c.Old.Allowed, "->", c.New.Allowed)
		}
	}
	// Output:
	// # Our robots.txt
	// User-agent: *
	// Disallow: /admin/
	// Content-Usage: search=y
	// Content-Signal: search=yes
	//
	// User-agent: GPTBot
	// User-agent: CCBot
	// Disallow: /
	//
	// User-agent: AdsBot-Google
	// User-agent: AdsBot-Google-Mobile
	// User-agent: Mediapartners-Google
	// User-agent: APIs-Google
	// Disallow:
	// Content-Usage: search=y
	// Content-Signal: search=yes
	//
	// Sitemap: https://example.com/sitemap.xml
	// ---
	// search=y | search=yes
	// GPTBot / true -> false
	// CCBot / true -> false
}

// policyFiles are files the policy is merged into: each kind of line and
// layout it must keep.
var policyFiles = map[string]string{
	"empty":   "",
	"example": exampleRobots,
	"mixed group": "# engines and AI\nUser-agent: Googlebot\nUser-agent: GPTBot\nDisallow: /private/\n\n" +
		"User-agent: *\nDisallow: /tmp/\n",
	"allow-list": "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n",
	"crlf, no final newline, bom": "\ufeff# site\r\nUser-agent: *\r\nDisallow: /x # why\r\nContent-Usage: train-ai=y,foo=bar # keep\r\n\r\n" +
		"User-agent: CCBot\r\nCrawl-delay: 3\r\n# inside\r\nDisallow: /\r\n\r\nSitemap: https://example.com/s.xml",
	"preferences":                        "User-agent: *\nAllow: /\nContent-Usage: search=n, train-ai=y;p=1\nContent-Usage: /blog/ train-ai=y\nContent-Signal: search=no, use=all\n",
	"no star group, ends in a rule line": "User-agent: ClaudeBot\nDisallow: /a",
	"blank lines":                        "User-agent: *\nDisallow: /a\n\n\nUser-agent: GPTBot\nDisallow: /\n\n\nUser-agent: Bingbot\nDisallow: /b\n\n\n",
	"fallbacks":                          "User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin/\n",
	"bom, the first group goes":          "\ufeffUser-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /x\n\nUser-agent: *\nDisallow: /a\n",
}

// exampleRobots is the bundled example of the command.
const exampleRobots = `# The example robots.txt bundled with robotstxt: "robotstxt compare" reads it
# when no file is given. Each group shows a place where crawlers differ.

User-agent: *
Disallow: /search
Disallow: /cart/
Allow: /cart/help
Disallow: /*.pdf$
Crawl-delay: 5

User-agent: Googlebot
User-agent: Bingbot
Disallow: /private/
Allow: /private/press/
Disallow: /*?sessionid=

User-agent: Yandex
Disallow: /private/
Clean-param: sessionid /
Host: www.example.com

User-agent: Baiduspider
Disallow: /private
Allow: /private/press

User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: AdsBot-Google
Disallow: /cart/

Sitemap: https://www.example.com/sitemap.xml
`

// policyStances are the stances the tests merge.
var policyStances = map[string]tester.PolicyRequest{
	"no training, keep search and user fetches": {Deny: robotstxt.PurposeAITraining, Allow: robotstxt.PurposeSearch | robotstxt.PurposeUserFetch},
	"no AI at all":         {Deny: robotstxt.PurposeAITraining | robotstxt.PurposeAISearch | robotstxt.PurposeUserFetch | robotstxt.PurposeAgent | robotstxt.PurposeTokenOnly, Allow: robotstxt.PurposeSearch},
	"AI welcome":           {Allow: robotstxt.PurposeAITraining | robotstxt.PurposeAISearch | robotstxt.PurposeSearch},
	"no search":            {Deny: robotstxt.PurposeSearch},
	"crawlers by name":     {Deny: robotstxt.PurposeAITraining, DenyCrawlers: []string{"Googlebot", "MyScraper"}, AllowCrawlers: []string{"Bytespider", "Googlebot-Image"}},
	"answers, no training": {Deny: robotstxt.PurposeAITraining, Allow: robotstxt.PurposeAISearch, AllowCrawlers: []string{"Applebot"}},
}

// policy merges req's stances into body.
func policy(t *testing.T, body string, req tester.PolicyRequest) *tester.PolicyReport {
	t.Helper()
	req.Source = tester.NewSource("robots.txt", []byte(body))
	rep, err := tester.Policy(&req)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestPolicyTwiceChangesNothing: the policy applied to its own result
// changes nothing, for every file and every set of stances.
func TestPolicyTwiceChangesNothing(t *testing.T) {
	for fname, body := range policyFiles {
		for sname, req := range policyStances {
			t.Run(fname+"/"+sname, func(t *testing.T) {
				first := policy(t, body, req)
				if !first.Changed || first.Diff == "" {
					t.Fatalf("the first merge changes nothing")
				}
				second := policy(t, first.Body, req)
				if second.Changed || second.Diff != "" || second.Body != first.Body {
					t.Errorf("the second merge changes the file:\n%s", second.Diff)
				}
				if len(second.Verdicts.Changes) != 0 {
					t.Errorf("the second merge changes %d verdicts", len(second.Verdicts.Changes))
				}
			})
		}
	}
}

// TestPolicyDiffIsTheEdit: the unified diff applied to the old file gives
// the new one, byte for byte but for line endings (the diff shows lines
// without them): so every line outside its hunks is kept as it was.
func TestPolicyDiffIsTheEdit(t *testing.T) {
	for fname, body := range policyFiles {
		for sname, req := range policyStances {
			t.Run(fname+"/"+sname, func(t *testing.T) {
				rep := policy(t, body, req)
				got, err := applyUnified(body, rep.Diff)
				if err != nil {
					t.Fatalf("%v\n%s", err, rep.Diff)
				}
				if norm(got) != norm(rep.Body) {
					t.Errorf("the diff applied gives\n%q\nwant\n%q", got, rep.Body)
				}
			})
		}
	}
}

// norm drops carriage returns, which the diff's lines do not show.
func norm(s string) string { return strings.ReplaceAll(s, "\r", "") }

// applyUnified applies a unified diff of one file to old (lines compared
// without their endings), as patch(1) would.
func applyUnified(old, diff string) (string, error) {
	oldLines := strings.SplitAfter(old, "\n")
	if oldLines[len(oldLines)-1] == "" {
		oldLines = oldLines[:len(oldLines)-1]
	}
	strip := func(s string) string { return strings.TrimRight(s, "\r\n") }
	var out []string
	at := 0 // the next old line
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", errors.New("no header")
	}
	noEOL := false
	for _, l := range lines[2:] {
		switch {
		case strings.HasPrefix(l, "@@ -"):
			start, _, _ := strings.Cut(strings.TrimPrefix(l, "@@ -"), " ")
			s, count, _ := strings.Cut(start, ",")
			n, err := strconv.Atoi(s)
			if err != nil {
				return "", err
			}
			if count == "0" {
				n++
			}
			for at < n-1 {
				out = append(out, strip(oldLines[at]))
				at++
			}
		case l == `\ No newline at end of file`:
			noEOL = true
		case strings.HasPrefix(l, " "), strings.HasPrefix(l, "-"):
			if at >= len(oldLines) || strip(oldLines[at]) != l[1:] {
				return "", fmt.Errorf("line %d is not %q", at+1, l[1:])
			}
			if l[0] == ' ' {
				out = append(out, l[1:])
			}
			at++
			noEOL = false
		case strings.HasPrefix(l, "+"):
			out = append(out, l[1:])
			noEOL = false
		default:
			return "", fmt.Errorf("bad diff line %q", l)
		}
	}
	for ; at < len(oldLines); at++ {
		out = append(out, strip(oldLines[at]))
		noEOL = !strings.HasSuffix(oldLines[at], "\n")
	}
	if len(out) == 0 {
		return "", nil
	}
	s := strings.Join(out, "\n")
	if !noEOL {
		s += "\n"
	}
	return s, nil
}

// TestPolicyKeepsUnrelatedLines: lines that no stance concerns survive
// byte for byte, with their line endings; so do comments inside a group
// that goes.
func TestPolicyKeepsUnrelatedLines(t *testing.T) {
	req := policyStances["no training, keep search and user fetches"]
	for _, tt := range []struct {
		file string
		keep []string
	}{
		{"example", []string{"# The example robots.txt bundled with robotstxt: \"robotstxt compare\" reads it\n# when no file is given. Each group shows a place where crawlers differ.\n\nUser-agent: *\nDisallow: /search\nDisallow: /cart/\nAllow: /cart/help\nDisallow: /*.pdf$\nCrawl-delay: 5\n",
			"Clean-param: sessionid /\nHost: www.example.com\n\nUser-agent: Baiduspider\nDisallow: /private\nAllow: /private/press\n",
			// AdsBot-Google ignores the * group: its group gets the
			// preferences (issue 35), its own lines kept.
			"\nUser-agent: AdsBot-Google\nDisallow: /cart/\n", "\nSitemap: https://www.example.com/sitemap.xml\n"}},
		{"crlf, no final newline, bom", []string{"\ufeff# site\r\nUser-agent: *\r\nDisallow: /x # why\r\n", "\r\n# inside\r\n", "\r\n\r\nSitemap: https://example.com/s.xml"}},
		{"mixed group", []string{"# engines and AI\nUser-agent: Googlebot\nDisallow: /private/\n", "\nUser-agent: *\nDisallow: /tmp/\n"}},
		{"bom, the first group goes", []string{"\ufeffUser-agent: Google-Extended\n", "\nUser-agent: Googlebot\nDisallow: /x\n"}},
	} {
		rep := policy(t, policyFiles[tt.file], req)
		for _, k := range tt.keep {
			if !strings.Contains(rep.Body, k) {
				t.Errorf("%s: %q is not in the new file:\n%q", tt.file, k, rep.Body)
			}
		}
		if strings.HasSuffix(policyFiles[tt.file], "\r\n") || tt.file == "crlf, no final newline, bom" {
			if strings.Count(rep.Body, "\n") != strings.Count(rep.Body, "\r\n") {
				t.Errorf("%s: new lines without the file's CRLF:\n%q", tt.file, rep.Body)
			}
		}
	}
}

// TestPolicyVerdictsFollowStances: once merged, every crawler of the
// catalogue with a stance may fetch "/" or not as its stance says, in its
// own dialect with its fallbacks; the allowed ones get the usage
// preferences; and the report lists each with its stance.
func TestPolicyVerdictsFollowStances(t *testing.T) {
	for fname, body := range policyFiles {
		for sname, req := range policyStances {
			t.Run(fname+"/"+sname, func(t *testing.T) {
				rep := policy(t, body, req)
				r := robotstxt.ParseString(rep.Body)
				byName := map[string]tester.PolicyCrawler{}
				for _, c := range rep.Crawlers {
					byName[c.Name] = c
				}
				named := map[string]bool{}
				for _, n := range req.DenyCrawlers {
					named[strings.ToLower(n)] = false
				}
				for _, n := range req.AllowCrawlers {
					named[strings.ToLower(n)] = true
				}
				for _, c := range robotstxt.Crawlers() {
					allow, ok := named[strings.ToLower(c.Name)]
					if strings.Contains(c.Token, " ") {
						// "Kangaroo Bot": no line can name it
						// (Google reads "Kangaroo"); a note says so.
						if _, listed := byName[c.Name]; listed {
							t.Errorf("%s, a name with a space, is listed", c.Name)
						}
						continue
					}
					switch {
					case ok:
					case c.Purposes.Any(req.Deny):
						allow = false
					case c.Purposes.Any(req.Allow):
						allow = true
					default:
						if _, listed := byName[c.Name]; listed {
							t.Errorf("%s has no stance but is listed", c.Name)
						}
						continue
					}
					pc, listed := byName[c.Name]
					if !listed || pc.Allow != allow {
						t.Errorf("%s: listed %v with %+v, want allow %v", c.Name, listed, pc, allow)
					}
					a := r.Usage(c.Query("/"))
					if a.Allowed != allow {
						t.Errorf("%s (%s): allowed %v at /, want %v", c.Name, c.Purposes, a.Allowed, allow)
						continue
					}
					if !allow || ok {
						continue
					}
					for _, k := range []struct {
						p   robotstxt.Purpose
						key string
					}{{robotstxt.PurposeAITraining, robotstxt.UsageTrainAI}, {robotstxt.PurposeSearch, robotstxt.UsageSearch}} {
						want := robotstxt.PrefUnknown
						switch {
						case req.Deny.Has(k.p):
							want = robotstxt.PrefDisallow
						case req.Allow.Has(k.p):
							want = robotstxt.PrefAllow
						}
						if want != robotstxt.PrefUnknown && fname != "preferences" && a.Usage.Get(k.key) != want {
							t.Errorf("%s: %s=%s at /, want %s (lines %v)", c.Name, k.key, a.Usage.Get(k.key), want, a.Usage.Lines)
						}
					}
				}
				for _, n := range req.DenyCrawlers {
					if _, known := robotstxt.LookupCrawler(n); !known && r.Allowed(n, "/") {
						t.Errorf("the token %s may fetch /", n)
					}
				}
				for _, n := range rep.Notes {
					if strings.Contains(n, "does not follow the stance") {
						t.Error(n)
					}
				}
			})
		}
	}
}

// TestPolicyPreferences: existing Content-Usage and Content-Signal lines
// are amended key by key, in place, the rest of them kept; path-scoped
// ones are kept and named in a note.
func TestPolicyPreferences(t *testing.T) {
	rep := policy(t, policyFiles["preferences"], policyStances["no training, keep search and user fetches"])
	want := "User-agent: *\nAllow: /\nContent-Usage: search=y, train-ai=n;p=1\nContent-Usage: /blog/ train-ai=y\nContent-Signal: search=yes, use=all, ai-train=no\n" +
		"\nUser-agent: Google-Extended\n"
	if !strings.HasPrefix(rep.Body, want) {
		t.Errorf("body\n%s\nwant it to start with\n%s", rep.Body, want)
	}
	if rep.ContentUsage != "train-ai=n, search=y" || rep.ContentSignal != "search=yes, ai-train=no" {
		t.Errorf("content usage %q, signal %q", rep.ContentUsage, rep.ContentSignal)
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "line 4 (Content-Usage: /blog/ train-ai=y) keeps its own preferences for its paths") {
		t.Errorf("notes %q", rep.Notes)
	}
	// A statement that does not parse is rewritten.
	rep = policy(t, "User-agent: *\nDisallow: /x\nContent-Usage: Train-AI=n\n", tester.PolicyRequest{Allow: robotstxt.PurposeAITraining})
	if !strings.Contains(rep.Body, "Content-Usage: train-ai=y\n") || !strings.Contains(strings.Join(rep.Notes, "\n"), "does not parse") {
		t.Errorf("body %q, notes %q", rep.Body, rep.Notes)
	}
}

// TestPolicyPlacement: the denied crawlers' group takes the place of the
// first group that named one of them, or goes before the first group that
// loses a line, or at the end; groups left empty go with one blank line.
func TestPolicyPlacement(t *testing.T) {
	req := tester.PolicyRequest{DenyCrawlers: []string{"GPTBot", "CCBot"}}
	for _, tt := range []struct{ body, want string }{
		{"User-agent: *\nDisallow: /a\n\n\nUser-agent: GPTBot\nDisallow: /\n\n\nUser-agent: Bingbot\nDisallow: /b\n\n\nUser-agent: CCBot\nDisallow: /c\n\nSitemap: /s.xml\n",
			"User-agent: *\nDisallow: /a\n\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n\nUser-agent: Bingbot\nDisallow: /b\n\nSitemap: /s.xml\n"},
		{"User-agent: *\nDisallow: /a\n\n# both\nUser-agent: Googlebot\nUser-agent: CCBot\nDisallow: /p\n",
			"User-agent: *\nDisallow: /a\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n# both\nUser-agent: Googlebot\nDisallow: /p\n"},
		{"User-agent: *\nDisallow: /a", "User-agent: *\nDisallow: /a\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n"},
		{"", "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n"},
		{"User-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /a\n", "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /a\n"},
		{"User-agent: *\nDisallow: /a\n\nUser-agent: CCBot\nDisallow: /\n", "User-agent: *\nDisallow: /a\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n"},
	} {
		if rep := policy(t, tt.body, req); rep.Body != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.body, rep.Body, tt.want)
		}
	}
}

// TestPolicyAllowOpens: an allowed crawler blocked at / by a group naming
// it leaves the group; one the * group blocks gets Allow: /, with the
// preferences it would not read otherwise.
func TestPolicyAllowOpens(t *testing.T) {
	rep := policy(t, "User-agent: *\nDisallow: /\n\nUser-agent: Bingbot\nUser-agent: GPTBot\nDisallow: /\n",
		tester.PolicyRequest{AllowCrawlers: []string{"Bingbot", "Googlebot"}, Deny: robotstxt.PurposeAITraining})
	r := robotstxt.ParseString(rep.Body)
	for _, c := range []string{"Bingbot", "Googlebot"} {
		cr, _ := robotstxt.LookupCrawler(c)
		a := r.Usage(cr.Query("/"))
		if !a.Allowed || a.Usage.TrainAI() != robotstxt.PrefDisallow {
			t.Errorf("%s: %+v in\n%s", c, a, rep.Body)
		}
	}
	if !strings.Contains(rep.Body, "User-agent: Googlebot\nUser-agent: bingbot\nAllow: /\nContent-Usage: train-ai=n\nContent-Signal: ai-train=no\n") {
		t.Errorf("no Allow group:\n%s", rep.Body)
	}
}

// TestPolicyNotes: the notes name the crawlers with a denied and an
// allowed purpose, the denied ones that may not obey, and the tokens the
// catalogue does not know.
func TestPolicyNotes(t *testing.T) {
	rep := policy(t, "", tester.PolicyRequest{Deny: robotstxt.PurposeAITraining, Allow: robotstxt.PurposeSearch, DenyCrawlers: []string{"MyScraper"}})
	notes := strings.Join(rep.Notes, "\n")
	for _, want := range []string{"Bytespider, ImagesiftBot fetch for a denied purpose and an allowed one: denied",
		"may not obey these lines", "MyScraper is not in the catalogue"} {
		if !strings.Contains(notes, want) {
			t.Errorf("no note says %q:\n%s", want, notes)
		}
	}
	last := rep.Crawlers[len(rep.Crawlers)-1]
	if last.Name != "MyScraper" || last.Known || last.Allow || last.By != "crawler" {
		t.Errorf("last crawler %+v", last)
	}
	if !strings.Contains(rep.Body, "User-agent: MyScraper\nDisallow: /\n") && !strings.Contains(rep.Body, "User-agent: MyScraper\n") {
		t.Errorf("no MyScraper line:\n%s", rep.Body)
	}
}

// TestPolicyErrors: bad input is an *Error naming the field.
func TestPolicyErrors(t *testing.T) {
	big := tester.NewSource("big", []byte("User-agent: *\n"+strings.Repeat("Disallow: /x\n", 50_000)))
	for _, tt := range []struct {
		req   tester.PolicyRequest
		field string
	}{
		{tester.PolicyRequest{}, "stances"},
		{tester.PolicyRequest{Deny: robotstxt.PurposeSearch, Allow: robotstxt.PurposeSearch | robotstxt.PurposeAgent}, "stances"},
		{tester.PolicyRequest{DenyCrawlers: []string{"GPTBot"}, AllowCrawlers: []string{"gptbot"}}, "crawlers"},
		{tester.PolicyRequest{DenyCrawlers: []string{"Googlebot/2.1"}}, "crawlers"},
		{tester.PolicyRequest{Source: big, Deny: robotstxt.PurposeAITraining}, "robots"},
	} {
		_, err := tester.Policy(&tt.req)
		var e *tester.Error
		if !errors.As(err, &e) || e.Field != tt.field {
			t.Errorf("%+v: error %v, want field %s", tt.req, err, tt.field)
		}
	}
}

// TestPolicyFetchedNoRules: a live site with no robots.txt (404) starts
// from an empty file, and says so.
func TestPolicyFetchedNoRules(t *testing.T) {
	info := &tester.FetchInfo{Origin: "https://example.com", RobotsURL: "https://example.com/robots.txt", Dialect: "google",
		Policy: "allow-all", Source: "network", Reason: "404 Not Found", Status: 404}
	rep, err := tester.Policy(&tester.PolicyRequest{Source: tester.FetchedSource(nil, info, robotstxt.DefaultDialect), DenyCrawlers: []string{"GPTBot"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Body != "User-agent: GPTBot\nDisallow: /\n" || rep.Fetch == nil || !strings.Contains(rep.Notes[0], "starts from an empty file") {
		t.Errorf("report %+v", rep)
	}
	if len(rep.Verdicts.Changes) == 0 {
		t.Error("no verdict changes")
	}
}
