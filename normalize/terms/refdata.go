// Skill reference data: spellings and terms added to the skills and tools vocabularies.

package terms

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/normalize/refdata"
)

// Reference data of skills and technologies (../shared/data/skills,
// PROVENANCE.md there). It adds spellings and terms to the skills and
// tools vocabularies, never changes what the project's vocabularies say:
// a spelling they know stays theirs, and a reference term that is one of
// their terms under another spelling becomes that spelling of it. None of
// it is found in free text (Vocab.FindIn), only as a whole value.

// minTagQuestions is how many Stack Overflow questions a tag needs to be
// read as a term of its own; tags that synonyms point to are read anyway.
const minTagQuestions = 1000

// AddSkillsRefData adds the terms of dir/skills (the reference data's) to
// the skills and tools vocabularies, and reports whether there was such a
// folder. It touches nothing else, so that it runs beside the other
// loaders (the skills' typos are indexed after it).
func AddSkillsRefData(dir string, skills, tools *Vocab) (bool, error) {
	dir = filepath.Join(dir, "skills")
	if _, err := os.Stat(dir); err != nil {
		return false, nil
	}
	langs, err := readLinguist(filepath.Join(dir, "linguist_languages.json"))
	if err != nil {
		return false, fmt.Errorf("skills reference data: %w", err)
	}
	techs, err := readONET(filepath.Join(dir, "onet_technology_skills.tsv.gz"))
	if err != nil {
		return false, fmt.Errorf("skills reference data: %w", err)
	}
	tags, err := readTags(filepath.Join(dir, "stackoverflow_tags.csv.gz"), filepath.Join(dir, "stackoverflow_tag_synonyms.csv.gz"))
	if err != nil {
		return false, fmt.Errorf("skills reference data: %w", err)
	}
	skills.addLinguist(langs)
	skills.addONET(techs, true)
	skills.addTags(tags)
	tools.addONET(techs, false)
	return true, nil
}

// addRef adds a term of reference data named name, spelled also as
// spellings. When the vocabulary knows the name or one of the spellings
// (exactly, or in a derived form: "python-3.x" is Python), they become
// spellings of that term; else a new term under umbrella (or the umbrella
// a derived form gives, "AWS Glue" → AWS). Spellings other terms have stay
// theirs. It returns the term, nil when name is empty.
func (v *Vocab) addRef(name string, spellings []string, umbrella string, guessed bool) *Term {
	if strings.TrimSpace(name) == "" {
		return nil
	}
	var t *Term
	for _, s := range append([]string{name}, spellings...) {
		if found, ok := v.find(s); ok {
			if v.byName[found.Name] == found {
				t = found
				break
			}
			if umbrella == "" {
				umbrella = found.Umbrella // a term of its own under a cloud
			}
		}
	}
	if t == nil {
		if u, ok := v.lookup(umbrella); ok {
			umbrella = u.Name
		}
		t = &Term{Name: name, Umbrella: umbrella, ref: true, guessed: guessed}
		v.byName[name] = t
		v.owned++
	}
	for _, s := range append([]string{name}, spellings...) {
		v.claim(fold.Fold(s), t, false)
		v.claim(fold.Squash(s), t, false)
	}
	return t
}

// known returns the term s names exactly (or with a version) among the
// terms the vocabulary has, for umbrellas by prefix.
func (v *Vocab) known(s string) (*Term, bool) {
	if t, ok := v.lookup(s); ok {
		return t, true
	}
	if base, ok := stripVersion(fold.Fold(s)); ok {
		return v.lookup(base)
	}
	return nil, false
}

// umbrellaOf returns the umbrella of a reference term of words: the cloud
// of a cloud vendor ("azure storage" → Azure), else the longest first words
// that name a term of the project's vocabulary ("django rest framework" →
// Django, "sql server integration services" → SQL Server), after a
// vendor's name.
func (v *Vocab) umbrellaOf(words []string) string {
	if vd, rest, ok := vendorOf(strings.Join(words, " ")); ok {
		if vd.cloud != "" && vd.prefix != "sap" && vd.prefix != "salesforce" {
			if _, ok := v.byName[vd.cloud]; ok {
				return vd.cloud
			}
		}
		words = strings.Fields(rest)
	}
	for k := len(words) - 1; k >= 1; k-- {
		prefix := strings.Join(words[:k], " ")
		t, ok := v.known(prefix)
		if !ok || t.ref { // only the project's terms: "crystal-reports" is not Linguist's Crystal
			continue
		}
		// Short aliases ("js", "ml") are no prefix: "ml kit" is not Machine Learning.
		if len(prefix) >= 3 || fold.Squash(prefix) == fold.Squash(t.Name) {
			return t.Name
		}
	}
	return ""
}

// linguistLanguage is an entry of linguist_languages.json.
type linguistLanguage struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Group   *string  `json:"group"`
	Aliases []string `json:"aliases"`
}

func readLinguist(path string) ([]linguistLanguage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var langs []linguistLanguage
	if err := json.Unmarshal(b, &langs); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return langs, nil
}

// addLinguist adds Linguist's programming, markup and data languages with
// their aliases; a language of a group ("TSX" of TypeScript) is under it.
// Prose formats ("Text") are no skills.
func (v *Vocab) addLinguist(langs []linguistLanguage) {
	for _, l := range langs {
		if l.Type == "prose" || l.Name == "" {
			continue
		}
		umbrella := ""
		if l.Group != nil && *l.Group != l.Name && l.Type == "programming" {
			umbrella = *l.Group
		}
		aliases := slices.DeleteFunc(slices.Clone(l.Aliases), func(a string) bool { return len(a) < 2 || blockedAlias[fold.Fold(a)] })
		v.addRef(l.Name, aliases, umbrella, false)
	}
}

// blockedAlias are reference-data aliases that are plain words or too
// ambiguous to name one technology.
var blockedAlias = map[string]bool{
	"cake": true, "text": true, "basic": true, "if": true, "for": true, "try": true, "job": true, "jobs": true, "log": true,
	"tab": true, "tag": true, "tags": true, "at": true, "ul": true, "li": true, "ol": true, "div": true, "nil": true,
	"str": true, "img": true, "avg": true, "bot": true, "dot": true, "gem": true, "pig": true, "mac": true, "ms": true,
	"so": true, "vm": true, "cs": true, "er": true, "ha": true, "ps": true, "cf": true, "ce": true, "il": true,
	"ext": true, "arc": true, "os": true, "ui": true, "db": true, "www": true, "fix": true, "pos": true, "web": true,
	"data": true, "file": true, "files": true, "image": true, "images": true, "list": true, "string": true, "time": true,
	"date": true, "email": true, "design": true, "testing": true, "security": true, "performance": true, "sales": true,
	"management": true, "communication": true, "office": true, "word": true, "project": true, "access": true,
	"teams": true, "windows": true, "mail": true, "cloud": true, "network": true, "server": true, "app": true, "apps": true,
	"iam": true, "apache": true,
}

// onetTech is a technology of O*NET's Technology Skills.
type onetTech struct {
	Name, Commodity string
	Hot             bool
}

func readONET(path string) ([]onetTech, error) {
	rc, err := refdata.Open(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	r := csv.NewReader(rc)
	r.Comma = '\t'
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	ex, com, hot := skillColumn(header, "Example"), skillColumn(header, "Commodity Title"), skillColumn(header, "Hot Technology")
	if ex < 0 || com < 0 || hot < 0 {
		return nil, fmt.Errorf("%s: want columns Example, Commodity Title, Hot Technology", filepath.Base(path))
	}
	var out []onetTech
	index := map[string]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
		}
		if len(rec) <= max(ex, com, hot) {
			continue
		}
		i, ok := index[rec[ex]]
		if !ok {
			i = len(out)
			index[rec[ex]] = i
			out = append(out, onetTech{Name: rec[ex], Commodity: rec[com]})
		}
		out[i].Hot = out[i].Hot || rec[hot] == "Y"
	}
	return out, nil
}

// developmentCommodities are the O*NET commodity classes of software
// development technologies, read as skills even when O*NET does not flag
// them hot.
var developmentCommodities = map[string]bool{
	"Web platform development software": true, "Object or component oriented development software": true,
	"Development environment software": true, "Data base management system software": true,
	"Program testing software": true, "Configuration management software": true, "Application server software": true,
	"Enterprise application integration software": true, "Operating system software": true,
	"Business intelligence and data analysis software": true, "Cloud-based management software": true,
	"Cloud-based data access and sharing software": true, "Object oriented data base management software": true,
	"File versioning software": true, "Graphical user interface development software": true,
}

// addONET adds O*NET's technologies: all of those the vocabulary knows as
// further spellings ("Atlassian JIRA", "Structured query language SQL");
// as new terms, to skills (skills true) the hot ones and those of software
// development, to tools all. O*NET's names of kinds of software ("Web
// application software") are no terms.
func (v *Vocab) addONET(techs []onetTech, skills bool) {
	for _, tech := range techs {
		name, spellings := onetSpellings(tech.Name)
		if name == "" {
			continue
		}
		known := false
		for _, s := range append([]string{name}, spellings...) {
			if t, ok := v.find(s); ok && v.byName[t.Name] == t {
				known = true
				break
			}
		}
		if !known && (genericName(name) || utf8.RuneCountInString(name) < 2 ||
			skills && !tech.Hot && !developmentCommodities[tech.Commodity]) {
			continue
		}
		v.addRef(name, spellings, v.umbrellaOf(strings.Fields(fold.Fold(name))), false)
	}
}

// onetSpellings returns the name of an O*NET technology and its other
// spellings: without " software" ("Salesforce software" → Salesforce); a
// trailing abbreviation is the name, what it abbreviates a spelling
// ("Structured query language SQL" → SQL, "Structured query language";
// "Microsoft Extensible Application Markup Language (XAML)" → XAML).
func onetSpellings(example string) (string, []string) {
	name := strings.TrimSpace(example)
	spellings := []string{name}
	if base, ok := strings.CutSuffix(name, " software"); ok && base != "" {
		name = base
	}
	words := strings.Fields(name)
	if len(words) >= 3 {
		last := strings.Trim(words[len(words)-1], "()")
		long := words[:len(words)-1]
		if abbreviates(last, long) && !slices.ContainsFunc(long, func(w string) bool { return strings.EqualFold(w, last) }) {
			spellings = append(spellings, name, strings.Join(long, " "))
			name = last
		}
	}
	return name, slices.DeleteFunc(spellings, func(s string) bool { return s == name })
}

// abbreviates reports whether abbr (upper case, two characters or more)
// is made of the initials of words (first letters and inner capitals), in
// order, one letter aside at most ("HTML" of "Hypertext markup language").
func abbreviates(abbr string, words []string) bool {
	if len(abbr) < 2 || strings.ToUpper(abbr) != abbr || !strings.ContainsFunc(abbr, unicode.IsLetter) {
		return false
	}
	var initials []rune
	for _, w := range words {
		for i, r := range w {
			if i == 0 || unicode.IsUpper(r) || unicode.IsDigit(r) {
				initials = append(initials, unicode.ToUpper(r))
			}
		}
	}
	missed, j := 0, 0
	for _, r := range abbr {
		k := slices.Index(initials[j:], r)
		if k < 0 {
			missed++
			continue
		}
		j += k + 1
	}
	return missed <= 1 && missed < len(abbr)-1
}

// genericName reports whether an O*NET name is a kind of software rather
// than a product: none of its words after the first is capitalized
// ("Relational database management software").
func genericName(name string) bool {
	words := strings.Fields(name)
	if len(words) < 2 {
		return false
	}
	for _, w := range words[1:] {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// soTag is a Stack Overflow tag and the synonyms that point to it.
type soTag struct {
	Name      string
	Synonyms  []string
	Questions int
}

// readTags reads the tags with minTagQuestions questions or more and the
// tags synonyms point to, with their synonyms, in the order of the tags
// file (by id) and then of the synonyms.
func readTags(tagsPath, synonymsPath string) ([]soTag, error) {
	var out []soTag
	index := map[string]int{}
	err := readSkillCSV(tagsPath, []string{"TagName", "Count"}, func(rec []string) {
		count, _ := strconv.Atoi(rec[1])
		index[rec[0]] = len(out)
		out = append(out, soTag{Name: rec[0], Questions: count})
	})
	if err != nil {
		return nil, err
	}
	err = readSkillCSV(synonymsPath, []string{"SourceTagName", "TargetTagName"}, func(rec []string) {
		i, ok := index[rec[1]]
		if !ok {
			i = len(out)
			index[rec[1]] = i
			out = append(out, soTag{Name: rec[1], Questions: minTagQuestions})
		}
		out[i].Synonyms = append(out[i].Synonyms, rec[0])
	})
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(out, func(t soTag) bool { return t.Questions < minTagQuestions && len(t.Synonyms) == 0 }), nil
}

// readSkillCSV calls each with the named columns of every record of a quoted
// CSV file (gzip'd when its name ends in .gz).
func readSkillCSV(path string, names []string, each func([]string)) error {
	rc, err := refdata.Open(path)
	if err != nil {
		return err
	}
	defer rc.Close()
	r := csv.NewReader(rc)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	idx := make([]int, len(names))
	for i, name := range names {
		if idx[i] = skillColumn(header, name); idx[i] < 0 {
			return fmt.Errorf("%s: no column %s", filepath.Base(path), name)
		}
	}
	vals := make([]string, len(names))
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(path), err)
		}
		ok := true
		for i, c := range idx {
			if c >= len(rec) {
				ok = false
				break
			}
			vals[i] = rec[c]
		}
		if ok {
			each(vals)
		}
	}
}

// addTags adds Stack Overflow's tags, spelled also with spaces
// ("ruby-on-rails" → "ruby on rails"), and their synonyms ("golang" → go).
// A tag the vocabulary does not know is a new term under the term its
// first words name ("amazon-ses" → AWS, "django-models" → Django); as its
// lower-case name is no display name, the term keeps the spellings values
// give it (Vocab.spelling). Synonyms of two or three
// characters count only for terms of the project's vocabulary ("k8s"),
// and plain words never.
func (v *Vocab) addTags(tags []soTag) {
	for _, tag := range tags {
		if utf8.RuneCountInString(tag.Name) < 2 && v.byName[strings.ToUpper(tag.Name)] == nil || skippedTags[tag.Name] {
			continue
		}
		spaced := strings.ReplaceAll(tag.Name, "-", " ")
		spellings := []string{spaced}
		words := strings.Fields(spaced)
		t := v.addRef(tag.Name, spellings, v.tagUmbrella(words), true)
		if t == nil {
			continue
		}
		for _, syn := range tag.Synonyms {
			f := fold.Fold(syn)
			if blockedAlias[f] || len(f) < 2 || len(f) <= 3 && t.ref {
				continue
			}
			v.claim(f, t, false)
			v.claim(fold.Squash(f), t, false)
			v.claim(fold.Fold(strings.ReplaceAll(syn, "-", " ")), t, false)
		}
	}
}

// skippedTags are tags that name no skill of their vendor's cloud.
var skippedTags = map[string]bool{"amazon": true, "amazon-product-api": true, "amazon-mws": true, "google": true, "microsoft": true}

// tagUmbrella is umbrellaOf for a tag's words, where "amazon-…" tags are
// AWS's.
func (v *Vocab) tagUmbrella(words []string) string {
	if len(words) > 1 && words[0] == "amazon" {
		if _, ok := v.byName["AWS"]; ok {
			return "AWS"
		}
	}
	return v.umbrellaOf(words)
}

// skillColumn returns the index of the column named name, -1 when the
// header has none.
func skillColumn(header []string, name string) int {
	return slices.IndexFunc(header, func(h string) bool { return strings.TrimPrefix(h, "\ufeff") == name })
}
