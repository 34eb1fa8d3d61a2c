package domain

// Node is an object with a global id that GraphQL's Query.node refetches:
// a Job (its id) or a Company ("company:" and its slug).
type Node interface {
	isNode()
}

func (Job) isNode()     {}
func (Company) isNode() {}
