package store

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// SuggestAt returns the feed position a suggestion request reads at
// least (-1 without an index): its one check of the database's position.
// The other Suggest methods take it, and read an index that has it.
func (s *Store) SuggestAt(ctx context.Context) int64 {
	if ix := s.currentIndex(ctx); ix != nil {
		return ix.Version()
	}
	return -1
}

// indexAt returns the current index if it has the changes up to at (nil
// when at is -1: no index; the database answers).
func (s *Store) indexAt(ctx context.Context, at int64) *index.Index {
	if at < 0 {
		return nil
	}
	if ix := s.index.index(); ix != nil && ix.Version() >= at {
		return ix
	}
	return s.currentIndex(ctx)
}

// SQLSuggestValues is how many suggested values are counted in SQL, where
// the index cannot count them (a keyword search or title words among the
// filters): the first of the values given.
const SQLSuggestValues = 64

// SuggestCounts counts suggested values (index.TopCounts): for each of
// values, the jobs matching it and base, for at least the values with the
// k largest counts; -1 for a value not counted.
func (s *Store) SuggestCounts(ctx context.Context, at int64, base domain.JobQuery, values []*domain.ValueFilter, k int) ([]int, error) {
	if ix := s.indexAt(ctx, at); ix != nil {
		if counts, ok := ix.TopCounts(base, values, k); ok {
			s.index.answered.Add(1)
			return counts, nil
		}
	}
	counts := make([]int, len(values))
	for i := range counts {
		counts[i] = -1
	}
	err := s.readSnapshot(ctx, func(db bun.IDB) error {
		for i, v := range values[:min(len(values), SQLSuggestValues)] {
			n, err := db.NewSelect().Model((*cardRow)(nil)).Apply(applyFilters(base)).Apply(applyFilters(v.Query())).Count(ctx)
			if err != nil {
				return wrap(err, "count a suggestion")
			}
			counts[i] = int(n)
		}
		return nil
	})
	return counts, err
}

// SuggestCompanies returns the names of the companies to suggest (some
// perhaps without an open job: they count 0), unless they are those of
// known: the key of the index's list (index.CompaniesKey) that the caller
// has. Without an index the names are read from the database, every time.
func (s *Store) SuggestCompanies(ctx context.Context, at int64, known index.CompaniesKey) ([]string, index.CompaniesKey, bool, error) {
	if ix := s.indexAt(ctx, at); ix != nil {
		if key := ix.CompaniesKey(); key != known {
			return ix.CompanyNames(), key, true, nil
		}
		return nil, known, false, nil
	}
	var names []string
	err := s.read(ctx, func(db bun.IDB) error {
		return db.NewRaw("SELECT name FROM companies ORDER BY name").Scan(ctx, &names)
	})
	return names, index.CompaniesKey{}, true, wrap(err, "read the companies")
}

// SuggestPresent reports which of values may select a job of the current
// index (index.Index.Present), with the key of its set of keys, unless
// that key is known (changed false). Without an index ok is false: every
// value may.
func (s *Store) SuggestPresent(ctx context.Context, at int64, known index.KeysKey, values []*domain.ValueFilter) (present []bool, key index.KeysKey, changed, ok bool) {
	ix := s.indexAt(ctx, at)
	if ix == nil {
		return nil, known, false, false
	}
	if key = ix.KeysKey(); key == known {
		return nil, key, false, true
	}
	return ix.Present(values), key, true, true
}
