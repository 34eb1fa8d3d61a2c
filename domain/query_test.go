package domain_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
)

// TestCursorEncodeAsJSON: a cursor's text is json.Marshal's bytes in
// base64url, however it is written, so cursors clients hold stay valid.
func TestCursorEncodeAsJSON(t *testing.T) {
	viaJSON := func(c domain.Cursor) string {
		b, _ := json.Marshal(c)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	at := time.Date(2026, 10, 28, 8, 0, 0, 0, time.UTC)
	cursors := []domain.Cursor{
		{},
		{Sort: domain.JobSortNewest, Time: at, ID: "test-3", Offset: 3},
		{Sort: domain.JobSortNewest, Time: at.Add(123456789 * time.Nanosecond), ID: "gh-1", Offset: 1 << 40},
		{Sort: domain.JobSortOldest, Time: at.In(time.FixedZone("x", -5*3600)), ID: "a-1"},
		{Sort: domain.JobSortOldest, Time: at.In(time.FixedZone("odd", 30)), ID: "a-1"},
		{Sort: domain.JobSortOldest, Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), ID: "a-1"},
		{Sort: domain.JobSortOldest, Time: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), ID: "a-1"},
		{Sort: domain.JobSortRelevance, ID: "lever-77", Offset: 50},
		{Sort: domain.JobSortSalaryDesc, Number: 170000, ID: "test-6", Offset: 3},
		{Sort: domain.JobSortSalaryAsc, Number: -0.5, ID: "x-1", Offset: -1},
		{Sort: domain.JobSortSalaryAsc, Number: 1e21, ID: "x-1"},
		{Sort: domain.JobSortSalaryAsc, Number: 1e20, ID: "x-1"},
		{Sort: domain.JobSortSalaryAsc, Number: 1e-7, ID: "x-1"},
		{Sort: domain.JobSortSalaryAsc, Number: 1.5e-300, ID: "x-1"},
		{Sort: domain.JobSortSalaryAsc, Number: math.MaxFloat64, ID: "x-1"},
		{Sort: domain.JobSortSalaryAsc, Number: math.NaN(), ID: "x-1"},
		{Sort: domain.JobSortSalaryAsc, Number: math.Inf(-1), ID: "x-1"},
		{Sort: "<&>", ID: "quote\" back\\ ctl\x01 é \u2028 \xff"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		cursors = append(cursors, domain.Cursor{Sort: domain.JobSortSalaryDesc, Number: r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20)),
			Time: time.Unix(r.Int64N(1<<34), r.Int64N(1e9)).UTC(), ID: "src-" + string(rune('a'+r.IntN(26))), Offset: r.IntN(1 << 20)})
	}
	for _, c := range cursors {
		assert.Equal(t, viaJSON(c), c.Encode(), "%+v", c)
	}

	page := domain.JobCardPage{Nodes: make([]domain.JobCard, 4), Cursors: cursors[1:4]}
	edges := page.Edges()
	require.Len(t, edges, 4)
	for i, e := range edges[:3] {
		assert.Equal(t, cursors[1+i].Encode(), e.Cursor.String())
		text, err := e.Cursor.AppendText([]byte("x"))
		require.NoError(t, err)
		assert.Equal(t, "x"+cursors[1+i].Encode(), string(text))
		assert.Same(t, &page.Nodes[i], e.Node)
		back, err := domain.DecodeCursor(e.Cursor.String())
		require.NoError(t, err)
		assert.Equal(t, cursors[1+i].ID, back.ID)
	}
	assert.Empty(t, edges[3].Cursor.String(), "a card without a cursor")
}

// TestOffsetCursor: a company's cursor reads back as its position, and a
// job list's cursor is not one.
func TestOffsetCursor(t *testing.T) {
	for _, n := range []int{0, 1, 50, 1 << 30} {
		got, err := domain.DecodeOffsetCursor(domain.OffsetCursor(n).Encode())
		require.NoError(t, err)
		assert.Equal(t, domain.OffsetCursor(n), got)
	}
	for _, bad := range []string{"", "!!", domain.Cursor{ID: "a-1"}.Encode(), base64.RawURLEncoding.EncodeToString([]byte("offset:-1")),
		base64.RawURLEncoding.EncodeToString([]byte("offset:x"))} {
		_, err := domain.DecodeOffsetCursor(bad)
		assert.Error(t, err, bad)
	}
}

// TestDeadlineIsUnavailable: a request that ran out of time is unavailable
// in every transport, whatever wraps the deadline (one rule, here).
func TestDeadlineIsUnavailable(t *testing.T) {
	for _, err := range []error{
		context.DeadlineExceeded,
		fmt.Errorf("find job cards: %w", context.DeadlineExceeded),
		fmt.Errorf("%w: %w", domain.Errorf(domain.CodeInternal, "x"), context.DeadlineExceeded),
	} {
		assert.Equal(t, domain.CodeUnavailable, domain.ErrorCode(err), "%v", err)
		assert.Equal(t, "the request took too long", domain.ErrorMessage(err), "%v", err)
	}
	assert.Equal(t, domain.CodeNotFound, domain.ErrorCode(domain.Errorf(domain.CodeNotFound, "no")))
	assert.Equal(t, domain.CodeInternal, domain.ErrorCode(errors.New("boom")))
	assert.Equal(t, "internal error", domain.ErrorMessage(errors.New("boom")))
	assert.Equal(t, "", domain.ErrorCode(nil))
}
