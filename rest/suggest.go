package rest

import (
	"fmt"
	"net/http"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/search"
)

// suggestParams are the parameters of GET /suggest: its own and the
// filters of GET /jobs.
var suggestParams = append([]string{"field", "prefix", "limit"}, filterParams...)

// suggestion is a suggestion as REST shows it: its filter is the REST
// parameter that selects it and its value.
type suggestion struct {
	Value  string            `json:"value"`
	Count  int               `json:"count"`
	Filter map[string]string `json:"filter"`
}

// suggestMeta is what a suggestion list answered.
type suggestMeta struct {
	Field  string `json:"field"`
	Prefix string `json:"prefix"`
	Limit  int    `json:"limit"`
}

// suggest serves GET /suggest?field=F&prefix=P&limit=N plus job filters
// (contract section 14).
func (h *Handler) suggest(w http.ResponseWriter, r *http.Request) {
	p := readParams(r.URL, suggestParams...)
	field, prefix := p.str("field"), p.str("prefix")
	limit := p.integer("limit", fmt.Sprintf("limit must be an integer from 1 to %d", search.MaxSuggestions))
	f := filterOf(p)
	if p.err != nil {
		WriteError(w, r, h.log, p.err)
		return
	}
	list, err := h.svc.Suggest(r.Context(), field, prefix, f, limit)
	if err != nil {
		WriteError(w, r, h.log, err)
		return
	}
	data := make([]suggestion, len(list.Nodes))
	for i, s := range list.Nodes {
		data[i] = suggestion{Value: s.Value, Count: s.Count, Filter: restFilter(s.Filter)}
	}
	writeJSON(w, r, http.StatusOK, struct {
		Data []suggestion `json:"data"`
		Meta suggestMeta  `json:"meta"`
	}{data, suggestMeta{Field: list.Field, Prefix: list.Prefix, Limit: list.Limit}})
}

// restFilter is a suggestion's filter as REST parameters.
func restFilter(f domain.SuggestedFilter) map[string]string {
	param, v := f.Param()
	return map[string]string{param: v}
}
