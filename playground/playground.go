// Package playground serves the GraphiQL page developers explore the API
// with. Its browser assets are embedded in the binary (vendored from the
// npm registry by scripts/playground-assets.sh, licences in
// assets/LICENSES.md), so the page works without access to a CDN.
package playground

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
)

//go:embed assets
var assets embed.FS

// ExampleQuery is the query the page opens with.
const ExampleQuery = `# Welcome to jobsd. Press the run button (or Ctrl-Enter) to search.
# Filters are normalized: "golang" is Go, "SF" is San Francisco.
# Pages are Relay connections: pass pageInfo.endCursor as after.
query SearchJobs($after: String) {
  jobs(filter: { skills: ["golang"], city: "SF" }, first: 5, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges {
      cursor
      node {
        id
        title
        company
        postedAt
        location { full }
        workArrangement
        employmentType
        salary { min max currency period }
        category { field role specialization }
      }
    }
  }
}

# More to try:
#   job(id: "…") { title postedAt description skills visaSponsorship }
#   companies(minJobs: 10, first: 10) { edges { node { name jobCount slug } } }
#   jobs(filter: { near: { place: "Austin, TX", radius: 25, unit: MI } }, sort: DISTANCE) { edges { node { title distanceKm } } }
#   subscription { jobChanges(filter: { skills: ["golang"] }) { kind id card { title company } } }
`

// Options configure the page.
type Options struct {
	// Endpoint is the GraphQL endpoint's path.
	Endpoint string
	// AssetsPath is where Assets is mounted.
	AssetsPath string
	// APIKey, when set, fills the x-api-key header of the page.
	APIKey string
}

// Page returns the handler of the playground page.
func Page(opts Options) http.Handler {
	// The editor shows the key; the fetcher sends it too, so that the schema
	// introspection GraphiQL makes on load is authorized. Headers typed in
	// the editor override it.
	headers := map[string]string{"x-api-key": opts.APIKey}
	fetcherHeaders := map[string]string{"x-api-key": opts.APIKey}
	if opts.APIKey == "" {
		headers["x-api-key"] = "paste your API key here"
		fetcherHeaders = map[string]string{}
	}
	data := struct {
		Options
		Headers, FetcherHeaders map[string]string
		Query                   string
	}{opts, headers, fetcherHeaders, ExampleQuery}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if err := page.Execute(w, data); err != nil {
			http.Error(w, "render playground", http.StatusInternalServerError)
		}
	})
}

// Assets returns the handler of the page's scripts and styles (mount it at
// AssetsPath with the prefix stripped).
func Assets() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded folder exists at build time
	}
	files := http.FileServer(http.FS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=86400")
		files.ServeHTTP(w, r)
	})
}

var page = template.Must(template.New("playground").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>jobsd GraphQL playground</title>
  <style>body { margin: 0; } #graphiql { height: 100vh; } .loading { height: 100%; display: flex; align-items: center; justify-content: center; font: 2rem sans-serif; }</style>
  <link rel="stylesheet" href="{{.AssetsPath}}/graphiql.min.css">
  <link rel="stylesheet" href="{{.AssetsPath}}/graphiql-plugin-explorer.css">
  <script src="{{.AssetsPath}}/react.production.min.js"></script>
  <script src="{{.AssetsPath}}/react-dom.production.min.js"></script>
</head>
<body>
  <div id="graphiql"><div class="loading">Loading the playground…</div></div>
  <script src="{{.AssetsPath}}/graphiql.min.js"></script>
  <script src="{{.AssetsPath}}/graphiql-plugin-explorer.umd.js"></script>
  <script src="{{.AssetsPath}}/graphql-ws.min.js"></script>
  <script>
    const url = location.protocol + '//' + location.host + {{.Endpoint}};
    // Subscriptions go over a WebSocket (graphql-transport-ws), whose key
    // is sent in connection_init: the x-api-key of the headers editor as it
    // is when the socket opens (a browser cannot set a WebSocket's headers).
    let headers = {{.Headers}};
    const wsClient = graphqlWs.createClient({
      url: url.replace(/^http/, 'ws'),
      connectionParams: () => ({ 'x-api-key': headers['x-api-key'] || '' }),
      lazy: true,
      retryAttempts: 0,
    });
    const fetcher = GraphiQL.createFetcher({ url, headers: {{.FetcherHeaders}}, wsClient });
    // A link may name the operation to open with: /playground?query=….
    const linked = new URLSearchParams(location.search).get('query');
    ReactDOM.render(
      React.createElement(GraphiQL, {
        fetcher,
        defaultQuery: linked || {{.Query}},
        onEditHeaders: (text) => { try { headers = JSON.parse(text) || {}; } catch (e) { /* not JSON yet */ } },
        headers: JSON.stringify({{.Headers}}, null, 2),
        isHeadersEditorEnabled: true,
        defaultEditorToolsVisibility: 'headers',
        shouldPersistHeaders: false,
        plugins: [GraphiQLPluginExplorer.explorerPlugin()],
      }),
      document.getElementById('graphiql'),
    );
  </script>
</body>
</html>
`))
