// Reference data: the Normalizer's options and the sources of the data it uses.

package normalize

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"
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
	refData     string
	now         func() time.Time
	cacheDir    string // WithCacheDir's, when cacheDirSet
	cacheDirSet bool
}

// clock is the clock the options set, time.Now by default.
func (o *options) clock() func() time.Time {
	if o.now != nil {
		return o.now
	}
	return time.Now
}

// WithClock sets the clock that relative filters (posted_within) count
// from; tests use it.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

// WithRefData makes New read the reference data under dir (laid out as in
// ../shared/data: locations/, occupations/,
// skills/, each with its PROVENANCE.md). An empty dir reads none.
func WithRefData(dir string) Option {
	return func(o *options) { o.refData = dir }
}

// loadRefData reads what the normalizer uses of the reference data: the
// places, the skills and the occupations, side by side (each loader has
// its own structures; a third of the time of one after the other on two
// cores is the longest of them).
func (n *Normalizer) loadRefData(dir string) error {
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("reference data: %w", err)
	}
	var g errgroup.Group
	var skills bool
	g.Go(func() error {
		if err := n.geo.LoadGeoNames(filepath.Join(dir, "locations")); err != nil {
			return fmt.Errorf("reference data: %w", err)
		}
		return nil
	})
	g.Go(func() (err error) {
		skills, err = n.addSkillsRefData(dir)
		return err
	})
	g.Go(func() error {
		if err := n.loadOccupations(filepath.Join(dir, "occupations")); err != nil {
			return fmt.Errorf("reference data: %w", err)
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return err
	}
	n.sources = append(n.sources, Source{
		Name:        "GeoNames cities15000 and admin1 codes",
		Licence:     "CC BY 4.0",
		Attribution: "Contains data from GeoNames (https://www.geonames.org), licensed under CC BY 4.0.",
	})
	if skills {
		n.sources = append(n.sources, skillSources...)
	}
	n.sources = append(n.sources, occupationSources...)
	return nil
}
