package normalize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// titleLanguageRow is a row of testdata/title_languages.tsv: a title in
// Spanish, French, German or Portuguese as a posting in that language
// writes it, and an English title (an alias) of the same role.
type titleLanguageRow struct {
	line                      int
	soc, lang, title, english string
}

// readTitleLanguageRows reads testdata/title_languages.tsv (columns soc,
// lang, title, english, after a header).
func readTitleLanguageRows(t *testing.T) []titleLanguageRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "title_languages.tsv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	require.Equal(t, "soc\tlang\ttitle\tenglish", lines[0], "header")
	langs := map[string]bool{"es": true, "fr": true, "de": true, "pt": true}
	var rows []titleLanguageRow
	for i, l := range lines[1:] {
		cols := strings.Split(l, "\t")
		require.Len(t, cols, 4, "line %d: %q", i+2, l)
		r := titleLanguageRow{line: i + 2, soc: cols[0], lang: cols[1], title: cols[2], english: cols[3]}
		require.Len(t, r.soc, 7, "line %d: SOC code %q", r.line, r.soc)
		require.True(t, langs[r.lang], "line %d: language %q", r.line, r.lang)
		require.NotEmpty(t, r.title, "line %d", r.line)
		require.NotEmpty(t, r.english, "line %d", r.line)
		rows = append(rows, r)
	}
	require.NotEmpty(t, rows)
	return rows
}

// titleSOC is the SOC code of a category, without an O*NET suffix.
func titleSOC(c TitleCategory) string {
	if len(c.Code) > 7 {
		return c.Code[:7]
	}
	return c.Code
}

// Every role family of the English vocabulary is read in Spanish, French,
// German and Portuguese: each title of testdata/title_languages.tsv gets
// the SOC code its English title gets (the row's code), built in and with
// reference data.
func TestTitleLanguagesEveryRole(t *testing.T) {
	rows := readTitleLanguageRows(t)
	eachTitleMode(t, "every role", bothModes, func(t *testing.T, n *Normalizer) {
		for _, r := range rows {
			want, wantOK := n.Title(r.english)
			if !assert.True(t, wantOK && titleSOC(want) == r.soc, "line %d: English %q (%+v) is %s", r.line, r.english, want, r.soc) {
				continue
			}
			got, ok := n.Title(r.title)
			assert.True(t, ok && titleSOC(got) == titleSOC(want), "line %d (%s): %q (%+v) reads as %q (%s %s)",
				r.line, r.lang, r.title, got, r.english, want.Code, want.Role)
		}
	})
}
