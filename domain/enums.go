package domain

// The enums of this package hold their REST spellings ("remote",
// "salary_desc"); GraphQL shows each upper-cased (REMOTE, SALARY_DESC),
// through the marshalers of package graph/scalar.

// WorkArrangement is where the work happens: remote, hybrid or onsite.
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

// MatchMode is how the items of a list filter combine: any (the default)
// or all of them.
type MatchMode string

// The match modes.
const (
	MatchAny MatchMode = "any"
	MatchAll MatchMode = "all"
)

// MatchModes lists every match mode.
var MatchModes = []MatchMode{MatchAny, MatchAll}
