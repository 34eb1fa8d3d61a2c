package normalize

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Term is one entry of a vocabulary: its canonical Name, the Aliases that
// mean it, and the Umbrella term it belongs under, if any. ListOnly are
// further spellings that count only as a whole value (a list item, a
// filter value), never when found in free text (FindIn): plain words
// ("Helm", "Gin"), single letters ("R") and other spellings that would
// mislead in a sentence. A name or alias repeated in ListOnly is list-only
// too.
type Term struct {
	Name     string   `json:"name"`
	Aliases  []string `json:"aliases,omitempty"`
	Umbrella string   `json:"umbrella,omitempty"`
	ListOnly []string `json:"list_only,omitempty"`

	ref     bool // added from reference data (Vocab.addRef)
	guessed bool // its name is a lower-case tag, no display name (Vocab.addTags)
}

// Vocab maps the spellings of a vocabulary's terms to their canonical names.
type Vocab struct {
	terms  map[string]*Term // spellings FindIn finds in text, by folded and by squashed spelling
	all    map[string]*Term // every spelling Lookup knows: also list-only and reference-data ones
	byName map[string]*Term
	// derive makes Lookup also read the forms a value of an open
	// vocabulary takes: versions ("Python 3"), vendors ("Amazon
	// DynamoDB"), "(…)" and generic words ("Spring Framework").
	derive bool
	// hand counts the terms written in the project; reference data adds
	// terms after them (Vocab.addRef).
	hand int
	// owned holds the terms Vocab.addRef created, for Len.
	owned int
	// typos reads values one edit from a spelling (skills_typo.go); nil
	// in vocabularies that do not correct typos.
	typos *typoIndex
	// termWords is the most words (prefixWords) of a key of terms: no
	// longer prefix of a value names a term (prefixTerm).
	termWords int
}

// NewVocab indexes terms. A spelling is bound to the first term that claims
// it, names before aliases, exact spellings before squashed ones. An
// umbrella spelled as an alias of a term is spelled as that term's name.
func NewVocab(terms []Term) *Vocab {
	v := &Vocab{terms: map[string]*Term{}, all: map[string]*Term{}, byName: map[string]*Term{}, hand: len(terms)}
	for i := range terms {
		if _, dup := v.byName[terms[i].Name]; !dup {
			v.byName[terms[i].Name] = &terms[i]
		}
	}
	for _, keyOf := range []func(string) string{Fold, squash} {
		for i := range terms {
			v.claim(keyOf(terms[i].Name), &terms[i], !listOnly(&terms[i], terms[i].Name))
		}
		for i := range terms {
			t := &terms[i]
			for _, a := range t.Aliases {
				v.claim(keyOf(a), t, !listOnly(t, a))
			}
			for _, a := range t.ListOnly {
				v.claim(keyOf(a), t, false)
			}
		}
	}
	for i := range terms {
		if u, ok := v.lookup(terms[i].Umbrella); ok && u != &terms[i] {
			terms[i].Umbrella = u.Name
		}
	}
	return v
}

// claim binds key to t unless another term has it; text keys are also
// found in free text.
func (v *Vocab) claim(key string, t *Term, text bool) {
	if key == "" {
		return
	}
	if _, taken := v.all[key]; !taken {
		v.all[key] = t
	}
	if _, taken := v.terms[key]; text && !taken {
		v.terms[key] = t
		v.termWords = max(v.termWords, len(prefixWords(key)))
	}
}

// listOnly reports whether t lists spelling s among its list-only ones.
func listOnly(t *Term, s string) bool {
	for _, l := range t.ListOnly {
		if Fold(l) == Fold(s) {
			return true
		}
	}
	return false
}

// openVocabularies are the vocabularies whose values Lookup also
// recognizes in their derived forms (Vocab.derive).
var openVocabularies = map[string]bool{"skills.json": true, "tools.json": true, "technical_skills.json": true,
	"soft_skills.json": true, "certifications.json": true, "benefits.json": true, "education_majors.json": true}

// skillsAlso are the vocabularies whose terms the skills vocabulary knows
// too, as values only: a job's skills list names technical and soft
// skills and tools as well ("team player" → Teamwork, "MS Teams" →
// Microsoft Teams). Its own terms come first.
var skillsAlso = []string{"technical_skills.json", "soft_skills.json", "tools.json"}

func loadVocab(name string) (*Vocab, error) {
	terms, err := readTerms(name)
	if err != nil {
		return nil, err
	}
	v := NewVocab(terms)
	v.derive = openVocabularies[name]
	if name == "skills.json" {
		for _, other := range skillsAlso {
			more, err := readTerms(other)
			if err != nil {
				return nil, err
			}
			for _, t := range more {
				v.addValueTerm(t)
			}
		}
	}
	return v, nil
}

func readTerms(name string) ([]Term, error) {
	b, err := vocabFS.ReadFile("vocab/" + name)
	if err != nil {
		return nil, err
	}
	var terms []Term
	if err := json.Unmarshal(b, &terms); err != nil {
		return nil, fmt.Errorf("vocabulary %s: %w", name, err)
	}
	return terms, nil
}

// addValueTerm adds a term of another vocabulary, found only as a whole
// value (never in free text): its spellings go to the term the vocabulary
// has for any of them, else to a new term. Spellings other terms have stay
// theirs.
func (v *Vocab) addValueTerm(t Term) {
	spellings := append(append([]string{t.Name}, t.Aliases...), t.ListOnly...)
	var into *Term
	for _, s := range spellings {
		if found, ok := v.lookup(s); ok {
			into = found
			break
		}
	}
	if into == nil {
		into = &Term{Name: t.Name, Umbrella: t.Umbrella}
		v.byName[t.Name] = into
		v.hand++
	}
	for _, s := range spellings {
		v.claim(Fold(s), into, false)
		v.claim(squash(s), into, false)
	}
}

// Len returns the number of terms the vocabulary knows.
func (v *Vocab) Len() int { return v.hand + v.owned }

// Lookup returns the term s spells, if the vocabulary knows it. In an open
// vocabulary (all but the closed ones: education levels, visas, clearances,
// employment types, work arrangements) it also reads derived forms:
// "Python 3" and "Angular 2+" are Python and Angular, "Amazon DynamoDB" is
// DynamoDB, "Go (Golang)" is Go, and an unknown "AWS Glue" is a term of its
// own under AWS. The skills vocabulary then reads a value it still does
// not know as the one term a spelling of which is one edit away
// ("Kuberentes" is Kubernetes; Vocab.typo). A value longer than
// MaxListItemLength is no term.
func (v *Vocab) Lookup(s string) (*Term, bool) {
	if tooLong(s, MaxListItemLength) {
		return nil, false
	}
	if t, ok := v.lookup(s); ok {
		return t, true
	}
	if !v.derive {
		return nil, false
	}
	if t, ok := v.derived(s); ok {
		return t, true
	}
	return v.typo(s)
}

// find is Lookup without typo correction, for reading reference data:
// a term of its own is never merged into one a letter away.
func (v *Vocab) find(s string) (*Term, bool) {
	if tooLong(s, MaxListItemLength) {
		return nil, false
	}
	if t, ok := v.lookup(s); ok {
		return t, true
	}
	if !v.derive {
		return nil, false
	}
	return v.derived(s)
}

// lookup finds the term s spells exactly: folded, or squashed.
func (v *Vocab) lookup(s string) (*Term, bool) {
	if t, ok := v.all[Fold(s)]; ok {
		return t, true
	}
	t, ok := v.all[squash(s)]
	return t, ok
}

// derived reads the forms a value of an open vocabulary takes beside its
// spellings (Lookup): "Go (Golang)" as its parts, then versions, generic
// words and vendors.
func (v *Vocab) derived(s string) (*Term, bool) {
	if t, ok := v.derivedForms(s); ok {
		return t, true
	}
	return v.prefixTerm(s, Fold(s))
}

// sure is Lookup without guesses (no typo correction, no term made of a
// value's first words): what the vocabulary knows s as.
func (v *Vocab) sure(s string) (*Term, bool) {
	if tooLong(s, MaxListItemLength) {
		return nil, false
	}
	if t, ok := v.lookup(s); ok {
		return t, true
	}
	if !v.derive {
		return nil, false
	}
	return v.derivedForms(s)
}

// derivedForms reads "Go (Golang)" as its parts, then versions, generic
// words and vendors (derived without prefixTerm).
func (v *Vocab) derivedForms(s string) (*Term, bool) {
	f := Fold(s)
	if i := strings.IndexByte(f, '('); i > 0 {
		if j := strings.IndexByte(f[i:], ')'); j > 1 {
			for _, part := range []string{f[:i] + f[i+j+1:], f[i+1 : i+j]} {
				if t, ok := v.lookupForms(part); ok {
					return t, true
				}
			}
		}
	}
	if t, ok := v.lookupForms(f); ok {
		return t, true
	}
	return v.vendorTerm(s, f)
}

// prefixTerm reads a value whose first words name a term of the project's
// vocabulary that counts in free text, other than the plain words the text
// extractor masks (ambiguousSkills: "Go", "Spark", "Excel"): "Django
// Channels" is a term of its own under Django, "Docker Hub" under Docker.
func (v *Vocab) prefixTerm(s, f string) (*Term, bool) {
	words := prefixWords(f)
	// Only prefixes of at most termWords words can be keys of terms: the
	// work is linear in the value's length, not quadratic.
	for k := min(len(words)-1, v.termWords); k >= 1; k-- {
		prefix := strings.Join(words[:k], " ")
		if _, plain := ambiguousSkills[prefix]; plain {
			continue
		}
		if t, ok := v.terms[prefix]; ok {
			return &Term{Name: collapse(s), Umbrella: t.Name}, true
		}
	}
	return nil, false
}

// prefixWords splits a folded value into the words prefixTerm reads its
// prefixes in.
func prefixWords(f string) []string {
	return strings.FieldsFunc(f, func(r rune) bool { return r == ' ' || r == '-' })
}

// lookupForms finds the term of folded f, of f without a version
// ("python 3.11", "angular 2+", "vue3"), without generic words
// ("spring framework", "advanced excel") or without a "js" suffix
// ("nuxtjs").
func (v *Vocab) lookupForms(f string) (*Term, bool) {
	f = strings.TrimSpace(f)
	if f == "" {
		return nil, false
	}
	if t, ok := v.lookup(f); ok {
		return t, true
	}
	if base, ok := stripVersion(f); ok {
		if t, ok := v.lookup(base); ok {
			return t, true
		}
	}
	for _, base := range genericForms(f) {
		if t, ok := v.lookup(base); ok {
			return t, true
		}
		if base, ok := stripVersion(base); ok {
			if t, ok := v.lookup(base); ok {
				return t, true
			}
		}
	}
	if sq := squash(f); len(sq) > 4 && strings.HasSuffix(sq, "js") {
		if t, ok := v.all[sq[:len(sq)-2]]; ok {
			return t, true
		}
	}
	return nil, false
}

// stripVersion returns folded f without a version after the name: "3",
// "3.11", "2+", "v18", "3.x", "2019" (a major of one or two digits, or a
// year). A version written on to the name ("vue3", "html5") needs a name
// of three letters or more, so that "ec2" and "s3" stay themselves.
func stripVersion(f string) (string, bool) {
	s := strings.TrimRight(strings.TrimSuffix(strings.TrimRight(f, " "), "+"), " ")
	// The version: digits and dots (and "x" after a dot) at the end.
	i := len(s)
	for i > 0 && (isDigit(s[i-1]) || s[i-1] == '.' || s[i-1] == 'x' && i >= 2 && s[i-2] == '.') {
		i--
	}
	for i < len(s) && s[i] == '.' { // "…js.3" has no version ".3"
		i++
	}
	major := i
	for major < len(s) && isDigit(s[major]) {
		major++
	}
	if n := major - i; n == 0 || n > 2 && !(n == 4 && (s[i:i+2] == "19" || s[i:i+2] == "20")) {
		return "", false
	}
	j := i
	if j > 0 && s[j-1] == 'v' {
		j--
	}
	attached := true
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '-' || s[j-1] == '_') {
		j--
		attached = false
	}
	base := s[:j]
	if base == "" {
		return "", false
	}
	if r, _ := utf8.DecodeLastRuneInString(base); !unicode.IsLetter(r) && !strings.ContainsRune("+#.)", r) {
		return "", false
	}
	if len(base) < 2 || attached && len(base) < 3 {
		return "", false
	}
	return base, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// genericPrefixes and genericSuffixes are words around a skill that do not
// change which it is ("advanced Excel", "Spring framework", "Python
// programming", "5+ years of Java").
var (
	genericPrefixes = []string{"advanced ", "basic ", "strong ", "solid ", "deep ", "excellent ", "good ", "expert ",
		"intermediate ", "proficiency in ", "proficiency with ", "proficient in ", "proficient with ", "experience with ",
		"experience in ", "experience using ", "knowledge of ", "knowledge in ", "working knowledge of ", "familiarity with ",
		"familiar with ", "understanding of ", "expertise in ", "expertise with ", "skilled in ", "modern ", "core ",
		"hands-on ", "hands on ", "applied ", "active ", "current ", "valid ", "degree in "}
	genericSuffixes = []string{" programming language", " programming skills", " programming", " language", " lang",
		" framework", " development", " developer", " software", " platform", " library", " libraries", " scripting",
		" skills", " skill", " experience", " services", " sdk", " ecosystem", " proficiency", " knowledge", " coding",
		" basics", " fundamentals", " - expert", " - advanced", " - intermediate", " - beginner", " - basic",
		" - proficient", " expert", " (advanced)", " (expert)", " (intermediate)", " (basic)", " (preferred)", " (required)",
		" certification", " certified", " certificate", " license", " licensure", " degree", " major", " or related field",
		" or a related field", " or related", " preferred", " required", " a plus", " is a plus"}
	yearsOf = regexp.MustCompile(`^\d{1,2}\+?\s*(?:-\s*\d{1,2}\s*)?(?:years?|yrs?)\+?\s+(?:of\s+)?(?:experience\s+)?(?:(?:in|with|using)\s+)?`)
)

// genericForms returns folded f with generic words around it taken off, a
// few at a time: "strong python programming skills" → "python
// programming", "python".
func genericForms(f string) []string {
	var out []string
	cur := f
	for range 3 {
		next := cur
		if next != "" && isDigit(next[0]) {
			if m := yearsOf.FindStringIndex(next); m != nil && m[1] < len(next) {
				next = next[m[1]:]
			}
		}
		for _, p := range genericPrefixes {
			if rest, ok := strings.CutPrefix(next, p); ok && rest != "" {
				next = rest
				break
			}
		}
		for _, s := range genericSuffixes {
			if rest, ok := strings.CutSuffix(next, s); ok && rest != "" {
				next = rest
				break
			}
		}
		if next == cur {
			break
		}
		out = append(out, next)
		cur = next
	}
	return out
}

// A vendor is a company name that values may put before a product
// ("Amazon DynamoDB", "Microsoft Excel", "Apache Kafka"). Cloud is the
// skill a cloud vendor's services belong under; Open says whether any
// value it starts is one of them ("AWS Glue" is under AWS even when the
// vocabulary does not know Glue; "Amazon Advertising" is not).
type vendor struct {
	prefix, group, cloud string
	open                 bool
}

// vendors, longest prefixes first.
var vendors = []vendor{
	{"amazon web services", "amazon", "AWS", true}, {"google cloud platform", "google", "GCP", true},
	{"microsoft azure", "microsoft", "Azure", true}, {"google cloud", "google", "GCP", true},
	{"aws", "amazon", "AWS", true}, {"azure", "microsoft", "Azure", true}, {"gcp", "google", "GCP", true},
	{"amazon", "amazon", "AWS", false}, {"google", "google", "", false}, {"microsoft", "microsoft", "", false},
	{"ms", "microsoft", "", false}, {"apache", "apache", "", false}, {"oracle", "oracle", "", false},
	{"adobe", "adobe", "", false}, {"ibm", "ibm", "", false}, {"atlassian", "atlassian", "", false},
	{"apple", "apple", "", false}, {"autodesk", "autodesk", "", false}, {"jetbrains", "jetbrains", "", false},
	{"hashicorp", "hashicorp", "", false}, {"red hat", "red hat", "", false}, {"salesforce", "salesforce", "Salesforce", true},
	{"sap", "sap", "SAP", true}, {"the mathworks", "the mathworks", "", false}, {"sun microsystems", "sun", "", false},
}

// vendorOf returns the vendor folded f starts with and the rest of f.
func vendorOf(f string) (vendor, string, bool) {
	for _, vd := range vendors {
		if len(f) > len(vd.prefix) && f[len(vd.prefix)] == ' ' && strings.HasPrefix(f, vd.prefix) {
			if rest := strings.TrimSpace(f[len(vd.prefix):]); rest != "" {
				return vd, rest, true
			}
		}
	}
	return vendor{}, "", false
}

// vendorTerm reads a value that starts with a vendor: the product after
// it when that is the vendor's (a cloud's service, a product the project's
// vocabulary knows, a product named with the vendor: "MS Word" is
// "Microsoft Word"), else, after an open cloud vendor, a term of its own
// under the cloud.
func (v *Vocab) vendorTerm(s, f string) (*Term, bool) {
	vd, rest, ok := vendorOf(f)
	if !ok {
		return nil, false
	}
	if t, ok := v.lookupForms(rest); ok {
		switch {
		case vd.cloud != "":
			if v.top(t).Name == vd.cloud {
				return t, true
			}
		case !t.ref || v.namedBy(t, vd.group):
			return t, true
		}
	}
	// "MS Teams" is "Microsoft Teams": the product under the vendor's
	// other names.
	for _, other := range vendors {
		if other.group == vd.group && other.prefix != vd.prefix {
			if t, ok := v.lookup(other.prefix + " " + rest); ok {
				return t, true
			}
		}
	}
	if !vd.open {
		return nil, false
	}
	if _, ok := v.byName[vd.cloud]; !ok {
		return nil, false
	}
	return &Term{Name: collapse(s), Umbrella: vd.cloud}, true
}

// namedBy reports whether t's name starts with a spelling of the vendor
// group ("Microsoft Word" for "ms word").
func (v *Vocab) namedBy(t *Term, group string) bool {
	vd, _, ok := vendorOf(Fold(t.Name))
	return ok && vd.group == group
}

// Canonical returns the canonical spelling of s, or s trimmed when the
// vocabulary does not know it.
func (v *Vocab) Canonical(s string) string {
	if t, ok := v.Lookup(s); ok {
		return v.spelling(t, s)
	}
	return collapse(s)
}

// spelling is the canonical spelling of term t that s spells: its name,
// or s itself when t's name is only a guess from a lower-case tag
// ("NHibernate" stays so, not "Nhibernate").
func (v *Vocab) spelling(t *Term, s string) string {
	if t.guessed {
		return collapse(s)
	}
	return t.Name
}

// collapse trims s and makes its runs of white space single spaces.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// List returns the canonical spellings of in, without empty items and
// duplicates, in their first order.
func (v *Vocab) List(in []string) []string {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, s := range in {
		c := v.Canonical(s)
		if c == "" || seen[Fold(c)] {
			continue
		}
		seen[Fold(c)] = true
		out = append(out, c)
	}
	return out
}

// Umbrella returns the top umbrella term of s ("EKS" → AWS, "golang" →
// Go), or its canonical spelling when it has no umbrella.
func (v *Vocab) Umbrella(s string) string {
	t, ok := v.Lookup(s)
	if !ok {
		return collapse(s)
	}
	return v.spelling(v.top(t), s)
}

// top follows the umbrellas of t to the last; a vocabulary's umbrellas
// nest a few levels at most, and 8 steps guard against a loop.
func (v *Vocab) top(t *Term) *Term {
	for range 8 {
		u, ok := v.byName[t.Umbrella]
		if !ok || u == t {
			break
		}
		t = u
	}
	return t
}

// WithUmbrellas returns List(in) followed by the umbrella terms of its
// items (transitively) that are not already in it.
func (v *Vocab) WithUmbrellas(in []string) []string {
	out := v.List(in)
	seen := map[string]bool{}
	for _, s := range out {
		seen[Fold(s)] = true
	}
	for i := 0; i < len(out); i++ {
		t, ok := v.byName[out[i]]
		if !ok {
			t, ok = v.Lookup(out[i])
		}
		if !ok || t.Umbrella == "" || seen[Fold(t.Umbrella)] {
			continue
		}
		seen[Fold(t.Umbrella)] = true
		out = append(out, t.Umbrella)
	}
	return out
}

// accentRemovers hold transformers that take accents off: a
// transform.Chain keeps state between calls, so each goroutine needs its
// own (a shared one panicked under concurrent requests).
var accentRemovers = sync.Pool{New: func() any {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}}

// Fold returns s in the form spellings are compared in: lower case, without
// accents, with single spaces.
func Fold(s string) string {
	if isPlainASCII(s) {
		return foldASCII(s)
	}
	t := accentRemovers.Get().(transform.Transformer)
	out, _, err := transform.String(t, s) // resets t first
	accentRemovers.Put(t)
	if err != nil {
		out = s
	}
	return strings.Join(strings.Fields(strings.ToLower(out)), " ")
}

// foldASCII is Fold for ASCII text in one pass, without allocating when s
// is folded already (the common case for lookups of canonical values).
func foldASCII(s string) string {
	folded := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if ('A' <= c && c <= 'Z') || (asciiSpace(c) && (c != ' ' || i == 0 || i == len(s)-1 || s[i-1] == ' ')) {
			folded = false
			break
		}
	}
	if folded {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace(c) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// asciiSpace reports the ASCII bytes strings.Fields splits on.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Slug returns a URL-safe name of s: its folded words of ASCII letters and
// digits joined by '-' ("Société Générale" → "societe-generale").
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range Fold(s) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}

// squash is Fold without the punctuation and spaces that spellings of one
// term differ by ("React.js" = "reactjs", "H1-B" = "h-1b"); + and # stay,
// since they tell C, C++ and C# apart.
func squash(s string) string {
	f := Fold(s)
	if isPlainASCII(f) {
		b := make([]byte, 0, len(f))
		for i := 0; i < len(f); i++ {
			if c := f[i]; 'a' <= c && c <= 'z' || isDigit(c) || c == '+' || c == '#' {
				b = append(b, c)
			}
		}
		if len(b) == len(f) {
			return f
		}
		return string(b)
	}
	var b strings.Builder
	for _, r := range f {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '+' || r == '#' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
