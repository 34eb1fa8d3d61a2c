package importer

import (
	"bytes"
	"testing"

	"github.com/jobsd-dev/jobsd/normalize"
)

// FuzzFormats reads any input in every format: records or reasons, never a
// panic; a record is valid to store, its URLs http(s) and its description_raw
// sanitized HTML. The seeds are small (the fixtures are
// read by the tests): large seeds make the fuzzer minimize for minutes.
func FuzzFormats(f *testing.F) {
	for _, seed := range []struct {
		format uint8
		input  string
	}{
		{1, `{"@type":"JobPosting","title":"Nurse &amp; Aide","hiringOrganization":{"@id":"#o"},"identifier":"12","@graph":[{"@id":"#o","name":"Acme"}],` +
			`"jobLocation":[{"address":{"addressLocality":"Austin","addressRegion":"TX","addressCountry":{"name":"US"}}}],` +
			`"baseSalary":{"currency":"USD","value":{"minValue":"40","maxValue":50,"unitText":"HOUR"}},"description":"&lt;p&gt;5+ years of experience; up to 10% travel&lt;/p&gt;"}`},
		{1, `<html><script type="application/ld+json">[[{"@type":"JobPosting","title":"Cook","hiringOrganization":"Diner","jobLocationType":"TELECOMMUTE",` +
			`"applicantLocationRequirements":{"@type":"Country","name":"USA"},"experienceRequirements":{"monthsOfExperience":18}}]]</script></html>`},
		{1, `{"@type":"JobPosting","title":"A"}` + "\n" + `{"@type":"JobPosting","title":"B","hiringOrganization":"C"}`},
		{2, `{"jobs":[{"id":1,"title":"Engineer","company_name":"Acme","location":{"name":"Remote - US"},"content":"&lt;p&gt;Active TS/SCI clearance. We sponsor H-1B.&lt;/p&gt;",` +
			`"offices":[{"location":"SF"}],"pay_input_ranges":[{"min_cents":100,"max_cents":200,"currency_type":"USD","title":"Hourly"}],"first_published":"2026-01-01T00:00:00Z"}]}`},
		{3, `[{"id":"5ac21346-8e0c-4494-8e7a-3eb92ff77902","text":"Writer","createdAt":1793191200000,"workplaceType":"remote","categories":{"location":"Toronto, ON","commitment":"Contract"},` +
			`"lists":[{"text":"Requirements","content":"<li>Bachelor's degree in English</li>"}],"salaryRange":{"min":1,"max":2,"currency":"CAD","interval":"per-hour-wage"}}]`},
		{0, `{"id":"test-1","title":"Engineer","company":"Co"}`},
	} {
		f.Add(seed.format, []byte(seed.input))
	}
	n, err := normalize.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, which uint8, input []byte) {
		fm := formats[int(which)%len(formats)]
		m := &mapper{n: n, company: "Fuzz Co"}
		_ = fm.split(bytes.NewReader(input), func(r record) error {
			o, _, bad := prepare(fm, r, m)
			if bad != nil {
				if bad.Reason == "" {
					t.Fatalf("%s: an invalid record without a reason", fm.name)
				}
				return nil
			}
			if o.close != nil {
				if !normalize.ValidJobID(o.close.ID) {
					t.Fatalf("%s: accepted a tombstone of an invalid id: %q", fm.name, o.close.ID)
				}
				return nil
			}
			rec := o.rec
			if !normalize.ValidJobID(rec.ID) || rec.Title == "" || rec.Company == "" {
				t.Fatalf("%s: accepted an invalid record: %+v", fm.name, rec.Job)
			}
			for _, u := range []*string{rec.URL, rec.CompanyLogo} {
				if _, safe := normalize.SafeURL(deref(u)); u != nil && !safe {
					t.Fatalf("%s: kept an unsafe URL %q", fm.name, *u)
				}
			}
			if raw := deref(rec.DescriptionRaw); normalize.SanitizeHTML(raw) != raw {
				t.Fatalf("%s: description_raw is not sanitized HTML: %q", fm.name, raw)
			}
			return nil
		})
	})
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
