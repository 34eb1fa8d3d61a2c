package store

import (
	"database/sql"
	"testing"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/domain"
)

// BenchmarkBuildFindJobCardsSQL measures writing the SQL of a four-filter
// job list (no database: bun only renders the query).
func BenchmarkBuildFindJobCardsSQL(b *testing.B) {
	db := bun.NewDB(&sql.DB{}, pgdialect.New())
	lo, hi := 100000.0, 150000.0
	q := domain.JobQuery{
		Filters: []domain.KeyFilter{
			{Field: domain.FieldSkills, Keys: []string{"skills:go", "skills:python"}},
			{Field: domain.FieldCountry, Keys: []string{"country:united states"}},
			{Field: domain.FieldWorkArrangement, Keys: []string{"work_arrangement:remote"}},
			{Field: domain.FieldEmploymentType, Keys: []string{"employment_type:full-time"}},
		},
		Company: "acme", SalaryMin: &lo, SalaryMax: &hi, Sort: domain.JobSortNewest, Limit: 25,
	}
	ord := orders[q.Sort]
	for b.Loop() {
		sq := db.NewSelect().Model((*cardRow)(nil)).Column(cardColumns...).Apply(applyFilters(q)).
			ColumnExpr(ord.key + " AS " + ord.column).OrderExpr(ord.key + " DESC").OrderExpr("j.id ASC").Limit(int64(q.Limit))
		if len(sq.String()) == 0 {
			b.Fatal("no SQL")
		}
	}
}
