// Tests of Apply: a layered index answers every query as a fresh build over the same jobs.

package index_test

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// world is the jobs and company rows an index should hold.
type world struct {
	r         *rand.Rand
	docs      map[string]*index.Doc
	companies map[int64]index.Company
	nextID    int
	// rates are the currency rates the indexes are built at (nil: none,
	// in the worlds of odd seeds).
	rates *currency.Rates
}

// worldCurrencies are the salaries' currencies: CHF has no rate at
// worldRates, "" is a salary without one.
var worldCurrencies = []string{"USD", "USD", "USD", "GBP", "JPY", "CHF", ""}

// worldRates: 1 EUR = 1.25 USD = 160 JPY = 0.8 GBP.
var worldRates = func() *currency.Rates {
	r, err := currency.Parse(strings.NewReader("Date,USD,JPY,GBP\n2026-04-13,1.25,160,0.8\n"))
	if err != nil {
		panic(err)
	}
	return r
}()

// inIndex is a doc's salary bound as the index keeps it (in euros at
// rates; the sort's stand-in when unknown or without a rate).
func inIndex(v float64, d *index.Doc, rates *currency.Rates, unknown float64) float64 {
	if rates != nil {
		r, ok := rates.Rate(d.Currency)
		if !ok {
			return unknown
		}
		v /= r
	}
	if math.IsNaN(v) {
		return unknown
	}
	return v
}

// collation orders names case-insensitively first: not the byte order, so
// that the tests see which one is used.
func collation(names []string) ([]string, error) {
	out := slices.Clone(names)
	slices.SortFunc(out, func(a, b string) int {
		if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out, nil
}

var arrangements = []string{"onsite", "Hybrid", "remote"}

func (w *world) newID() string {
	w.nextID++
	// Ids of varying length, so that byte order is not numeric order.
	return fmt.Sprintf("j%d-%s", w.r.IntN(50), strings.Repeat("x", w.r.IntN(3))) + fmt.Sprint(w.nextID)
}

func (w *world) newCompany() index.Company {
	id := int64(len(w.companies) + 1)
	names := []string{"acme", "Globex", "initech", "Umbrella", "stark", "Wayne", "Cyberdyne", "tyrell"}
	c := index.Company{ID: id, Name: fmt.Sprintf("%s %d", names[w.r.IntN(len(names))], id), Slug: fmt.Sprint("c-", id)}
	if w.r.IntN(2) == 0 {
		logo := "https://logo/" + c.Slug
		c.LogoURL = &logo
	}
	w.companies[id] = c
	return c
}

// newDoc makes a job of a random company among the first companies, with
// a few new values when fresh.
func (w *world) newDoc(id string, companies int, fresh bool) *index.Doc {
	r := w.r
	d := &index.Doc{ID: id, Posted: int64(1_700_000_000_000_000 + r.IntN(40)*1_000_000), Dated: r.IntN(10) > 0,
		CompanyID: int64(1 + r.IntN(companies)), SalaryMin: math.NaN(), SalaryMax: math.NaN()}
	if r.IntN(3) > 0 {
		d.SalaryMax = float64(20000 + 10000*r.IntN(30))
		if r.IntN(4) > 0 {
			d.SalaryMin = d.SalaryMax - float64(10000*r.IntN(3))
		}
		if d.Currency = worldCurrencies[r.IntN(len(worldCurrencies))]; d.Currency != "" {
			d.Keys = append(d.Keys, domain.CurrencyKey(d.Currency))
		}
	} else {
		d.Keys = append(d.Keys, domain.NoSalaryKey)
	}
	city := fmt.Sprintf("City %d", int(math.Sqrt(float64(r.IntN(400)))))
	if r.IntN(2) == 0 {
		city = strings.ToLower(city)
	}
	if fresh && r.IntN(3) == 0 {
		city = fmt.Sprintf("New city %d", r.IntN(5))
	}
	arr := arrangements[r.IntN(len(arrangements))]
	skills := []string{fmt.Sprintf("Skill %d", r.IntN(6))}
	if r.IntN(2) == 0 {
		skills = append(skills, fmt.Sprintf("skill %d", 6+r.IntN(15)))
	}
	d.Facets = map[string][]string{"city": {city}, "work_arrangement": {arr}, "skills": skills}
	if r.IntN(8) == 0 {
		d.Facets["city"] = nil // a job without a city
	}
	for field, vs := range d.Facets {
		for _, v := range vs {
			d.Keys = append(d.Keys, field+":"+strings.ToLower(v))
		}
	}
	return d
}

// build is a fresh index over the world.
func (w *world) build(t testing.TB, version int64) *index.Index {
	docs := slices.Collect(maps.Values(w.docs))
	slices.SortFunc(docs, func(a, b *index.Doc) int {
		if c := cmp.Compare(b.Posted, a.Posted); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	b := index.NewBuilder(version)
	b.SetRates(w.rates)
	for _, c := range w.companies {
		b.AddCompany(c.ID, c.Name, c.LogoURL, c.Slug)
	}
	byID := map[string]uint32{}
	for i, d := range docs {
		b.Add(d)
		byID[d.ID] = uint32(i)
	}
	ids := slices.Sorted(maps.Keys(byID))
	for rank, id := range ids {
		b.SetIDRank(byID[id], uint32(rank))
	}
	names, err := collation(b.Names())
	require.NoError(t, err)
	return b.Build(names)
}

// change makes a random batch of writes and applies it to the world.
func (w *world) change() index.Change {
	r := w.r
	var ch index.Change
	ids := slices.Sorted(maps.Keys(w.docs))
	var fresh []index.Company
	for range r.IntN(3) {
		fresh = append(fresh, w.newCompany())
	}
	companies := len(w.companies)
	for range r.IntN(15) { // removals, some of unknown ids
		if len(ids) > 0 && r.IntN(6) > 0 {
			id := ids[r.IntN(len(ids))]
			ch.Remove = append(ch.Remove, id)
			delete(w.docs, id)
		} else {
			ch.Remove = append(ch.Remove, "unknown-"+fmt.Sprint(r.IntN(1000)))
		}
	}
	if r.IntN(3) == 0 { // every job of one company goes
		c := int64(1 + r.IntN(companies))
		for _, id := range ids {
			if d := w.docs[id]; d != nil && d.CompanyID == c {
				ch.Remove = append(ch.Remove, id)
				delete(w.docs, id)
			}
		}
	}
	for range r.IntN(25) { // additions and replacements
		id := w.newID()
		if len(ids) > 0 && r.IntN(3) == 0 {
			id = ids[r.IntN(len(ids))]
		}
		d := w.newDoc(id, companies, true)
		ch.Add = append(ch.Add, d)
		w.docs[id] = d
	}
	ch.Companies = fresh
	if r.IntN(3) == 0 {
		ch.Companies = append(ch.Companies, w.companies[1]) // a known one: kept as it is
	}
	return ch
}

// query makes a random query over the world.
func (w *world) query() domain.JobQuery {
	r := w.r
	q := domain.JobQuery{Sort: []domain.JobSort{domain.JobSortNewest, domain.JobSortOldest, domain.JobSortSalaryDesc,
		domain.JobSortSalaryAsc}[r.IntN(4)], Limit: 1 + r.IntN(30),
		Currency: domain.SalaryCurrency{Code: worldCurrencies[r.IntN(5)], Rates: w.rates}}
	if r.IntN(3) == 0 {
		q.Offset = r.IntN(60)
	}
	for range r.IntN(3) {
		switch r.IntN(3) {
		case 0:
			a := arrangements[r.IntN(3)]
			q.Filters = append(q.Filters, domain.KeyFilter{Field: "work_arrangement", Keys: []string{"work_arrangement:" + strings.ToLower(a)}})
		case 1:
			q.Filters = append(q.Filters, domain.KeyFilter{Field: "city", Keys: []string{
				fmt.Sprintf("city:city %d", r.IntN(20)), fmt.Sprintf("city:new city %d", r.IntN(5))}})
		default:
			q.Filters = append(q.Filters, domain.KeyFilter{Field: "skills", All: r.IntN(2) == 0, Keys: []string{
				fmt.Sprintf("skills:skill %d", r.IntN(6)), fmt.Sprintf("skills:skill %d", 6+r.IntN(15))}})
		}
	}
	if r.IntN(4) == 0 {
		c := w.companies[int64(1+r.IntN(len(w.companies)))]
		start := r.IntN(len(c.Name))
		q.Company = strings.ToUpper(c.Name[start:min(len(c.Name), start+1+r.IntN(6))])
	}
	if r.IntN(8) == 0 {
		id := int64(1 + r.IntN(len(w.companies)+1))
		q.CompanyID = &id
	}
	if r.IntN(4) == 0 {
		lo, hi := float64(10000*r.IntN(35)), float64(10000*r.IntN(35))
		if r.IntN(3) > 0 {
			q.SalaryMin = &lo
		}
		if r.IntN(2) == 0 {
			q.SalaryMax = &hi
		}
		q.IncludeUnknownSalary = r.IntN(2) == 0
		if q.SalaryMin == nil && q.SalaryMax == nil {
			q.SalaryMin = &lo
		}
	}
	if r.IntN(6) == 0 {
		t := time.UnixMicro(int64(1_700_000_000_000_000 + r.IntN(40)*1_000_000))
		q.PostedAfter = &t
	}
	return q
}

// cursor is the cursor after job d in order s.
func cursor(d *index.Doc, s domain.JobSort, rates *currency.Rates) *domain.Cursor {
	c := &domain.Cursor{Sort: s, ID: d.ID, Time: time.UnixMicro(d.Posted)}
	switch s {
	case domain.JobSortSalaryDesc:
		c.Number = inIndex(d.SalaryMax, d, rates, -1)
	case domain.JobSortSalaryAsc:
		c.Number = inIndex(d.SalaryMin, d, rates, 1e15)
	}
	return c
}

// same checks that got answers as want, the fresh build, for many queries.
// gone are jobs no longer in the world, for cursors naming them.
func (w *world) same(t *testing.T, want, got *index.Index, gone []*index.Doc) {
	t.Helper()
	require.Equal(t, want.Len(), got.Len(), "Len")
	fields := []string{"city", "work_arrangement", "skills", domain.FacetCompany, domain.FacetSalary}
	for range 150 {
		q := w.query()
		wp, wok := want.Search(q)
		gp, gok := got.Search(q)
		require.Equal(t, wok, gok)
		require.Equal(t, wp, gp, "%+v", q)
		// Cursors: after the page's last job, after a job gone.
		if len(wp.IDs) > 0 {
			c := cursor(w.docs[wp.IDs[len(wp.IDs)-1]], q.Sort, w.rates)
			q.After, q.Offset = c, 0
			wp, wok = want.Search(q)
			gp, gok = got.Search(q)
			require.True(t, wok)
			require.Equal(t, wok, gok)
			require.Equal(t, wp, gp, "after %+v", c)
		}
		if len(gone) > 0 {
			q.After = cursor(gone[w.r.IntN(len(gone))], q.Sort, w.rates)
			_, gok = got.Search(q)
			assert.False(t, gok, "a cursor of a job gone")
			q.After = nil
		}
		limit := 1 + w.r.IntN(8)
		wf, _ := want.Facets(q, fields, limit)
		gf, _ := got.Facets(q, fields, limit)
		require.Equal(t, wf, gf, "facets of %+v", q)
		minJobs, offset := 1+w.r.IntN(3), w.r.IntN(5)
		if w.r.IntN(3) == 0 {
			q = domain.JobQuery{Sort: domain.JobSortNewest}
		}
		wc, wn, _ := want.Companies(q, minJobs, 20, offset)
		gc, gn, _ := got.Companies(q, minJobs, 20, offset)
		require.Equal(t, wn, gn, "companies of %+v", q)
		require.Equal(t, wc, gc, "companies of %+v", q)
	}
}

func newWorld(seed uint64, jobs, companies int) *world {
	w := &world{r: rand.New(rand.NewPCG(seed, 1)), docs: map[string]*index.Doc{}, companies: map[int64]index.Company{}}
	if seed%2 == 0 {
		w.rates = worldRates
	}
	for range companies {
		w.newCompany()
	}
	for range jobs {
		id := w.newID()
		w.docs[id] = w.newDoc(id, companies, false)
	}
	return w
}

// TestApplyAnswersAsAFreshBuild: batches applied one over the other answer
// every query as a fresh build over the same jobs, and leave the indexes
// they were applied to as they were.
func TestApplyAnswersAsAFreshBuild(t *testing.T) {
	for seed, size := range []struct{ jobs, companies int }{{600, 30}, {300, 5}, {2000, 60}, {40, 3}} {
		t.Run(fmt.Sprint(size.jobs, " jobs ", size.companies, " companies"), func(t *testing.T) {
			w := newWorld(uint64(seed), size.jobs, size.companies)
			base := w.build(t, 1)
			before := maps.Clone(w.docs)
			ix := base
			for version := int64(2); version < 10; version++ {
				prev := maps.Clone(w.docs)
				ch := w.change()
				var err error
				calls := 0
				ix, err = ix.Apply(version, ch, func(names []string) ([]string, error) {
					calls++
					return collation(names)
				})
				require.NoError(t, err)
				assert.LessOrEqual(t, calls, 1)
				assert.Equal(t, version, ix.Version())
				assert.Positive(t, ix.DeltaLen())
				var gone []*index.Doc
				for id, d := range prev {
					if _, ok := w.docs[id]; !ok {
						gone = append(gone, d)
					}
				}
				w.same(t, w.build(t, version), ix, gone)
			}
			// The base is as it was.
			now := w.docs
			w.docs = before
			w.same(t, w.build(t, 1), base, nil)
			w.docs = now
		})
	}
}

// TestApplyCollatesOnlyNewNames: a batch of jobs of known values and
// companies does not call collate.
func TestApplyCollatesOnlyNewNames(t *testing.T) {
	w := newWorld(9, 500, 20)
	ix := w.build(t, 1)
	d := w.newDoc("j-known", 20, false)
	d.Facets = map[string][]string{"work_arrangement": {"remote"}}
	d.Keys = []string{"work_arrangement:remote"}
	called := false
	next, err := ix.Apply(2, index.Change{Add: []*index.Doc{d}}, func(names []string) ([]string, error) {
		called = true
		return names, nil
	})
	require.NoError(t, err)
	assert.False(t, called)
	assert.Equal(t, ix.Len()+1, next.Len())
	assert.Equal(t, 1, next.DeltaLen())
}

func TestApplyNeedsByteOrderedIDs(t *testing.T) {
	b := index.NewBuilder(1)
	for i, id := range []string{"src-9", "src-10"} { // ranked numerically
		b.Add(&index.Doc{ID: id, Facets: map[string][]string{}})
		b.SetIDRank(uint32(i), uint32(i))
	}
	ix := b.Build(b.Names())
	_, err := ix.Apply(2, index.Change{Remove: []string{"src-9"}}, collation)
	assert.ErrorIs(t, err, index.ErrIDOrder)
}
