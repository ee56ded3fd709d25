package server

import (
	"fmt"
	"io/fs"
	"net/http"
	"strings"
)

// pageFiles are the tester page's files other than index.html, each served
// at /NAME with its type. app.js is the entry module: it imports the page's
// other modules, served by servePageModule.
var pageFiles = map[string]string{
	"app.js":    "text/javascript; charset=utf-8",
	"style.css": "text/css; charset=utf-8",
}

// moduleType is the content type of the page's JavaScript modules: a
// browser runs a module script only when its type is JavaScript.
const moduleType = "text/javascript; charset=utf-8"

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

// servePageModule answers GET /js/{name}: one of the page's JavaScript
// modules (web/js/NAME.js, embedded), served as it is, with no build step.
// A name that is not a module's (NAME.js, one path segment) is refused
// with 400; a module the binary does not hold is not found.
func servePageModule(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if !strings.HasSuffix(name, ".js") || strings.Contains(name, "/") || !fs.ValidPath(name) {
		writeError(w, &Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("%q is not a module's name (NAME.js)", name)})
		return
	}
	b, err := fs.ReadFile(webFiles, "web/js/"+name)
	if err != nil {
		writeError(w, &Error{Status: http.StatusNotFound, Message: "no page module " + name})
		return
	}
	w.Header().Set("Content-Type", moduleType)
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b)
}
