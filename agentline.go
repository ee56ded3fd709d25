package robotstxt

import "strings"

// Which known crawler a user-agent line names: the question every face asks
// of a file's user-agent lines (the AI report's crawlers, the policy
// writer's stances, compare's rows), answered by the rules choose uses to
// pick a known crawler's groups (Query.Crawler), so that a line is said to
// name a crawler exactly when Decide reads it for that crawler.

// CrawlerNamed returns the known crawler that a user-agent line with this
// value names, as Decide reads the line for a known crawler
// ([Query].Crawler) in the token readings (Google, Bing, Yandex, RFC 9309):
// the crawler whose token, or one of whose aliases, is the value's product
// token ([ExtractToken]: "Googlebot-Image/1.0" names Googlebot-Image), else
// the crawler one of whose names that is no product token ("360Spider",
// "Yahoo! Slurp") is the value's leading run of letters, digits, '-', '_'
// and '.', or the value without its version and with its runs of white
// space as one ("Yahoo!  Slurp/3.0" names Slurp). ok is false for '*', an
// empty value and a value that names no known crawler.
//
// A line names only the crawlers that read it by their own names: one that
// reads it as a fallback (Googlebot-Image reads "Googlebot" when no group
// names it) is not named by it. The draft's readings (Baidu, Original) also
// give a crawler the first record whose value contains its name
// ("Baiduspider-image" holds "Baiduspider"); Decide's GroupChoice.Lines
// says which lines a crawler reads in any dialect.
func CrawlerNamed(value string) (Crawler, bool) {
	v := strings.TrimSpace(value)
	if v == "" || v == "*" {
		return Crawler{}, false
	}
	if tok := ExtractToken(v); tok != "" {
		if i, ok := namedIndex.byToken[foldKey(tok)]; ok {
			return crawlers[i], true
		}
	}
	if i, ok := namedIndex.byLead[foldKey(looseToken(v))]; ok {
		return crawlers[i], true
	}
	if i, ok := namedIndex.byName[foldKey(agentName(v))]; ok {
		return crawlers[i], true
	}
	return Crawler{}, false
}

// namedIndex finds the crawler a user-agent value names (CrawlerNamed):
// by the fold key of a token or alias that is a product token, and of a
// token or alias that is not (as choose compares it: its leading run and
// its name without version). The first crawler in the table wins.
var namedIndex = indexNamed(crawlers)

type namedKeys struct {
	byToken map[string]int // product tokens
	byLead  map[string]int // names that are no product token
	byName  map[string]int // the same names without version
}

func indexNamed(table []Crawler) namedKeys {
	ix := namedKeys{byToken: map[string]int{}, byLead: map[string]int{}, byName: map[string]int{}}
	put := func(m map[string]int, k string, i int) {
		if _, ok := m[k]; !ok && k != "" {
			m[k] = i
		}
	}
	for i := range table {
		for _, n := range append([]string{table[i].Token}, table[i].Aliases...) {
			if ValidToken(n) {
				put(ix.byToken, foldKey(n), i)
				continue
			}
			// choose's looseNaming: the line's leading run equals the
			// name, or its name without version equals the name's.
			put(ix.byLead, foldKey(n), i)
			put(ix.byName, foldKey(agentName(n)), i)
		}
	}
	return ix
}
