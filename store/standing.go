package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/domain"
)

// Standing queries with a full-text part (a keyword search, or title words
// outside the taxonomy): the index judges a changed job by its keys, and
// these judge it by its text, which only the database holds.

// TextStart is where a standing query with a full-text part starts: the
// feed's end, and what the query's results are there.
type TextStart struct {
	// End is the cursor after the feed's last change in the snapshot.
	End domain.FeedCursor
	// Members are the ids of the open jobs matching the whole query; at
	// most limit+1 of them are read (more than limit: too many to follow).
	Members []string
	// TextMatched are the jobs changed after the cursor given that are
	// open at End and whose text matches the query's full-text part there.
	TextMatched []string
}

// TextStart reads, in one snapshot of the primary, the feed's end, the
// open jobs matching q there (at most limit+1), and which of the jobs
// changed after the change changedAfter (none when it is not below the
// end) match q's full-text part there.
func (s *Store) TextStart(ctx context.Context, q domain.JobQuery, changedAfter int64, limit int) (TextStart, error) {
	var out TextStart
	text := q.Text()
	err := s.db.RunInTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
		out = TextStart{}
		if err := tx.NewRaw("SELECT last_seq, epoch FROM jobsd_feed").Scan(ctx, &out.End.Seq, &out.End.Epoch); err != nil {
			return wrap(err, "read the feed's end")
		}
		err := tx.NewSelect().TableExpr("jobs AS j").Column("j.id").Apply(applyFilters(q)).Limit(int64(limit)+1).Scan(ctx, &out.Members)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return wrap(err, "read a standing query's jobs")
		}
		if changedAfter >= out.End.Seq {
			return nil
		}
		err = tx.NewRaw(`WITH x AS (SELECT ?::text AS title, ?::text AS q)
SELECT j.id FROM x, jobs AS j
WHERE j.id IN (SELECT c.job_id FROM job_changes AS c WHERE c.seq > ?) AND `+textMatchSQL("x.title", "x.q"),
			text.TitleText, text.Q, changedAfter).Scan(ctx, &out.TextMatched)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return wrap(err, "judge the text of changed jobs")
		}
		return nil
	})
	return out, err
}

// TextPair is one job to judge by one query's full-text part.
type TextPair struct {
	Text domain.TextQuery
	ID   string
}

// TextMatch is the judgement of one TextPair: whether the job is open and
// matches the text, and whether that is final: the job's description is
// indexed for its current record (a row of job_texts, not stale). Until
// then keyword search reads the job by its other words, and by the words
// of its previous record.
type TextMatch struct {
	Matched, Final bool
}

// TextMatches judges each pair on the primary, in one statement. The
// answer is by pair; a job that is not open never matches, finally.
func (s *Store) TextMatches(ctx context.Context, pairs []TextPair) ([]TextMatch, error) {
	out := make([]TextMatch, len(pairs))
	if len(pairs) == 0 {
		return out, nil
	}
	for i := range out {
		out[i].Final = true
	}
	titles, qs, ids := make([]string, len(pairs)), make([]string, len(pairs)), make([]string, len(pairs))
	for i, p := range pairs {
		titles[i], qs[i], ids[i] = p.Text.TitleText, p.Text.Q, p.ID
	}
	var rows []struct {
		N       int64 `bun:"n"`
		Matched bool  `bun:"matched"`
		Final   bool  `bun:"final"`
	}
	err := s.db.NewRaw(`SELECT p.n, (`+textMatchSQL("p.title", "p.q")+`) AS matched,
    (p.q = '' OR EXISTS (SELECT 1 FROM job_texts AS f WHERE f.job_id = j.id AND NOT f.stale)) AS final
FROM unnest(?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS p(title, q, id, n)
JOIN jobs AS j ON j.id = p.id`, pgdialect.Array(titles), pgdialect.Array(qs), pgdialect.Array(ids)).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, wrap(err, "judge the text of changed jobs")
	}
	for _, r := range rows {
		out[r.N-1] = TextMatch{Matched: r.Matched, Final: r.Final}
	}
	return out, nil
}
