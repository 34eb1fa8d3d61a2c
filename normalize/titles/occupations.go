// Occupation reference data: SOC, O*NET and BLS titles added to the title taxonomy.

package titles

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/normalize/refdata"
)

// The weights of the titles the reference data gives an occupation, by
// where they come from.
const (
	voteOccupation  = 3   // an O*NET occupation or SOC detailed occupation title
	voteDirectMatch = 4   // a BLS direct-match title (it names exactly one occupation)
	voteIllustrated = 1.5 // a BLS direct-match title given as an illustrative example
	voteAlternate   = 1   // an O*NET alternate title, or its short form
	voteReported    = 1.5 // a title workers reported to O*NET
)

// Shares of the votes a phrase needs to name an occupation, a
// specialization within it, or a field.
const (
	roleShare  = 0.5
	roleMargin = 1.5 // the top occupation over the second
	specShare  = 0.6
	fieldShare = 0.8
)

// vote says that a phrase names an O*NET occupation, with a weight.
type vote struct {
	bag    uint64
	onet   int32 // index in occupationLoader.codes
	weight float32
}

type occupationLoader struct {
	t     *Taxonomy
	codes []string         // O*NET-SOC codes, "15-1252.00"
	index map[string]int32 // O*NET-SOC code → index in codes
	votes []vote
	seen  map[uint64]bool // sets of words met in the reference data
}

// LoadOccupations adds the occupations and their titles under dir (the
// occupations/ folder of the reference data) to the taxonomy. Every SOC
// detailed occupation becomes a role (named as the hand-written role that
// has its code, else by its O*NET title) and every O*NET occupation below
// one a specialization of it, unless titles.json maps it elsewhere. Then
// every title votes for its occupation; a set of words names the
// occupation with most of its votes, the field of its votes when they
// agree on nothing more, or nothing. Hand-written phrases are kept.
func (t *Taxonomy) LoadOccupations(dir string) error {
	l := &occupationLoader{t: t, index: map[string]int32{}, seen: map[uint64]bool{}}
	if err := l.majorGroups(filepath.Join(dir, "bls_soc_2018_structure_definitions.tsv")); err != nil {
		return err
	}
	if err := l.occupations(filepath.Join(dir, "onet_occupation_data.tsv")); err != nil {
		return err
	}
	if err := l.directMatches(filepath.Join(dir, "bls_soc_2018_direct_match_titles.tsv")); err != nil {
		return err
	}
	if err := l.alternateTitles(filepath.Join(dir, "onet_alternate_titles.tsv.gz")); err != nil {
		return err
	}
	if err := l.reportedTitles(filepath.Join(dir, "onet_sample_of_reported_titles.tsv.gz")); err != nil {
		return err
	}
	l.resolve()
	t.finish()
	return nil
}

// majorGroups checks that titles.json has a field for every SOC major
// group, named as the group without its trailing " Occupations".
func (l *occupationLoader) majorGroups(path string) error {
	return refdata.ReadTSV(path, 3, func(cols []string) error {
		if cols[0] != "Major" {
			return nil
		}
		code, name := cols[1], strings.TrimSuffix(cols[2], " Occupations")
		id, ok := l.t.fieldByMajor[code[:min(2, len(code))]]
		if !ok {
			return fmt.Errorf("SOC major group %s %q has no field in titles.json", code, name)
		}
		if got := l.t.cats[id].Field; got != name || l.t.cats[id].Code != code {
			return fmt.Errorf("SOC major group %s is %q, titles.json has %q", code, name, got)
		}
		return nil
	})
}

// occupations makes the categories of the O*NET occupations and votes for
// their titles.
func (l *occupationLoader) occupations(path string) error {
	type occupation struct{ code, title string }
	var all []occupation
	err := refdata.ReadTSV(path, 2, func(cols []string) error {
		code := cols[0]
		if len(code) != 10 || !socCode.MatchString(code[:7]) || code[7] != '.' {
			return fmt.Errorf("%q is no O*NET-SOC code", code)
		}
		if _, ok := l.t.fieldByMajor[code[:2]]; !ok {
			return fmt.Errorf("%s: no field for its major group", code)
		}
		all = append(all, occupation{code, cols[1]})
		return nil
	})
	if err != nil {
		return err
	}
	// Detailed occupations (.00) first: they are the roles the others
	// specialize.
	slices.SortStableFunc(all, func(a, b occupation) int {
		return strings.Compare(a.code[8:], b.code[8:])
	})
	t := l.t
	for _, o := range all {
		soc := o.code[:7]
		if _, claimed := t.byONET[o.code]; !claimed {
			field := t.cats[t.fieldByMajor[soc[:2]]].Field
			if strings.HasSuffix(o.code, ".00") {
				id, ok := t.roleBySOC[soc]
				if !ok {
					if id, err = t.addCategory(Category{Field: field, Role: o.title, Level: LevelRole, Code: soc}); err != nil {
						return fmt.Errorf("%s: %w", o.code, err)
					}
					t.roleBySOC[soc] = id
				}
				t.byONET[o.code] = id
			} else {
				role, ok := t.roleBySOC[soc]
				if !ok {
					return fmt.Errorf("%s: no detailed occupation %s.00", o.code, soc)
				}
				id, err := t.addCategory(Category{Field: field, Role: t.cats[role].Role, Specialization: o.title,
					Level: LevelSpecialization, Code: soc})
				if err != nil {
					return fmt.Errorf("%s: %w", o.code, err)
				}
				t.byONET[o.code] = id
			}
		}
		l.vote(o.title, o.code, voteOccupation)
	}
	return nil
}

// code returns the index of an O*NET-SOC code; a SOC code stands for its
// detailed occupation (".00").
func (l *occupationLoader) code(c string) (int32, bool) {
	if len(c) == 7 {
		c += ".00"
	}
	if i, ok := l.index[c]; ok {
		return i, true
	}
	if _, ok := l.t.byONET[c]; !ok {
		return 0, false
	}
	i := int32(len(l.codes))
	l.codes = append(l.codes, c)
	l.index[c] = i
	return i, true
}

// vote records that a title names an O*NET occupation (or a SOC one). A
// title with a seniority word does not vote: without it, it would speak
// for titles it does not name ("Junior Software Developer" is a computer
// programmer for the BLS, a software developer is not). Nor does one that
// is an ambiguous phrase with soft words ("Staff Engineer"), nor a name
// whose head the cleaning drops as noise, leaving its modifiers alone:
// "Sports PT" (PT being part-time to the cleaning) would make "Sports" a
// physical therapist, alone or as "(Sports PT)" after its title.
func (l *occupationLoader) vote(title, code string, weight float32) {
	idx, ok := l.code(code)
	if !ok || strings.TrimSpace(title) == "" || l.t.senior(title) {
		return
	}
	phrases := l.t.phraseWords(title)
	// The text each phrase comes from: the title outside brackets, then
	// each bracket's (when every one gave a phrase).
	texts := append([]string{bracketed.ReplaceAllString(title, " ")}, bracketedText(title)...)
	for i, words := range phrases {
		if l.t.ambiguous(words) {
			continue
		}
		if len(texts) == len(phrases) && (l.t.headless(texts[i], words) || i > 0 && l.t.qualifier(texts[i], words, phrases[0])) {
			continue
		}
		h := hashBag(words)
		if !l.seen[h] {
			l.seen[h] = true
			l.t.newBag(h, words)
		}
		l.votes = append(l.votes, vote{bag: h, onet: idx, weight: weight})
	}
}

// bracketed matches a bracketed part of a title.
var bracketed = regexp.MustCompile(`\(([^()]*)\)`)

// bracketedText returns the text of each bracketed part of a title.
func bracketedText(title string) []string {
	var out []string
	for _, m := range bracketed.FindAllStringSubmatch(title, -1) {
		out = append(out, m[1])
	}
	return out
}

// headless reports whether a title's last word is noise to the cleaning
// and its cleaned words hold no word that names an occupation in the
// hand-written vocabulary, alone or as a head ("nurse" in "Nurse PRN"
// stays; "sports" names none).
func (t *Taxonomy) headless(title string, words []string) bool {
	raw := strings.FieldsFunc(fold.Fold(title), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(raw) == 0 || len(t.clean(raw[len(raw)-1:])) > 0 {
		return false
	}
	return !t.holdsOccupationWord(words)
}

// qualifier reports whether a bracketed part of a title, words, only
// qualifies the title whose words are main ("Charter Pilot (Commercial)",
// "Gunner's Mate (Missiles)"), and does not name it again: the title has
// two words or more, and the part holds no word naming an occupation, is
// no abbreviation written in capitals ("(TST)", "(SNF PT)"), and holds no
// word of the title, nor one a word of the title abbreviates or is
// abbreviated from ("Chem Prep (Chemical Preparer)"), nor the initials of
// a word of the title or the words they stand for ("DJ (Disk Jockey)",
// "NGS Biostatistician (Next-Generation Sequencing)"). Such a part
// names nothing alone: it would make "Commercial Intern" a pilot.
func (t *Taxonomy) qualifier(text string, words, main []string) bool {
	if len(main) < 2 || strings.ToUpper(text) == text {
		return false
	}
	if slices.ContainsFunc(words, func(w string) bool { return slices.ContainsFunc(main, abbreviates(w)) }) {
		return false
	}
	if slices.Contains(main, initials(words)) || slices.Contains(words, initials(main)) {
		return false
	}
	return !t.holdsOccupationWord(words)
}

// abbreviates returns a test of whether a word is w, or one of the two
// begins the other with three letters or more ("lab", "laboratory").
func abbreviates(w string) func(string) bool {
	return func(o string) bool {
		return w == o || len(w) >= 3 && strings.HasPrefix(o, w) || len(o) >= 3 && strings.HasPrefix(w, o)
	}
}

// initials returns the first letters of words.
func initials(words []string) string {
	b := make([]byte, 0, len(words))
	for _, w := range words {
		if w != "" {
			b = append(b, w[0])
		}
	}
	return string(b)
}

// holdsOccupationWord reports whether words hold one that names an
// occupation in the hand-written vocabulary, alone or as a head.
func (t *Taxonomy) holdsOccupationWord(words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool {
		return t.occupationHead(w) || t.handNames([]string{w})
	})
}

func (l *occupationLoader) directMatches(path string) error {
	return refdata.ReadTSV(path, 3, func(cols []string) error {
		w := float32(voteDirectMatch)
		if len(cols) > 3 && strings.TrimSpace(cols[3]) != "" {
			w = voteIllustrated
		}
		l.vote(cols[2], cols[0], w)
		return nil
	})
}

func (l *occupationLoader) alternateTitles(path string) error {
	return refdata.ReadTSV(path, 3, func(cols []string) error {
		l.vote(cols[2], cols[0], voteAlternate)
		if len(cols) > 3 && cols[3] != "" && cols[3] != "n/a" {
			l.vote(cols[3], cols[0], voteAlternate)
		}
		return nil
	})
}

func (l *occupationLoader) reportedTitles(path string) error {
	return refdata.ReadTSV(path, 3, func(cols []string) error {
		l.vote(cols[2], cols[0], voteReported)
		return nil
	})
}

// resolve gives each set of words the category its votes agree on.
func (l *occupationLoader) resolve() {
	slices.SortFunc(l.votes, func(a, b vote) int {
		switch {
		case a.bag < b.bag:
			return -1
		case a.bag > b.bag:
			return 1
		}
		return int(a.onet - b.onet)
	})
	for i := 0; i < len(l.votes); {
		j := i
		for j < len(l.votes) && l.votes[j].bag == l.votes[i].bag {
			j++
		}
		bag := l.votes[i].bag
		if p, hand := l.t.phrases[bag]; !hand || !p.hand {
			if cat := l.decide(l.votes[i:j]); cat >= 0 {
				l.t.phrases[bag] = phrase{cat: cat}
			}
		}
		i = j
	}
	l.votes, l.seen = nil, nil
}

// decide returns the category that the votes of one set of words name, or
// noCategory.
func (l *occupationLoader) decide(votes []vote) int32 {
	type tally struct {
		key    string
		weight float32
	}
	sum := func(key func(code string) string) []tally {
		var out []tally
	next:
		for _, v := range votes {
			k := key(l.codes[v.onet])
			for i := range out {
				if out[i].key == k {
					out[i].weight += v.weight
					continue next
				}
			}
			out = append(out, tally{k, v.weight})
		}
		slices.SortStableFunc(out, func(a, b tally) int {
			switch {
			case a.weight > b.weight:
				return -1
			case a.weight < b.weight:
				return 1
			}
			return 0
		})
		return out
	}
	var total float32
	for _, v := range votes {
		total += v.weight
	}
	bySOC := sum(func(c string) string { return c[:7] })
	soc := ""
	if bySOC[0].weight >= roleShare*total && (len(bySOC) == 1 || bySOC[0].weight >= roleMargin*bySOC[1].weight) {
		soc = bySOC[0].key
	}
	if soc == "" {
		byMajor := sum(func(c string) string { return c[:2] })
		if byMajor[0].weight >= fieldShare*total {
			return l.t.fieldByMajor[byMajor[0].key]
		}
		return noCategory
	}
	var socWeight float32
	for _, v := range votes {
		if l.codes[v.onet][:7] == soc {
			socWeight += v.weight
		}
	}
	byCode := sum(func(c string) string { return c })
	for _, c := range byCode {
		if c.key[:7] == soc {
			if !strings.HasSuffix(c.key, ".00") && c.weight >= specShare*socWeight {
				return l.t.byONET[c.key]
			}
			break
		}
	}
	return l.t.byONET[soc+".00"]
}
