package server

import (
	"io/fs"
	"net/http"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

// pageFiles are the tester page's files other than index.html, each served
// at /NAME with its type.
var pageFiles = map[string]string{
	"app.js":    "text/javascript; charset=utf-8",
	"style.css": "text/css; charset=utf-8",
}

// servePageFile answers one of the page's embedded files.
func servePageFile(name, contentType string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := fs.ReadFile(webFiles, "web/"+name)
		if err != nil {
			writeError(w, &Error{Message: "server: " + name + " is missing from the binary"})
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(b)
	}
}

// CrawlerInfo is one crawler of the table, as GET /v1/crawlers lists it.
type CrawlerInfo struct {
	Name          string   `json:"name"`
	Token         string   `json:"token"`
	Fallbacks     []string `json:"fallbacks"`
	IgnoresGlobal bool     `json:"ignores_global"`
	Dialect       string   `json:"dialect"`
	Operator      string   `json:"operator"`
	Purpose       string   `json:"purpose"`
	Control       bool     `json:"control"`
	Aliases       []string `json:"aliases"`
}

// CrawlersAnswer is the answer of GET /v1/crawlers.
type CrawlersAnswer struct {
	// Crawlers is the table (robotstxt.Crawlers), in its order.
	Crawlers []CrawlerInfo `json:"crawlers"`
	// Defaults are the crawlers compare and diff ask about when a request
	// names none.
	Defaults []string `json:"defaults"`
	// Dialects are the dialects a request may name.
	Dialects []string `json:"dialects"`
}

func (s *Server) handleCrawlers(w http.ResponseWriter, r *http.Request) {
	if e := onlyParams(r.URL.Query()); e != nil {
		writeError(w, e)
		return
	}
	table := robotstxt.Crawlers()
	out := CrawlersAnswer{Crawlers: make([]CrawlerInfo, 0, len(table)), Defaults: tester.DefaultCrawlers()}
	for _, c := range table {
		out.Crawlers = append(out.Crawlers, CrawlerInfo{
			Name: c.Name, Token: c.Token, Fallbacks: nonNil(c.Fallbacks), IgnoresGlobal: c.IgnoresGlobal,
			Dialect: c.Dialect.String(), Operator: c.Operator, Purpose: c.Purpose, Control: c.Control,
			Aliases: nonNil(c.Aliases),
		})
	}
	for _, d := range robotstxt.Dialects() {
		out.Dialects = append(out.Dialects, d.String())
	}
	writeJSON(w, http.StatusOK, out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
