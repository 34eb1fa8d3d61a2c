// Package web is the reference search page (index.html, app.js,
// style.css beside this file): plain HTML, CSS and ES modules that search
// jobs through the GraphQL API. The files are the source; jobsd serve
// --demo serves them at /demo from this embedded copy, with the demo API
// key filled into the page.
package web

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"strings"
)

//go:embed index.html app.js style.css
var files embed.FS

// keyMeta is the page's key placeholder, which Handler fills.
const keyMeta = `<meta name="jobsd-api-key" content="">`

// Handler serves the page at its root ("/" after the mount point is
// stripped) with key as the API key it sends, and its scripts and styles
// beside it. Every visitor of the page gets the key: serve it only where
// the key may be handed out (jobsd serve --demo needs a loopback address).
func Handler(key string) http.Handler {
	index, err := files.ReadFile("index.html")
	if err != nil || !bytes.Contains(index, []byte(keyMeta)) {
		panic("examples/web: index.html lacks its key placeholder") // the file is embedded, so this is a build error
	}
	page := bytes.Replace(index, []byte(keyMeta),
		[]byte(`<meta name="jobsd-api-key" content="`+template.HTMLEscapeString(key)+`">`), 1)
	assets := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch path := strings.TrimPrefix(r.URL.Path, "/"); path {
		case "", "index.html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			// The key is in the page: keep it out of shared caches.
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("Referrer-Policy", "no-referrer")
			_, _ = w.Write(page)
		case "app.js", "style.css":
			assets.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}
