package suggest

import "github.com/seed53c283f5/robotstxt"

// Crawler returns the name of the known crawler nearest to name, by its
// name or its product token ("Gooblebot" gives "Googlebot"); "" when none
// is near. The command and the service suggest crawlers with it.
func Crawler(name string) string {
	var names []string
	byToken := map[string]string{}
	for _, c := range robotstxt.Crawlers() {
		names = append(names, c.Name)
		if c.Token != c.Name {
			names = append(names, c.Token)
			byToken[c.Token] = c.Name
		}
	}
	near := Nearest(name, names)
	if n, ok := byToken[near]; ok {
		return n
	}
	return near
}

// Dialect returns the dialect name nearest to name ("gogle" gives
// "google"); "" when none is near.
func Dialect(name string) string {
	var names []string
	for _, d := range robotstxt.Dialects() {
		names = append(names, d.String())
	}
	return Nearest(name, names)
}
