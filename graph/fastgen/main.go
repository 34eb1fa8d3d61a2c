// Command fastgen runs gqlgen's code generation for jobsd (gqlgen.yml) with
// one more output: the GraphQL fast path's writers (graph/fastpath_gen.go),
// derived from the same schema and Go bindings as gqlgen's executor, so
// that the schema is written once. graph/resolver.go runs it through
// go generate.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen/config"
)

func main() {
	out := flag.String("out", "graph/fastpath_gen.go", "the file to write, relative to gqlgen.yml's folder")
	roots := flag.String("roots", "", "comma-separated root query fields the fast path answers")
	resolved := flag.String("resolved", "", "comma-separated Type.field resolver fields the fast path may call")
	flag.Parse()
	if *roots == "" {
		fmt.Fprintln(os.Stderr, "fastgen: -roots is required")
		os.Exit(2)
	}
	cfg, err := config.LoadConfigFromDefaultLocations() // enters gqlgen.yml's folder
	if err != nil {
		fmt.Fprintln(os.Stderr, "fastgen: loading gqlgen.yml:", err)
		os.Exit(1)
	}
	p := &plugin{out: *out, roots: split(*roots), resolved: map[string]bool{}}
	for _, r := range split(*resolved) {
		p.resolved[r] = true
	}
	if err := api.Generate(cfg, api.AddPlugin(p)); err != nil {
		fmt.Fprintln(os.Stderr, "fastgen:", err)
		os.Exit(1)
	}
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
