package domain

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WorkArrangement is where the work happens: remote, hybrid or onsite. Its
// value is the REST spelling; GraphQL shows it upper-cased (REMOTE, …).
type WorkArrangement string

// The work arrangements of the contract.
const (
	WorkArrangementRemote WorkArrangement = "remote"
	WorkArrangementHybrid WorkArrangement = "hybrid"
	WorkArrangementOnsite WorkArrangement = "onsite"
)

// WorkArrangements lists every work arrangement in the contract's order.
var WorkArrangements = []WorkArrangement{WorkArrangementRemote, WorkArrangementHybrid, WorkArrangementOnsite}

// IsValid reports whether w is one of the contract's work arrangements.
func (w WorkArrangement) IsValid() bool {
	switch w {
	case WorkArrangementRemote, WorkArrangementHybrid, WorkArrangementOnsite:
		return true
	}
	return false
}

// UnmarshalGQL reads the GraphQL enum value (REMOTE, HYBRID, ONSITE).
func (w *WorkArrangement) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("WorkArrangement must be a string")
	}
	*w = WorkArrangement(strings.ToLower(s))
	if !w.IsValid() {
		return fmt.Errorf("%s is not a valid WorkArrangement", s)
	}
	return nil
}

// MarshalGQL writes the GraphQL enum value.
func (w WorkArrangement) MarshalGQL(out io.Writer) {
	_, _ = io.WriteString(out, strconv.Quote(strings.ToUpper(string(w))))
}

// JobSort is the order of a job list.
type JobSort string

// The sort orders of the contract (section 3).
const (
	JobSortNewest     JobSort = "newest"
	JobSortOldest     JobSort = "oldest"
	JobSortSalaryDesc JobSort = "salary_desc"
	JobSortSalaryAsc  JobSort = "salary_asc"
	JobSortRelevance  JobSort = "relevance"
	JobSortDistance   JobSort = "distance"
)

// JobSorts lists every sort order.
var JobSorts = []JobSort{JobSortNewest, JobSortOldest, JobSortSalaryDesc, JobSortSalaryAsc, JobSortRelevance, JobSortDistance}

// IsValid reports whether s is one of the sort orders.
func (s JobSort) IsValid() bool {
	for _, v := range JobSorts {
		if s == v {
			return true
		}
	}
	return false
}

// UnmarshalGQL reads the GraphQL enum value (NEWEST, SALARY_DESC, …).
func (s *JobSort) UnmarshalGQL(v any) error {
	str, ok := v.(string)
	if !ok {
		return fmt.Errorf("JobSort must be a string")
	}
	*s = JobSort(strings.ToLower(str))
	if !s.IsValid() {
		return fmt.Errorf("%s is not a valid JobSort", str)
	}
	return nil
}

// MarshalGQL writes the GraphQL enum value.
func (s JobSort) MarshalGQL(out io.Writer) {
	_, _ = io.WriteString(out, strconv.Quote(strings.ToUpper(string(s))))
}

// MatchMode is how the items of a list filter combine: any (the default)
// or all of them.
type MatchMode string

// The match modes.
const (
	MatchAny MatchMode = "any"
	MatchAll MatchMode = "all"
)

// UnmarshalGQL reads the GraphQL enum value (ANY, ALL).
func (m *MatchMode) UnmarshalGQL(v any) error {
	str, ok := v.(string)
	if !ok {
		return fmt.Errorf("MatchMode must be a string")
	}
	*m = MatchMode(strings.ToLower(str))
	if *m != MatchAny && *m != MatchAll {
		return fmt.Errorf("%s is not a valid MatchMode", str)
	}
	return nil
}

// MarshalGQL writes the GraphQL enum value.
func (m MatchMode) MarshalGQL(out io.Writer) {
	_, _ = io.WriteString(out, strconv.Quote(strings.ToUpper(string(m))))
}
