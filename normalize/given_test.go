package normalize

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
)

// storedForm is what the store gives back of a normalized record: lists
// never nil, the given values apart.
func storedForm(j domain.Job) domain.Job {
	for _, l := range []*[]string{&j.Location.City, &j.Location.State, &j.Location.Country, &j.Skills, &j.Tools,
		&j.TechnicalSkills, &j.SoftSkills, &j.Benefits, &j.EducationLevels, &j.EducationMajors, &j.Certifications,
		&j.VisaSponsorship, &j.Responsibilities, &j.RequiredQualifications, &j.PreferredQualifications,
		&j.Education, &j.VisaRequirements} {
		if *l == nil {
			*l = []string{}
		}
	}
	return j
}

func TestGivenValuesRestoreTheRecord(t *testing.T) {
	n, err := New()
	require.NoError(t, err)
	str := func(s string) *string { return &s }
	num := func(f float64) *float64 { return &f }
	for _, tc := range []struct {
		name     string
		in       domain.Job
		kept     []string // fields whose given value is kept
		notGiven bool     // every value stored as given
	}{
		{
			name: "respelled and derived values",
			in: domain.Job{ID: "src-1", Title: "Senior Backend Engineer", Company: "Acme",
				Location: domain.Location{Full: "Remote - Austin TX"}, Skills: []string{"golang", "k8s"},
				VisaSponsorship: []string{"h1b"}, Salary: &domain.Salary{Min: num(100), Max: num(200), Period: str("per year"), Currency: str("usd")}},
			kept: []string{"location", "skills", "visa_sponsorship", "salary", "category", "work_arrangement"},
		},
		{
			name: "canonical already",
			in: domain.Job{ID: "src-2", Title: "Unrecognizable Title Words", Company: "Acme",
				Location: domain.Location{City: []string{}, State: []string{}, Country: []string{}}, Skills: []string{"Go"}},
			notGiven: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := n.Job(tc.in)
			require.NoError(t, err)
			if tc.notGiven {
				assert.Nil(t, rec.Given)
			} else {
				var fields map[string]json.RawMessage
				require.NoError(t, json.Unmarshal(rec.Given, &fields))
				for _, f := range tc.kept {
					assert.Contains(t, fields, f)
				}
				assert.NotContains(t, fields, "title", "a title is stored as given")
			}
			given, err := Given(storedForm(rec.Job), rec.Given)
			require.NoError(t, err)
			again, err := n.Job(given)
			require.NoError(t, err)
			assert.Equal(t, rec.Job, again.Job, "normalizing the given values again gives the stored record")
			assert.Equal(t, rec.FilterKeys, again.FilterKeys)
			assert.JSONEq(t, string(orEmpty(rec.Given)), string(orEmpty(again.Given)))
			assert.Equal(t, tc.in.Skills, given.Skills, "the given skills come back")
			assert.Equal(t, tc.in.Location.Full, given.Location.Full, "the given location text comes back")
		})
	}
}

func orEmpty(b []byte) []byte {
	if b == nil {
		return []byte("{}")
	}
	return b
}

func TestGivenRejectsWhatItCannotRestore(t *testing.T) {
	_, err := Given(domain.Job{ID: "x-1"}, []byte(`{"no_such_field": 1}`))
	assert.ErrorContains(t, err, "no_such_field")
	_, err = Given(domain.Job{ID: "x-1"}, []byte(`{"skills": 1}`))
	assert.ErrorContains(t, err, "skills")
	_, err = Given(domain.Job{ID: "x-1"}, []byte(`not json`))
	assert.Error(t, err)
}
