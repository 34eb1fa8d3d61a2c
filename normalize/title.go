package normalize

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
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
	Fields        []struct {
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
type taxonomy struct {
	lex  lexicon
	cats []TitleCategory
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
}

// token is a word of a title being classified.
type token struct {
	s      string
	h      uint64
	w      float32
	known  bool
	pos    int
	segEnd bool // the last word of its segment
}

func loadTaxonomy() (*taxonomy, error) {
	b, err := vocabFS.ReadFile("vocab/titles.json")
	if err != nil {
		return nil, err
	}
	var file titlesFile
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, fmt.Errorf("vocabulary titles.json: %w", err)
	}
	t := &taxonomy{
		byName: map[string]int32{},
		names: map[Level]map[string]string{
			LevelField: {}, LevelRole: {}, LevelSpecialization: {},
		},
		fieldOfRole: map[string]string{}, fieldByMajor: map[string]int32{}, roleBySOC: map[string]int32{},
		byONET: map[string]int32{}, specs: map[int32][]specPhrase{},
		phrases: map[uint64]phrase{}, words: map[string]wordInfo{},
	}
	t.lex = newLexicon(&file)
	if err := t.addHandWritten(&file); err != nil {
		return nil, fmt.Errorf("vocabulary titles.json: %w", err)
	}
	t.finish()
	return t, nil
}

func newLexicon(f *titlesFile) lexicon {
	set := func(words []string) map[string]bool {
		m := make(map[string]bool, len(words))
		for _, w := range words {
			m[Fold(w)] = true
		}
		return m
	}
	lex := lexicon{noise: set(f.Noise), units: set(f.Units), keepNumbers: set(f.KeepNumbers), seniority: set(f.Seniority),
		kind:      map[string]uint8{},
		compounds: map[string]string{}, compoundStart: map[string]bool{}, abbreviations: map[string][]string{}}
	for _, w := range f.Soft {
		lex.kind[stem(Fold(w))] = wordSoft
	}
	for _, w := range f.Modifiers {
		lex.kind[stem(Fold(w))] = wordModifier
	}
	for k, v := range f.Compounds {
		k = Fold(k)
		lex.compounds[k] = Fold(v)
		first, _, _ := strings.Cut(k, " ")
		lex.compoundStart[first] = true
	}
	for k, v := range f.Abbreviations {
		lex.abbreviations[Fold(k)] = strings.Fields(Fold(v))
	}
	return lex
}

var socCode = regexp.MustCompile(`^\d\d-\d\d\d\d$`)

// addHandWritten indexes the hand-written taxonomy. A phrase two
// categories share names the first one indexed: specializations before
// roles before fields.
func (t *taxonomy) addHandWritten(f *titlesFile) error {
	for _, fd := range f.Fields {
		if !strings.HasSuffix(fd.Code, "-0000") || !socCode.MatchString(fd.Code) {
			return fmt.Errorf("field %q: %q is no SOC major group", fd.Name, fd.Code)
		}
		id, err := t.addCategory(TitleCategory{Field: fd.Name, Level: LevelField, Code: fd.Code})
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
		id, err := t.addCategory(TitleCategory{Field: field, Role: r.Role, Level: LevelRole, Code: r.SOC})
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
			sid, err := t.addCategory(TitleCategory{Field: field, Role: r.Role, Specialization: s.Name, Level: LevelSpecialization, Code: code})
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
func (t *taxonomy) addCategory(c TitleCategory) (int32, error) {
	name := c.name(c.Level)
	key := Fold(name)
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
func (t *taxonomy) addHandPhrase(text string, cat int32) {
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
func (t *taxonomy) newBag(h uint64, words []string) bool {
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
func (t *taxonomy) know(words []string) {
	for _, w := range words {
		if _, ok := t.words[w]; !ok {
			t.words[w] = wordInfo{}
		}
	}
}

// phraseWords returns the sets of words a phrase of the vocabulary names:
// its segments together, and each part in brackets alone ("CEO (Chief
// Executive Officer)").
func (t *taxonomy) phraseWords(text string) [][]string {
	main, asides := t.split(text)
	var out [][]string
	var all []string
	for _, seg := range main {
		all = append(all, seg...)
	}
	for _, words := range append([][]string{all}, asides...) {
		if words = dedupe(words); len(words) > 0 {
			out = append(out, words)
		}
	}
	return out
}

func dedupe(words []string) []string {
	out := words[:0:0]
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
func (t *taxonomy) finish() {
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

// split cuts a title into segments of cleaned words, and the segments that
// stood in brackets.
func (t *taxonomy) split(title string) (main, asides [][]string) {
	s := title
	if strings.Contains(s, "OR") && strings.ToUpper(s) != s {
		// "OR Nurse": the operating room, not the conjunction.
		s = orWord.ReplaceAllString(s, "Operating Room")
	}
	s = Fold(s)
	var raw, aside []string
	depth := 0
	start := -1 // of the current word
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := s[start:end]
		start = -1
		if strings.ContainsAny(w, ".'’") {
			w = strings.NewReplacer(".", "", "'", "", "’", "").Replace(w)
		}
		switch {
		case w == "":
		case depth > 0:
			aside = append(aside, w)
		case w == "at" || w == "to":
			if words := t.clean(raw); len(words) > 0 {
				main = append(main, words)
			}
			raw = raw[:0:0]
		default:
			raw = append(raw, w)
		}
	}
	endSegment := func() {
		if words := t.clean(raw); len(words) > 0 {
			main = append(main, words)
		}
		raw = raw[:0:0]
	}
	endAside := func() {
		if words := t.clean(aside); len(words) > 0 {
			asides = append(asides, words)
		}
		aside = aside[:0:0]
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '+' || r == '#' || r == '&' || r == '.' || r == '\'' || r == '’':
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		switch {
		case r == '(' || r == '[' || r == '{':
			depth++
		case r == ')' || r == ']' || r == '}':
			if depth > 0 {
				depth--
				if depth == 0 {
					endAside()
				}
			}
		case depth > 0:
		case strings.ContainsRune(",;|@•·:–—−", r):
			endSegment()
		case (r == '-' || r == '/') && i > 0 && s[i-1] == ' ' && i+1 < len(s) && s[i+1] == ' ':
			endSegment()
		}
	}
	flush(len(s))
	endSegment()
	endAside()
	return main, asides
}

var orWord = regexp.MustCompile(`\bOR\b`)

// clean turns the raw words of a segment into the words that say what the
// occupation is.
func (t *taxonomy) clean(raw []string) []string {
	if len(raw) == 0 {
		return nil
	}
	lex := &t.lex
	var out []string
	afterNumber := false
	for i := 0; i < len(raw); i++ {
		w := raw[i]
		if lex.compoundStart[w] {
			if i+2 < len(raw) {
				if c, ok := lex.compounds[w+" "+raw[i+1]+" "+raw[i+2]]; ok {
					w, i = c, i+2
				}
			}
			if w == raw[i] && i+1 < len(raw) {
				if c, ok := lex.compounds[w+" "+raw[i+1]]; ok {
					w, i = c, i+1
				}
			}
		}
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 && !lex.keepNumbers[w] {
			afterNumber = true
			continue
		}
		if afterNumber && lex.units[w] {
			continue
		}
		afterNumber = false
		expanded := []string{w}
		if a, ok := lex.abbreviations[w]; ok {
			expanded = a
		}
		for _, e := range expanded {
			if e == "" || lex.noise[e] || e == "&" {
				continue
			}
			out = append(out, stem(e))
		}
	}
	return out
}

// senior reports whether a title holds a seniority word.
func (t *taxonomy) senior(title string) bool {
	for _, w := range strings.FieldsFunc(Fold(title), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if t.lex.seniority[w] {
			return true
		}
	}
	return false
}

// ambiguous reports whether a set of words is, but for its soft and
// modifier words, a phrase that names nothing alone.
func (t *taxonomy) ambiguous(words []string) bool {
	var plain []string
	for _, w := range words {
		if t.lex.kind[w] == wordPlain {
			plain = append(plain, w)
		}
	}
	if len(plain) == len(words) || len(plain) == 0 {
		return false
	}
	p, ok := t.phrases[hashBag(plain)]
	return ok && p.hand && p.cat == noCategory
}

// stem makes an English plural singular, the same way for titles and
// phrases: "nurses" → nurse, "secretaries" → secretary, "coaches" →
// coach, "salesmen" → salesman.
func stem(w string) string {
	n := len(w)
	if n <= 3 || w[n-1] < 'a' || w[n-1] > 'z' {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "men") && n > 4:
		return w[:n-3] + "man"
	case w[n-1] == 's':
		return w[:n-1]
	}
	return w
}

// tokens weighs the words of a segment, correcting the long ones the
// vocabulary does not know.
func (t *taxonomy) tokens(words []string, pos int) []token {
	out := make([]token, 0, len(words))
	for i, w := range words {
		tk := token{s: w, pos: pos + i, segEnd: i == len(words)-1}
		wi, known := t.words[w]
		kind := t.lex.kind[w]
		if !known && kind == wordPlain && len(w) >= minTypoLength {
			if c, ok := t.correct(w); ok {
				tk.s, wi, known = c, t.words[c], true
			}
		}
		switch {
		case kind == wordModifier:
			tk.w = modifierWeight
		case kind == wordSoft:
			tk.w = softWeight
		case known:
			tk.w = wi.weight
		default:
			tk.w = t.unknown
		}
		if known {
			tk.known, tk.h = true, hashWord(tk.s)
		}
		out = append(out, tk)
	}
	return out
}

// correct returns the vocabulary word one edit (a letter added, dropped,
// changed, or two swapped) away from w, the one in most phrases when
// several are.
func (t *taxonomy) correct(w string) (string, bool) {
	found, df := "", int32(-1)
	consider := func(c string) {
		if wi := t.words[c]; wi.df > df && oneEdit(w, c) {
			found, df = c, wi.df
		}
	}
	if idx, ok := t.typos[hashWord(w)]; ok && idx >= 0 {
		consider(t.typoWord[idx]) // a letter missing
	}
	for i := range len(w) {
		d := w[:i] + w[i+1:]
		if _, ok := t.words[d]; ok && len(d) >= minTypoLength-1 {
			consider(d) // a letter too many
		}
		if idx, ok := t.typos[hashWord(d)]; ok && idx >= 0 {
			consider(t.typoWord[idx]) // a letter changed, or two swapped
		}
	}
	return found, found != ""
}

// oneEdit reports whether a and b differ by one insertion, deletion,
// substitution or swap of neighbouring letters.
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	switch len(b) - len(a) {
	case 1:
		return a[i:] == b[i+1:]
	case 0:
		if a[i+1:] == b[i+1:] {
			return true
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	}
	return false
}

// candidate is a phrase found in a title.
type candidate struct {
	cat      int32
	weight   float32 // of the phrase's words
	coverage float32 // weight over the weight of the title's words
	head     bool    // the phrase holds the title's head word
	hand     bool
	words    []string
}

func (t *taxonomy) class(c candidate) int {
	if c.cat < 0 {
		return 0
	}
	if t.cats[c.cat].Level == LevelField {
		return 1
	}
	return 2
}

// better reports whether a beats b.
func (t *taxonomy) better(a, b candidate) bool {
	if ca, cb := t.class(a), t.class(b); ca != cb {
		return ca > cb
	}
	if a.head != b.head {
		return a.head
	}
	if a.weight != b.weight {
		return a.weight > b.weight
	}
	if a.hand != b.hand {
		return a.hand
	}
	return a.cat >= 0 && b.cat >= 0 && t.cats[a.cat].Level > t.cats[b.cat].Level
}

// searcher finds the best phrase among the words of a title.
type searcher struct {
	t     *taxonomy
	known []token
	head  string
	total float32
	must  []string // words the phrase must hold
	stack []int    // the words of the set being looked up, by index in known
	best  candidate
}

// bestIn returns the best phrase whose words are all among ctx and that
// holds the words of must.
func (t *taxonomy) bestIn(ctx []token, must []string) candidate {
	s := searcher{t: t, best: candidate{cat: noCategory}, must: must}
	for i, tk := range ctx {
		dup := false
		for _, o := range ctx[:i] {
			dup = dup || o.s == tk.s
		}
		if dup {
			continue
		}
		s.total += tk.w
		if tk.known && len(s.known) < maxQueryWords {
			s.known = append(s.known, tk)
		}
		if s.head == "" && tk.segEnd {
			s.head = tk.s
		}
	}
	if s.total > 0 {
		s.walk(0, 0, 0, 0, false)
	}
	return s.best
}

// walk looks up every set of up to maxPhraseWords known words.
func (s *searcher) walk(from, size int, h uint64, w float32, head bool) {
	for i := from; i < len(s.known); i++ {
		tk := s.known[i]
		hi, wi, headI := h+tk.h, w+tk.w, head || tk.s == s.head
		s.stack = append(s.stack, i)
		if p, ok := s.t.phrases[hi]; ok && p.cat >= 0 && wi/s.total >= minCoverage && s.holdsMust() {
			c := candidate{cat: p.cat, weight: wi, coverage: wi / s.total, head: headI, hand: p.hand}
			if s.t.better(c, s.best) {
				// The words that make the phrase, for a more precise one
				// (classify): not the soft and modifier ones.
				c.words = make([]string, 0, len(s.stack))
				for _, k := range s.stack {
					if w := s.known[k].s; s.t.lex.kind[w] == wordPlain {
						c.words = append(c.words, w)
					}
				}
				s.best = c
			}
		}
		if size+1 < maxPhraseWords {
			s.walk(i+1, size+1, hi, wi, headI)
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
}

// holdsMust reports whether the set being looked up holds the words of
// s.must.
func (s *searcher) holdsMust() bool {
	for _, m := range s.must {
		found := false
		for _, k := range s.stack {
			found = found || s.known[k].s == m
		}
		if !found {
			return false
		}
	}
	return true
}

// classify returns the category of a title, and false when the taxonomy
// recognizes nothing in it or the title is longer than MaxTitleLength.
func (t *taxonomy) classify(title string) (TitleCategory, bool) {
	if tooLong(title, MaxTitleLength) {
		return TitleCategory{}, false
	}
	if id, ok := t.byName[Fold(title)]; ok {
		return t.cats[id], true
	}
	mainWords, asideWords := t.split(title)
	var segs, asides [][]token
	pos := 0
	for _, words := range mainWords {
		segs = append(segs, t.tokens(words, pos))
		pos += len(words)
	}
	for _, words := range asideWords {
		asides = append(asides, t.tokens(words, pos))
		pos += len(words)
	}
	// A first segment that ends in a word naming no occupation alone is
	// about that word: "Manager, Software Engineering", "Assistant to the
	// CEO". Every phrase must hold it (a soft word only when it is the
	// whole segment: "Software Engineer Lead" is an engineer).
	var must []string
	if len(segs) > 0 {
		head := segs[0][len(segs[0])-1]
		if p, ok := t.phrases[head.h]; ok && head.known && p.hand && p.cat == noCategory &&
			(t.lex.kind[head.s] == wordPlain || len(segs[0]) == 1) {
			must = []string{head.s}
		}
	}
	best := candidate{cat: noCategory}
	consider := func(c candidate) {
		if c.cat >= 0 && (best.cat < 0 || t.class(c) > t.class(best) || t.class(c) == t.class(best) && c.coverage > best.coverage) {
			best = c
		}
	}
	// The first segment alone, then with the next ones until one names a
	// role; each further segment is also read alone ("Acme - Nurse").
	var ctx []token
	for i, seg := range segs {
		ctx = append(ctx, seg...)
		consider(t.bestIn(ctx, must))
		if i > 0 && must == nil {
			consider(t.bestIn(seg, nil))
		}
		if t.class(best) == 2 {
			break
		}
	}
	if t.class(best) < 2 && len(asides) > 0 {
		for _, a := range asides {
			ctx = append(ctx, a...)
			if must == nil {
				consider(t.bestIn(a, nil))
			}
		}
		consider(t.bestIn(ctx, must))
	}
	all := ctx
	if len(all) < pos {
		all = nil
		for _, s := range append(segs, asides...) {
			all = append(all, s...)
		}
	}
	if t.class(best) == 2 && len(all) > len(ctx) {
		// The other segments may name the occupation more precisely:
		// "Project Manager - Construction". A reading of the reference
		// data refines the hand-written taxonomy's reading of the head
		// only within its SOC broad occupation ("Special Education Teacher
		// - Elementary", 25-2059 → 25-2056), never to another kind: O*NET
		// files some titles under two occupations ("OR Surgical Tech" under
		// Surgical Assistants, where a surgical tech is a technologist).
		if sup := t.bestIn(all, best.words); t.class(sup) == 2 &&
			(sup.hand || !best.hand || sameBroadOccupation(t.cats[sup.cat].Code, t.cats[best.cat].Code)) {
			best = sup
		}
	}
	if best.cat < 0 {
		return TitleCategory{}, false
	}
	c := t.cats[best.cat]
	if c.Level == LevelRole {
		if sid, ok := t.specialization(best.cat, all); ok {
			return t.cats[sid], true
		}
	}
	return c, true
}

// sameBroadOccupation reports whether two SOC detailed occupations are of
// one broad occupation ("25-2056" and "25-2059" are of 25-2050).
func sameBroadOccupation(a, b string) bool {
	return len(a) >= 6 && len(b) >= 6 && a[:6] == b[:6]
}

// specialization returns the specialization of a role that the title's
// words name, the earliest in the title.
func (t *taxonomy) specialization(role int32, words []token) (int32, bool) {
	found, at := noCategory, math.MaxInt
	for _, sp := range t.specs[role] {
		first := math.MaxInt
		for _, w := range sp.words {
			i := indexToken(words, w)
			if i < 0 {
				first = math.MaxInt
				break
			}
			first = min(first, words[i].pos)
		}
		if first < at {
			found, at = sp.cat, first
		}
	}
	return found, found >= 0
}

func indexToken(words []token, w string) int {
	for i, tk := range words {
		if tk.s == w {
			return i
		}
	}
	return -1
}

// Title returns the category of a job title ("Senior Backend Engineer" →
// Computer and Mathematical / Software Engineer / Backend), and false when
// the taxonomy recognizes nothing in it; a title longer than
// MaxTitleLength names nothing.
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
// its name, else by a phrase naming that level or a more specific one; s
// trimmed when unknown.
func (t *taxonomy) canonical(s string, level Level) string {
	if name, ok := t.names[level][Fold(s)]; ok {
		return name
	}
	if c, ok := t.classify(s); ok && c.Level >= level {
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
