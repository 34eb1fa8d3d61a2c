// Command search searches jobsd from the command line with the typed client
// (package client):
//
//	go run ./examples/search -key KEY -skills golang,k8s -location "San Francisco, CA"
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/jobsd-dev/jobsd/client"
)

func main() {
	base := flag.String("base", "http://127.0.0.1:8080", "jobsd's base URL")
	key := flag.String("key", os.Getenv("JOBSD_KEY"), "API key (env JOBSD_KEY)")
	title := flag.String("title", "", "title intent (\"backend engineer\", \"nurse\")")
	location := flag.String("location", "", "location (\"Austin, TX\", \"Remote - US\")")
	skills := flag.String("skills", "", "comma-separated skills")
	company := flag.String("company", "", "company name, or part of it")
	first := flag.Int("first", 10, "how many jobs")
	flag.Parse()
	if *key == "" {
		fmt.Fprintln(os.Stderr, "search: -key (or JOBSD_KEY) is required; make run prints a demo key")
		os.Exit(2)
	}
	filter := &client.JobFilter{}
	set := func(dst **string, v string) {
		if v != "" {
			*dst = &v
		}
	}
	set(&filter.Title, *title)
	set(&filter.Location, *location)
	set(&filter.Company, *company)
	if *skills != "" {
		filter.Skills = strings.Split(*skills, ",")
	}
	page, err := client.SearchJobs(context.Background(), client.New(*base, *key), filter, first, nil, nil,
		[]client.FacetField{client.FacetFieldWorkArrangement})
	if err != nil {
		fmt.Fprintln(os.Stderr, "search:", err)
		os.Exit(1)
	}
	fmt.Printf("%d jobs match; the first %d:\n\n", page.Jobs.TotalCount, len(page.Jobs.Edges))
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTITLE\tCOMPANY\tLOCATION\tSALARY")
	for _, e := range page.Jobs.Edges {
		j := e.Node
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", j.Id, j.Title, j.Company, j.Location.Full, salary(j.Salary))
	}
	_ = tw.Flush()
	if page.Jobs.PageInfo.HasNextPage && page.Jobs.PageInfo.EndCursor != nil {
		fmt.Printf("\nmore follow: the next page is after %s\n", *page.Jobs.PageInfo.EndCursor)
	}
	for _, f := range page.Jobs.Facets {
		fmt.Printf("\nby work arrangement:")
		for _, v := range f.Values {
			fmt.Printf(" %s %d", v.Value, v.Count)
		}
		fmt.Println()
	}
}

func salary(s *client.SearchCardSalary) string {
	if s == nil {
		return "-"
	}
	amount := func(v *float64) string {
		if v == nil {
			return "?"
		}
		return fmt.Sprintf("%.0f", *v)
	}
	cur, per := "", ""
	if s.Currency != nil {
		cur = " " + *s.Currency
	}
	if s.Period != nil {
		per = " " + strings.ToLower(string(*s.Period))
	}
	return amount(s.Min) + "–" + amount(s.Max) + cur + per
}
