package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// facetColumns says where each facet field's values are: an array column
// (unnested) or a scalar one.
var facetColumns = map[string]struct {
	column string
	array  bool
}{
	domain.FieldWorkArrangement:    {"j.work_arrangement", false},
	domain.FieldEmploymentType:     {"j.employment_type", false},
	domain.FieldCategoryField:      {"j.category_field", false},
	domain.FieldCategoryRole:       {"j.category_role", false},
	domain.FieldSkills:             {"j.skills", true},
	domain.FieldEducationLevels:    {"j.education_levels", true},
	domain.FieldVisas:              {"j.visa_sponsorship", true},
	domain.FieldSecurityClearances: {"j.security_clearances", true},
	domain.FieldCountry:            {"j.location_country", true},
	domain.FieldState:              {"j.location_state", true},
	domain.FieldCity:               {"j.location_city", true},
}

// Facets counts the jobs matching q by the values of each field, the top
// limit values most first (then by value). Counting a field leaves out that
// field's own filter (disjunctive faceting): with remote chosen, the
// work-arrangement facet still shows how many hybrid jobs there are.
func (s *Store) Facets(ctx context.Context, q domain.JobQuery, fields []string, limit int) ([]domain.Facet, error) {
	if ix := s.currentIndex(ctx); ix != nil {
		if out, ok := ix.Facets(q, fields, limit); ok {
			s.index.answered.Add(1)
			return out, nil
		}
	}
	out := make([]domain.Facet, 0, len(fields))
	// Every field's counts are of one snapshot (one statement needs no
	// transaction for that).
	read := s.read
	if len(fields) > 1 {
		read = s.readSnapshot
	}
	err := read(ctx, func(db bun.IDB) error {
		out = out[:0]
		for _, field := range fields {
			f, err := facet(ctx, db, q.Without(field), field, limit)
			if err != nil {
				return err
			}
			out = append(out, f)
		}
		return nil
	})
	return out, err
}

func facet(ctx context.Context, db bun.IDB, q domain.JobQuery, field string, limit int) (domain.Facet, error) {
	f := domain.Facet{Field: domain.FacetField(field), Values: []domain.FacetValue{}}
	sq := db.NewSelect().Model((*cardRow)(nil)).Apply(applyFilters(q))
	switch col, known := facetColumns[field]; {
	case field == domain.FacetSalary:
		var rows []struct {
			Bucket int `bun:"bucket"`
			Count  int `bun:"count"`
		}
		bucket, where, args := salaryHistogramSQL(q.Currency, index.SalaryBucketWidth, index.SalaryBuckets)
		sq = sq.ColumnExpr(bucket+" AS bucket, count(*) AS count", args[:2]...)
		if rest := args[2:]; len(rest) > 0 {
			sq = sq.Where(where, rest...)
		} else {
			sq = sq.Where(where) // bun warns of arguments without placeholders
		}
		err := sq.GroupExpr("bucket").OrderExpr("bucket").Scan(ctx, &rows)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return f, wrap(err, "count salaries")
		}
		counts := make([]int, index.SalaryBuckets+1)
		for _, r := range rows {
			counts[min(max(r.Bucket, 0), index.SalaryBuckets)] += r.Count
		}
		for i, n := range counts {
			b := domain.SalaryBucket{Min: float64(i * index.SalaryBucketWidth), Count: n}
			if i < index.SalaryBuckets {
				top := float64((i + 1) * index.SalaryBucketWidth)
				b.Max = &top
			}
			f.Buckets = append(f.Buckets, b)
		}
		return f, nil
	case field == domain.FacetCompany:
		sq = sq.ColumnExpr("c.name AS value, count(*) AS count").Join("JOIN companies AS c ON c.id = j.company_id").
			GroupExpr("c.id, c.name")
	case known && col.array:
		sq = sq.ColumnExpr("v AS value, count(*) AS count").Join("CROSS JOIN LATERAL unnest(" + col.column + ") AS v").GroupExpr("v")
	case known:
		sq = sq.ColumnExpr(col.column + " AS value, count(*) AS count").Where(col.column + " IS NOT NULL").GroupExpr(col.column)
	default:
		return f, domain.InvalidParam("facets", "no facet %s", domain.Clip(field))
	}
	err := sq.OrderExpr("count DESC").OrderExpr("value ASC").Limit(int64(limit)).Scan(ctx, &f.Values)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return f, wrap(err, "count "+field)
	}
	if f.Values == nil {
		f.Values = []domain.FacetValue{}
	}
	return f, nil
}
