// Package titles reads job titles into the categories of jobsd's title
// taxonomy (field, role, specialization, aligned with the US SOC 2018):
// the taxonomy of vocab/titles.json and title_languages.json, with the
// occupations of the reference data when given, and the classifier. The
// Normalizer (package normalize) is its front: it loads a Taxonomy and
// asks it.
package titles

import (
	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// Level is how specific a category is.
type Level int

// Category levels, from least to most specific.
const (
	LevelNone Level = iota
	LevelField
	LevelRole
	LevelSpecialization
)

// Category is a category of the title taxonomy. Members more specific
// than Level are "".
type Category struct {
	Field, Role, Specialization string
	Level                       Level
	// Code is the US SOC 2018 code of the role's detailed occupation
	// ("15-1252"), or of the field's major group ("15-0000") when Level is
	// LevelField; "" when the taxonomy does not know it. A specialization
	// that the SOC has as an occupation of its own has that one's code
	// (Software Engineer / QA is 15-1253, software quality assurance).
	Code string
}

// The taxonomy (vocab/titles.json, and the occupations of the reference
// data with WithRefData) is aligned with the US SOC 2018: a field is a
// major group ("Computer and Mathematical"), a role a detailed occupation
// (15-1252 "Software Engineer") and a specialization a kind of it that job
// seekers look for ("Backend"), or an O*NET occupation below the detailed
// one (29-1141.03 "Critical Care Nurses"). Several hand-written roles may
// share one SOC occupation where postings tell them apart (Product Manager
// and Marketing Manager are both 11-2021); the first one in titles.json is
// the one the reference data's titles of that occupation name.
//
// A title is read as follows. Its text is cut into segments at " - ",
// ", ", " | ", " @ ", " at ", " to " and the like; what stands in brackets
// becomes a segment aside. Each segment is reduced to words: folded,
// abbreviations expanded ("Mgr" → manager), compounds joined ("back end" →
// backend), noise dropped (seniority, levels, "Remote", pay, shift and
// contract words, numbers), plurals made singular, and a long word the
// vocabulary does not know corrected when one letter away from one it
// knows.
//
// Phrases (the names and aliases of categories, and with reference data
// the occupations' titles) are indexed as sets of words, so that word
// order does not matter ("Manager, Software Engineering"). The words of a
// title are weighted by how rare they are among the phrases (IDF); a word
// the vocabulary does not know weighs as a rare one, soft (seniority-like)
// and modifier (technology) words weigh little. The category is the one of
// the heaviest phrase whose words are all in the title, provided it covers
// enough of the title's weight: garbage stays unrecognized instead of
// getting a wrong answer. A role beats a field, and a phrase holding the
// title's head word (the last of the first segment: "Nurse Recruiter")
// beats one without it. Phrases that name no single occupation
// ("engineer", "manager") name nothing alone; when one is the head word,
// the phrase must hold it ("Manager, Software Engineering", "Assistant to
// the CEO").
//
// The first segment is read alone first, then with the following ones
// until a role is found, so that team and place fragments ("Software
// Engineer - Payments, NYC") do not count against it; a later segment may
// still make the phrase more precise ("Project Manager - Construction").
// A role is then narrowed to the specialization whose keywords appear
// earliest in the title ("Registered Nurse - ICU").

// name returns the member of c at level.
func (c Category) name(level Level) string {
	switch level {
	case LevelField:
		return c.Field
	case LevelRole:
		return c.Role
	case LevelSpecialization:
		return c.Specialization
	}
	return ""
}

// Canonical returns the canonical name of a category member at level: by
// its name, else by a phrase naming that level or a more specific one; s
// trimmed when unknown.
func (t *Taxonomy) Canonical(s string, level Level) string {
	if name, ok := t.names[level][fold.Fold(s)]; ok {
		return name
	}
	if c, ok := t.Classify(s); ok && c.Level >= level {
		return c.name(level)
	}
	return fold.Collapse(s)
}

// Named returns the category of the level with the canonical name, and
// false when the taxonomy has none (names are unique across levels).
func (t *Taxonomy) Named(name string, level Level) (Category, bool) {
	id, ok := t.named(name, level)
	if !ok {
		return Category{}, false
	}
	return t.cats[id], true
}

// named is Named's category id.
func (t *Taxonomy) named(name string, level Level) (int32, bool) {
	id, ok := t.byName[fold.Fold(name)]
	return id, ok && t.cats[id].Level == level
}

// MaxTitleLength is the most characters of a title the taxonomy reads: a
// longer one names nothing.
const MaxTitleLength = 500

// FieldOfRole returns the field of a role by its canonical name, "" when
// the taxonomy has no such role.
func (t *Taxonomy) FieldOfRole(role string) string { return t.fieldOfRole[role] }

// Categories returns every category of the taxonomy; the caller must not
// change them.
func (t *Taxonomy) Categories() []Category { return t.cats }

// KnowsWord reports whether a folded word is one of the taxonomy's phrases'
// words.
func (t *Taxonomy) KnowsWord(w string) bool {
	_, ok := t.words[w]
	return ok
}
