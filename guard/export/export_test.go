package export

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/guard"
)

func TestTargets(t *testing.T) {
	got := Targets()
	if len(got) != 4 {
		t.Fatalf("Targets() = %v", got)
	}
	for _, tg := range got {
		if p, err := ParseTarget(strings.ToUpper(string(tg))); err != nil || p != tg {
			t.Errorf("ParseTarget(%q) = %q, %v", tg, p, err)
		}
	}
	if _, err := ParseTarget("traefik"); err == nil || !strings.Contains(err.Error(), "nginx") {
		t.Errorf("ParseTarget(traefik): %v, want an error naming the targets", err)
	}
	if _, _, err := CompileInput("Nginx", Input{}); err == nil {
		t.Error("CompileInput(\"Nginx\"): no error")
	}
	if _, _, err := CompileInput(Nginx, Input{Action: "teapot"}); err == nil {
		t.Error("CompileInput with action teapot: no error")
	}
}

// TestPatternRE holds each pattern's expression to the core's matching
// of the same rule, over paths chosen to tell the readings apart.
func TestPatternRE(t *testing.T) {
	want := map[string]string{
		"/fish":      `^/fish`,
		"/*.php$":    `^/.*\.php$`,
		"/a$b":       `^/a\x24b`,
		"/a$$":       `^/a\x24$`,
		"/a**b":      `^/a.*b`,
		"/a b?c=d&e": `^/a\x20b\x3fc\x3dd\x26e`,
		"/$":         `^/$`,
	}
	for pat, w := range want {
		if got, bad := patternRE(pat, false); got != w || bad >= 0 {
			t.Errorf("patternRE(%q) = %q, %d; want %q", pat, got, bad, w)
		}
	}
	pats := []string{"/fish", "/fish*", "/fish/", "/*.php", "/*.php$", "/fish*.php", "/$", "/a$b", "/a$$",
		"/a**b", "/%7Ejoe", "/a.b", "*x", "/a*b*c$", "/p?q=1", "/x+y", "/(a)[b]{c}|d^e\\f"}
	paths := []string{"/", "/fish", "/fish.html", "/fishheads/x.php", "/Fish.asp", "/fish/", "/x.php", "/x.php?y",
		"/a$b", "/a$", "/a$$", "/axxb", "/%7Ejoe", "/~joe", "/a.b", "/aXb", "/yx", "/abc", "/aXbXc", "/aXbXcX",
		"/p?q=1", "/p?q=12", "/x+y", "/xxy", "/(a)[b]{c}|d^e\\f"}
	for _, pat := range pats {
		re, bad := patternRE(robotstxt.EscapePattern(pat), false)
		if bad >= 0 {
			t.Fatalf("patternRE(%q): bad at %d", pat, bad)
		}
		rx := regexp.MustCompile(re)
		r := robotstxt.Parse([]byte("user-agent: foobot\ndisallow: " + pat + "\n"))
		for _, p := range paths {
			core := !r.Allowed("foobot", "http://example.com"+p)
			if got := rx.MatchString(p); got != core {
				t.Errorf("pattern %q, path %q: expression %q matches=%v, the core's rule matches=%v", pat, p, re, got, core)
			}
		}
	}
}

// TestUserAgents holds the export's User-Agent expressions to the
// guard's reading (audit.Catalogue.Identify) for every known crawler's
// names in the forms crawlers send, and for browsers and tools.
func TestUserAgents(t *testing.T) {
	// A group for each crawler's token, so that each has a class of its
	// own (crawlers read by a name that is no token share '*').
	var sb strings.Builder
	for i, c := range robotstxt.Crawlers() {
		fmt.Fprintf(&sb, "user-agent: %s\ndisallow: /%d/\n\n", c.Token, i)
	}
	sb.WriteString("user-agent: *\ndisallow: /all/\n")
	body := []byte(sb.String())
	in := Input{Robots: body}
	p := build(in, guard.Action403, limits{})
	ref := newReference(body, false)
	classOf := func(name string) *class {
		for _, c := range p.classes {
			for _, n := range c.names {
				if n == name {
					return c
				}
			}
		}
		return nil
	}
	res := make([]*regexp.Regexp, len(p.agents))
	for i, a := range p.agents {
		res[i] = regexp.MustCompile(a.re)
	}
	match := func(ua string) *class {
		for i, a := range p.agents {
			if res[i].MatchString(ua) {
				return a.class
			}
		}
		return nil
	}
	uas := []string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
		"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
		"curl/8.5.0", "", "Mozilla/5.0 (compatible; UnknownBot/1.0)",
	}
	for _, c := range robotstxt.Crawlers() {
		for _, n := range append([]string{c.Name, c.Token}, c.Aliases...) {
			uas = append(uas, n+"/2.1", " "+n,
				"Mozilla/5.0 (compatible; "+n+"/2.1; +http://www.example.com/bot.html)",
				"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 (compatible; "+n+"/2.1; +http://www.example.com/bot.html)",
				"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; "+n+"/1.0; +https://example.com/bot)",
				"Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17 Safari/605.1.15 ("+n+"/0.1)")
		}
	}
	// Anubis has no first match over classes: each rule carries its
	// class's expressions, so a header must match one class's only.
	classesMatching := func(ua string) int {
		seen := map[*class]bool{}
		for i, a := range p.agents {
			if a.class != nil && a.class.blocking() && res[i].MatchString(ua) {
				seen[a.class] = true
			}
		}
		return len(seen)
	}
	checked := 0
	for _, ua := range uas {
		if n := classesMatching(ua); n > 1 {
			t.Errorf("UA %q: %d classes' expressions match it", ua, n)
		}
		c, _ := ref.claim(ua)
		var want *class
		if c != nil {
			want = classOf(c.Name)
			checked++
		}
		if got := match(ua); got != want {
			t.Errorf("UA %q: the export's class %v, the guard's %v (%v)", ua, names(got), names(want), c != nil)
		}
	}
	if checked < 1000 || len(p.classes) < 150 {
		t.Errorf("only %d crawler headers checked, %d classes", checked, len(p.classes))
	}
}

func names(c *class) string {
	if c == nil {
		return "none"
	}
	return c.id + " " + clip(strings.Join(c.names, ","), 40)
}

// TestPolicyActions: each crawler's action is the policy's for a
// disallowed unverified claim; a crawler the policy lets through has
// no refusing rules.
func TestPolicyActions(t *testing.T) {
	pol, err := guard.ParsePolicy("p.toml", []byte("mode = \"enforce\"\nprice = \"USD 0.01\"\n[crawler.GPTBot]\ndisallowed-unverified = \"402\"\n[crawler.Bingbot]\ndisallowed-unverified = \"log\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	body := []byte("user-agent: *\ndisallow: /private/\n")
	text, _, err := Compile(Nginx, body, pol)
	if err != nil {
		t.Fatal(err)
	}
	in, err := readExport(Nginx, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ua, want string
	}{
		{"GPTBot/1.0", "402"}, {"Googlebot/2.1", "403"}, {"bingbot/2.0", ""},
		{"Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0", ""},
	} {
		agent := ""
		for _, e := range in.agents {
			if e.re.MatchString(c.ua) {
				agent = e.value
				break
			}
		}
		got := ""
		for _, e := range in.rules {
			if e.re.MatchString(agent + " /private/x") {
				got = e.value
				break
			}
		}
		if got != c.want {
			t.Errorf("%s on /private/x: %q, want %q", c.ua, got, c.want)
		}
	}
	for _, s := range []string{`if ($robotstxt_block = 402) { add_header crawler-price "USD 0.01" always; return 402; }`, "if ($robotstxt_block = 403) { return 403; }"} {
		if !strings.Contains(string(text), s) {
			t.Errorf("the nginx export does not say %q", s)
		}
	}
	// Log mode: enforced all the same, with a warning.
	pol.Mode = guard.ModeLog
	if _, ws, _ := Compile(Nginx, body, pol); !hasWarning(ws, WarnLogMode, 0) {
		t.Errorf("log mode: no %s warning in %v", WarnLogMode, ws)
	}
}

func hasWarning(ws []Warning, name string, line int) bool {
	for _, w := range ws {
		if w.Name == name && w.Line == line {
			return true
		}
	}
	return false
}

// TestWarnings: what a target cannot express is named, and compiled in
// the direction that refuses more.
func TestWarnings(t *testing.T) {
	long := "/" + strings.Repeat("a", 5000)
	body := []byte("user-agent: FooBot\ndisallow: /q?x=1\nallow: /q?x=12\ndisallow: /%7Ejoe\ndisallow: " + long + "\nallow: " + long + "b\n")
	_, ws, err := CompileInput(Anubis, Input{Robots: body, NamedTokens: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		name string
		line int
	}{{WarnQueryRule, 2}, {WarnQueryRule, 3}, {WarnDecodedRule, 4}, {WarnPathOnly, 0}, {WarnDecodedPath, 0}, {WarnStatus, 0}} {
		if !hasWarning(ws, w.name, w.line) {
			t.Errorf("anubis: no %s warning for line %d in %+v", w.name, w.line, ws)
		}
	}
	text, ws, err := CompileInput(Nginx, Input{Robots: body, NamedTokens: true})
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(ws, WarnLong, 5) || !hasWarning(ws, WarnLong, 6) {
		t.Errorf("nginx: no %s warnings for lines 5 and 6 in %+v", WarnLong, ws)
	}
	in, err := readExport(Nginx, text)
	if err != nil {
		t.Fatal(err)
	}
	// The cut disallow refuses the long path and more; the long allow
	// is left out, so its path is refused too.
	for _, uri := range []string{long, long + "b", "/" + strings.Repeat("a", 3000)} {
		if got, _ := in.verdictOf("FooBot/1.0", uri); !got {
			t.Errorf("nginx: %d-byte path not refused", len(uri))
		}
	}
	if got, _ := in.verdictOf("FooBot/1.0", "/b"); got {
		t.Error("nginx: /b refused")
	}
	// No tarpit but HAProxy's.
	for _, tg := range Targets() {
		_, ws, err := CompileInput(tg, Input{Robots: []byte("user-agent: *\ndisallow: /\n"), Action: "tarpit"})
		if err != nil {
			t.Fatal(err)
		}
		if got := hasWarning(ws, WarnStatus, 0); got != (tg != HAProxy) {
			t.Errorf("%s, tarpit: status warning %v", tg, got)
		}
	}
	// Baidu's reading decodes the URL: a target-wide warning for its
	// crawlers.
	_, ws, _ = CompileInput(Nginx, Input{Robots: []byte("user-agent: baiduspider\ndisallow: /a\n")})
	found := false
	for _, w := range ws {
		if w.Name == WarnDecodedPath && len(w.Agents) > 0 && w.Agents[0] == "Baiduspider" {
			found = true
		}
	}
	if !found {
		t.Errorf("no %s warning for Baiduspider in %+v", WarnDecodedPath, ws)
	}
}

// TestBaiduWarningOnlyWhenItRefuses: the decoded-path warning of Baidu's
// reading is for rules that refuse; a file that refuses Baidu's crawlers
// nothing exports exactly, with no warning (and exit 0 from the command).
func TestBaiduWarningOnlyWhenItRefuses(t *testing.T) {
	for _, tc := range []struct {
		body string
		warn bool
	}{
		{"User-agent: GPTBot\nDisallow: /private/\n\nUser-agent: *\nAllow: /\n", false},
		{"User-agent: GPTBot\nDisallow: /private/\n", false},
		{"User-agent: *\nDisallow: /private/\n", true},
		{"User-agent: Baiduspider\nDisallow: /x\n", true},
	} {
		for _, target := range Targets() {
			_, ws, err := Compile(target, []byte(tc.body), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, w := range ws {
				if w.Name == WarnDecodedPath && w.Rule == "Baidu's reading" {
					got = true
				}
			}
			if got != tc.warn {
				t.Errorf("%s, %q: Baidu's decoded-path warning %v, want %v", target, tc.body, got, tc.warn)
			}
		}
	}
}
