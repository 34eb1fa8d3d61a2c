package live

import "github.com/jobsd-dev/jobsd/index"

// percolator files subscriptions under the keys of their anchor filter
// (Sub.anchors), so that a change is offered only to those filed under one
// of its job's keys, and to those without an anchor (scan), which every
// change concerns.
type percolator struct {
	anchored map[string]map[*Sub]struct{}
	scan     map[*Sub]struct{}
}

func newPercolator() percolator {
	return percolator{anchored: map[string]map[*Sub]struct{}{}, scan: map[*Sub]struct{}{}}
}

// file adds s.
func (p percolator) file(s *Sub) {
	if s.anchors == nil {
		p.scan[s] = struct{}{}
		return
	}
	for _, k := range s.anchors {
		set := p.anchored[k]
		if set == nil {
			set = map[*Sub]struct{}{}
			p.anchored[k] = set
		}
		set[s] = struct{}{}
	}
}

// unfile removes s.
func (p percolator) unfile(s *Sub) {
	delete(p.scan, s)
	for _, k := range s.anchors {
		if set := p.anchored[k]; set != nil {
			delete(set, s)
			if len(set) == 0 {
				delete(p.anchored, k)
			}
		}
	}
}

// empty reports whether no subscription is filed.
func (p percolator) empty() bool { return len(p.anchored) == 0 && len(p.scan) == 0 }

// offer calls fn with each subscription the jobs of states may concern
// (a subscription filed under several of their keys is offered each time).
func (p percolator) offer(fn func(*Sub), states ...*index.State) {
	for _, st := range states {
		if st == nil {
			continue
		}
		for _, k := range st.Keys {
			for s := range p.anchored[k] {
				fn(s)
			}
		}
	}
	for s := range p.scan {
		fn(s)
	}
}
