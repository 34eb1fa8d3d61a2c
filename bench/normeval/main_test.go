package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/biter777/countries"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// The evaluation set is well-formed. This test never runs the normalizer:
// it says nothing about accuracy (that is make eval's job).

var (
	socShape        = regexp.MustCompile(`^\d{2}-\d{4}$`)
	specializations = map[string]bool{"": true, "Backend": true, "Frontend": true, "Full-Stack": true, "Mobile": true,
		"Data": true, "Machine Learning": true, "DevOps/SRE": true, "Security": true, "Embedded": true, "QA": true}
	arrangements = map[string]bool{"": true, "remote": true, "hybrid": true}
	// cityStates have no first-level subdivision in GeoNames.
	cityStates = map[string]bool{"Singapore": true}
)

func evalDir() string { return filepath.Join(repoRoot(), "normalize", "testdata", "eval") }

func load(t *testing.T, ve vocabEval) [][]string {
	t.Helper()
	rows, err := loadTSV(filepath.Join(evalDir(), ve.file), ve.columns)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < ve.minRows {
		t.Errorf("%s: %d rows, want at least %d", ve.file, len(rows), ve.minRows)
	}
	seen := map[string]int{}
	for i, row := range rows {
		if row[0] == "" {
			t.Errorf("%s row %d: empty input", ve.file, i+1)
		}
		key := fold.Fold(row[0])
		if j, dup := seen[key]; dup {
			t.Errorf("%s: input %q of row %d repeats row %d", ve.file, row[0], i+1, j)
		}
		seen[key] = i + 1
	}
	return rows
}

func vocab(name string) vocabEval {
	for _, ve := range vocabs {
		if ve.name == name {
			return ve
		}
	}
	panic(name)
}

// socCodes are the detailed codes of the SOC 2018 structure file of the
// reference data, or nil when there is none.
func socCodes(t *testing.T) map[string]bool {
	dir := defaultRefData(repoRoot())
	if dir == "" {
		return nil
	}
	f, err := os.Open(filepath.Join(dir, "occupations", "bls_soc_2018_structure_definitions.tsv"))
	if err != nil {
		t.Logf("SOC structure file not read: %v", err)
		return nil
	}
	defer f.Close()
	codes := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if fields := strings.Split(sc.Text(), "\t"); len(fields) > 1 && fields[0] == "Detailed" {
			codes[fields[1]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return codes
}

func TestTitlesWellFormed(t *testing.T) {
	rows := load(t, vocab("titles"))
	codes := socCodes(t)
	if codes == nil {
		t.Log("no reference data: SOC codes checked for shape only")
	}
	for _, row := range rows {
		if !socShape.MatchString(row[1]) {
			t.Errorf("%q: SOC code %q is not NN-NNNN", row[0], row[1])
		} else if codes != nil && !codes[row[1]] {
			t.Errorf("%q: %q is not a detailed SOC 2018 occupation", row[0], row[1])
		}
		if !specializations[row[2]] {
			t.Errorf("%q: unknown specialization %q", row[0], row[2])
		}
	}
}

func TestLocationsWellFormed(t *testing.T) {
	for _, row := range load(t, vocab("locations")) {
		if !arrangements[row[2]] {
			t.Errorf("%q: arrangement %q, want remote, hybrid or empty", row[0], row[2])
		}
		places := splitPlaces(row[1])
		if row[1] != "" && len(places) == 0 {
			t.Errorf("%q: places %q name no place", row[0], row[1])
		}
		for _, p := range places {
			parts := strings.Split(p, "/")
			if len(parts) != 3 {
				t.Errorf("%q: place %q is not city/state/country", row[0], p)
				continue
			}
			city, state, country := parts[0], parts[1], parts[2]
			if country == "" || (city != "" && state == "" && !cityStates[country]) {
				t.Errorf("%q: place %q is missing its state or country", row[0], p)
			}
			if countries.ByName(country).String() != country {
				t.Errorf("%q: country %q is not spelled as github.com/biter777/countries prints it", row[0], country)
			}
		}
	}
}

func TestSkillsWellFormed(t *testing.T) {
	for _, row := range load(t, vocab("skills")) {
		if row[1] == "" || row[2] == "" {
			t.Errorf("%q: canonical %q and umbrella %q must both be given", row[0], row[1], row[2])
		}
	}
}

func TestPlaceSet(t *testing.T) {
	a := placeSet([]string{"Zürich/Zurich/Switzerland", "Austin/Texas/United States"})
	b := placeSet(splitPlaces("austin/texas/united states | Zurich/Zurich/Switzerland"))
	if a != b {
		t.Errorf("placeSet: %q != %q", a, b)
	}
}

// noisySet builds the noisy titles from the reference data (its
// directory, the rows and their audit keys), and skips t without it.
func noisySet(t *testing.T) (dir string, rows [][]string, keys []string) {
	t.Helper()
	if dir = defaultRefData(repoRoot()); dir == "" {
		t.Skip("no reference data ($JOBSD_REFDATA or ../shared/data)")
	}
	rows, keys, err := noisyTitles(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, rows, keys
}

// Every row of noisy_audit.tsv names a source title of the noisy set
// with the label the set gives it: an audit that names no row, or a row
// by another label, would set aside nothing or the wrong row.
func TestNoisyAuditNamesRowsOfTheSet(t *testing.T) {
	_, rows, keys := noisySet(t)
	audit, err := loadTSV(filepath.Join(evalDir(), "noisy_audit.tsv"), auditColumns)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loadAudit(filepath.Join(evalDir(), "noisy_audit.tsv")); err != nil {
		t.Fatal(err)
	}
	label := map[string]string{}
	for i, k := range keys {
		label[k] = rows[i][1]
	}
	for _, a := range audit {
		if got, ok := label[a[0]]; !ok {
			t.Errorf("noisy_audit.tsv: key %s is no source title of the noisy set", a[0])
		} else if got != a[1] {
			t.Errorf("noisy_audit.tsv: key %s is labelled %s in the set, not %s", a[0], got, a[1])
		}
	}
	kept, aside := uncontradicted(rows, keys, map[string]bool{audit[0][0]: true})
	if aside != 1 || len(kept) != len(rows)-1 {
		t.Errorf("uncontradicted set aside %d of %d rows, want 1", aside, len(rows))
	}
}

// The noisy titles are built the same on every run, number at least 500,
// repeat no input, and carry a detailed SOC occupation as their label.
func TestNoisyTitlesWellFormed(t *testing.T) {
	dir, rows, keys := noisySet(t)
	if len(keys) != len(rows) {
		t.Fatalf("%d audit keys for %d rows", len(keys), len(rows))
	}
	again, _, err := noisyTitles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(rows, again, slices.Equal[[]string]) {
		t.Error("two builds of the noisy titles differ")
	}
	if len(rows) < 500 {
		t.Errorf("%d noisy titles, want at least 500", len(rows))
	}
	codes := socCodes(t)
	seen := map[string]bool{}
	for _, row := range rows {
		key := fold.Fold(row[0])
		if seen[key] {
			t.Errorf("noisy title %q repeats", row[0])
		}
		seen[key] = true
		if !socShape.MatchString(row[1]) || codes != nil && !codes[row[1]] {
			t.Errorf("%q: %q is not a detailed SOC 2018 occupation", row[0], row[1])
		}
	}
}

// A source title filed under two occupations, with noise of its own, or
// against a team convention is never used.
func TestNoisySourceUsable(t *testing.T) {
	one := map[string]bool{"29-1141": true}
	for _, c := range []struct {
		src  noisySource
		socs map[string]bool
		want bool
	}{
		{noisySource{"Charge Nurse", "29-1141"}, one, true},
		{noisySource{"Charge Nurse", "29-1141"}, map[string]bool{"29-1141": true, "11-9111": true}, false},
		{noisySource{"Senior Nurse", "29-1141"}, one, false},
		{noisySource{"Nurse (ICU)", "29-1141"}, one, false},
		{noisySource{"Consultant", "13-1111"}, map[string]bool{"13-1111": true}, false},
		{noisySource{"Programmer", "15-1251"}, map[string]bool{"15-1251": true}, false},
		{noisySource{"Front End Developer", "15-1254"}, map[string]bool{"15-1254": true}, false},
		{noisySource{"Web Designer", "15-1254"}, map[string]bool{"15-1254": true}, true},
	} {
		if got := usable(c.src, c.socs); got != c.want {
			t.Errorf("usable(%q, %v) = %v, want %v", c.src.title, c.socs, got, c.want)
		}
	}
}

func TestTitleNames(t *testing.T) {
	tests := []struct {
		give string
		want []string
	}{
		{"Watch Technician (Watch Tech)", []string{"Watch Technician (Watch Tech)", "Watch Technician", "Watch Tech"}},
		{"MIG Welder (Metal Inert Gas Welder)", []string{"MIG Welder (Metal Inert Gas Welder)", "MIG Welder", "Metal Inert Gas Welder"}},
		{"Watch Technician", []string{"Watch Technician"}},
		{"Teacher (Special Education) (K-12)", []string{"Teacher (Special Education) (K-12)", "Teacher", "Special Education) (K-12"}},
	}
	for _, tt := range tests {
		if got := titleNames(tt.give); !slices.Equal(got, tt.want) {
			t.Errorf("titleNames(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
}

// The real-postings labels are well-formed, and cover exactly the seeded
// draw from the postings of the reference data (when it is there); the
// held-out set's cover its own draw, of titles the first did not draw.
func TestPostingsLabelsWellFormed(t *testing.T) {
	t.Run("postings.tsv", func(t *testing.T) {
		checkPostingLabels(t, "postings.tsv", sampleDraw, func(ps []posting) []posting { return samplePostings(ps, sampleDraw, nil) })
	})
	t.Run("postings_holdout.tsv", func(t *testing.T) {
		checkPostingLabels(t, "postings_holdout.tsv", holdoutDraw, holdout)
	})
	t.Run("postings_fresh.tsv", func(t *testing.T) {
		checkPostingLabels(t, "postings_fresh.tsv", freshDraw, fresh)
	})
	t.Run("fresh has no posting of the others, nor a near twin", func(t *testing.T) {
		ps := postingsOrSkip(t, "the titles are not compared")
		titles := map[string]string{}
		for _, p := range ps {
			titles[p.ID] = p.Title
		}
		var earlier []postingLabel
		for _, file := range []string{"postings.tsv", "postings_holdout.tsv"} {
			ls, err := loadLabels(filepath.Join(evalDir(), file))
			if err != nil {
				t.Fatal(err)
			}
			earlier = append(earlier, ls...)
		}
		fresh, err := loadLabels(filepath.Join(evalDir(), "postings_fresh.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range fresh {
			if titles[l.ID] == "" {
				t.Errorf("fresh posting %s is not in the postings file", l.ID)
			}
		}
		if kept := withoutTwins(fresh, earlier, titles); len(kept) != len(fresh) {
			t.Errorf("%d fresh postings are near twins of (or are) earlier sets' postings", len(fresh)-len(kept))
		}
	})
	t.Run("disjoint", func(t *testing.T) {
		first, err := loadLabels(filepath.Join(evalDir(), "postings.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		held, err := loadLabels(filepath.Join(evalDir(), "postings_holdout.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, l := range first {
			ids[l.ID] = true
		}
		for _, l := range held {
			if ids[l.ID] {
				t.Errorf("posting %s is labelled in both sets", l.ID)
			}
		}
		ps := postingsOrSkip(t, "the titles are not compared")
		titles := map[string]string{}
		for _, p := range ps {
			titles[p.ID] = p.Title
		}
		taken := map[string]bool{}
		for _, l := range first {
			taken[titleKey(titles[l.ID])] = true
		}
		for _, l := range held {
			if taken[titleKey(titles[l.ID])] {
				t.Errorf("held-out posting %s has a title of the first set", l.ID)
			}
		}
		if d := withoutTwins(held, first, titles); len(d) == len(held) || len(d) == 0 {
			t.Errorf("withoutTwins kept %d of %d held-out titles: it should set aside the near twins and only them", len(d), len(held))
		}
	})
}

// postingsOrSkip reads the postings of the reference data, and skips t
// (saying what is then not checked) without it.
func postingsOrSkip(t *testing.T, unchecked string) []posting {
	t.Helper()
	refData := defaultRefData(repoRoot())
	if refData == "" {
		t.Skip("no reference data ($JOBSD_REFDATA or ../shared/data): " + unchecked)
	}
	ps, err := readPostings(refData)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// checkPostingLabels checks a labels file of the eval directory against
// the draw that gives its postings.
func checkPostingLabels(t *testing.T, file string, d draw, drawOf func([]posting) []posting) {
	labels, err := loadLabels(filepath.Join(evalDir(), file))
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) < d.size {
		t.Errorf("%s: %d rows, want at least %d", file, len(labels), d.size)
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	ids := map[string]bool{}
	for _, l := range labels {
		if !uuid.MatchString(l.ID) || ids[l.ID] {
			t.Errorf("%s: id %q is no uuid or repeats", file, l.ID)
		}
		ids[l.ID] = true
		if l.SOC != "-" && !socShape.MatchString(l.SOC) {
			t.Errorf("%s %s: soc %q is neither a SOC code nor -", file, l.ID, l.SOC)
		}
		if l.Family == "" || (l.SOC == "-") != (l.Family == "none") {
			t.Errorf("%s %s: family %q with soc %q (none goes with -, and only with it)", file, l.ID, l.Family, l.SOC)
		}
	}
	ps := postingsOrSkip(t, "the draw is not checked")
	var drawn []string
	for _, p := range drawOf(ps) {
		drawn = append(drawn, p.ID)
	}
	var labelled []string
	for _, l := range labels {
		labelled = append(labelled, l.ID)
	}
	slices.Sort(labelled)
	if !slices.Equal(drawn, labelled) {
		t.Errorf("%s labels %d postings, the seeded draw has %d: label the draw (normeval --postings-sample, --holdout-sample)", file, len(labelled), len(drawn))
	}
}

func TestFamilyKey(t *testing.T) {
	for in, want := range map[string]string{
		"Process Engineer Intern - Summer 2025": "process engineer",
		"Associate Process Engineer II":         "process engineer",
		"Intern (Fall 2026) – Data Analyst":     "data analyst",
		"Co-op, Mechanical Engineering (8 mo.)": "mechanical engineering",
		"Summer Internship":                     "",
	} {
		if got := familyKey(in); got != want {
			t.Errorf("familyKey(%q) = %q, want %q", in, got, want)
		}
	}
}
