package robotstxt

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// parsedForm is what build keeps of a reading, for comparing two builds.
type parsedForm struct {
	Raws         []rawRule
	Agents       []agentLine
	Groups       []group
	Exts         []groupExt
	Orphans      []int32
	GlobalGroups []int32
	Sitemaps     []valueRef
	Hosts        []valueRef
	CleanParams  []valueRef
	GroupExts    bool
	Escape       uint8
	Mode         reading
}

func formOf(c *compiled) parsedForm {
	return parsedForm{c.raws, c.agents, c.groups, c.exts, c.orphans, c.globalGroups,
		c.ext.sitemaps, c.ext.hosts, c.ext.cleanParams, c.groupExts, c.escape, c.mode}
}

// checkReadFast checks that readFast builds the google reading of body
// exactly as reading every line through the lexer does.
func checkReadFast(t *testing.T, body string) {
	t.Helper()
	var fast, lexed compiled
	fast.buildWith(body, Google, true)
	lexed.buildWith(body, Google, false)
	if f, l := formOf(&fast), formOf(&lexed); !reflect.DeepEqual(f, l) {
		t.Fatalf("readFast and the lexer disagree on %q:\nfast:  %+v\nlexer: %+v", clip(body), f, l)
	}
}

// readFastCases are lines at the edges of what readFast reads itself.
var readFastCases = []string{
	"User-agent: *\nDisallow: /\n",
	"user-agent:FooBot\nallow:/a\ndisallow:/b#c\nsitemap:http://x/s.xml\n",
	"USER-AGENT : FooBot \t\nALLOW\t:\t/a \v\f\nDISALLOW  :  /b  # c\n",
	"User-agent: FooBot\r\nDisallow: /a\r\n\r\nUser-agent: BarBot\rDisallow: /b\r",
	"User-agent: FooBot\nDisallow /a\nAllow /b /c\nDisallowed: /d\nAllowing: /e\nuser-agents: x\nuseragent: y\nuser agent: z\n",
	"User-agent: FooBot\nDisallow: /a\nCrawl-delay: 5\nRequest-rate: 1/5\nVisit-time: 0100-0200\nHost: a.com\nClean-param: a /b\n",
	"Disallow: /orphan\nUser-agent: a\nsitemap: \nsitemap:\nsite-map: http://x\nsitemaps: http://y\n",
	"\xEF\xBB\xBFUser-agent: a\nDisallow: /x",
	"\xEF\xBBUser-agent: a\nDisallow: /x",
	"allow:", "allow", "disallow", "disallow:", "user-agent", "user-agent:", "User-agen", "sitemap:", "Sitemap",
	"   \t\n  # only a comment\n#\n\n\r\r\n",
	"User-agent: a # b\nDisallow: # nothing\nAllow: /x#y\n",
	"User-agent: *\nDisallow: /" + strings.Repeat("a", maxLineLen) + "\n" +
		"Disallow: /" + strings.Repeat("b", maxLineLen-11) + "\n" +
		"Disallow: /" + strings.Repeat("c", maxLineLen-10) + "\n" +
		"Allow: /d # " + strings.Repeat("e", maxLineLen) + "\n",
	"User-agent: a\nDisallow: /\xff\xfe%zz%2f\n",
	"User-agent: a\nDisallow : : /x\nAllow:: /y\n:Disallow: /z\n",
}

func TestReadFastAgreesWithLexer(t *testing.T) {
	for _, body := range readFastCases {
		checkReadFast(t, body)
		for _, end := range []string{"\r", "\r\n"} {
			checkReadFast(t, strings.ReplaceAll(body, "\n", end))
		}
	}
	for _, body := range handSeeds {
		checkReadFast(t, body)
	}
	dir := filepath.Join(sharedDir(t), "corpus", "real")
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no corpus in %s: %v", dir, err)
	}
	for i := 0; i < len(names); i += shortStep(7) {
		b, err := os.ReadFile(names[i])
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > DefaultMaxBytes {
			b = b[:DefaultMaxBytes]
		}
		checkReadFast(t, string(b))
	}
}
