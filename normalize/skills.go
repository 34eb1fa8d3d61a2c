// Skills: the Normalizer's reading of skills lists over package terms'
// vocabularies, and the sources of the skills' reference data.

package normalize

import (
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/terms"
)

// The vocabularies' types, as package terms names them.
type (
	// Vocab is a vocabulary of terms (skills, tools, visas, …).
	Vocab = terms.Vocab
	// Term is one entry of a vocabulary.
	Term = terms.Term
)

// Sources of the skills reference data, with their licences' attribution.
var skillSources = []Source{
	{
		Name:        "GitHub Linguist languages (npm linguist-languages 9.5.0)",
		Licence:     "MIT",
		Attribution: "Language names and aliases from GitHub Linguist, Copyright (c) 2017 GitHub, Inc., packaged as linguist-languages, Copyright (c) Ika; used under the MIT licence.",
	},
	{
		Name:        "Stack Overflow tags and tag synonyms (Stack Exchange Data Explorer, 2021)",
		Licence:     "CC BY-SA 4.0",
		Attribution: "Stack Overflow tag data, Stack Exchange Inc., CC BY-SA 4.0 (https://stackoverflow.com/tags).",
	},
	{
		Name:        "O*NET 29.3 Technology Skills",
		Licence:     "CC BY 4.0",
		Attribution: "Includes information from the O*NET 29.3 Database by the U.S. Department of Labor, Employment and Training Administration (USDOL/ETA), used under CC BY 4.0. O*NET® is a trademark of USDOL/ETA.",
	},
}

// knownElsewhere reports whether folded f is a spelling of another of
// n's vocabularies, or a word of job titles: such a word is no typo of a
// skill.
func (n *Normalizer) knownElsewhere(f string) bool {
	for _, v := range []*Vocab{n.Tools, n.TechnicalSkills, n.SoftSkills, n.Certifications, n.Benefits,
		n.EducationMajors, n.EducationLevels, n.Visas, n.SecurityClearances, n.EmploymentTypes, n.WorkArrangements} {
		if v == nil {
			continue
		}
		if v.Knows(f) {
			return true
		}
	}
	if n.taxonomy != nil && !strings.Contains(f, " ") {
		if n.taxonomy.KnowsWord(f) {
			return true
		}
	}
	return false
}

// addSkillsRefData adds the terms of the reference data's skills to the
// skills and tools vocabularies, and reports whether it has them.
func (n *Normalizer) addSkillsRefData(dir string) (bool, error) {
	return terms.AddSkillsRefData(dir, n.Skills, n.Tools)
}
