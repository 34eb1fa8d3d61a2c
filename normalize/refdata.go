package normalize

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/biter777/countries"
)

// Source is a body of data the normalizer uses, with what its licence
// asks users to be told.
type Source struct {
	Name        string `json:"name"`
	Licence     string `json:"licence"`
	Attribution string `json:"attribution"`
}

// Sources lists the data the normalizer was built from.
func (n *Normalizer) Sources() []Source {
	return slices.Clone(n.sources)
}

// Option configures New.
type Option func(*options)

type options struct {
	refData string
	now     func() time.Time
}

// WithClock sets the clock that relative filters (posted_within) count
// from; tests use it.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

// WithRefData makes New read the reference data under dir (contract
// section 5; laid out as in ../shared/data: locations/, occupations/,
// skills/, each with its PROVENANCE.md). An empty dir reads none.
func WithRefData(dir string) Option {
	return func(o *options) { o.refData = dir }
}

// loadRefData reads what the normalizer uses of the reference data.
func (n *Normalizer) loadRefData(dir string) error {
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("reference data: %w", err)
	}
	if err := n.geo.loadGeoNames(filepath.Join(dir, "locations")); err != nil {
		return fmt.Errorf("reference data: %w", err)
	}
	n.sources = append(n.sources, Source{
		Name:        "GeoNames cities15000 and admin1 codes",
		Licence:     "CC BY 4.0",
		Attribution: "Contains data from GeoNames (https://www.geonames.org), licensed under CC BY 4.0.",
	})
	if err := n.loadSkillsRefData(dir); err != nil {
		return err
	}
	if err := n.loadOccupations(filepath.Join(dir, "occupations")); err != nil {
		return fmt.Errorf("reference data: %w", err)
	}
	return nil
}

// loadGeoNames adds GeoNames' cities (over 15,000 people) and first-level
// subdivisions to the gazetteer. The curated vocabulary stays first among
// a name's candidates; GeoNames' follow by population, so "Portland" is
// still Oregon's and "Cambridge, ON" finds Ontario's.
func (g *gazetteer) loadGeoNames(dir string) error {
	admin1, err := g.loadAdmin1(filepath.Join(dir, "geonames_admin1_codes.tsv"))
	if err != nil {
		return err
	}
	f, err := os.Open(filepath.Join(dir, "geonames_cities15000.txt.gz"))
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("geonames cities: %w", err)
	}
	countryNames := map[string]string{}
	added := map[string]bool{}
	for _, cs := range g.cities {
		for _, c := range cs {
			added[c.Name+"|"+c.State+"|"+c.Country] = true
		}
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<22)
	line := 0
	for sc.Scan() {
		line++
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 15 {
			return fmt.Errorf("geonames cities line %d: %d columns, want 19", line, len(cols))
		}
		cc := cols[8]
		country, ok := countryNames[cc]
		if !ok {
			if code := countries.ByName(cc); code != countries.Unknown {
				country = code.String()
			}
			if name, alias := g.countryAliases[Fold(country)]; alias {
				country = name
			}
			countryNames[cc] = country
		}
		pop, _ := strconv.Atoi(cols[14])
		c := &city{Name: cols[1], State: admin1[cc+"."+cols[10]], Country: country, population: pop}
		key := c.Name + "|" + c.State + "|" + c.Country
		if c.Country == "" || added[key] {
			continue
		}
		added[key] = true
		names := []string{cols[1], cols[2]}
		for _, alt := range strings.Split(cols[3], ",") {
			if usableAlternate(alt) {
				names = append(names, alt)
			}
		}
		seen := map[string]bool{}
		for _, name := range names {
			k := Fold(name)
			if k != "" && !seen[k] {
				seen[k] = true
				g.cities[k] = append(g.cities[k], c)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("geonames cities: %w", err)
	}
	for _, cs := range g.cities {
		slices.SortStableFunc(cs, func(a, b *city) int { return b.rank() - a.rank() })
	}
	return nil
}

// usableAlternate keeps alternate names a person would type: written in
// Latin letters, capitalized, four characters or more. It drops airport
// codes (LON, YXU) and lower-case transliterations of other scripts.
func usableAlternate(s string) bool {
	r := []rune(s)
	if len(r) < 4 || !unicode.IsUpper(r[0]) {
		return false
	}
	for _, c := range r {
		if !(unicode.In(c, unicode.Latin) || c == ' ' || c == '-' || c == '.' || c == '\'') {
			return false
		}
	}
	return strings.ToUpper(s) != s
}

// loadAdmin1 reads GeoNames' first-level subdivisions, adds those the
// gazetteer lacks as states, and returns their names by "CC.code".
func (g *gazetteer) loadAdmin1(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 || strings.HasPrefix(cols[0], "#") {
			continue
		}
		cc, _, _ := strings.Cut(cols[0], ".")
		country := ""
		if code := countries.ByName(cc); code != countries.Unknown {
			country = code.String()
		}
		name := cols[1]
		// The curated name wins where both know the subdivision.
		if st, ok := g.state(name, country); ok {
			name = st.Name
		} else if country != "" {
			st := &state{Name: name, Country: country}
			for _, k := range []string{name, cols[2]} {
				g.statesByName[Fold(k)] = append(g.statesByName[Fold(k)], st)
			}
		}
		out[cols[0]] = name
	}
	if err := sc.Err(); err != nil && err != io.EOF {
		return nil, fmt.Errorf("geonames admin1: %w", err)
	}
	return out, nil
}
