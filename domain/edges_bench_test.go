package domain_test

import (
	"testing"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
)

// BenchmarkEdges makes the edges of a page of 25 cards and writes their
// cursors.
func BenchmarkEdges(b *testing.B) {
	page := domain.JobCardPage{Nodes: make([]domain.JobCard, 25)}
	at := time.Date(2026, 10, 28, 8, 0, 0, 0, time.UTC)
	for i := range page.Nodes {
		page.Cursors = append(page.Cursors, domain.Cursor{Sort: domain.JobSortNewest, Time: at.Add(time.Duration(i) * time.Hour), ID: "greenhouse-123456", Offset: i + 1})
	}
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		for _, e := range page.Edges() {
			buf, _ = e.Cursor.AppendText(buf)
		}
	}
}
