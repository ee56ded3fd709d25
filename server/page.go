package server

import (
	"io/fs"
	"net/http"
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
			writeError(w, &Error{Message: name + " is missing from the binary"})
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(b)
	}
}
