package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The second labels are of postings of postings.tsv, once each, with a
// SOC code or "-" and y or n (loadSecondLabels refuses another sure).
func TestSecondLabelsWellFormed(t *testing.T) {
	second, err := loadSecondLabels(filepath.Join(evalDir(), "postings_second.tsv"))
	require.NoError(t, err)
	first, err := loadLabels(filepath.Join(evalDir(), "postings.tsv"))
	require.NoError(t, err)
	labelled := map[string]bool{}
	for _, l := range first {
		labelled[l.ID] = true
	}
	assert.GreaterOrEqual(t, len(second), 300)
	seen := map[string]bool{}
	for _, s := range second {
		assert.True(t, labelled[s.ID], "%s is not a posting of postings.tsv", s.ID)
		assert.False(t, seen[s.ID], "%s is labelled twice", s.ID)
		seen[s.ID] = true
		assert.True(t, s.SOC == "-" || socShape.MatchString(s.SOC), "%s: soc %q", s.ID, s.SOC)
	}
}

// runAgreement counts the second labeller's agreements and the
// normalizer's right answers by kind of row.
func TestRunAgreement(t *testing.T) {
	n, err := normalize.New()
	require.NoError(t, err)
	titles := map[string]string{"a": "Registered Nurse", "b": "Payroll Clerk", "c": "Summer Internship", "d": "Registered Nurse"}
	first := []postingLabel{
		{ID: "a", SOC: "29-1141", Sure: true},
		{ID: "b", SOC: "43-3051", Sure: false},
		{ID: "c", SOC: "-", Sure: false},
		{ID: "d", SOC: "29-1171", Sure: true}, // the normalizer disagrees
	}
	second := []secondLabel{
		{ID: "a", SOC: "29-1141", Sure: true},
		{ID: "b", SOC: "43-3031", Sure: true}, // another clerk: same major group
		{ID: "c", SOC: "-", Sure: true},
		{ID: "d", SOC: "29-1171", Sure: false},
	}
	got, err := runAgreement(n, first, second, titles)
	require.NoError(t, err)
	assert.Equal(t, [3]int{4, 1, 2}, got.rows)
	assert.Equal(t, [3]int{3, 1, 1}, got.same)
	assert.Equal(t, [3]int{3, 1, 2}, got.normalizerRight)
	assert.Equal(t, 4, got.sameMajor)

	_, err = runAgreement(n, first[:1], []secondLabel{{ID: "zz", SOC: "-"}}, titles)
	assert.ErrorContains(t, err, "not labelled in postings.tsv")
}

// A sure column of anything but y or n is refused, in the first labels
// as in the second.
func TestLabelsSureIsYOrN(t *testing.T) {
	tests := []struct {
		name, file string
		load       func(string) error
	}{
		{"second", "id\tsoc\tsure\na\t15-1252\tyes\n", func(p string) error { _, err := loadSecondLabels(p); return err }},
		{"first", "id\tsoc\tfamily\tsure\na\t15-1252\tsoftware\tyes\n", func(p string) error { _, err := loadLabels(p); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tt.name+".tsv")
			require.NoError(t, os.WriteFile(path, []byte(tt.file), 0o644))
			assert.ErrorContains(t, tt.load(path), `posting a: sure is "yes", want y or n`)
		})
	}
}
