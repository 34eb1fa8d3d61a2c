// Text facts: what a posting's text states for fields its source gives no value for.

package normalize

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize/terms"
)

// TextFacts are what the text of a posting states about fields its source
// may give no structured value for. Each is read only where the text
// states it, never guessed: an empty field means the text does not say.
type TextFacts struct {
	// Skills and Tools are the terms of the skills and tools vocabularies
	// the text names (short words that are also plain English, "Go",
	// "React", "Slack", count only in their technical spelling).
	Skills, Tools []string
	// TravelPercent is the share of travel ("up to 25% travel" → 25, the
	// top of a range, "no travel required" → 0).
	TravelPercent *float64
	// SecurityClearances are the clearances a sentence about a clearance
	// names ("active TS/SCI", "Secret clearance required"), and
	// ClearanceStatus "Active" when it asks for an active or current one.
	SecurityClearances []string
	ClearanceStatus    *string
	// VisaSponsorship are the visa types a sentence offers to sponsor
	// ("H-1B sponsorship available"); VisaRequirements are the sentences
	// that refuse sponsorship or require work authorization ("We are unable
	// to sponsor visas", "Must be authorized to work in the US").
	VisaSponsorship  []string
	VisaRequirements []string
	// Education are the sentences that state a degree ("Bachelor's degree
	// in Computer Science"), EducationLevels the levels they name.
	Education       []string
	EducationLevels []string
	// ExperienceLevel is the years of experience asked ("5+ years").
	ExperienceLevel *string
}

// TextFacts reads the facts the plain text of a posting states.
func (n *Normalizer) TextFacts(text string) TextFacts {
	text = quotes.Replace(text)
	var f TextFacts
	masked := maskWords(text, terms.AmbiguousSkills)
	f.Skills = n.Skills.FindIn(masked)
	f.Tools = n.Tools.FindIn(masked)
	f.TravelPercent = travelPercent(text)
	if years := YearsOfExperience(text); years != "" {
		f.ExperienceLevel = &years
	}
	for _, s := range sentences(text) {
		n.clearances(s, &f)
		n.visas(s, &f)
		n.education(s, &f)
	}
	return f
}

// Fill sets each field of j that is empty (nil, or an empty list) from the
// facts; fields j gives stay as they are. The clearance status is set only
// along with the clearances.
func (f TextFacts) Fill(j *domain.Job) {
	fillList := func(dst *[]string, src []string) {
		if len(*dst) == 0 && len(src) > 0 {
			*dst = slices.Clone(src)
		}
	}
	fillList(&j.Skills, f.Skills)
	fillList(&j.Tools, f.Tools)
	fillList(&j.VisaSponsorship, f.VisaSponsorship)
	fillList(&j.VisaRequirements, f.VisaRequirements)
	fillList(&j.Education, f.Education)
	fillList(&j.EducationLevels, f.EducationLevels)
	if len(j.SecurityClearances) == 0 && len(f.SecurityClearances) > 0 {
		j.SecurityClearances = slices.Clone(f.SecurityClearances)
		if j.ClearanceStatus == nil && f.ClearanceStatus != nil {
			s := *f.ClearanceStatus
			j.ClearanceStatus = &s
		}
	}
	if j.TravelPercent == nil && f.TravelPercent != nil {
		v := *f.TravelPercent
		j.TravelPercent = &v
	}
	if j.ExperienceLevel == nil && f.ExperienceLevel != nil {
		s := *f.ExperienceLevel
		j.ExperienceLevel = &s
	}
}

var quotes = strings.NewReplacer("’", "'", "‘", "'", "\u00a0", " ", "–", "-", "—", "-")

// ambiguousVisas are visa spellings that are also words ("opt in").
var ambiguousVisas = map[string][]string{"opt": {"OPT"}, "cpt": {"CPT"}, "perm": {"PERM"}, "gc": nil}

var wordPattern = regexp.MustCompile(`[\p{L}\p{N}'+#.]+`)

// spelledOut are ambiguous spellings that count, written as the
// vocabulary's FindIn finds them (it takes words of two letters only in
// capitals).
var spelledOut = map[string]string{"Go": "Golang"}

// maskWords blanks the words of text that are ambiguous spellings not
// written in a form that counts, so that Vocab.FindIn passes them by, and
// spells out the ones that count (spelledOut).
func maskWords(text string, ambiguous map[string][]string) string {
	var b strings.Builder
	last := 0
	for _, loc := range wordPattern.FindAllStringIndex(text, -1) {
		start, end := loc[0], loc[1]
		for start < end && (text[start] == '.' || text[start] == '\'') {
			start++
		}
		for end > start && (text[end-1] == '.' || text[end-1] == '\'') {
			end--
		}
		w := text[start:end]
		forms, ok := ambiguous[strings.ToLower(w)]
		if !ok {
			continue
		}
		keep := slices.Contains(forms, w) && (!sentenceStart(text, start) || listGoesOn(text, end))
		if keep && w == "C" {
			// The letter C is the language only in a list of languages
			// ("C, C++", "C/C++"), never in "C-suite" or "grade C".
			next, prev := nextChar(text, end), prevChar(text, start)
			keep = next != '-' && (next == ',' || next == '/' || prev == ',' || prev == '/')
		}
		b.WriteString(text[last:start])
		switch {
		case !keep:
			b.WriteString(strings.Repeat(" ", end-start))
		case spelledOut[w] != "":
			b.WriteString(spelledOut[w])
		default:
			b.WriteString(w)
		}
		last = end
	}
	b.WriteString(text[last:])
	return b.String()
}

// sentenceStart reports whether the word at i opens a sentence or a line
// (after bullets).
func sentenceStart(text string, i int) bool {
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:i])
		switch {
		case r == '\n':
			return true
		case r == '.' || r == '!' || r == '?':
			return true
		case unicode.IsSpace(r) || strings.ContainsRune("•·*-▪●", r):
			i -= size
		default:
			return false
		}
	}
	return true
}

// listGoesOn reports whether a list of terms goes on after the word ending
// at i: a comma, slash or parenthesis, the line's end, or "and"/"or" and a
// capitalized word.
func listGoesOn(text string, i int) bool {
	rest := strings.TrimLeft(text[i:], " \t")
	if rest == "" || strings.ContainsAny(rest[:1], ",/)\n") {
		return true
	}
	fields := strings.Fields(rest)
	if len(fields) >= 2 && (fields[0] == "and" || fields[0] == "or" || fields[0] == "&") {
		r, _ := utf8.DecodeRuneInString(fields[1])
		return unicode.IsUpper(r)
	}
	return false
}

func nextChar(text string, i int) byte {
	for ; i < len(text); i++ {
		if text[i] != ' ' && text[i] != '\t' {
			return text[i]
		}
	}
	return 0
}

func prevChar(text string, i int) byte {
	for i--; i >= 0; i-- {
		if text[i] != ' ' && text[i] != '\t' {
			return text[i]
		}
	}
	return 0
}

// sentences splits text into lines, and lines into sentences: at ";", and
// at ".", "!" or "?" before a capital or a digit, unless the period ends an
// abbreviation ("U.S. Citizens", "Dr. Smith").
func sentences(text string) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(strings.TrimLeft(s, "•·*-▪● \t")); s != "" {
			out = append(out, s)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		start := 0
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c == ';' {
				add(line[start:i])
				start = i + 1
				continue
			}
			if c != '.' && c != '!' && c != '?' {
				continue
			}
			k := i + 1
			for k < len(line) && line[k] == ' ' {
				k++
			}
			if k == i+1 || k >= len(line) {
				continue
			}
			r, _ := utf8.DecodeRuneInString(line[k:])
			if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
				continue
			}
			if c == '.' && abbreviation(line[start:i]) {
				continue
			}
			add(line[start : i+1])
			start = k
			i = k - 1
		}
		add(line[start:])
	}
	return out
}

var abbreviations = map[string]bool{"dr": true, "mr": true, "mrs": true, "ms": true, "st": true, "inc": true, "jr": true, "sr": true, "no": true, "vs": true, "approx": true, "e.g": true, "i.e": true}

// abbreviation reports whether s ends with an abbreviation: a word with a
// period inside ("U.S"), a single letter, or a known short form.
func abbreviation(s string) bool {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return true
	}
	w := strings.TrimLeft(fields[len(fields)-1], "(\"'")
	return strings.Contains(w, ".") || utf8.RuneCountInString(w) <= 1 || abbreviations[strings.ToLower(w)]
}

var (
	// travelBefore: "up to 25% travel", "10-20% domestic travel", "25% of
	// the time traveling".
	travelBefore = regexp.MustCompile(`(?i)\b(\d{1,3})\s*%?\s*(?:(?:-|to)\s*(\d{1,3})\s*)?%\s*(?:of\s+(?:the\s+)?time\s+)?(?:(?:domestic|international|overnight|national|regional|local|business|client|customer|field|and|or|/)\s*)*\btravel(?:l?ing|l?ed)?\b`)
	// travelAfter: "travel up to 25%", "Travel: 10%", "travel required
	// (approximately 10-15%)".
	travelAfter = regexp.MustCompile(`(?i)\btravel(?:l?ing)?\b(?:\s*(?:is|will\s+be|may\s+be|of|up\s+to|approximately|approx\.?|about|around|roughly|less\s+than|no\s+more\s+than|under|required|requirements?|expected|needed|:|-|\()\s*)*(\d{1,3})\s*%?\s*(?:(?:-|to)\s*(\d{1,3})\s*)?%`)
	// noTravel: "No travel required", "travel is not required".
	noTravel = regexp.MustCompile(`(?i)\bno\s+(?:\w+\s+)?travel\s+(?:is\s+)?(?:required|expected|needed|involved)\b|\btravel\s+(?:is\s+)?not\s+(?:required|expected|needed)\b`)
	// notTravelShare are the words after a percentage and "travel" that make
	// it something else than the share of travel ("100% travel reimbursement").
	notTravelShare = map[string]bool{"cost": true, "costs": true, "expense": true, "expenses": true, "reimbursement": true, "reimbursed": true,
		"stipend": true, "allowance": true, "insurance": true, "agency": true, "agencies": true, "nurse": true, "nurses": true, "nursing": true,
		"covered": true, "paid": true, "budget": true}
)

// travelPercent returns the share of travel text states: the first
// percentage stated with travel (the top of a range), 0 for "no travel
// required", nil when the text does not say.
func travelPercent(text string) *float64 {
	for _, re := range []*regexp.Regexp{travelBefore, travelAfter} {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			after := strings.ToLower(strings.Trim(firstWord(text[m[1]:]), ".,;:)"))
			if notTravelShare[after] {
				continue
			}
			v := text[m[2]:m[3]]
			if m[4] >= 0 {
				v = text[m[4]:m[5]]
			}
			p, err := strconv.ParseFloat(v, 64)
			if err != nil || p > 100 {
				continue
			}
			return &p
		}
	}
	if noTravel.MatchString(text) {
		zero := 0.0
		return &zero
	}
	return nil
}

func firstWord(s string) string {
	fields := strings.Fields(strings.TrimLeft(s, "%"))
	if len(fields) == 0 {
		return ""
	}
	return fields[0]
}

var (
	clearanceContext = regexp.MustCompile(`(?i)\b(?:clearances?|cleared|polygraph|ts/sci|public\s+trust)\b`)
	clearanceNegated = regexp.MustCompile(`(?i)(?:\bno|\bnot|\bwithout|n't)\s+(?:\w+\s+){0,4}?(?:security\s+)?clearance|\bclearance\s+(?:is\s+)?not\s+(?:required|needed|necessary)`)
	clearanceActive  = regexp.MustCompile(`(?i)\b(?:active|current)\s+(?:\w+\s+)?(?:ts|top\s+secret|secret|public\s+trust|confidential|doe|q|l|security|clearance)\b`)
	polygraph        = regexp.MustCompile(`(?i)\b(?:poly|polygraph|fsp)\b`)
)

// clearances reads the clearances a sentence about a clearance names.
func (n *Normalizer) clearances(s string, f *TextFacts) {
	if !clearanceContext.MatchString(s) || clearanceNegated.MatchString(s) {
		return
	}
	found := n.SecurityClearances.FindIn(s)
	has := func(name string) bool { return slices.Contains(found, name) }
	// "Top Secret/SCI" also reads as "Top Secret" and "Secret": keep the
	// most precise.
	if has("Top Secret/SCI") && polygraph.MatchString(s) {
		found = append(found, "TS/SCI with Polygraph")
	}
	found = slices.DeleteFunc(found, func(c string) bool {
		switch c {
		case "Secret":
			return has("Top Secret") || has("Top Secret/SCI") || has("TS/SCI with Polygraph")
		case "Top Secret":
			return has("Top Secret/SCI") || has("TS/SCI with Polygraph")
		case "Top Secret/SCI":
			return slices.Contains(found, "TS/SCI with Polygraph")
		}
		return false
	})
	if len(found) == 0 {
		return
	}
	for _, c := range found {
		f.SecurityClearances = appendNew(f.SecurityClearances, c)
	}
	if clearanceActive.MatchString(s) {
		active := "Active"
		f.ClearanceStatus = &active
	}
}

var (
	visaContext = regexp.MustCompile(`(?i)\b(?:sponsor\w*|visas?|h-?1b\d?|work\s+authori[sz]ation|authori[sz]ed\s+to\s+work|eligible\s+to\s+work|right\s+to\s+work|citizens?|citizenship|green\s+card|transfers?)\b`)
	sponsorWord = regexp.MustCompile(`(?i)\bsponsor(?:s|ed|ing|ship)?\b|\btransfers?\s+(?:are\s+)?welcome`)
	visaNegated = regexp.MustCompile(`(?i)(?:\bunable|\bnot\s+able|\bcannot|\bcan\s+not|n't|\bwill\s+not|\bdo\s+not|\bdoes\s+not|\bare\s+not|\bis\s+not|\bnot\s+in\s+a\s+position)\s+(?:to\s+)?(?:\w+\s+){0,3}?(?:sponsor|provide\s+(?:\w+\s+)?sponsorship|offer\s+(?:\w+\s+)?sponsorship|support\s+(?:\w+\s+)?(?:sponsorship|visas?))` +
		`|\bno\s+(?:\w+\s+)?sponsorship\b|\bwithout\s+(?:\w+\s+){0,6}?sponsorship\b|\bsponsorship\s+(?:is\s+|will\s+)?(?:not|unavailable)\b` +
		`|\bnot\s+(?:be\s+)?(?:eligible|available)\s+for\s+(?:\w+\s+)?sponsorship|\brequire[sd]?\s+(?:\w+\s+){0,3}?sponsorship\b.*\b(?:not|ineligible)\b`)
	workAuthorization = regexp.MustCompile(`(?i)\b(?:authori[sz]ed\s+to\s+work|work\s+authori[sz]ation|eligible\s+to\s+work|right\s+to\s+work|citizenship\s+(?:is\s+)?required|must\s+be\s+a\s+(?:\w+\s+)?citizen|(?:u\.?s\.?|us|united\s+states|canadian|uk|eu)\s+citizens?(?:hip)?\b)`)
	// equalOpportunity marks the equal-opportunity statements that name
	// citizenship among what does not count.
	equalOpportunity = regexp.MustCompile(`(?i)\b(?:equal\s+opportunity|regardless\s+of|without\s+regard|discriminat\w*)\b`)
	// visaHyphens joins the parts of visa names ("H-1B" → "H1B", "H1-B"
	// → "H1B"), which the vocabulary knows in their joined spelling.
	visaHyphens = regexp.MustCompile(`\b([A-Za-z]{1,2})-(\d[A-Za-z0-9]*)\b|\b([A-Za-z]\d)-([A-Za-z])\b`)
)

// visas reads a sentence about visas: sponsorship refused or work
// authorization required (a visa requirement), or sponsorship offered for
// the visa types it names.
func (n *Normalizer) visas(s string, f *TextFacts) {
	if !visaContext.MatchString(s) || equalOpportunity.MatchString(s) {
		return
	}
	switch {
	case visaNegated.MatchString(s):
		f.VisaRequirements = appendNew(f.VisaRequirements, s)
	case sponsorWord.MatchString(s):
		joined := visaHyphens.ReplaceAllString(s, "$1$2$3$4")
		for _, v := range n.Visas.FindIn(maskWords(joined, ambiguousVisas)) {
			f.VisaSponsorship = appendNew(f.VisaSponsorship, v)
		}
	case workAuthorization.MatchString(s):
		f.VisaRequirements = appendNew(f.VisaRequirements, s)
	}
}

var (
	degreeContext = regexp.MustCompile(`(?i)\b(?:degrees?|diploma|bachelor'?s?|master'?s|doctorate|doctoral|ph\.?\s?d\.?|mba|ged)\b|\b(?:BS|BA|MS|BSc|MSc|B\.S|B\.A|M\.S)\b\.?\s*(?:/|,|or\b|and\b|in\b|degree\b)`)
	degreeIn      = regexp.MustCompile(`(?i)\bdegree\s+in\b`)
	degreeNegated = regexp.MustCompile(`(?i)\b(?:no|not|without)\s+(?:\w+\s+){0,2}?(?:college\s+|university\s+|formal\s+)?degree|\bdegree\s+(?:is\s+)?not\s+(?:required|necessary|needed)`)
	// Spellings of degrees the vocabulary knows in another form.
	degreePossessive = regexp.MustCompile(`(?i)\b(bachelor|master|associate)'s\b`)
	degreePhD        = regexp.MustCompile(`(?i)\bph\.?\s?d\b\.?`)
	degreeDotted     = regexp.MustCompile(`\b([BM])\.([SA])\.`)
	msProduct        = regexp.MustCompile(`\bMS\s+(Office|Excel|Word|Teams|Project|Access|SQL|Dynamics|Windows|Azure|Visio|PowerPoint|Outlook)\b`)
)

// education reads a sentence that states a degree: the sentence is the
// education text, the levels it names are education levels.
func (n *Normalizer) education(s string, f *TextFacts) {
	if !degreeContext.MatchString(s) || degreeNegated.MatchString(s) {
		return
	}
	spelled := degreePossessive.ReplaceAllString(s, "${1}s")
	spelled = degreePhD.ReplaceAllString(spelled, "PhD")
	spelled = degreeDotted.ReplaceAllString(spelled, "$1$2")
	spelled = msProduct.ReplaceAllString(spelled, "Microsoft $1")
	levels := n.EducationLevels.FindIn(spelled)
	if len(levels) == 0 && !degreeIn.MatchString(s) {
		return
	}
	f.Education = appendNew(f.Education, s)
	for _, l := range levels {
		f.EducationLevels = appendNew(f.EducationLevels, l)
	}
}

const numberWords = `\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty`

// yearsOfExperience: "5+ years of experience", "3-5 years of professional
// software experience", "at least 4 years' experience", "minimum of two
// years of hands-on experience", "7 or more years of experience";
// experienceYears: "Experience: 7+ years".
var (
	yearsOfExperience = regexp.MustCompile(`(?i)\b(at\s+least\s+|a\s+minimum\s+of\s+|minimum\s+(?:of\s+)?|min\.?\s+|over\s+|more\s+than\s+)?(` + numberWords + `)\s*(\+|plus|or\s+more)?(?:\s*(?:-|to)\s*(` + numberWords + `)\s*\+?)?\s*(?:\(\d{1,2}\+?\)\s*)?(?:years?|yrs?)\b'?(\s+or\s+(?:more|greater|above))?(?:\s+of)?(?:\s+[\w/&+#-]+(?:\.\w+)*){0,4}?\s+(?:experience|exp)\b`)
	experienceYears   = regexp.MustCompile(`(?i)\bexperience(?:\s+(?:required|level))?\s*:\s*(` + numberWords + `)\s*(\+|plus)?(?:\s*(?:-|to)\s*(` + numberWords + `)\s*\+?)?\s*(?:years?|yrs?)\b`)
	numberValues      = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20}
)

// YearsOfExperience returns the years of experience text first asks for,
// as "5+ years" (at least: "5+", "at least 5", "5 or more"), "3-5 years" (a
// range) or "2 years"; "" when it asks for none.
func YearsOfExperience(text string) string {
	text = quotes.Replace(text)
	if m := yearsOfExperience.FindStringSubmatch(text); m != nil {
		return yearsLabel(m[2], m[4], m[1] != "" || m[3] != "" || m[5] != "")
	}
	if m := experienceYears.FindStringSubmatch(text); m != nil {
		return yearsLabel(m[1], m[3], m[2] != "")
	}
	return ""
}

func yearsLabel(from, to string, atLeast bool) string {
	number := func(s string) int {
		if v, ok := numberValues[strings.ToLower(s)]; ok {
			return v
		}
		v, _ := strconv.Atoi(s)
		return v
	}
	lo := number(from)
	switch {
	case to != "":
		return fmt.Sprintf("%d-%d years", lo, number(to))
	case atLeast:
		return fmt.Sprintf("%d+ years", lo)
	case lo == 1:
		return "1 year"
	}
	return fmt.Sprintf("%d years", lo)
}
