// Derived forms: what an open vocabulary reads a value as beside its spellings (versions, vendors, parts).

package terms

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// derived reads the forms a value of an open vocabulary takes beside its
// spellings (Lookup): "Go (Golang)" as its parts, then versions, generic
// words and vendors.
func (v *Vocab) derived(s string) (*Term, bool) {
	if t, ok := v.derivedForms(s); ok {
		return t, true
	}
	return v.prefixTerm(s, fold.Fold(s))
}

// sure is Lookup without guesses (no typo correction, no term made of a
// value's first words): what the vocabulary knows s as.
func (v *Vocab) sure(s string) (*Term, bool) {
	if t, ok, more := v.exact(s); !more {
		return t, ok
	}
	return v.derivedForms(s)
}

// derivedForms reads "Go (Golang)" as its parts, then versions, generic
// words and vendors (derived without prefixTerm).
func (v *Vocab) derivedForms(s string) (*Term, bool) {
	f := fold.Fold(s)
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
// extractor masks (AmbiguousSkills: "Go", "Spark", "Excel"): "Django
// Channels" is a term of its own under Django, "Docker Hub" under Docker.
func (v *Vocab) prefixTerm(s, f string) (*Term, bool) {
	words := prefixWords(f)
	// Only prefixes of at most termWords words can be keys of terms: the
	// work is linear in the value's length, not quadratic.
	for k := min(len(words)-1, v.termWords); k >= 1; k-- {
		prefix := strings.Join(words[:k], " ")
		if _, plain := AmbiguousSkills[prefix]; plain {
			continue
		}
		if t, ok := v.terms[prefix]; ok {
			return &Term{Name: fold.Collapse(s), Umbrella: t.Name}, true
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
	if sq := fold.Squash(f); len(sq) > 4 && strings.HasSuffix(sq, "js") {
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
	return &Term{Name: fold.Collapse(s), Umbrella: vd.cloud}, true
}

// namedBy reports whether t's name starts with a spelling of the vendor
// group ("Microsoft Word" for "ms word").
func (v *Vocab) namedBy(t *Term, group string) bool {
	vd, _, ok := vendorOf(fold.Fold(t.Name))
	return ok && vd.group == group
}

// AmbiguousSkills are spellings of skills and tools that are also plain
// words: they count only written as listed (case and all), and at the start
// of a sentence only when a list goes on after them ("Go, Python or
// Rust"), not in "Go the extra mile". A spelling with no forms never
// counts ("TS" is TypeScript and Top Secret; "containers" is not Docker).
var AmbiguousSkills = map[string][]string{
	"go": {"Go"}, "swift": {"Swift"}, "rust": {"Rust"}, "ruby": {"Ruby"}, "spark": {"Spark"},
	"express": {"Express"}, "spring": {"Spring"}, "flask": {"Flask"}, "lambda": {"Lambda"},
	"react": {"React"}, "angular": {"Angular"}, "rails": {"Rails"}, "node": {"Node"}, "vue": {"Vue"},
	"excel": {"Excel"}, "sketch": {"Sketch"}, "epic": {"Epic"}, "slack": {"Slack"}, "confluence": {"Confluence"},
	"sap": {"SAP"}, "elk": {"ELK"}, "hcl": {"HCL"}, "ror": {"RoR", "ROR"}, "mongo": {"Mongo"}, "c": {"C"},
	"ts": nil, "tf": nil, "torch": nil, "containers": nil, "next": nil, "kube": nil,
}
