// Package normalize is jobsd's one normalization package (contract section
// 5). It interprets filter values at query time and enriches records at
// import with the same vocabularies, so a value a job was stored with is
// found by the words a user would type.
//
// The Normalizer (this file) is the one front callers use. It composes
// the parts, each a package of its own: normalize/places (the gazetteer:
// location text, canonical places, cities as points), normalize/terms (the
// vocabularies of skills, tools, visas and the other lists),
// normalize/titles (the title taxonomy and classifier), and
// normalize/fold (the forms text is compared in). Its own files are the
// front's methods over them (places.go, skills.go, titles.go,
// category.go, near.go), records and queries (job.go, given.go,
// bounds.go, query.go, refdata.go, digest.go), text facts (extract.go,
// text.go, sanitize.go), the suggestions' terms (suggest.go), and the
// cache of the normalizer compiled from the reference data
// (refdata_cache.go, refdata_codec.go: each part encodes its own section,
// through internal/wire). The embedded vocabularies (vocab/*.json) stay
// here: the parts read them from the directory vocabDir gives, and the
// digest names them by path.
package normalize

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/normalize/places"
	"github.com/jobsd-dev/jobsd/normalize/terms"
	"github.com/jobsd-dev/jobsd/normalize/titles"

	"github.com/jobsd-dev/jobsd/domain"
)

//go:embed vocab/*.json
var vocabFS embed.FS

// vocabDir is the embedded vocabularies' directory, for the parts that
// read their own (titles).
func vocabDir() fs.FS {
	dir, err := fs.Sub(vocabFS, "vocab")
	if err != nil {
		panic(err) // vocab is embedded: only a typo above reaches this
	}
	return dir
}

// Normalizer holds the vocabularies. It is safe for concurrent use.
type Normalizer struct {
	Skills, Tools, TechnicalSkills, SoftSkills, Certifications *Vocab
	Benefits, EducationMajors, EducationLevels, Visas          *Vocab
	SecurityClearances, EmploymentTypes, WorkArrangements      *Vocab

	geo      *places.Gazetteer
	taxonomy *titles.Taxonomy
	sources  []Source
	digest   string           // names the vocabularies (Digest)
	now      func() time.Time // the clock of posted_within

}

// New loads the vocabularies written in the project and, with
// WithRefData, the reference data of a directory; what it compiles from
// the reference data is kept in a cache file (WithCacheDir) that later
// calls read instead.
func New(opts ...Option) (*Normalizer, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.refData != "" {
		if dir := o.cacheDirOf(); dir != "" {
			if _, err := os.Stat(o.refData); err == nil {
				return newCached(&o, dir, func(sum []byte) (*Normalizer, error) { return build(&o, sum) })
			}
		}
	}
	sum, err := vocabularySum(o.refData)
	if err != nil {
		return nil, err
	}
	return build(&o, sum)
}

// build builds the normalizer of o from the embedded vocabularies and the
// reference data; sum is their vocabularySum.
func build(o *options, sum []byte) (*Normalizer, error) {
	n := &Normalizer{sources: []Source{{
		Name:        "jobsd's own vocabularies (normalize/vocab)",
		Licence:     "the project's",
		Attribution: "Written by the jobsd team.",
	}}, now: o.clock()}
	for file, dst := range map[string]**Vocab{
		"skills.json": &n.Skills, "tools.json": &n.Tools, "technical_skills.json": &n.TechnicalSkills,
		"soft_skills.json": &n.SoftSkills, "certifications.json": &n.Certifications, "benefits.json": &n.Benefits,
		"education_majors.json": &n.EducationMajors, "education_levels.json": &n.EducationLevels,
		"visas.json": &n.Visas, "security_clearances.json": &n.SecurityClearances,
		"employment_types.json": &n.EmploymentTypes, "work_arrangements.json": &n.WorkArrangements,
	} {
		v, err := terms.Load(vocabDir(), file)
		if err != nil {
			return nil, fmt.Errorf("load vocabulary: %w", err)
		}
		*dst = v
	}
	var err error
	if n.geo, err = places.Load(vocabDir()); err != nil {
		return nil, fmt.Errorf("load gazetteer: %w", err)
	}
	if n.taxonomy, err = titles.Load(vocabDir()); err != nil {
		return nil, fmt.Errorf("load title taxonomy: %w", err)
	}
	if o.refData != "" {
		if err := n.loadRefData(o.refData); err != nil {
			return nil, err
		}
	}
	n.Skills.IndexTypos(n.knownElsewhere)
	n.digest = digestName(o.refData, sum)
	return n, nil
}

// WorkArrangement returns the work arrangement s names ("on-site" →
// onsite), and false when it names none.
func (n *Normalizer) WorkArrangement(s string) (domain.WorkArrangement, bool) {
	t, ok := n.WorkArrangements.Lookup(s)
	if !ok {
		return "", false
	}
	return domain.WorkArrangement(t.Name), true
}

// EmploymentType returns the employment type s names ("FT" → full-time),
// and false when it names none of the contract's.
func (n *Normalizer) EmploymentType(s string) (string, bool) {
	t, ok := n.EmploymentTypes.Lookup(s)
	if !ok {
		return "", false
	}
	return t.Name, true
}

// EmploymentTypeNames lists the contract's employment types.
func EmploymentTypeNames() []string {
	return []string{"full-time", "part-time", "contract", "internship", "temporary", "volunteer"}
}

// Period returns the canonical salary period of s (annual, monthly, weekly,
// daily, hourly) and the factor that annualizes an amount paid per it.
func Period(s string) (period string, factor float64, ok bool) {
	switch fold.Squash(s) {
	case "annual", "annually", "year", "yearly", "peryear", "ayear", "yr", "pa", "perannum", "annum", "salary":
		return "annual", 1, true
	case "monthly", "month", "permonth", "mo", "amonth":
		return "monthly", 12, true
	case "weekly", "week", "perweek", "wk", "aweek":
		return "weekly", 52, true
	case "daily", "day", "perday", "aday":
		return "daily", 260, true
	case "hourly", "hour", "perhour", "hr", "anhour", "ph":
		return "hourly", 2080, true
	}
	return strings.TrimSpace(s), 0, false
}

// Skill reads a value of a skills list: its canonical name and its top
// umbrella skill ("EKS" → EKS, AWS). A skills list names certifications,
// tools and technical and soft skills too ("BLS", "Westlaw", "Prospecting"):
// a value the skills vocabulary does not know is read with those
// vocabularies, in that order, with their umbrellas. ok is false when
// no vocabulary knows it; name and umbrella are then s trimmed.
func (n *Normalizer) Skill(s string) (name, umbrella string, ok bool) {
	if name, umbrella, ok := n.Skills.Read(s); ok {
		return name, umbrella, true
	}
	for _, v := range []*Vocab{n.Certifications, n.TechnicalSkills, n.SoftSkills, n.Tools} {
		if name, umbrella, ok := v.ReadSure(s); ok { // no guesses from a value's first words
			return name, umbrella, true
		}
	}
	c := fold.Collapse(s)
	return c, c, false
}
