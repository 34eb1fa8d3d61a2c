package normalize

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
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

// TitleCategory is a category of the title taxonomy. Members more specific
// than Level are "".
type TitleCategory struct {
	Field, Role, Specialization string
	Level                       Level
	// Code is the US SOC 2018 code of the role's detailed occupation
	// ("15-1252"), or of the field's major group ("15-0000") when Level is
	// LevelField; "" when the taxonomy does not know it.
	Code string
}

type taxonomyFile []struct {
	Field   string   `json:"field"`
	Aliases []string `json:"aliases"`
	Roles   []struct {
		Role            string   `json:"role"`
		Aliases         []string `json:"aliases"`
		Specializations []struct {
			Name    string   `json:"name"`
			Aliases []string `json:"aliases"`
		} `json:"specializations"`
	} `json:"roles"`
}

// taxonomy finds categories by the phrases that name them.
type taxonomy struct {
	phrases  map[string]TitleCategory // cleaned phrase → category
	maxWords int
	names    map[Level]map[string]string // level → folded name → canonical name
	// fieldOfRole maps a role to its field.
	fieldOfRole map[string]string
}

func loadTaxonomy() (*taxonomy, error) {
	b, err := vocabFS.ReadFile("vocab/titles.json")
	if err != nil {
		return nil, err
	}
	var file taxonomyFile
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, fmt.Errorf("vocabulary titles.json: %w", err)
	}
	t := &taxonomy{phrases: map[string]TitleCategory{}, names: map[Level]map[string]string{
		LevelField: {}, LevelRole: {}, LevelSpecialization: {},
	}, fieldOfRole: map[string]string{}}
	add := func(phrase string, c TitleCategory) {
		words := titleWords(phrase)
		key := strings.Join(words, " ")
		if key == "" {
			return
		}
		if _, taken := t.phrases[key]; !taken {
			t.phrases[key] = c
			t.maxWords = max(t.maxWords, len(words))
		}
	}
	// Most specific first, so that a phrase two levels share names the more
	// specific one.
	for _, f := range file {
		for _, r := range f.Roles {
			for _, s := range r.Specializations {
				c := TitleCategory{Field: f.Field, Role: r.Role, Specialization: s.Name, Level: LevelSpecialization}
				t.names[LevelSpecialization][Fold(s.Name)] = s.Name
				for _, a := range s.Aliases {
					add(a, c)
				}
			}
		}
	}
	for _, f := range file {
		for _, r := range f.Roles {
			c := TitleCategory{Field: f.Field, Role: r.Role, Level: LevelRole}
			t.names[LevelRole][Fold(r.Role)] = r.Role
			t.fieldOfRole[r.Role] = f.Field
			add(r.Role, c)
			for _, a := range r.Aliases {
				add(a, c)
			}
		}
	}
	for _, f := range file {
		c := TitleCategory{Field: f.Field, Level: LevelField}
		t.names[LevelField][Fold(f.Field)] = f.Field
		add(f.Field, c)
		for _, a := range f.Aliases {
			add(a, c)
		}
	}
	return t, nil
}

// noiseWords say nothing about the occupation: seniority, levels, contract
// terms and work-place words.
var noiseWords = map[string]bool{
	"senior": true, "sr": true, "jr": true, "junior": true, "lead": true, "principal": true, "staff": true,
	"i": true, "ii": true, "iii": true, "iv": true, "v": true, "1": true, "2": true, "3": true, "4": true, "5": true,
	"level": true, "entry": true, "mid": true, "experienced": true, "new": true, "grad": true, "graduate": true,
	"intern": true, "internship": true, "trainee": true, "apprentice": true, "remote": true, "hybrid": true, "onsite": true,
	"contract": true, "contractor": true, "temporary": true, "temp": true, "part": true, "full": true, "time": true,
	"the": true, "a": true, "an": true, "of": true, "for": true, "with": true, "and": false,
}

// titleWords splits a title into lower-case words without noise and without
// what stands in parentheses or brackets ("Sr. Engineer (Remote)").
func titleWords(s string) []string {
	var b strings.Builder
	depth := 0
	for _, r := range Fold(s) {
		switch {
		case r == '(' || r == '[':
			depth++
		case r == ')' || r == ']':
			depth = max(0, depth-1)
		case depth > 0:
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '+' || r == '#' || r == '&':
			b.WriteRune(r)
		case r == '/' || r == '-':
			b.WriteRune(' ')
		default:
			b.WriteRune(' ')
		}
	}
	words := strings.Fields(b.String())
	out := words[:0]
	for _, w := range words {
		if !noiseWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// classify returns the category of the longest phrase in the title; among
// equally long phrases, the most specific one. A role is then narrowed to
// one of its specializations named elsewhere in the title ("Software
// Engineer, Backend").
func (t *taxonomy) classify(title string) (TitleCategory, bool) {
	words := titleWords(title)
	var best TitleCategory
	bestLen := 0
	for n := min(t.maxWords, len(words)); n >= 1 && bestLen == 0; n-- {
		for i := 0; i+n <= len(words); i++ {
			c, ok := t.phrases[strings.Join(words[i:i+n], " ")]
			if ok && c.Level > best.Level {
				best, bestLen = c, n
			}
		}
	}
	if best.Level == LevelRole {
		for n := min(t.maxWords, len(words)); n >= 1; n-- {
			for i := 0; i+n <= len(words); i++ {
				c, ok := t.phrases[strings.Join(words[i:i+n], " ")]
				if ok && c.Level == LevelSpecialization && c.Role == best.Role {
					return c, true
				}
			}
		}
	}
	return best, bestLen > 0
}

// Title returns the category of a job title ("Senior Backend Engineer" →
// Computer and Mathematical / Software Engineer / Backend), and false when
// the taxonomy recognizes nothing in it.
func (n *Normalizer) Title(title string) (TitleCategory, bool) {
	return n.titles.classify(title)
}

// name returns the member of c at level.
func (c TitleCategory) name(level Level) string {
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

// canonical returns the canonical name of a category member at level: by
// its name, else by a phrase naming exactly that level; s trimmed when
// unknown.
func (t *taxonomy) canonical(s string, level Level) string {
	if name, ok := t.names[level][Fold(s)]; ok {
		return name
	}
	if c, ok := t.classify(s); ok && c.Level == level {
		return c.name(level)
	}
	return strings.Join(strings.Fields(s), " ")
}

// CategoryField returns the canonical name of a category field, or s
// trimmed when unknown.
func (n *Normalizer) CategoryField(s string) string { return n.titles.canonical(s, LevelField) }

// CategoryRole returns the canonical name of a category role, or s trimmed
// when unknown.
func (n *Normalizer) CategoryRole(s string) string { return n.titles.canonical(s, LevelRole) }

// CategorySpecialization returns the canonical name of a specialization, or
// s trimmed when unknown.
func (n *Normalizer) CategorySpecialization(s string) string {
	return n.titles.canonical(s, LevelSpecialization)
}
