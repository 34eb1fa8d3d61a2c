package importer

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
)

func at(s string) *time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return &t
}

func TestValidThroughInEveryFormat(t *testing.T) {
	const ldPage = `{"@context":"https://schema.org","@type":"JobPosting","title":"Nurse","identifier":"77",
		"hiringOrganization":{"name":"Mercy"},%s"description":"<p>Care.</p>"}`
	ld := func(member string) string { return strings.Replace(ldPage, "%s", member, 1) }
	const ghJob = `{"jobs":[{"id":901,"title":"Engineer","company_name":"Acme","content":"Build.","metadata":%s}]}`
	gh := func(metadata string) string { return strings.Replace(ghJob, "%s", metadata, 1) }
	const leverPosting = `[{"id":"0b1c2d3e-4f50-4172-8394-a5b6c7d8e9f0","text":"Engineer","createdAt":1700000000000,` +
		`"categories":{"location":"Remote"},"description":"Build.","validThrough":"2030-01-01"}]`
	tests := []struct {
		name, format, input string
		want                *time.Time
		wantErr             string
	}{
		{"ndjson instant", formatNDJSON, `{"id":"t-1","title":"Engineer","company":"Acme","valid_through":"2030-06-30T17:00:00-04:00"}`,
			at("2030-06-30T21:00:00Z"), ""},
		{"ndjson date is through that day", formatNDJSON, `{"id":"t-1","title":"Engineer","company":"Acme","valid_through":"2030-06-30"}`,
			at("2030-07-01T00:00:00Z"), ""},
		{"ndjson past is kept", formatNDJSON, `{"id":"t-1","title":"Engineer","company":"Acme","valid_through":"2001-01-01T00:00:00Z"}`,
			at("2001-01-01T00:00:00Z"), ""},
		{"ndjson null", formatNDJSON, `{"id":"t-1","title":"Engineer","company":"Acme","valid_through":null}`, nil, ""},
		{"ndjson absent", formatNDJSON, `{"id":"t-1","title":"Engineer","company":"Acme"}`, nil, ""},
		{"ndjson not a date", formatNDJSON, `{"id":"t-1","title":"Engineer","company":"Acme","valid_through":"next week"}`,
			nil, `line 1: valid_through "next week" is not an RFC 3339 date-time or a date (YYYY-MM-DD)`},
		{"ndjson not a string", formatNDJSON, `{"id":"t-1","title":"Engineer","company":"Acme","valid_through":20300630}`,
			nil, "valid_through must be a string, not a JSON number"},
		{"ndjson over its bound", formatNDJSON, `{"id":"t-1","title":"Engineer","company":"Acme","valid_through":"` + strings.Repeat("2", 501) + `"}`,
			nil, "valid_through is longer than 500 characters (501)"},
		{"ndjson with other errors", formatNDJSON, `{"id":"t-1","title":"","company":"Acme","valid_through":"soon"}`,
			nil, `title is required; valid_through "soon" is not`},
		{"jsonld validThrough date", formatJSONLD, ld(`"validThrough":"2030-06-30",`), at("2030-07-01T00:00:00Z"), ""},
		{"jsonld validThrough instant", formatJSONLD, ld(`"validThrough":"2030-06-30T12:00:00.000Z",`), at("2030-06-30T12:00:00Z"), ""},
		{"jsonld validThrough without seconds", formatJSONLD, ld(`"validThrough":"2030-06-30T12:00",`), at("2030-06-30T12:00:00Z"), ""},
		{"jsonld without validThrough", formatJSONLD, ld(""), nil, ""},
		{"jsonld bad validThrough", formatJSONLD, ld(`"validThrough":"30/06/2030",`),
			nil, `record 1 (jsonld-77): valid_through "30/06/2030" is not an RFC 3339 date-time or a date`},
		{"greenhouse application deadline", formatGreenhouse, gh(`[{"name":"Application Deadline","value":"2030-06-30","value_type":"date"}]`),
			at("2030-07-01T00:00:00Z"), ""},
		{"greenhouse posting close date", formatGreenhouse, gh(`[{"name":"Employment Type","value":"Full-time"},{"name":"Posting Close Date","value":"2030-06-30T18:00:00Z"}]`),
			at("2030-06-30T18:00:00Z"), ""},
		{"greenhouse deadline that is no date is passed over", formatGreenhouse, gh(`[{"name":"Application Deadline","value":"until filled"}]`), nil, ""},
		{"greenhouse other fields are no deadline", formatGreenhouse, gh(`[{"name":"Start Date","value":"2030-06-30"}]`), nil, ""},
		{"greenhouse without metadata", formatGreenhouse, gh(`null`), nil, ""},
		{"lever has no closing date", formatLever, leverPosting, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mapInput(t, tt.format, tt.input, "Acme")
			require.NoError(t, err)
			require.Len(t, got, 1)
			if tt.wantErr != "" {
				require.NotNil(t, got[0].bad, "want invalid")
				assert.Contains(t, got[0].bad.String(), tt.wantErr)
				return
			}
			require.Nil(t, got[0].bad)
			assert.Equal(t, tt.want, got[0].rec.ValidThrough)
		})
	}
}

func TestTombstoneLines(t *testing.T) {
	tests := []struct {
		name, line string
		want       *domain.JobClose
		wantRecord bool // a record, not a tombstone
		wantErr    string
	}{
		{"id alone", `{"id":"greenhouse-123","closed":true}`, &domain.JobClose{ID: "greenhouse-123"}, false, ""},
		{"with closed_at", `{"closed":true,"id":"greenhouse-123","closed_at":"2026-11-26T10:00:00+01:00"}`,
			&domain.JobClose{ID: "greenhouse-123", ClosedAt: at("2026-11-26T09:00:00Z")}, false, ""},
		{"closed_at a date is its midnight", `{"id":"lever-9","closed":true,"closed_at":"2026-11-26"}`,
			&domain.JobClose{ID: "lever-9", ClosedAt: at("2026-11-26T00:00:00Z")}, false, ""},
		{"closed_at null", `{"id":"lever-9","closed":true,"closed_at":null}`, &domain.JobClose{ID: "lever-9"}, false, ""},
		{"id trimmed", `{"id":" lever-9 ","closed":true}`, &domain.JobClose{ID: "lever-9"}, false, ""},
		{"without id", `{"closed":true}`, nil, false, "id is required: a tombstone names the posting it closes"},
		{"bad id", `{"id":"Greenhouse 123","closed":true}`, nil, false, `id "Greenhouse 123" is not shaped <source>-<number>`},
		{"other members", `{"id":"t-1","closed":true,"title":"Engineer","company":"Acme"}`, nil, false,
			`a tombstone ("closed": true) has no member but id, closed and closed_at; this one also has title, company`},
		{"valid_through on a tombstone", `{"id":"t-1","closed":true,"valid_through":"2030-01-01"}`, nil, false, "also has valid_through"},
		{"closed_at not a date", `{"id":"t-1","closed":true,"closed_at":"yesterday"}`, nil, false,
			`closed_at "yesterday" is not an RFC 3339 date-time or a date (YYYY-MM-DD)`},
		{"closed_at in the future", `{"id":"t-1","closed":true,"closed_at":"2999-01-01T00:00:00Z"}`, nil, false,
			`closed_at "2999-01-01T00:00:00Z" is in the future`},
		{"closed_at before 1970", `{"id":"t-1","closed":true,"closed_at":"1969-12-31"}`, nil, false, "is before 1970"},
		{"every reason at once", `{"closed":true,"title":"x","closed_at":"soon"}`, nil, false,
			"also has title; id is required: a tombstone names the posting it closes; closed_at \"soon\""},
		{"closed not a boolean", `{"id":"t-1","closed":"yes"}`, nil, false, "closed must be true or false, not a JSON string"},
		{"closed_at without closed", `{"id":"t-1","title":"Engineer","company":"Acme","closed_at":"2026-01-01"}`, nil, false,
			`closed_at is only for a tombstone ("closed": true)`},
		{"closed false on a record is a record", `{"id":"t-1","title":"Engineer","company":"Acme","closed":false}`, nil, true, ""},
		{"closed false alone is an incomplete record", `{"id":"t-1","closed":false}`, nil, false, "title is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mapInput(t, formatNDJSON, tt.line, "")
			require.NoError(t, err)
			require.Len(t, got, 1)
			if tt.wantErr != "" {
				require.NotNil(t, got[0].bad, "want invalid")
				assert.Contains(t, got[0].bad.Reason, tt.wantErr)
				assert.NotContains(t, got[0].bad.Reason, "\n")
				return
			}
			require.Nil(t, got[0].bad)
			assert.Equal(t, tt.want, got[0].close)
			if tt.wantRecord {
				assert.Equal(t, "t-1", got[0].rec.ID)
			}
		})
	}
}

func TestTombstoneClosedAtNearNow(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	line := func(closedAt string) []byte {
		return []byte(`{"id":"t-1","closed":true,"closed_at":"` + closedAt + `"}`)
	}
	tests := []struct {
		closedAt string
		want     *time.Time
		wantErr  string
	}{
		{"2026-11-26T09:59:59.5Z", at("2026-11-26T09:59:59.5Z"), ""},
		{"2026-11-26T10:00:00Z", &now, ""},
		{"2026-11-26T10:04:59Z", &now, ""}, // within the clocks' skew: now
		{"2026-11-26T10:05:01Z", nil, "is in the future"},
	}
	for _, tt := range tests {
		t.Run(tt.closedAt, func(t *testing.T) {
			s := tt.closedAt
			e, err := readTombstone(line(s), "t-1", &s, now)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, &domain.JobClose{ID: "t-1", ClosedAt: tt.want}, e.close)
		})
	}
}

func TestDecodeSaysATombstoneIsNoRecord(t *testing.T) {
	_, reason := decode([]byte(`{"id":"t-1","closed":true}`), newMapper(t, "").n)
	assert.Equal(t, "a tombstone, not a record", reason)
}

// readAll runs read over input and returns what it sent, batch by batch,
// each written as its kind and ids ("write t-1 t-2", "close t-1").
func readAll(t *testing.T, input string, opts Options) ([]string, Result) {
	t.Helper()
	fm, err := lookupFormat(opts.Format)
	require.NoError(t, err)
	out := make(chan batch)
	var res Result
	errc := make(chan error, 1)
	go func() {
		defer close(out)
		errc <- read(context.Background(), strings.NewReader(input), fm, newMapper(t, opts.DefaultCompany), opts, &res, out)
	}()
	var got []string
	for b := range out {
		require.False(t, len(b.recs) > 0 && len(b.closes) > 0, "a batch of both kinds")
		words := []string{"write"}
		for _, r := range b.recs {
			words = append(words, r.ID)
		}
		if len(b.closes) > 0 {
			words = []string{"close"}
			for _, c := range b.closes {
				words = append(words, c.ID)
			}
		}
		got = append(got, strings.Join(words, " "))
	}
	require.NoError(t, <-errc)
	return got, res
}

func TestBatchesKeepTheFileOrder(t *testing.T) {
	rec := func(id string) string { return `{"id":"` + id + `","title":"Engineer","company":"Acme"}` }
	tomb := func(id string) string { return `{"id":"` + id + `","closed":true}` }
	lines := []string{rec("t-1"), rec("t-2"), rec("t-3"), tomb("t-1"), tomb("t-2"), tomb("t-4"), rec("t-1"), "", tomb("t-3"), rec("t-5")}
	tests := []struct {
		batchSize int
		want      []string
	}{
		{2, []string{"write t-1 t-2", "write t-3", "close t-1 t-2", "close t-4", "write t-1", "close t-3", "write t-5"}},
		{100, []string{"write t-1 t-2 t-3", "close t-1 t-2 t-4", "write t-1", "close t-3", "write t-5"}},
		{1, []string{"write t-1", "write t-2", "write t-3", "close t-1", "close t-2", "close t-4", "write t-1", "close t-3", "write t-5"}},
	}
	for _, tt := range tests {
		got, res := readAll(t, strings.Join(lines, "\n"), Options{BatchSize: tt.batchSize})
		assert.Equal(t, tt.want, got, "batch size %d", tt.batchSize)
		assert.Equal(t, 9, res.Lines)
		assert.Equal(t, 4, res.Tombstones)
		assert.Empty(t, res.Invalid)
	}
}

// TestWorkersKeepTheFileOrder reads a file of many chunks, which the
// workers prepare side by side: the batches, the invalid lines and the
// counts come out in the file's order all the same.
func TestWorkersKeepTheFileOrder(t *testing.T) {
	var lines, want, wantInvalid []string
	var run []string
	kind := ""
	flush := func() {
		if len(run) > 0 {
			want = append(want, kind+" "+strings.Join(run, " "))
		}
		run = nil
	}
	for i := range 20 * chunkRecords {
		id := fmt.Sprintf("t-%d", i/3)
		k := "write"
		line := `{"id":"` + id + `","title":"Engineer","company":"Acme"}`
		switch {
		case i%97 == 0:
			line = `{"id":"` + id + `","title":"Engineer"}` // no company
			wantInvalid = append(wantInvalid, fmt.Sprintf("line %d", i+1))
			lines = append(lines, line)
			continue
		case i%3 == 2:
			k, line = "close", `{"id":"`+id+`","closed":true}`
		}
		if k != kind {
			flush()
			kind = k
		}
		run = append(run, id)
		lines = append(lines, line)
	}
	flush()
	got, res := readAll(t, strings.Join(lines, "\n"), Options{BatchSize: 1000, SkipInvalid: true})
	assert.Equal(t, want, got)
	assert.Equal(t, len(lines), res.Lines)
	var gotInvalid []string
	for _, bad := range res.Invalid {
		gotInvalid = append(gotInvalid, fmt.Sprintf("line %d", bad.Line))
	}
	assert.Equal(t, wantInvalid, gotInvalid)
}

func TestInvalidTombstonesAreLineErrors(t *testing.T) {
	input := strings.Join([]string{
		`{"id":"t-1","title":"Engineer","company":"Acme"}`,
		`{"id":"t-1","closed":true,"title":"Engineer"}`,
		`{"closed":true}`,
		`{"id":"t-2","closed":true}`,
	}, "\n")
	got, res := readAll(t, input, Options{BatchSize: 10})
	assert.Empty(t, got, "nothing is sent once a line is invalid")
	require.Len(t, res.Invalid, 2)
	assert.Equal(t, 2, res.Invalid[0].Line)
	assert.Contains(t, res.Invalid[0].String(), "line 2: a tombstone")
	assert.Equal(t, 3, res.Invalid[1].Line)

	got, res = readAll(t, input, Options{BatchSize: 10, SkipInvalid: true})
	assert.Equal(t, []string{"write t-1", "close t-2"}, got)
	assert.Len(t, res.Invalid, 2)
	assert.Equal(t, 1, res.Tombstones)
}

func TestSnapshotRecordsOutsideTheScope(t *testing.T) {
	input := strings.Join([]string{
		`{"id":"greenhouse-1","title":"Engineer","company":"Acme"}`,
		`{"id":"greenhouse-2","title":"Engineer","company":"ACME"}`,
		`{"id":"greenhouse-3","title":"Engineer","company":"Northwind"}`,
		`{"id":"lever-4","title":"Engineer","company":"Acme"}`,
		`{"id":"x-5","title":"Engineer","company":"Acme","source":"greenhouse"}`,
		`{"id":"lever-6","closed":true}`,
	}, "\n")
	tests := []struct {
		name    string
		scope   domain.Scope
		want    []string
		invalid []string
	}{
		{"source", domain.Scope{Source: "greenhouse"},
			[]string{"write greenhouse-1 greenhouse-2 greenhouse-3 x-5", "close lever-6"},
			[]string{`line 4: source "lever" is outside the snapshot's scope (source "greenhouse")`}},
		{"source and company", domain.Scope{Source: "greenhouse", Company: "Acme"},
			[]string{"write greenhouse-1 greenhouse-2 x-5", "close lever-6"},
			[]string{`line 3: company "Northwind" is outside the snapshot's scope (company "Acme")`,
				`line 4: source "lever" is outside`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scope := tt.scope
			got, res := readAll(t, input, Options{BatchSize: 10, Snapshot: &scope, SkipInvalid: true})
			assert.Equal(t, tt.want, got)
			require.Len(t, res.Invalid, len(tt.invalid))
			for i, want := range tt.invalid {
				assert.Contains(t, res.Invalid[i].String(), want)
			}
		})
	}
}
