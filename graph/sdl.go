package graph

import "strings"

// SDL returns the schema text (schema.graphqls), as compiled into the
// binary by gqlgen.
func SDL() string {
	var b strings.Builder
	for _, s := range sources {
		b.WriteString(s.Input)
	}
	return b.String()
}
