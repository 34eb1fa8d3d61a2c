package importer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecordsAreSafeToRender: in every format, description_raw is stored
// sanitized, and a url or company_logo that is not http(s) is dropped to
// null, the record still valid and the drop reported; a format's other
// URL is used when it is safe.
func TestRecordsAreSafeToRender(t *testing.T) {
	tests := []struct {
		name        string
		format      string
		input       string
		wantURL     string // "" for null
		wantLogo    string
		wantRaw     string
		wantDropped string // "" when nothing is dropped
	}{
		{"ndjson", formatNDJSON,
			`{"id":"t-1","title":"Nurse","company":"Acme","url":"javascript:alert(1)","company_logo":"data:image/png;base64,AAAA",` +
				`"description_raw":"<p onmouseover=\"x()\">Care</p><script>steal()</script>"}`,
			"", "", "<p>Care</p>", "line 1: company_logo and url dropped to null: not an http or https URL"},
		{"ndjson safe", formatNDJSON,
			`{"id":"t-1","title":"Nurse","company":"Acme","url":"https://acme.example/jobs/1","company_logo":"https://acme.example/logo.png"}`,
			"https://acme.example/jobs/1", "https://acme.example/logo.png", "", ""},
		{"jsonld", formatJSONLD,
			`{"@type":"JobPosting","title":"Nurse","identifier":"7","url":"javascript:alert(1)","sameAs":"https://acme.example/jobs/7",` +
				`"hiringOrganization":{"name":"Acme","logo":"vbscript:x"},"description":"<p>Care</p><iframe src=\"https://evil.example\"></iframe>"}`,
			"https://acme.example/jobs/7", "", "<p>Care</p>", "record 1 (jsonld-7): company_logo dropped to null: not an http or https URL"},
		{"greenhouse", formatGreenhouse,
			`{"jobs":[{"id":1,"title":"Nurse","company_name":"Acme","absolute_url":"javascript:alert(1)",` +
				`"content":"&lt;p&gt;Care&lt;/p&gt;&lt;img src=x onerror=alert(1)&gt;"}]}`,
			"", "", `<p>Care</p><img src="x">`, "record 1 (greenhouse-1): url dropped to null: not an http or https URL"},
		{"lever", formatLever,
			`[{"id":"5ac21346-8e0c-4494-8e7a-3eb92ff77902","text":"Nurse","hostedUrl":"javascript:alert(1)","applyUrl":"https://jobs.lever.co/acme/1/apply",` +
				`"descriptionPlain":"Care","description":"<div><a href=\"javascript:alert(1)\">Care</a></div>"}]`,
			"https://jobs.lever.co/acme/1/apply", "", "<div>Care</div>", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := mapInput(t, tt.format, tt.input, "Acme")
			require.NoError(t, err)
			require.Len(t, out, 1)
			require.Nil(t, out[0].bad, "the record is valid")
			rec := out[0].rec
			assert.Equal(t, tt.wantURL, deref(rec.URL), "url")
			assert.Equal(t, tt.wantLogo, deref(rec.CompanyLogo), "company_logo")
			if tt.wantRaw != "" {
				assert.True(t, strings.HasPrefix(deref(rec.DescriptionRaw), tt.wantRaw), "description_raw %q", deref(rec.DescriptionRaw))
				for _, bad := range []string{"script", "onerror", "onmouseover", "iframe", "javascript"} {
					assert.NotContains(t, deref(rec.DescriptionRaw), bad)
				}
			}
			if tt.wantDropped == "" {
				assert.Nil(t, out[0].dropped)
			} else {
				require.NotNil(t, out[0].dropped)
				assert.Equal(t, tt.wantDropped, out[0].dropped.String())
			}
		})
	}
}
