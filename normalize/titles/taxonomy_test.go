// Tests of the taxonomy's own parts: its invariants, the languages' words
// and the occupations of the reference data. Titles are tested through the
// Normalizer in package normalize.

package titles

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadTaxonomy loads the taxonomy of normalize's embedded vocabularies.
func loadTaxonomy(t testing.TB) *Taxonomy {
	t.Helper()
	tx, err := Load(os.DirFS("../vocab"))
	require.NoError(t, err)
	return tx
}

// refDir returns the reference data's directory (JOBSD_REFDATA, else the
// copy beside the repository), skipping t when it holds no occupations.
func refDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("JOBSD_REFDATA")
	if dir == "" {
		dir = "../../../shared/data"
	}
	if _, err := os.Stat(filepath.Join(dir, "occupations", "onet_occupation_data.tsv")); err != nil {
		t.Skipf("no occupations in the reference data at %s", dir)
	}
	return dir
}

// refTaxonomy is the taxonomy with the reference data's occupations, or
// nil without them.
func refTaxonomy(t testing.TB) *Taxonomy {
	t.Helper()
	dir := os.Getenv("JOBSD_REFDATA")
	if dir == "" {
		dir = "../../../shared/data"
	}
	if _, err := os.Stat(filepath.Join(dir, "occupations", "onet_occupation_data.tsv")); err != nil {
		return nil
	}
	tx := loadTaxonomy(t)
	require.NoError(t, tx.LoadOccupations(filepath.Join(dir, "occupations")))
	return tx
}

// TestTitleNames checks the taxonomy's invariants: every category name
// classifies as its own category; every role has a SOC detailed code whose
// major group is its field's; a given category spells canonically.
func TestTitleNames(t *testing.T) {
	plain := loadTaxonomy(t)
	ref := refTaxonomy(t)
	for _, tx := range []*Taxonomy{plain, ref} {
		if tx == nil {
			continue
		}
		for _, c := range tx.cats {
			name := c.name(c.Level)
			got, ok := tx.Classify(name)
			require.True(t, ok, name)
			assert.Equal(t, c, got, name)
			require.Len(t, c.Code, 7, name)
			fieldCode := tx.cats[tx.fieldByMajor[c.Code[:2]]]
			assert.Equal(t, fieldCode.Field, c.Field, name)
			if c.Level == LevelField {
				assert.True(t, strings.HasSuffix(c.Code, "-0000"), name)
			} else {
				assert.Regexp(t, `^\d\d-\d\d\d[1-9]$`, c.Code, name)
			}
		}
	}
	assert.Equal(t, "Computer and Mathematical", plain.FieldOfRole("Software Engineer"))
	if ref != nil {
		assert.Equal(t, "Life, Physical, and Social Science", ref.FieldOfRole("Astronomers"))
	}
}

// The words of other languages are read only when the vocabulary does not
// know them as its own, and German compounds split only before a known
// head and after a known word.
func TestTitleTranslate(t *testing.T) {
	tx := loadTaxonomy(t)
	for _, tt := range []struct {
		give []string
		want []string
	}{
		{[]string{"analista", "sistema"}, []string{"system", "analyst"}}, // head first, as in English
		{[]string{"datenanalyst"}, []string{"data", "analyst"}},
		{[]string{"vertriebsleiter"}, []string{"sale", "manager"}}, // singular, as clean leaves words
		{[]string{"chauffeur"}, []string{"chauffeur"}},
		{[]string{"chef", "projet"}, []string{"project", "manager"}},
		{[]string{"zzzentwickler"}, []string{"zzzentwickler"}},
	} {
		got := tx.translate([][]string{tt.give}, false)
		assert.Equal(t, tt.want, got[0], "%v", tt.give)
	}
}

// TestOccupationsLoad measures the loading of the occupations: time and
// heap (after GC) that the reference data adds to the taxonomy.
func TestOccupationsLoad(t *testing.T) {
	dir := refDir(t)
	tx := loadTaxonomy(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	require.NoError(t, tx.LoadOccupations(dir+"/occupations"))
	took := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
	t.Logf("occupations: %s, %.1f MiB of heap; %d categories, %d phrases, %d words",
		took.Round(time.Millisecond), heap, len(tx.cats), len(tx.phrases), len(tx.words))
	assert.Less(t, heap, 40.0, "MiB of heap")
	// The time is logged, not asserted (the race detector and a loaded
	// machine vary it several-fold); BenchmarkOccupationsLoad measures it.
	runtime.KeepAlive(tx)
}

func TestOccupationsLoadErrors(t *testing.T) {
	tx := loadTaxonomy(t)
	assert.ErrorContains(t, tx.LoadOccupations(t.TempDir()), "bls_soc_2018_structure_definitions.tsv")
}

func BenchmarkOccupationsLoad(b *testing.B) {
	dir := refDir(b)
	var heap float64
	for b.Loop() {
		b.StopTimer()
		tx := loadTaxonomy(b)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		require.NoError(b, tx.LoadOccupations(dir+"/occupations"))
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
		runtime.KeepAlive(tx)
		b.StartTimer()
	}
	b.ReportMetric(heap, "MiB-heap")
}

// A term (a season, a month) is noise before a number and before a
// trainee's word; elsewhere it is a word of the title.
func TestTermWords(t *testing.T) {
	tx := loadTaxonomy(t)
	tests := []struct {
		give string
		want [][]string
	}{
		{"Data Engineering Summer Intern", [][]string{{"data", "engineering"}}},
		{"Payroll Clerk Co-op January-June 2028", [][]string{{"payroll", "clerk"}}},
		{"Summer Co-op - Marketing", [][]string{{"marketing"}}},
		{"Fall Protection Technician", [][]string{{"fall", "protection", "technician"}}},
		{"Summer Camp Counselor", [][]string{{"summer", "camp", "counselor"}}},
	}
	for _, tt := range tests {
		main, _ := tx.split(tt.give)
		assert.Equal(t, stemAll(tt.want), main, tt.give)
	}
}

// stemAll stems words as clean does, for expectations written plainly.
func stemAll(segs [][]string) [][]string {
	out := make([][]string, len(segs))
	for i, seg := range segs {
		for _, w := range seg {
			out[i] = append(out[i], stem(w))
		}
	}
	return out
}

// A reference title whose last word is noise to the cleaning, leaving no
// occupation's word, does not vote: "Sports PT" is no "Sports".
func TestHeadlessTitles(t *testing.T) {
	tx := loadTaxonomy(t)
	tests := []struct {
		give string
		want bool
	}{
		{"Sports PT", true},
		{"Steel Tier", true},
		{"Nurse PRN", false},             // the head stays
		{"Real Estate Appraiser", false}, // nothing dropped
		{"Design Eng", false},            // an abbreviation, not noise
	}
	for _, tt := range tests {
		main, _ := tx.split(tt.give)
		var words []string
		for _, seg := range main {
			words = append(words, seg...)
		}
		assert.Equal(t, tt.want, tx.headless(tt.give, words), tt.give)
	}
}

// A reference title's bracketed part that only qualifies it names
// nothing alone and does not vote; an abbreviation, a repeated head or an
// occupation's word does.
func TestQualifierAsides(t *testing.T) {
	tx := loadTaxonomy(t)
	tests := []struct {
		give string
		want bool
	}{
		{"Charter Pilot (Commercial)", true},
		{"Gunner's Mate (Missiles)", true},
		{"Harbor Pilot (Deep Sea Vessels)", true},
		{"Traffic Signal Technician (TST)", false},          // an abbreviation in capitals
		{"Electromechanical Technologist (EM Tech)", false}, // the head again, abbreviated
		{"Electromechanical Technologist (EM Technologist)", false},
		{"MD (Medical Doctor)", false}, // an occupation's word
		{"Statement Services Rep (Representative)", false},
		{"Disc Jockey (DJ)", false},                                 // an abbreviation in capitals
		{"DJ (Disk Jockey)", false},                                 // a one-word title's gloss
		{"Chem Prep (Chemical Preparer)", false},                    // its words spelled out
		{"NGS Biostatistician (Next-Generation Sequencing)", false}, // initials spelled out
		{"Nursing Facility Therapist (SNF PT)", false},              // capitals
		{"Aviation Systems Operator (Acoustic)", true},
	}
	for _, tt := range tests {
		phrases := tx.phraseWords(tt.give)
		texts := bracketedText(tt.give)
		require.Len(t, phrases, 2, tt.give)
		require.Len(t, texts, 1, tt.give)
		assert.Equal(t, tt.want, tx.qualifier(texts[0], phrases[1], phrases[0]), tt.give)
	}
}

// A head reading is looked up by a segment's last word: a key of two
// words would never match.
func TestHeadReadingsAreOneWord(t *testing.T) {
	raw, err := os.ReadFile("../vocab/titles.json")
	require.NoError(t, err)
	var f titlesFile
	require.NoError(t, json.Unmarshal(raw, &f))
	for head := range f.HeadDisciplines {
		assert.Len(t, strings.Fields(head), 1, "head_disciplines key %q", head)
	}
	for _, r := range f.HeadReadings {
		assert.Len(t, strings.Fields(r.Head), 1, "head_readings head %q", r.Head)
	}
	for k := range f.HeadAbbreviations {
		assert.Len(t, strings.Fields(k), 1, "head_abbreviations key %q", k)
	}
}

// Segments cuts where split ends a segment, and nowhere else.
func TestSegments(t *testing.T) {
	for give, want := range map[string][]string{
		"Nurse - ICU":                   {"Nurse", "ICU"},
		"Marketing Intern - Boston, MA": {"Marketing Intern", "Boston", "MA"},
		"Cook / Baker":                  {"Cook", "Baker"},
		"Chef – Café Olé":               {"Chef", "Café Olé"},
		"Intern: Data":                  {"Intern", "Data"},
		"Co-op/Intern":                  {"Co-op/Intern"},
		"Full-Stack Developer":          {"Full-Stack Developer"},
		"Nurse,, ICU ,":                 {"Nurse", "ICU"},
		"":                              nil,
	} {
		assert.Equal(t, want, Segments(give), give)
	}
}
