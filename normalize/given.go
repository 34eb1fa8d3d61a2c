// Given values: a source's values kept beside the normalized ones, so a record can be normalized again.

package normalize

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/sameval"
)

// The values a source gave are kept beside the normalized ones (as
// "given"), so that a record can be normalized again after the
// vocabularies change (jobsd renormalize) without the source at hand. Only
// the fields whose given value differs from the stored one are kept: most
// values are stored as given, and a stored record with its given values
// laid over it is the record as its source gave it.

// storedSuffices are the fields whose stored value, normalized again,
// gives itself whatever the vocabularies: normalization only trims them,
// sanitizes them (description_raw: SanitizeHTML of its result is itself),
// fills them from each other (description from description_raw) or from
// the id (source). Their given value is not kept. They include the long
// texts of a posting.
var storedSuffices = map[string]bool{
	"summary": true, "description": true, "description_raw": true, "responsibilities": true,
	"required_qualifications": true, "preferred_qualifications": true, "visa_requirements": true, "education": true,
	"source": true,
}

// jobFields are domain.Job's fields by their JSON names, those kept when
// they differ.
var jobFields = func() map[string]int {
	t := reflect.TypeFor[domain.Job]()
	out := map[string]int{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" && !storedSuffices[name] {
			out[name] = i
		}
	}
	return out
}()

// snapshot copies what normalization changes in place of a job (its
// salary), so that the given values can be compared with the normalized
// ones afterwards.
func snapshot(j domain.Job) domain.Job {
	if j.Salary != nil {
		s := *j.Salary
		j.Salary = &s
	}
	j.Location.City = slices.Clone(j.Location.City)
	j.Location.State = slices.Clone(j.Location.State)
	j.Location.Country = slices.Clone(j.Location.Country)
	return j
}

// givenDiff returns the given values of the fields where they differ from
// the normalized job, as a JSON object; nil when every field was stored as
// given. An empty list and no list are the same.
func givenDiff(given, normalized *domain.Job) ([]byte, error) {
	g, s := reflect.ValueOf(given).Elem(), reflect.ValueOf(normalized).Elem()
	var diff map[string]any
	for name, i := range jobFields {
		if !sameval.Equal(g.Field(i), s.Field(i)) {
			if diff == nil {
				diff = map[string]any{}
			}
			diff[name] = g.Field(i).Interface()
		}
	}
	if diff == nil {
		return nil, nil
	}
	b, err := json.Marshal(diff)
	if err != nil {
		return nil, fmt.Errorf("given values of job %q: %w", given.ID, err)
	}
	return b, nil
}

// Given returns the job as its source gave it: the stored job with the
// given values (a record's Given) laid over it.
func Given(stored domain.Job, given []byte) (domain.Job, error) {
	if len(given) == 0 {
		return stored, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(given, &fields); err != nil {
		return stored, fmt.Errorf("given values of job %q: %w", stored.ID, err)
	}
	v := reflect.ValueOf(&stored).Elem()
	for name, raw := range fields {
		i, ok := jobFields[name]
		if !ok {
			return stored, fmt.Errorf("given values of job %q: unknown field %q", stored.ID, name)
		}
		f := v.Field(i)
		f.SetZero()
		if err := json.Unmarshal(raw, f.Addr().Interface()); err != nil {
			return stored, fmt.Errorf("given values of job %q: field %s: %w", stored.ID, name, err)
		}
	}
	return stored, nil
}

// Rederive normalizes a stored job again by today's rules, from the
// values its source gave (Given); jobsd renormalize runs it on every job.
func (n *Normalizer) Rederive(stored domain.Job, given []byte) (domain.JobRecord, error) {
	job, err := Given(stored, given)
	if err != nil {
		return domain.JobRecord{}, err
	}
	return n.Job(job)
}
