package importer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/growth"
)

func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

// TestRecordsOverBounds: in every format, a record with a field over its
// bound is invalid, with its position and the field's bound as reason.
func TestRecordsOverBounds(t *testing.T) {
	slashes := strings.Repeat("a/", 1<<19) // 1 MB
	long := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name   string
		format string
		input  string
		reason string
	}{
		{"ndjson location.full of 1 MB", formatNDJSON,
			`{"id":"t-1","title":"Nurse","company":"Acme","location":{"full":` + jsonString(t, slashes) + `}}`,
			"location.full is longer than 1000 characters (1048576)"},
		{"ndjson title", formatNDJSON, `{"id":"t-1","title":"` + long(501) + `","company":"Acme"}`,
			"title is longer than 500 characters (501)"},
		{"ndjson skills", formatNDJSON, `{"id":"t-1","title":"Nurse","company":"Acme","skills":["` + long(501) + `"]}`,
			"skills item 1 is longer than 500 characters (501)"},
		{"ndjson description", formatNDJSON, `{"id":"t-1","title":"Nurse","company":"Acme","description":"` + long(300<<10) + `"}`,
			"description is longer than 262144 bytes"},
		{"jsonld address of 1 MB", formatJSONLD,
			`{"@type":"JobPosting","title":"Nurse","hiringOrganization":"Acme","identifier":"7","jobLocation":{"address":` + jsonString(t, slashes) + `}}`,
			"location is longer than 1000 characters (1048576)"},
		{"jsonld locality of 1 MB", formatJSONLD,
			`{"@type":"JobPosting","title":"Nurse","hiringOrganization":"Acme","identifier":"7","jobLocation":{"address":{"addressLocality":` + jsonString(t, slashes) + `}}}`,
			"location.city item 1 is longer than 300 characters"},
		{"greenhouse location of 1 MB", formatGreenhouse,
			`{"jobs":[{"id":1,"title":"Nurse","company_name":"Acme","location":{"name":` + jsonString(t, slashes) + `}}]}`,
			"location.full is longer than 1000 characters"},
		{"greenhouse content of 8 MB", formatGreenhouse,
			`{"jobs":[{"id":1,"title":"Nurse","company_name":"Acme","content":` + jsonString(t, strings.Repeat("&lt;p&gt;a security clearance (", 1<<18)) + `}]}`,
			"description_raw is longer than 262144 bytes"},
		{"lever title", formatLever, `[{"id":"5ac21346-8e0c-4494-8e7a-3eb92ff77902","text":"` + long(501) + `"}]`,
			"title is longer than 500 characters (501)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := mapInput(t, tt.format, tt.input, "Acme")
			require.NoError(t, err)
			require.Len(t, out, 1)
			require.NotNil(t, out[0].bad, "the record is invalid")
			assert.Equal(t, 1, out[0].bad.Line)
			assert.Contains(t, out[0].bad.Reason, tt.reason)
		})
	}
}

// TestMappingLongFieldsIsLinear: mapping a record whose field is long
// (the texts that were quadratic to read) takes time at most linear in
// the field's length, in every format: 16 times the text, at most 64
// times the time.
func TestMappingLongFieldsIsLinear(t *testing.T) {
	for _, tt := range []struct {
		name, format string
		record       func(text string) string
	}{
		{"ndjson location.full", formatNDJSON, func(text string) string {
			return `{"id":"t-1","title":"Nurse","company":"Acme","location":{"full":` + jsonString(t, text) + `}}`
		}},
		{"jsonld address", formatJSONLD, func(text string) string {
			return `{"@type":"JobPosting","title":"Nurse","hiringOrganization":"Acme","identifier":"7","jobLocation":{"address":` + jsonString(t, text) + `}}`
		}},
		{"greenhouse content", formatGreenhouse, func(text string) string {
			return `{"jobs":[{"id":1,"title":"Nurse","company_name":"Acme","content":` + jsonString(t, text) + `}]}`
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			unit := "a/"
			if tt.format == formatGreenhouse {
				unit = "&lt;p&gt;a security clearance ("
			}
			growth.AtMostLinear(t, tt.name, 4<<10, 64<<10, func(size int) func() {
				input := tt.record(strings.Repeat(unit, size/len(unit)))
				return func() {
					_, err := mapInput(t, tt.format, input, "Acme")
					require.NoError(t, err)
				}
			})
		})
	}
}
