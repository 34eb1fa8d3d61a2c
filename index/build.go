// Building: an Index made from the jobs and companies of one data version.

package index

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// Builder makes an Index from jobs given in the default order (posted_sort
// descending, then id as the database orders ids).
type Builder struct {
	ix        *Index
	idRank    []uint32
	facets    map[string]map[string]*value
	companies map[int64]*company
}

// NewBuilder starts the index of a data version.
func NewBuilder(version int64) *Builder {
	return &Builder{
		ix: &Index{
			version:  version,
			undated:  roaring.New(),
			histRate: 1,
			keys:     map[string]*roaring.Bitmap{},
			facets:   map[string]*facet{},
			orders:   map[domain.JobSort]*ordering{},
		},
		facets:    map[string]map[string]*value{},
		companies: map[int64]*company{},
	}
}

// AddCompany adds a company row (before or after its jobs): its name,
// logo URL and slug.
func (b *Builder) AddCompany(id int64, name string, logo *string, slug string) {
	c := b.company(id)
	c.name, c.lower, c.logo, c.slug = name, strings.ToLower(name), logo, slug
}

func (b *Builder) company(id int64) *company {
	c := b.companies[id]
	if c == nil {
		c = &company{id: id, value: value{docs: roaring.New()}}
		b.companies[id] = c
	}
	return c
}

// Add adds the next job of the default order.
func (b *Builder) Add(d *Doc) {
	ix := b.ix
	doc := ix.n
	ix.n++
	ix.ids = append(ix.ids, d.ID...)
	ix.idEnd = append(ix.idEnd, uint32(len(ix.ids)))
	ix.posted = append(ix.posted, d.Posted)
	if !d.Dated {
		ix.undated.Add(doc)
	}
	ix.salMin = append(ix.salMin, ix.toEUR(d.SalaryMin, d.Currency))
	ix.salMax = append(ix.salMax, ix.toEUR(d.SalaryMax, d.Currency))
	b.idRank = append(b.idRank, 0)
	for _, k := range d.Keys {
		addTo(ix.keys, k, doc)
	}
	for field, names := range d.Facets {
		vs := b.facets[field]
		if vs == nil {
			vs = map[string]*value{}
			b.facets[field] = vs
		}
		for _, name := range names {
			v := vs[name]
			if v == nil {
				v = &value{name: name, docs: roaring.New()}
				vs[name] = v
			}
			v.docs.Add(doc)
		}
	}
	b.company(d.CompanyID).docs.Add(doc)
}

// SetIDRank gives job doc (numbered in the order of Add) its place in the
// database's order of ids: the tie-break of every sort. Call it for every
// job before Build.
func (b *Builder) SetIDRank(doc, rank uint32) {
	b.idRank[doc] = rank
}

// Names returns every facet value and company name, for the caller to
// order by the database's collation (Build's argument).
func (b *Builder) Names() []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, vs := range b.facets {
		for name := range vs {
			add(name)
		}
	}
	for _, c := range b.companies {
		add(c.name)
	}
	return out
}

// Build finishes the index. collated is Names in the database's collation
// order: facet values with equal counts are listed in it, as SQL's ORDER
// BY does.
func (b *Builder) Build(collated []string) *Index {
	ix := b.ix
	rank := make(map[string]int, len(collated))
	for i, s := range collated {
		rank[s] = i
	}
	ix.all = roaring.New()
	ix.all.AddRange(0, uint64(ix.n))
	ix.baseAll = ix.all
	ix.byID = make([]uint32, ix.n)
	for d, r := range b.idRank {
		ix.byID[r] = uint32(d)
	}
	ix.idsByteOrdered = true
	for r := 1; r < len(ix.byID); r++ {
		if ix.id(ix.byID[r-1]) >= ix.id(ix.byID[r]) {
			ix.idsByteOrdered = false
			break
		}
	}
	byCount := func(a, b *value) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.collate, b.collate)
	}
	finish := func(v *value) {
		v.docs.RunOptimize()
		v.n = v.docs.GetCardinality()
		v.collate = rank[v.name]
	}
	for field, vs := range b.facets {
		list := make([]*value, 0, len(vs))
		for _, v := range vs {
			finish(v)
			list = append(list, v)
		}
		slices.SortFunc(list, byCount)
		ix.facets[field] = newFacet(list, ix.n)
	}
	for _, c := range b.companies {
		finish(&c.value)
		ix.companies = append(ix.companies, c)
	}
	slices.SortFunc(ix.companies, func(a, b *company) int { return byCount(&a.value, &b.value) })
	ix.placeCompanies()
	companies := make([]*value, len(ix.companies))
	for i, c := range ix.companies {
		companies[i] = &c.value
	}
	ix.facets[domain.FacetCompany] = newFacet(companies, ix.n)
	ix.facets[domain.FacetCompany].pos = nil // companies go by id (companyPos): names may repeat
	for _, bm := range ix.keys {
		bm.RunOptimize()
	}
	ix.undated.RunOptimize()

	ix.byMin, ix.byMax = newSalaryIndex(ix.salMin), newSalaryIndex(ix.salMax)
	ix.salary = make([]*roaring.Bitmap, SalaryBuckets+1)
	for i := range ix.salary {
		ix.salary[i] = roaring.New()
	}
	for d := range ix.n {
		if !math.IsNaN(ix.salMax[d]) {
			ix.salary[SalaryBucket(ix.salMin[d]*ix.histRate, ix.salMax[d]*ix.histRate)].Add(d)
		}
	}

	ix.orders[domain.JobSortNewest] = &ordering{desc: true, key: ix.sortKeyOf(domain.JobSortNewest)} // the numbering itself
	for _, s := range sorts[1:] {
		ix.orders[s] = b.ordering(sortDesc(s), ix.sortKeyOf(s))
	}
	b.ix, b.idRank = nil, nil
	return ix
}

// sorts are the keyset orders an index keeps, the default order first.
var sorts = []domain.JobSort{domain.JobSortNewest, domain.JobSortOldest, domain.JobSortSalaryDesc, domain.JobSortSalaryAsc}

// sortKey is a job's key in order s (then ids break ties, ascending).
func sortKey(s domain.JobSort, posted int64, salMin, salMax float64) float64 {
	switch s {
	case domain.JobSortSalaryDesc:
		return coalesce(salMax, -1)
	case domain.JobSortSalaryAsc:
		return coalesce(salMin, 1e15)
	}
	return float64(posted)
}

// sortKeyOf returns the sort key of the base's job d in order s: sortKey's,
// spelled out for the sorts' inner loops.
func (ix *Index) sortKeyOf(s domain.JobSort) func(d uint32) float64 {
	switch s {
	case domain.JobSortSalaryDesc:
		return func(d uint32) float64 { return coalesce(ix.salMax[d], -1) }
	case domain.JobSortSalaryAsc:
		return func(d uint32) float64 { return coalesce(ix.salMin[d], 1e15) }
	}
	return func(d uint32) float64 { return float64(ix.posted[d]) }
}

// placeCompanies makes companyPos and trigrams from companies (their
// lower-cased names set).
func (ix *Index) placeCompanies() {
	ix.companyPos = make(map[int64]int32, len(ix.companies))
	for i, c := range ix.companies {
		ix.companyPos[c.id] = int32(i)
	}
	ix.trigrams = map[string][]int32{}
	for i, c := range ix.companies {
		for j := 0; j+3 <= len(c.lower); j++ {
			t := c.lower[j : j+3]
			if list := ix.trigrams[t]; len(list) == 0 || list[len(list)-1] != int32(i) {
				ix.trigrams[t] = append(list, int32(i))
			}
		}
	}
}

// sortDesc reports whether order s has its keys descending.
func sortDesc(s domain.JobSort) bool {
	return s == domain.JobSortNewest || s == domain.JobSortSalaryDesc
}

func newFacet(vs []*value, n uint32) *facet {
	f := &facet{values: vs, pos: make(map[string]int32, len(vs))}
	for i, v := range vs {
		f.pos[v.name] = int32(i)
	}
	if len(vs) >= forwardMinValues {
		f.fwd = newForward(vs, n)
	}
	return f
}

// ordering sorts the jobs by key, then by id as the database orders them.
func (b *Builder) ordering(desc bool, key func(uint32) float64) *ordering {
	n := b.ix.n
	o := &ordering{docs: make([]uint32, n), rank: make([]uint32, n), desc: desc, key: key}
	for i := range n {
		o.docs[i] = i
	}
	slices.SortFunc(o.docs, func(x, y uint32) int {
		c := cmp.Compare(key(x), key(y))
		if desc {
			c = -c
		}
		if c != 0 {
			return c
		}
		return cmp.Compare(b.idRank[x], b.idRank[y])
	})
	for pos, d := range o.docs {
		o.rank[d] = uint32(pos)
	}
	return o
}

// addTo adds doc to the bitmap of key k in m, making it when it is the first.
func addTo[K comparable](m map[K]*roaring.Bitmap, k K, doc uint32) {
	bm := m[k]
	if bm == nil {
		bm = roaring.New()
		m[k] = bm
	}
	bm.Add(doc)
}

func coalesce(v, otherwise float64) float64 {
	if math.IsNaN(v) {
		return otherwise
	}
	return v
}
