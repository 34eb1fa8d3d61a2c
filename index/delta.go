// Delta: an index's writes since its base was built, applied copy-on-write as a layer over the base.

package index

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// Change is one batch of writes to the jobs, for Index.Apply.
type Change struct {
	// Remove are the ids of jobs gone; ids the index does not have are
	// ignored.
	Remove []string
	// Add are jobs added, each replacing the job of its id if there is one
	// (in the index, or in Remove). Of two with one id, the later is kept.
	// Apply keeps the Docs' slices and maps: they must not change after.
	Add []*Doc
	// Companies are the rows of the companies Add's jobs name that the
	// index may not know. A company the index knows keeps its row (a
	// changed name, logo or slug needs a rebuild); a job whose company is
	// neither known nor here gets one without a name, as Builder does.
	Companies []Company
}

// Company is one company row: its id, name, logo URL and slug.
type Company struct {
	ID      int64
	Name    string
	LogoURL *string
	Slug    string
}

// ErrIDOrder is Apply's error for a base whose id ranks (Builder.SetIDRank)
// are not the ids' byte order: a delta's jobs and cursors are placed among
// the base's by comparing ids as Go strings.
var ErrIDOrder = errors.New("index: the base's id ranks are not the ids' byte order")

// delta is the layer of an index's writes since its base: the base's jobs
// removed or replaced, and the jobs added since, numbered after the base's
// (from the first multiple of 65,536 at or past n, so that their bits
// share no roaring container with the base's), in the default order. It is rebuilt whole by each
// Apply, at a cost in its own size, and immutable after.
type delta struct {
	docs    []Doc
	first   uint32          // job first+i is docs[i]: a roaring container of its own
	deleted *roaring.Bitmap // base jobs removed or replaced
	live    uint32          // jobs of both layers

	keys   map[string]*roaring.Bitmap // the delta's jobs by filter key
	fields map[string]*deltaField     // by facet field, company included
	orders map[domain.JobSort]*deltaOrder
	salary []*roaring.Bitmap // the delta's jobs by SalaryBucket

	// companies are the companies the base lacks, at positions from
	// baseCompanies in Index.companies; their value's docs are their jobs.
	companies     []*company
	baseCompanies int
	companyPos    map[int64]int32           // new companies' positions, by id
	owner         []int32                   // delta job i's company position
	companyDocs   map[int32]*roaring.Bitmap // the delta's jobs of base companies, by position
	// companyAdjust is each base company's live jobs less its base count,
	// kept when the base's company facet has a single-valued forward index
	// (the company sets that use it), nil otherwise.
	companyAdjust map[int32]int64
	// gone counts the removed base jobs by value of each base facet field
	// (nil without any).
	gone map[string][]uint32

	// rank places, in the database's collation, every name of the fields
	// in ranked: those with values (or companies) the base lacks. Other
	// fields keep the base's value.collate.
	rank   map[string]int
	ranked map[string]bool
}

// deltaField is one facet field's values among the delta's jobs: local
// values numbered from 0, each job's as compressed rows.
type deltaField struct {
	names   []string
	base    []int32  // a local value's position in the base's facet, -1 when new
	pos     []int32  // for the company field: each local value's company position
	byBase  []int32  // the local values with a base position, by it ascending
	offsets []uint32 // job i's local values are vals[offsets[i]:offsets[i+1]]
	vals    []int32
	counts  []uint32 // over every job of the delta
	most    uint32   // the largest of counts
}

// deltaOrder is one keyset sort of the delta's jobs.
type deltaOrder struct {
	docs []uint32  // position → delta job
	rank []uint32  // delta job → position
	keys []float64 // delta job → sort key
}

// DeltaLen is the number of jobs added, removed or replaced since the base
// was built (a replaced base job counts twice): the caller rebuilds when it
// grows, queries costing more with a larger delta.
func (ix *Index) DeltaLen() int {
	if ix.delta == nil {
		return 0
	}
	return int(ix.delta.deleted.GetCardinality()) + len(ix.delta.docs)
}

// Apply returns the index of data version version: ix's jobs with ch
// applied, answering every query exactly as a fresh build over those jobs
// (and the companies ix knows plus ch's) would. ix is left unchanged and
// stays valid. The cost is in the size of ch and of what was applied since
// the base was built (DeltaLen), not in the number of jobs.
//
// collate sorts names in the database's collation (Builder.Build's
// argument): it is called only when the jobs bring facet values or
// companies that the base and earlier applies did not place, with those
// names and every name of their fields. It returns ErrIDOrder for a base
// whose ids were not ranked in byte order.
func (ix *Index) Apply(version int64, ch Change, collate func(names []string) ([]string, error)) (*Index, error) {
	if !ix.idsByteOrdered {
		return nil, ErrIDOrder
	}
	prev := ix.delta
	gone := make(map[string]bool, len(ch.Remove)+len(ch.Add))
	for _, id := range ch.Remove {
		gone[id] = true
	}
	latest := make(map[string]int, len(ch.Add))
	for i, d := range ch.Add {
		gone[d.ID] = true
		latest[d.ID] = i
	}
	dl := &delta{deleted: roaring.New(), baseCompanies: ix.baseCompanies(), first: (ix.n + 0xffff) &^ 0xffff}
	var rows []Company // the new companies
	if prev != nil {
		dl.deleted = prev.deleted.Clone()
		for _, d := range prev.docs {
			if !gone[d.ID] {
				dl.docs = append(dl.docs, d)
			}
		}
		for _, c := range prev.companies {
			rows = append(rows, Company{ID: c.id, Name: c.name, LogoURL: c.logo, Slug: c.slug})
		}
	}
	for id := range gone {
		if d, ok := ix.baseDoc(id); ok {
			dl.deleted.Add(d)
		}
	}
	for i, d := range ch.Add {
		if latest[d.ID] == i {
			c := *d
			c.SalaryMin, c.SalaryMax = ix.toEUR(d.SalaryMin, d.Currency), ix.toEUR(d.SalaryMax, d.Currency)
			dl.docs = append(dl.docs, c)
		}
	}
	slices.SortFunc(dl.docs, func(a, b Doc) int {
		if c := cmp.Compare(b.Posted, a.Posted); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	dl.addCompanies(ix, rows, ch.Companies)

	nx := &Index{
		version: version, n: ix.n, delta: dl,
		ids: ix.ids, idEnd: ix.idEnd, posted: ix.posted, undated: ix.undated,
		salMin: ix.salMin, salMax: ix.salMax, byMin: ix.byMin, byMax: ix.byMax,
		rates: ix.rates, ratesDigest: ix.ratesDigest, histCode: ix.histCode, histRate: ix.histRate,
		baseAll: ix.baseAll, keys: ix.keys, facets: ix.facets, trigrams: ix.trigrams,
		salary: ix.salary, orders: ix.orders,
		byID: ix.byID, idsByteOrdered: ix.idsByteOrdered, companyPos: ix.companyPos,
		companies: ix.companies[:dl.baseCompanies:dl.baseCompanies],
	}
	for _, c := range dl.companies {
		nx.companies = append(nx.companies, c)
	}
	k := uint32(len(dl.docs))
	nx.all = ix.baseAll.Clone()
	nx.all.AndNot(dl.deleted)
	nx.all.AddRange(uint64(dl.first), uint64(dl.first+k))
	nx.all.RunOptimize()
	dl.live = uint32(nx.all.GetCardinality())

	dl.index(ix.histRate)
	dl.order()
	dl.fieldsOf(ix)
	dl.countCompanies(ix)
	dl.countGone(ix)
	if err := dl.collate(ix, prev, collate); err != nil {
		return nil, err
	}
	return nx, nil
}

// baseDoc returns the base's job of id, removed or not.
func (ix *Index) baseDoc(id string) (uint32, bool) {
	i := sort.Search(len(ix.byID), func(i int) bool { return ix.id(ix.byID[i]) >= id })
	if i < len(ix.byID) && ix.id(ix.byID[i]) == id {
		return ix.byID[i], true
	}
	return 0, false
}

// baseCompanies is the number of the base's companies: the first ones of
// Index.companies.
func (ix *Index) baseCompanies() int { return len(ix.facets[domain.FacetCompany].values) }

// addCompanies places the companies the base lacks: kept are the earlier
// applies' (rows), then given's, then those the jobs name without a row.
func (dl *delta) addCompanies(ix *Index, rows, given []Company) {
	have := map[int64]bool{}
	for _, c := range rows {
		have[c.ID] = true
	}
	add := func(c Company) {
		if _, inBase := ix.companyPos[c.ID]; !inBase && !have[c.ID] {
			have[c.ID] = true
			rows = append(rows, c)
		}
	}
	for _, c := range given {
		add(c)
	}
	for _, d := range dl.docs {
		add(Company{ID: d.CompanyID})
	}
	slices.SortFunc(rows, func(a, b Company) int { return cmp.Compare(a.ID, b.ID) })
	dl.companyPos = make(map[int64]int32, len(rows))
	for i, r := range rows {
		c := &company{id: r.ID, lower: strings.ToLower(r.Name), logo: r.LogoURL, slug: r.Slug,
			value: value{name: r.Name, docs: roaring.New()}}
		dl.companies = append(dl.companies, c)
		dl.companyPos[r.ID] = int32(dl.baseCompanies + i)
	}
}

// index makes the delta's bitmaps: by key, salary bucket (of salaries
// times histRate, as the base's) and company.
func (dl *delta) index(histRate float64) {
	dl.keys = map[string]*roaring.Bitmap{}
	dl.salary = make([]*roaring.Bitmap, SalaryBuckets+1)
	for i := range dl.salary {
		dl.salary[i] = roaring.New()
	}
	for i := range dl.docs {
		d, doc := &dl.docs[i], dl.first+uint32(i)
		for _, k := range d.Keys {
			addTo(dl.keys, k, doc)
		}
		if !math.IsNaN(d.SalaryMax) {
			dl.salary[SalaryBucket(d.SalaryMin*histRate, d.SalaryMax*histRate)].Add(doc)
		}
	}
}

// order sorts the delta's jobs in each keyset order, by key then id.
func (dl *delta) order() {
	dl.orders = make(map[domain.JobSort]*deltaOrder, len(sorts))
	k := len(dl.docs)
	for _, s := range sorts {
		o := &deltaOrder{docs: make([]uint32, k), rank: make([]uint32, k), keys: make([]float64, k)}
		for i := range dl.docs {
			d := &dl.docs[i]
			o.docs[i], o.keys[i] = uint32(i), sortKey(s, d.Posted, d.SalaryMin, d.SalaryMax)
		}
		desc := sortDesc(s)
		slices.SortFunc(o.docs, func(x, y uint32) int {
			c := cmp.Compare(o.keys[x], o.keys[y])
			if desc {
				c = -c
			}
			if c != 0 {
				return c
			}
			return strings.Compare(dl.docs[x].ID, dl.docs[y].ID)
		})
		for pos, i := range o.docs {
			o.rank[i] = uint32(pos)
		}
		dl.orders[s] = o
	}
}

// fieldsOf makes the delta's facet fields, the company one included.
func (dl *delta) fieldsOf(ix *Index) {
	dl.fields = map[string]*deltaField{}
	local := map[string]map[string]int32{} // by field, the local value of a name
	for i := range dl.docs {
		for field := range dl.docs[i].Facets {
			if dl.fields[field] == nil && field != domain.FacetCompany {
				dl.fields[field] = &deltaField{offsets: make([]uint32, 1, len(dl.docs)+1)}
				local[field] = map[string]int32{}
			}
		}
	}
	for field, df := range dl.fields {
		fc, byName := ix.facets[field], local[field]
		for i := range dl.docs {
			for _, name := range dl.docs[i].Facets[field] {
				v, ok := byName[name]
				if !ok {
					v = int32(len(df.names))
					byName[name] = v
					base := int32(-1)
					if p, inBase := fc.position(name); inBase {
						base = p
					}
					df.names, df.base = append(df.names, name), append(df.base, base)
				}
				df.vals = append(df.vals, v)
			}
			df.offsets = append(df.offsets, uint32(len(df.vals)))
		}
	}
	companies := &deltaField{offsets: make([]uint32, 1, len(dl.docs)+1)}
	byPos := map[int32]int32{}
	dl.owner = make([]int32, len(dl.docs))
	for i := range dl.docs {
		pos := ix.companyPos[dl.docs[i].CompanyID]
		if p, ok := dl.companyPos[dl.docs[i].CompanyID]; ok {
			pos = p
		}
		dl.owner[i] = pos
		v, ok := byPos[pos]
		if !ok {
			v = int32(len(companies.names))
			byPos[pos] = v
			c, base := dl.companyAt(ix, pos), pos
			if int(pos) >= dl.baseCompanies {
				base = -1
			}
			companies.names, companies.base = append(companies.names, c.name), append(companies.base, base)
			companies.pos = append(companies.pos, pos)
		}
		companies.vals = append(companies.vals, v)
		companies.offsets = append(companies.offsets, uint32(len(companies.vals)))
	}
	dl.fields[domain.FacetCompany] = companies
	for _, df := range dl.fields {
		df.counts = make([]uint32, len(df.names))
		for _, v := range df.vals {
			df.counts[v]++
		}
		df.most = slices.Max(append(df.counts, 0))
		for v, p := range df.base {
			if p >= 0 {
				df.byBase = append(df.byBase, int32(v))
			}
		}
		slices.SortFunc(df.byBase, func(a, b int32) int { return cmp.Compare(df.base[a], df.base[b]) })
	}
}

// position returns the position of the value named name in the facet.
func (fc *facet) position(name string) (int32, bool) {
	if fc == nil {
		return 0, false
	}
	p, ok := fc.pos[name]
	return p, ok
}

// companyAt returns the company at position pos of the layered index.
func (dl *delta) companyAt(ix *Index, pos int32) *company {
	if int(pos) < dl.baseCompanies {
		return ix.companies[pos]
	}
	return dl.companies[int(pos)-dl.baseCompanies]
}

// countCompanies makes each company's delta jobs and live count.
func (dl *delta) countCompanies(ix *Index) {
	dl.companyDocs = map[int32]*roaring.Bitmap{}
	for i, pos := range dl.owner {
		doc := dl.first + uint32(i)
		if int(pos) >= dl.baseCompanies {
			dl.companies[int(pos)-dl.baseCompanies].docs.Add(doc)
			continue
		}
		addTo(dl.companyDocs, pos, doc)
	}
	for _, c := range dl.companies {
		c.n = c.docs.GetCardinality()
	}
	fwd := ix.facets[domain.FacetCompany].fwd
	if fwd == nil || !fwd.singleOnly() {
		return
	}
	dl.companyAdjust = map[int32]int64{}
	dl.deleted.Iterate(func(d uint32) bool {
		if c := fwd.single[d]; c != 0 {
			dl.companyAdjust[int32(c-1)]--
		}
		return true
	})
	for pos, bm := range dl.companyDocs {
		dl.companyAdjust[pos] += int64(bm.GetCardinality())
	}
}

// collate ranks the names of the fields with values or companies the base
// lacks, reusing prev's ranks when they place every one of them.
func (dl *delta) collate(ix *Index, prev *delta, sortNames func([]string) ([]string, error)) error {
	novel := map[string][]string{} // by field, the names of values the base lacks
	for field, df := range dl.fields {
		for v, base := range df.base {
			if base < 0 && field != domain.FacetCompany {
				novel[field] = append(novel[field], df.names[v])
			}
		}
	}
	for _, c := range dl.companies {
		novel[domain.FacetCompany] = append(novel[domain.FacetCompany], c.name)
	}
	placed := true
	for field, names := range novel {
		for _, name := range names {
			if _, ok := prev.rankOf(field, name); !ok {
				placed = false
			}
		}
	}
	if placed {
		if len(novel) > 0 {
			dl.rank, dl.ranked = prev.rank, prev.ranked
		}
		return nil
	}
	// One call ranks every field with new names: its names and the base's.
	dl.ranked = map[string]bool{}
	seen := map[string]bool{}
	var names []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	for field, novelNames := range novel {
		dl.ranked[field] = true
		for _, s := range novelNames {
			add(s)
		}
		if fc := ix.facets[field]; fc != nil {
			for _, v := range fc.values {
				add(v.name)
			}
		}
	}
	sorted, err := sortNames(names)
	if err != nil {
		return fmt.Errorf("collate: %w", err)
	}
	if len(sorted) != len(names) {
		return fmt.Errorf("collate: %d names sorted as %d", len(names), len(sorted))
	}
	dl.rank = make(map[string]int, len(sorted))
	for i, s := range sorted {
		if !seen[s] {
			return fmt.Errorf("collate: %q was not given", s)
		}
		dl.rank[s] = i
	}
	return nil
}

// rankOf returns name's rank when the delta ranks field.
func (dl *delta) rankOf(field, name string) (int, bool) {
	if dl == nil || !dl.ranked[field] {
		return 0, false
	}
	r, ok := dl.rank[name]
	return r, ok
}

// collateOf is the place of base value v of field in the collation.
func (dl *delta) collateOf(field string, v *value) int {
	if r, ok := dl.rankOf(field, v.name); ok {
		return r
	}
	return v.collate
}

// sizeInBytes estimates the delta's memory.
func (dl *delta) sizeInBytes() uint64 {
	n := dl.deleted.GetSizeInBytes() + uint64(len(dl.docs))*(100+4+3*4*uint64(len(sorts)))
	for _, b := range dl.keys {
		n += b.GetSizeInBytes()
	}
	for _, df := range dl.fields {
		n += 4 * uint64(len(df.offsets)+len(df.vals))
	}
	return n
}
