// The jobs as changes left them: the subscriptions judge each change by
// the job just before and just after it, and send the card it left, even
// when they read the change after later ones.

package store

import (
	"context"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// changeDocsQuery reads the index's doc of the job each change of $1
// found open (its before), with its company's name.
const changeDocsQuery = `SELECT c.seq, coalesce((SELECT co.name FROM companies AS co WHERE co.id = j.company_id), ''), ` + docColumns + `
FROM job_changes AS c CROSS JOIN LATERAL (SELECT (c.before).*) AS j
WHERE c.seq = ANY($1::bigint[]) AND (c.before).id IS NOT NULL`

// Found is the job a change found open: the index's doc of it, and its
// company's name.
type Found struct {
	Doc     *index.Doc
	Company string
}

// ChangeDocs returns, by change number, the job each change of seqs found
// open: the job just before that change. A change that found nothing
// open has none, and so has a change written before the feed kept what
// changes found.
func (s *Store) ChangeDocs(ctx context.Context, seqs []int64) (map[int64]Found, error) {
	out := make(map[int64]Found, len(seqs))
	if len(seqs) == 0 {
		return out, nil
	}
	err := s.readPrimary(ctx, func(db bun.IDB) error {
		return withPgx(ctx, db, func(c *pgx.Conn) error {
			rows, err := c.Query(ctx, changeDocsQuery, pgx.QueryExecModeDescribeExec, seqs) // binary, as a build's
			if err != nil {
				return err
			}
			sc := newDocScanner()
			var seq int64
			var company string
			_, err = pgx.ForEachRow(rows, append([]any{&seq, &company}, sc.args...), func() error {
				out[seq] = Found{Doc: sc.doc(true), Company: company}
				return nil
			})
			return err
		})
	})
	return out, wrap(err, "read what changes found")
}

// cardsAfterQuery reads, for each change (number and job, the
// arguments), the card and list extras of the job as the change left it:
// as the job's next change found it, or as it is now when none followed
// (or the next was written before the feed kept what changes found).
var cardsAfterQuery = `SELECT r.seq AS change_seq, ` + strings.Join(append(slices.Clip(cardColumns), extraColumns...), ", ") + `
FROM unnest(?::bigint[], ?::text[]) AS r(seq, job)
LEFT JOIN LATERAL (
    SELECT n.before FROM job_changes AS n WHERE n.job_id = r.job AND n.seq > r.seq ORDER BY n.seq LIMIT 1
) AS nx ON true
CROSS JOIN LATERAL (
    SELECT (nx.before).* WHERE (nx.before).id IS NOT NULL
    UNION ALL
    SELECT o.` + strings.Join(jobStateColumns, ", o.") + ` FROM jobs AS o WHERE o.id = r.job AND (nx.before).id IS NULL
) AS j`

// CardsAfter returns, by change number, the card each change left, with
// its list extras, read from the primary in one statement: the job just
// after the change, whatever changed it since. A change that left the
// job closed has none.
func (s *Store) CardsAfter(ctx context.Context, changes []domain.Change) (map[int64]*domain.JobCard, error) {
	out := make(map[int64]*domain.JobCard, len(changes))
	seqs := make([]int64, 0, len(changes))
	ids := make([]string, 0, len(changes))
	for _, c := range changes {
		if c.Change != domain.ChangeClosed {
			seqs, ids = append(seqs, c.Seq), append(ids, c.ID)
		}
	}
	if len(seqs) == 0 {
		return out, nil
	}
	var rows []struct {
		ChangeSeq int64 `bun:"change_seq"`
		cardRow
	}
	err := s.readPrimary(ctx, func(db bun.IDB) error {
		return db.NewRaw(cardsAfterQuery, pgdialect.Array(seqs), pgdialect.Array(ids)).Scan(ctx, &rows)
	})
	if err != nil {
		return nil, wrap(err, "read the cards changes left")
	}
	for i := range rows {
		c := rows[i].toCard()
		out[rows[i].ChangeSeq] = &c
	}
	return out, nil
}
