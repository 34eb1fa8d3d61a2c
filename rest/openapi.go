package rest

import (
	_ "embed"
	"net/http"
)

// OpenAPI is the OpenAPI 3.1 document of the REST API.
//
//go:embed openapi.json
var OpenAPI []byte

// OpenAPIHandler serves the OpenAPI document.
func OpenAPIHandler(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(OpenAPI)
}
