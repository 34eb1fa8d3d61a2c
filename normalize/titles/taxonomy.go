// Title taxonomy: the categories and phrases of vocab/titles.json, indexed and weighed for classification.

package titles

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// Word kinds.
const (
	wordPlain    uint8 = iota
	wordSoft           // seniority-like words that are also parts of titles: lead, principal, staff
	wordModifier       // technologies and the like: qualify a title without naming an occupation
)

// Weights of words that the IDF does not weigh.
const (
	softWeight     = 0.8
	modifierWeight = 0.5
	// unknownShare is the weight of an unknown word, as a share of the
	// weight of a word found in one phrase only.
	unknownShare = 0.7
	// minCoverage is the share of a title's weight a phrase must hold.
	minCoverage = 0.42
	// maxQueryWords bounds the known words of a title that are combined.
	maxQueryWords = 10
	// maxPhraseWords bounds the size of the word sets looked up.
	maxPhraseWords = 7
	// minTypoLength is the length from which a word is corrected.
	minTypoLength = 6
)

// noCategory marks a phrase that names no single category.
const noCategory int32 = -1

// titlesFile is the layout of vocab/titles.json: the hand-written taxonomy
// and the word lists that title cleaning uses.
type titlesFile struct {
	Noise         []string          `json:"noise"`
	Units         []string          `json:"units"`
	KeepNumbers   []string          `json:"keep_numbers"`
	Soft          []string          `json:"soft"`
	Modifiers     []string          `json:"modifiers"`
	Seniority     []string          `json:"seniority"`
	Ambiguous     []string          `json:"ambiguous"`
	Compounds     map[string]string `json:"compounds"`
	Abbreviations map[string]string `json:"abbreviations"`
	// BeforeNumber are words that are noise when a number follows them:
	// levels and cohorts ("Grade 7", "Band 6", "Summer 2026").
	BeforeNumber []string `json:"before_number"`
	// Seasons are words of BeforeNumber that are noise also at the end of
	// a segment, as internship titles write the term ("Software
	// Intern-Fall", "Data Engineer Intern Spring/Summer 2027").
	Seasons []string `json:"seasons"`
	// LevelPrefixes are words that, as a whole first segment before
	// others, are a level, not the occupation ("Associate – Risk
	// Analyst").
	LevelPrefixes []string `json:"level_prefixes"`
	// Trainees are words naming a trainee's post: a term of BeforeNumber
	// before one is noise ("Data Engineering Summer Intern", "Summer
	// Internship", "Fall Co-op").
	Trainees []string `json:"trainees"`
	// HeadReadings read a segment's last word Head as the words As when
	// the segment so read names a role and, as written, is no phrase of
	// this vocabulary: "Database Admin" is a database administrator,
	// "HR Admin" stays a human resources assistant.
	HeadReadings []struct {
		Head string `json:"head"`
		As   string `json:"as"`
	} `json:"head_readings"`
	// HeadDisciplines are head readings of disciplines: a segment that
	// ends in one reads as the one who practises it ("Electrical
	// Engineering Intern" is an electrical engineer), unless a word
	// before it names an occupation ("Professor of Civil Engineering").
	HeadDisciplines map[string]string `json:"head_disciplines"`
	// HeadForms are words that, after a head of HeadDisciplines, say the
	// level of the one who practises it, not another job: "Business
	// Analysis Associate" is a business analyst, "Actuarial Assistant" an
	// actuary (unless the segment is a phrase of this vocabulary, as
	// "Nursing Assistant" is).
	HeadForms []string `json:"head_forms"`
	// HeadAbbreviations expand only as the last word of a segment, where
	// they are the occupation ("Test Tech" → technician; not "Tech Lead").
	// They are looked up after abbreviations and the plural ("Techs" is
	// "tech" by then), so a key must be a word clean leaves as it is.
	HeadAbbreviations map[string]string `json:"head_abbreviations"`
	// Senses read an ambiguous head by its context: a title holding one
	// of heads and one of context names role ("ASIC Architect").
	Senses []struct {
		Role    string   `json:"role"`
		Heads   []string `json:"heads"`
		Context []string `json:"context"`
	} `json:"senses"`
	// HeadRoles name the role of a title whose head word is the key when
	// nothing else in it names a role ("Online Instructor").
	HeadRoles map[string]string `json:"head_roles"`
	// Topics name the job of a title that names no role otherwise: a
	// segment that is the topic alone ("Firmware Intern" is a firmware
	// engineer), or a segment ending in the topic when it is a discipline
	// whose practitioner, with the words before, names no role ("Strategic
	// Analytics Intern" is a data analyst, where "Marketing Analytics" is
	// a marketing analyst). Each value must name a category; a field
	// ("Technology Intern") only stands for a title that names nothing.
	Topics map[string]string `json:"topics"`
	Fields []struct {
		Code    string   `json:"code"`
		Name    string   `json:"name"`
		Aliases []string `json:"aliases"`
	} `json:"fields"`
	Roles []struct {
		Role            string   `json:"role"`
		SOC             string   `json:"soc"`
		ONET            []string `json:"onet"`
		Aliases         []string `json:"aliases"`
		Specializations []struct {
			Name     string   `json:"name"`
			SOC      string   `json:"soc"` // its own detailed occupation, if the SOC has one
			Aliases  []string `json:"aliases"`
			Keywords []string `json:"keywords"`
			ONET     []string `json:"onet"`
		} `json:"specializations"`
	} `json:"roles"`
}

// lexicon holds the word lists of title cleaning.
type lexicon struct {
	noise, units, keepNumbers map[string]bool
	seniority                 map[string]bool // noise that changes what a title means
	kind                      map[string]uint8
	compounds                 map[string]string // "back end" → "backend"
	compoundStart             map[string]bool
	abbreviations             map[string][]string // "mgr" → manager
	beforeNumber              map[string]bool     // noise before a number: "grade" 7
	seasons                   map[string]bool     // noise at a segment's end too: "Software Intern Fall"
	levelPrefixes             map[string]bool     // a first segment of these is a level: "Associate –"
	trainees                  map[string]bool     // a term before these is noise: "Summer Intern"
	disciplines               map[string]bool     // the head readings that are disciplines: "engineering"
	headForms                 map[string]bool     // after a discipline, its level: "Business Analysis Associate"
	headReadings              map[string][]string // "admin" → administrator, as a segment's last word, when that names a role
	headAbbreviations         map[string][]string // "tech" → technician, as a segment's last word
	foreign                   map[string][]string // words of other languages: "enfermera" → nurse
	foreignHeads              map[string][]string // heads of German compounds: "entwickler" → developer
	falseFriends              map[string]bool     // foreign words English titles use otherwise: "chef"
}

// sense names a role for titles holding one of its heads and a word of
// its context.
type sense struct {
	cat     int32
	heads   [][]string
	context [][]string
}

type wordInfo struct {
	df     int32 // phrases holding the word
	weight float32
}

// phrase is what a set of words names.
type phrase struct {
	cat  int32 // a category, or noCategory
	hand bool  // written in titles.json
}

// specPhrase is a set of words naming a specialization in its role's
// context ("icu" for a registered nurse).
type specPhrase struct {
	cat   int32
	words []string
}

// taxonomy finds categories by the phrases that name them.
type Taxonomy struct {
	lex  lexicon
	cats []Category
	// byName finds a category by its folded canonical name.
	byName map[string]int32
	names  map[Level]map[string]string // level → folded name → canonical name
	// fieldOfRole maps a role to its field.
	fieldOfRole  map[string]string
	fieldByMajor map[string]int32 // "15" → field category
	roleBySOC    map[string]int32 // "15-1252" → the role reference data names
	byONET       map[string]int32 // O*NET-SOC code → category
	specs        map[int32][]specPhrase

	phrases map[uint64]phrase // set of words (hashBag) → what it names
	words   map[string]wordInfo
	bags    int     // distinct sets of words, for the IDF
	unknown float32 // the weight of an unknown word

	typos    map[uint64]int32 // one-letter deletions of vocabulary words → index in typoWord, -1 when several
	typoWord []string

	senses    []sense
	headRoles map[string]int32 // head word → the role it names when nothing else does
	topics    map[string]topic // a topic's words, joined by spaces → the job it names
}

// topic is the job a topic of titles.json names: its words, and the SOC
// code of the category they name in the hand-written vocabulary
// ("manufacturing" → "manufacturing engineer", 17-2112).
type topic struct {
	job  []string
	code string
}

// Load reads the taxonomy of titles.json and title_languages.json in vocab
// (normalize's embedded vocabularies).
func Load(vocab fs.FS) (*Taxonomy, error) {
	b, err := fs.ReadFile(vocab, "titles.json")
	if err != nil {
		return nil, err
	}
	var file titlesFile
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, fmt.Errorf("vocabulary titles.json: %w", err)
	}
	t := &Taxonomy{
		byName: map[string]int32{},
		names: map[Level]map[string]string{
			LevelField: {}, LevelRole: {}, LevelSpecialization: {},
		},
		fieldOfRole: map[string]string{}, fieldByMajor: map[string]int32{}, roleBySOC: map[string]int32{},
		byONET: map[string]int32{}, specs: map[int32][]specPhrase{},
		phrases: map[uint64]phrase{}, words: map[string]wordInfo{},
	}
	langs, err := loadTitleLanguages(vocab)
	if err != nil {
		return nil, err
	}
	t.lex = newLexicon(&file, langs)
	if err := t.addHandWritten(&file); err != nil {
		return nil, fmt.Errorf("vocabulary titles.json: %w", err)
	}
	if err := t.addSenses(&file); err != nil {
		return nil, fmt.Errorf("vocabulary titles.json: %w", err)
	}
	t.finish()
	if err := t.addTopics(&file); err != nil {
		return nil, fmt.Errorf("vocabulary titles.json: %w", err)
	}
	return t, nil
}

func newLexicon(f *titlesFile, langs *titleLanguages) lexicon {
	set := func(words []string) map[string]bool {
		m := make(map[string]bool, len(words))
		for _, w := range words {
			m[fold.Fold(w)] = true
		}
		return m
	}
	lex := lexicon{noise: set(f.Noise), units: set(f.Units), keepNumbers: set(f.KeepNumbers), seniority: set(f.Seniority),
		kind:      map[string]uint8{},
		compounds: map[string]string{}, compoundStart: map[string]bool{}, abbreviations: map[string][]string{},
		beforeNumber: set(f.BeforeNumber), seasons: set(f.Seasons), levelPrefixes: set(f.LevelPrefixes), trainees: set(f.Trainees), headForms: map[string]bool{}, disciplines: map[string]bool{}, headReadings: map[string][]string{}, headAbbreviations: map[string][]string{}, foreign: map[string][]string{}, foreignHeads: map[string][]string{},
		falseFriends: map[string]bool{}}
	for _, w := range f.Soft {
		lex.kind[stem(fold.Fold(w))] = wordSoft
	}
	for _, w := range f.Modifiers {
		lex.kind[stem(fold.Fold(w))] = wordModifier
	}
	for k, v := range f.Compounds {
		k = fold.Fold(k)
		lex.compounds[k] = fold.Fold(v)
		first, _, _ := strings.Cut(k, " ")
		lex.compoundStart[first] = true
	}
	for k, v := range f.Abbreviations {
		lex.abbreviations[fold.Fold(k)] = strings.Fields(fold.Fold(v))
	}
	for head, as := range f.HeadDisciplines {
		head = stem(fold.Fold(head))
		lex.headReadings[head] = stemmedWords(as)
		lex.disciplines[head] = true
	}
	for _, w := range f.HeadForms {
		lex.headForms[stem(fold.Fold(w))] = true
	}
	for _, r := range f.HeadReadings {
		lex.headReadings[stem(fold.Fold(r.Head))] = stemmedWords(r.As)
	}
	for k, v := range f.HeadAbbreviations {
		lex.headAbbreviations[fold.Fold(k)] = strings.Fields(fold.Fold(v))
	}
	langs.addTo(&lex)
	return lex
}

// addSenses indexes the senses and head roles of titles.json, by the
// roles they name.
func (t *Taxonomy) addSenses(f *titlesFile) error {
	role := func(name string) (int32, error) {
		if id, ok := t.named(name, LevelRole); ok {
			return id, nil
		}
		return 0, fmt.Errorf("%q is no role", name)
	}
	words := func(phrases []string) [][]string {
		var out [][]string
		for _, p := range phrases {
			out = append(out, t.phraseWords(p)...)
		}
		return out
	}
	for _, s := range f.Senses {
		id, err := role(s.Role)
		if err != nil {
			return fmt.Errorf("sense: %w", err)
		}
		t.senses = append(t.senses, sense{cat: id, heads: words(s.Heads), context: words(s.Context)})
	}
	t.headRoles = map[string]int32{}
	for head, r := range f.HeadRoles {
		id, err := role(r)
		if err != nil {
			return fmt.Errorf("head role %q: %w", head, err)
		}
		t.headRoles[stem(fold.Fold(head))] = id
	}
	return nil
}

// addTopics indexes the topics of titles.json; each must name a role as
// the finished taxonomy reads it.
func (t *Taxonomy) addTopics(f *titlesFile) error {
	t.topics = map[string]topic{}
	for name, job := range f.Topics {
		words, as := t.phraseWords(name), t.phraseWords(job)
		if len(words) != 1 || len(as) != 1 {
			return fmt.Errorf("topic %q: a topic and its job are words without parentheses", name)
		}
		if len(words[0]) > maxTopicWords {
			return fmt.Errorf("topic %q: more than %d words", name, maxTopicWords)
		}
		c, ok := t.classifyWords(as, nil)
		if !ok {
			return fmt.Errorf("topic %q: %q names nothing", name, job)
		}
		t.topics[strings.Join(words[0], " ")] = topic{job: as[0], code: c.Code}
	}
	return nil
}

var socCode = regexp.MustCompile(`^\d\d-\d\d\d\d$`)

// addHandWritten indexes the hand-written taxonomy. A phrase two
// categories share names the first one indexed: specializations before
// roles before fields.
func (t *Taxonomy) addHandWritten(f *titlesFile) error {
	for _, fd := range f.Fields {
		if !strings.HasSuffix(fd.Code, "-0000") || !socCode.MatchString(fd.Code) {
			return fmt.Errorf("field %q: %q is no SOC major group", fd.Name, fd.Code)
		}
		id, err := t.addCategory(Category{Field: fd.Name, Level: LevelField, Code: fd.Code})
		if err != nil {
			return err
		}
		t.fieldByMajor[fd.Code[:2]] = id
	}
	roleIDs := make([]int32, len(f.Roles))
	specIDs := make([][]int32, len(f.Roles))
	for i, r := range f.Roles {
		fid, ok := t.fieldByMajor[r.SOC[:min(2, len(r.SOC))]]
		if !socCode.MatchString(r.SOC) || !ok {
			return fmt.Errorf("role %q: %q is no SOC detailed occupation of a known field", r.Role, r.SOC)
		}
		field := t.cats[fid].Field
		id, err := t.addCategory(Category{Field: field, Role: r.Role, Level: LevelRole, Code: r.SOC})
		if err != nil {
			return err
		}
		roleIDs[i] = id
		if _, taken := t.roleBySOC[r.SOC]; !taken {
			t.roleBySOC[r.SOC] = id
		}
		for _, code := range r.ONET {
			t.byONET[code] = id
		}
		for _, s := range r.Specializations {
			code := r.SOC
			if s.SOC != "" {
				if !socCode.MatchString(s.SOC) || s.SOC[:2] != r.SOC[:2] {
					return fmt.Errorf("specialization %q of %q: %q is no SOC detailed occupation of its field", s.Name, r.Role, s.SOC)
				}
				code = s.SOC
			}
			sid, err := t.addCategory(Category{Field: field, Role: r.Role, Specialization: s.Name, Level: LevelSpecialization, Code: code})
			if err != nil {
				return err
			}
			specIDs[i] = append(specIDs[i], sid)
			for _, code := range s.ONET {
				t.byONET[code] = sid
			}
		}
	}
	for _, a := range f.Ambiguous {
		t.addHandPhrase(a, noCategory)
	}
	for i, r := range f.Roles {
		for j, s := range r.Specializations {
			sid := specIDs[i][j]
			for _, a := range s.Aliases {
				t.addHandPhrase(a, sid)
			}
			for _, k := range append(append([]string{s.Name}, s.Keywords...), s.Aliases...) {
				for _, words := range t.phraseWords(k) {
					t.specs[roleIDs[i]] = append(t.specs[roleIDs[i]], specPhrase{cat: sid, words: words})
					t.know(words)
				}
			}
		}
	}
	for i, r := range f.Roles {
		for _, a := range append([]string{r.Role}, r.Aliases...) {
			t.addHandPhrase(a, roleIDs[i])
		}
	}
	for _, fd := range f.Fields {
		id := t.fieldByMajor[fd.Code[:2]]
		for _, a := range append([]string{fd.Name}, fd.Aliases...) {
			t.addHandPhrase(a, id)
		}
	}
	return nil
}

// addCategory adds a category and its canonical name. Names are unique
// across levels, so that a name classifies as its own category.
func (t *Taxonomy) addCategory(c Category) (int32, error) {
	name := c.name(c.Level)
	key := fold.Fold(name)
	if key == "" {
		return 0, fmt.Errorf("a category of level %d without a name", c.Level)
	}
	if other, taken := t.byName[key]; taken {
		return 0, fmt.Errorf("%q names two categories (%+v and %+v)", name, t.cats[other], c)
	}
	id := int32(len(t.cats))
	t.cats = append(t.cats, c)
	t.byName[key] = id
	t.names[c.Level][key] = name
	if c.Level == LevelRole {
		t.fieldOfRole[c.Role] = c.Field
	}
	return id, nil
}

// addHandPhrase indexes a hand-written phrase; the first category to claim
// a set of words keeps it.
func (t *Taxonomy) addHandPhrase(text string, cat int32) {
	for _, words := range t.phraseWords(text) {
		h := hashBag(words)
		if p, taken := t.phrases[h]; taken && p.hand {
			continue
		}
		t.newBag(h, words)
		t.phrases[h] = phrase{cat: cat, hand: true}
	}
}

// newBag counts a set of words the first time it is indexed, for the IDF.
func (t *Taxonomy) newBag(h uint64, words []string) bool {
	if _, seen := t.phrases[h]; seen {
		return false
	}
	t.bags++
	for _, w := range words {
		wi := t.words[w]
		wi.df++
		t.words[w] = wi
	}
	return true
}

// know adds words to the vocabulary without counting them in a phrase.
func (t *Taxonomy) know(words []string) {
	for _, w := range words {
		if _, ok := t.words[w]; !ok {
			t.words[w] = wordInfo{}
		}
	}
}

// phraseWords returns the sets of words a phrase of the vocabulary names:
// its segments together, and each part in brackets alone ("CEO (Chief
// Executive Officer)").
func (t *Taxonomy) phraseWords(text string) [][]string {
	main, asides := t.split(text)
	out := make([][]string, 0, 1+len(asides))
	var all []string
	if len(main) == 1 {
		all = main[0] // split's slices are its caller's
	} else {
		for _, seg := range main {
			all = append(all, seg...)
		}
	}
	if all = dedupe(all); len(all) > 0 {
		out = append(out, all)
	}
	for _, words := range asides {
		if words = dedupe(words); len(words) > 0 {
			out = append(out, words)
		}
	}
	return out
}

// dedupe returns words without repetitions, in their first order, in
// words' own array.
func dedupe(words []string) []string {
	out := words[:0]
	for _, w := range words {
		dup := false
		for _, o := range out {
			dup = dup || o == w
		}
		if !dup {
			out = append(out, w)
		}
	}
	return out
}

// finish weighs the words and indexes them for typo correction.
func (t *Taxonomy) finish() {
	n := float64(max(t.bags, 1))
	for w, wi := range t.words {
		wi.weight = float32(math.Log(1 + n/float64(max(wi.df, 1))))
		t.words[w] = wi
	}
	t.unknown = float32(unknownShare * math.Log(1+n))
	t.typos = map[uint64]int32{}
	t.typoWord = t.typoWord[:0]
	for w := range t.words {
		if utf8.RuneCountInString(w) < minTypoLength-1 || !isLowerASCII(w) {
			continue
		}
		idx := int32(len(t.typoWord))
		t.typoWord = append(t.typoWord, w)
		for i := range len(w) {
			h := hashWord(w[:i] + w[i+1:])
			if other, taken := t.typos[h]; taken && other != idx {
				t.typos[h] = -1
			} else {
				t.typos[h] = idx
			}
		}
	}
}

// isLowerASCII reports whether s is made of the letters a to z only.
func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// hashWord hashes a word for hashBag.
func hashWord(w string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(w))
	x := h.Sum64()
	// splitmix64's finalizer, so that sums of hashes spread well.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// hashBag hashes a set of distinct words regardless of their order.
func hashBag(words []string) uint64 {
	var h uint64
	for _, w := range words {
		h += hashWord(w)
	}
	return h
}
