package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/graph/model"
	"github.com/jobsd-dev/jobsd/index"
)

// facetColumns says where each facet field's values are: an array column
// (unnested) or a scalar one.
var facetColumns = map[string]struct {
	column string
	array  bool
}{
	model.FieldWorkArrangement:    {"j.work_arrangement", false},
	model.FieldEmploymentType:     {"j.employment_type", false},
	model.FieldCategoryField:      {"j.category_field", false},
	model.FieldCategoryRole:       {"j.category_role", false},
	model.FieldSkills:             {"j.skills", true},
	model.FieldEducationLevels:    {"j.education_levels", true},
	model.FieldVisas:              {"j.visa_sponsorship", true},
	model.FieldSecurityClearances: {"j.security_clearances", true},
	model.FieldCountry:            {"j.location_country", true},
	model.FieldState:              {"j.location_state", true},
	model.FieldCity:               {"j.location_city", true},
}

// Facets counts the jobs matching q by the values of each field, the top
// limit values most first (then by value). Counting a field leaves out that
// field's own filter (disjunctive faceting): with remote chosen, the
// work-arrangement facet still shows how many hybrid jobs there are.
func (s *Store) Facets(ctx context.Context, q model.JobQuery, fields []string, limit int) ([]model.Facet, error) {
	if ix := s.index.index(); ix != nil {
		if out, ok := ix.Facets(q, fields, limit); ok {
			err := s.read(ctx, func(db bun.IDB) error { return s.checkVersion(ctx, db, ix.Version()) })
			switch {
			case err == nil:
				s.index.answered.Add(1)
				return out, nil
			case !errors.Is(err, errStale):
				return nil, err
			}
			s.index.stale()
		}
	}
	out := make([]model.Facet, 0, len(fields))
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

func facet(ctx context.Context, db bun.IDB, q model.JobQuery, field string, limit int) (model.Facet, error) {
	f := model.Facet{Field: model.FacetField(field), Values: []model.FacetValue{}}
	sq := db.NewSelect().Model((*cardRow)(nil)).Apply(applyFilters(q))
	switch col, known := facetColumns[field]; {
	case field == model.FacetSalary:
		var rows []struct {
			Bucket int `bun:"bucket"`
			Count  int `bun:"count"`
		}
		// index.SalaryBucket's arithmetic, to the bit.
		err := sq.ColumnExpr("least(greatest(floor((coalesce(j.salary_annual_min, j.salary_annual_max) + j.salary_annual_max) / 2 / ?), 0), ?)::int AS bucket, count(*) AS count",
			index.SalaryBucketWidth, index.SalaryBuckets).
			Where("j.salary_annual_max IS NOT NULL").GroupExpr("bucket").OrderExpr("bucket").Scan(ctx, &rows)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return f, wrap(err, "count salaries")
		}
		counts := make([]int, index.SalaryBuckets+1)
		for _, r := range rows {
			counts[min(max(r.Bucket, 0), index.SalaryBuckets)] += r.Count
		}
		for i, n := range counts {
			b := model.SalaryBucket{Min: float64(i * index.SalaryBucketWidth), Count: n}
			if i < index.SalaryBuckets {
				top := float64((i + 1) * index.SalaryBucketWidth)
				b.Max = &top
			}
			f.Buckets = append(f.Buckets, b)
		}
		return f, nil
	case field == model.FacetCompany:
		sq = sq.ColumnExpr("c.name AS value, count(*) AS count").Join("JOIN companies AS c ON c.id = j.company_id").
			GroupExpr("c.id, c.name")
	case known && col.array:
		sq = sq.ColumnExpr("v AS value, count(*) AS count").Join("CROSS JOIN LATERAL unnest(" + col.column + ") AS v").GroupExpr("v")
	case known:
		sq = sq.ColumnExpr(col.column + " AS value, count(*) AS count").Where(col.column + " IS NOT NULL").GroupExpr(col.column)
	default:
		return f, model.InvalidParam("facets", "no facet %s", model.Clip(field))
	}
	err := sq.OrderExpr("count DESC").OrderExpr("value ASC").Limit(int64(limit)).Scan(ctx, &f.Values)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return f, wrap(err, "count "+field)
	}
	if f.Values == nil {
		f.Values = []model.FacetValue{}
	}
	return f, nil
}
