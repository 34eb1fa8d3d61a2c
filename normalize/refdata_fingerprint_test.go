package normalize

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
)

// TestRefDataFingerprint builds the normalizer with the reference data and
// hashes everything it holds (vocabularies, gazetteer, taxonomy, with
// indices that depend on map order resolved to what they point at) and
// what it answers for a large sample of inputs: the eval sets and names
// taken from the reference data itself. It checks that two builds hold
// the same.
// With JOBSD_FINGERPRINT=dir it writes each section to dir, so that the
// fingerprints of two versions of the loaders can be compared with diff:
// a change that only makes loading faster must leave them identical.
func TestRefDataFingerprint(t *testing.T) {
	dir := refdatatest.Need(t, refdatatest.Cities)
	if testing.Short() {
		t.Skip("loads the reference data twice")
	}
	out := os.Getenv("JOBSD_FINGERPRINT")
	first := fingerprint(t, dir, out, true, WithCacheDir(""))
	second := fingerprint(t, dir, "", false, WithCacheDir(""))
	for s, sum := range second {
		require.Equal(t, first[s], sum, "two builds of the normalizer differ in %s", s)
	}
	for _, s := range slices.Sorted(maps.Keys(first)) {
		t.Logf("%-12s %s", s, first[s])
	}
}

// fingerprint returns the hash of each section of a normalizer built with
// the reference data under dir (its answers to the sample inputs only
// if answers), writing the sections to outDir if set.
func fingerprint(t *testing.T, dir, outDir string, answers bool, opts ...Option) map[string]string {
	t.Helper()
	n, err := New(append([]Option{WithRefData(dir)}, opts...)...)
	require.NoError(t, err)
	return fingerprintOf(t, n, dir, outDir, answers)
}

// fingerprintOf is fingerprint of the normalizer n.
func fingerprintOf(t *testing.T, n *Normalizer, dir, outDir string, answers bool) map[string]string {
	t.Helper()
	sums := map[string]string{}
	section := func(name string, write func(w io.Writer)) {
		h := sha256.New()
		var w io.Writer = h
		if outDir != "" {
			f, err := os.Create(filepath.Join(outDir, name+".txt"))
			require.NoError(t, err)
			defer f.Close()
			bw := bufio.NewWriter(f)
			defer bw.Flush()
			w = io.MultiWriter(h, bw)
		}
		write(w)
		sums[name] = hex.EncodeToString(h.Sum(nil))[:16]
	}
	section("digest", func(w io.Writer) { fmt.Fprintln(w, n.Digest()); dump(w, reflect.ValueOf(n.Sources()), 0) })
	vocabs := map[string]*Vocab{"skills": n.Skills, "tools": n.Tools, "technical": n.TechnicalSkills, "soft": n.SoftSkills,
		"certs": n.Certifications, "benefits": n.Benefits, "majors": n.EducationMajors, "levels": n.EducationLevels,
		"visas": n.Visas, "clearances": n.SecurityClearances, "employment": n.EmploymentTypes, "arrangements": n.WorkArrangements}
	section("vocabs", func(w io.Writer) {
		// Package terms' fields, read by reflection; the typo index's
		// hashes are resolved to the keys they point to.
		for _, name := range slices.Sorted(maps.Keys(vocabs)) {
			v := reflect.ValueOf(vocabs[name]).Elem()
			fmt.Fprintf(w, "== %s derive=%v hand=%d owned=%d termWords=%d\n", name, v.FieldByName("derive").Bool(),
				v.FieldByName("hand").Int(), v.FieldByName("owned").Int(), v.FieldByName("termWords").Int())
			dump(w, v.FieldByName("terms"), 0)
			dump(w, v.FieldByName("all"), 0)
			dump(w, v.FieldByName("byName"), 0)
			if x := v.FieldByName("typos"); !x.IsNil() {
				x = x.Elem()
				fmt.Fprintf(w, "typos size=%d\n", x.FieldByName("size").Int())
				keys, terms, named := x.FieldByName("keys"), x.FieldByName("terms"), x.FieldByName("named")
				var lines []string
				for i := range keys.Len() {
					lines = append(lines, fmt.Sprintf("%s %s %v", keys.Index(i).String(),
						terms.Index(i).Elem().FieldByName("Name").String(), named.Index(i).Bool()))
				}
				slices.Sort(lines)
				fmt.Fprintln(w, strings.Join(lines, "\n"))
				many := x.FieldByName("many")
				var near []string
				for it := x.FieldByName("near").MapRange(); it.Next(); {
					var ks []string
					if i := int(it.Value().Int()); i >= 0 {
						ks = []string{keys.Index(i).String()}
					} else {
						list := many.Index(-i - 1)
						for j := range list.Len() {
							ks = append(ks, keys.Index(int(list.Index(j).Int())).String())
						}
						slices.Sort(ks)
					}
					near = append(near, fmt.Sprintf("%x %s", it.Key().Uint(), strings.Join(ks, ",")))
				}
				slices.Sort(near)
				fmt.Fprintln(w, strings.Join(near, "\n"))
			}
		}
	})
	section("gazetteer", func(w io.Writer) {
		// Package places' fields, by reflection; the points are derived
		// on first use, and not dumped.
		dumpFields(w, reflect.ValueOf(n.geo).Elem(), "pointsOnce", "nearPoints")
	})
	section("taxonomy", func(w io.Writer) {
		// The typos index is keyed by hashes whose words are resolved;
		// package titles' fields are read by reflection.
		tx := reflect.ValueOf(n.taxonomy).Elem()
		dumpFields(w, tx, "typos", "typoWord")
		typos, typoWord := tx.FieldByName("typos"), tx.FieldByName("typoWord")
		var lines []string
		for it := typos.MapRange(); it.Next(); {
			word := "-"
			if i := it.Value().Int(); i >= 0 {
				word = typoWord.Index(int(i)).String()
			}
			lines = append(lines, fmt.Sprintf("%x %s", it.Key().Uint(), word))
		}
		slices.Sort(lines)
		fmt.Fprintln(w, strings.Join(lines, "\n"))
		fmt.Fprintln(w, typoWord.Len())
	})
	if !answers {
		return sums
	}
	inputs := fingerprintInputs(t, dir)
	section("answers", func(w io.Writer) {
		for _, s := range inputs {
			fmt.Fprintf(w, "%q\n", s)
			cat, ok := n.Title(s)
			fmt.Fprintf(w, " title %+v %v\n", cat, ok)
			fmt.Fprintf(w, " loc %+v\n", n.ParseLocation(s))
			fmt.Fprintf(w, " city %q state %q country %q\n", n.City(s), n.State(s), n.Country(s))
			name, umbrella, ok := n.Skill(s)
			fmt.Fprintf(w, " skill %q %q %v\n", name, umbrella, ok)
			for _, vn := range slices.Sorted(maps.Keys(vocabs)) {
				if t, ok := vocabs[vn].Lookup(s); ok {
					fmt.Fprintf(w, " %s %+v\n", vn, *t)
				}
			}
		}
	})
	return sums
}

// fingerprintInputs returns the inputs of the eval sets and a sample of
// names from the reference data: place names with their subdivision
// codes, occupation titles, technologies and tags.
func fingerprintInputs(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, f := range []string{"titles.tsv", "locations.tsv", "skills.tsv"} {
		eachLine(t, filepath.Join("testdata/eval", f), func(i int, cols []string) {
			if i > 0 {
				out = append(out, cols[0])
			}
		})
	}
	eachLine(t, filepath.Join(dir, "locations/geonames_cities15000.txt.gz"), func(i int, cols []string) {
		if i%7 == 0 {
			out = append(out, cols[1], cols[2]+", "+cols[10], cols[1]+", "+cols[8])
		}
		if i%31 == 0 {
			for alt := range strings.SplitSeq(cols[3], ",") {
				out = append(out, alt)
			}
		}
	})
	eachLine(t, filepath.Join(dir, "occupations/onet_alternate_titles.tsv.gz"), func(i int, cols []string) {
		if i%5 == 1 {
			out = append(out, cols[2])
		}
	})
	eachLine(t, filepath.Join(dir, "occupations/onet_sample_of_reported_titles.tsv.gz"), func(i int, cols []string) {
		if i%3 == 1 {
			out = append(out, cols[2])
		}
	})
	eachLine(t, filepath.Join(dir, "skills/onet_technology_skills.tsv.gz"), func(i int, cols []string) {
		if i%5 == 1 && len(cols) > 1 {
			out = append(out, cols[1])
		}
	})
	eachLine(t, filepath.Join(dir, "skills/stackoverflow_tags.csv.gz"), func(i int, cols []string) {
		if i%4 == 1 {
			name, _, _ := strings.Cut(cols[0], ",")
			out = append(out, strings.Trim(name, `"`), strings.ReplaceAll(strings.Trim(name, `"`), "-", " "))
		}
	})
	return out
}

// eachLine calls each with the index and tab-separated columns of every
// line of a file, gzip'd when its name ends in .gz.
func eachLine(t *testing.T, path string, each func(i int, cols []string)) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		require.NoError(t, err)
		r = zr
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<22)
	for i := 0; sc.Scan(); i++ {
		each(i, strings.Split(sc.Text(), "\t"))
	}
	require.NoError(t, sc.Err())
}

// dump writes v in a canonical text form: pointers followed, map entries
// sorted, functions left out.
// dumpFields dumps the fields of struct v but those named skip.
func dumpFields(w io.Writer, v reflect.Value, skip ...string) {
	fmt.Fprint(w, "{")
	for i := range v.NumField() {
		if name := v.Type().Field(i).Name; !slices.Contains(skip, name) {
			fmt.Fprintf(w, "%s:", name)
			dump(w, v.Field(i), 1)
			fmt.Fprint(w, " ")
		}
	}
	fmt.Fprintln(w, "}")
}

func dump(w io.Writer, v reflect.Value, depth int) {
	if depth > 12 {
		fmt.Fprint(w, "…")
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			fmt.Fprint(w, "nil")
			return
		}
		dump(w, v.Elem(), depth+1)
	case reflect.Struct:
		fmt.Fprint(w, "{")
		for i := range v.NumField() {
			if k := v.Field(i).Kind(); k == reflect.Func || k == reflect.Chan || k == reflect.UnsafePointer {
				continue
			}
			fmt.Fprintf(w, "%s:", v.Type().Field(i).Name)
			dump(w, v.Field(i), depth+1)
			fmt.Fprint(w, " ")
		}
		fmt.Fprint(w, "}")
	case reflect.Slice, reflect.Array:
		fmt.Fprint(w, "[")
		for i := range v.Len() {
			dump(w, v.Index(i), depth+1)
			fmt.Fprint(w, ",")
		}
		fmt.Fprint(w, "]")
	case reflect.Map:
		lines := make([]string, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			var b strings.Builder
			dump(&b, it.Key(), depth+1)
			b.WriteString(" => ")
			dump(&b, it.Value(), depth+1)
			lines = append(lines, b.String())
		}
		slices.Sort(lines)
		fmt.Fprintf(w, "map[%d\n", len(lines))
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
		fmt.Fprint(w, "]")
	case reflect.String:
		fmt.Fprintf(w, "%q", v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fmt.Fprint(w, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		fmt.Fprint(w, v.Uint())
	case reflect.Float32, reflect.Float64:
		fmt.Fprint(w, v.Float())
	case reflect.Bool:
		fmt.Fprint(w, v.Bool())
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
	default:
		fmt.Fprintf(w, "<%s>", v.Kind())
	}
}
