package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize/fold"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// errNoPosting is returned when a JSON-LD input holds no JobPosting.
var errNoPosting = errors.New("no schema.org JobPosting in the input")

var (
	scriptBlock = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script\s*>`)
	ldJSONType  = regexp.MustCompile(`(?i)\btype\s*=\s*["']?\s*application/ld\+json`)
)

// splitJSONLD yields the JobPostings of a JSON-LD input: HTML pages (told
// by their content) with <script type="application/ld+json"> blocks, one
// JSON document (an object or an array), or NDJSON. Postings are found at
// any depth ("@graph", "mainEntity", lists) and carry the nodes they refer
// to by "@id". Positions count postings ("record N"), for NDJSON lines
// ("line N").
func splitJSONLD(r io.Reader, yield func(record) error) error {
	doc, err := readDocument(r)
	if err != nil {
		return err
	}
	found := 0
	emit := func(v any, pos int, unit string) error {
		idx := map[string]map[string]any{}
		indexNodes(v, idx)
		var list []map[string]any
		collectPostings(v, &list)
		for _, p := range list {
			refs := map[string]any{}
			collectRefs(p, idx, refs)
			data, err := json.Marshal(ldRecord{Posting: p, Refs: refs})
			if err != nil {
				return fmt.Errorf("encode posting: %w", err)
			}
			found++
			if unit == unitRecord {
				pos = found
			}
			if err := yield(record{pos: pos, unit: unit, data: data}); err != nil {
				return err
			}
		}
		return nil
	}

	switch {
	case len(doc) == 0:
	case doc[0] == '<':
		for i, m := range scriptBlock.FindAllSubmatch(doc, -1) {
			if !ldJSONType.Match(m[1]) {
				continue
			}
			body := scriptBody(m[2])
			v, err := decodeOne(body)
			if err != nil {
				// A broken block of another type does not stop the page.
				if bytes.Contains(body, []byte("JobPosting")) {
					found++
					reason := fmt.Sprintf("ld+json script %d: %s", i+1, jsonReason(err))
					if err := yield(record{pos: found, unit: unitRecord, err: reason}); err != nil {
						return err
					}
				}
				continue
			}
			if err := emit(v, 0, unitRecord); err != nil {
				return err
			}
		}
	default:
		v, err := decodeOne(doc)
		if err == nil {
			if err := emit(v, 0, unitRecord); err != nil {
				return err
			}
			break
		}
		lines := bytes.Split(doc, []byte("\n"))
		if _, lineErr := decodeOne(bytes.TrimSpace(lines[0])); lineErr != nil {
			return documentError(doc, err)
		}
		for i, line := range lines {
			if line = bytes.TrimSpace(line); len(line) == 0 {
				continue
			}
			v, err := decodeOne(line)
			if err != nil {
				found++
				if err := yield(record{pos: i + 1, unit: unitLine, err: jsonReason(err)}); err != nil {
					return err
				}
				continue
			}
			if err := emit(v, i+1, unitLine); err != nil {
				return err
			}
		}
	}
	if found == 0 {
		return errNoPosting
	}
	return nil
}

// scriptBody is the JSON of a script block, without the comment or CDATA
// markers pages wrap it in.
func scriptBody(b []byte) []byte {
	b = bytes.TrimSpace(b)
	for _, pair := range [][2]string{{"<!--", "-->"}, {"//<![CDATA[", "//]]>"}, {"<![CDATA[", "]]>"}} {
		if bytes.HasPrefix(b, []byte(pair[0])) && bytes.HasSuffix(b, []byte(pair[1])) {
			b = bytes.TrimSpace(b[len(pair[0]) : len(b)-len(pair[1])])
		}
	}
	return b
}

// decodeOne decodes exactly one JSON value, numbers kept as written.
func decodeOne(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// ldTypeNames returns a node's types without their vocabulary prefix
// ("schema:JobPosting", "https://schema.org/JobPosting" → "JobPosting").
func ldTypeNames(node map[string]any) []string {
	var names []string
	for _, t := range (ld{}).strings(node["@type"]) {
		if i := strings.LastIndexAny(t, "/:#"); i >= 0 {
			t = t[i+1:]
		}
		names = append(names, strings.TrimSpace(t))
	}
	return names
}

func isJobPosting(node map[string]any) bool {
	return slices.Contains(ldTypeNames(node), "JobPosting")
}

// collectPostings appends the JobPostings in v, in document order within
// arrays and in key order ("@graph" first) within objects.
func collectPostings(v any, out *[]map[string]any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			collectPostings(e, out)
		}
	case map[string]any:
		if isJobPosting(x) {
			*out = append(*out, x)
			return
		}
		for _, k := range sortedKeys(x) {
			collectPostings(x[k], out)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == "@graph":
			return -1
		case b == "@graph":
			return 1
		}
		return strings.Compare(a, b)
	})
	return keys
}

// indexNodes indexes the nodes of v that have an "@id" and say more; of
// nodes with the same "@id", the first in document (and key) order.
func indexNodes(v any, idx map[string]map[string]any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			indexNodes(e, idx)
		}
	case map[string]any:
		if id, ok := x["@id"].(string); ok && len(x) > 1 {
			if _, taken := idx[id]; !taken {
				idx[id] = x
			}
		}
		for _, k := range sortedKeys(x) {
			indexNodes(x[k], idx)
		}
	}
}

// ldRecord is a JSON-LD record: a JobPosting and the nodes it refers to
// by "@id", directly or through those nodes. References are followed
// when the posting is read, so a node referred to many times is stored
// once.
type ldRecord struct {
	Posting map[string]any `json:"posting"`
	Refs    map[string]any `json:"refs,omitempty"`
}

// collectRefs adds to refs the indexed nodes v refers to, and those they
// refer to, each once.
func collectRefs(v any, idx map[string]map[string]any, refs map[string]any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			collectRefs(e, idx, refs)
		}
	case map[string]any:
		if id, ok := x["@id"].(string); ok && len(x) == 1 {
			if node, found := idx[id]; found {
				if _, seen := refs[id]; !seen {
					refs[id] = node
					collectRefs(node, idx, refs)
				}
			}
			return
		}
		for _, e := range x {
			collectRefs(e, idx, refs)
		}
	}
}

// ld reads the values of a JSON-LD record, following references.
type ld struct {
	refs map[string]any
}

// maxHops bounds the references followed from one value, against chains
// and cycles.
const maxHops = 4

// deref returns the node v refers to when it is a reference ({"@id": …}
// alone) to a node of the record, else v.
func (d ld) deref(v any) any {
	for range maxHops {
		m, ok := v.(map[string]any)
		if !ok || len(m) != 1 {
			return v
		}
		id, ok := m["@id"].(string)
		if !ok || d.refs[id] == nil {
			return v
		}
		v = d.refs[id]
	}
	return v
}

// strings returns the strings a JSON-LD value holds, as written: a
// string, a number, the name or value of a node, the items of an array.
func (d ld) strings(v any) []string {
	return d.stringsTo(v, maxHops)
}

func (d ld) stringsTo(v any, depth int) []string {
	if depth < 0 {
		return nil
	}
	switch x := d.deref(v).(type) {
	case string:
		if strings.TrimSpace(x) != "" {
			return []string{x}
		}
	case json.Number:
		return []string{x.String()}
	case map[string]any:
		for _, k := range []string{"name", "@value", "value"} {
			if s := d.stringsTo(x[k], depth-1); len(s) > 0 {
				return s
			}
		}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, d.stringsTo(e, depth-1)...)
		}
		return out
	}
	return nil
}

// text returns the first text of a JSON-LD value, entities decoded.
func (d ld) text(v any) string {
	for _, s := range d.strings(v) {
		if t := text(s); t != "" {
			return t
		}
	}
	return ""
}

// list returns a JSON-LD value as a list of followed values: an array's
// items, or itself.
func (d ld) list(v any) []any {
	switch x := d.deref(v).(type) {
	case nil:
		return nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = d.deref(e)
		}
		return out
	default:
		return []any{x}
	}
}

// url returns a URL value: a string, or the url, contentUrl or @id of a
// node.
func (d ld) url(v any) string {
	for _, e := range d.list(v) {
		switch x := e.(type) {
		case string:
			if s := strings.TrimSpace(x); s != "" {
				return s
			}
		case map[string]any:
			for _, k := range []string{"url", "contentUrl", "@id"} {
				if s, ok := d.deref(x[k]).(string); ok && strings.TrimSpace(s) != "" {
					return strings.TrimSpace(s)
				}
			}
		}
	}
	return ""
}

// number returns a number value: a JSON number, or a string holding one
// ("85,000", "$42.50").
func (d ld) number(v any) *float64 {
	var s string
	switch x := d.deref(v).(type) {
	case json.Number:
		s = x.String()
	case string:
		s = strings.TrimLeft(strings.NewReplacer(",", "", " ", "").Replace(x), "$€£¥")
	default:
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &f
}

// items returns the items of list-like values: HTML or plain-text lists
// split into items, nodes by their description or name.
func (d ld) items(v any) []string {
	var out []string
	for _, e := range d.list(v) {
		switch x := e.(type) {
		case string:
			out = append(out, items(x)...)
		case map[string]any:
			for _, k := range []string{"description", "name", "@value"} {
				if t := d.text(x[k]); t != "" {
					out = append(out, t)
					break
				}
			}
		}
	}
	return out
}

// mapJSONLD maps a JobPosting onto a posting (see the README's table):
// its job, and validThrough, when the posting closes by itself.
func mapJSONLD(data []byte, m *mapper) (entry, error) {
	var rec ldRecord
	if err := decodeRecord(data, &rec); err != nil {
		return entry{}, err
	}
	job, err := m.jsonldJob(rec)
	return entry{job: job, validThrough: ptr(ld{refs: rec.Refs}.text(rec.Posting["validThrough"]))}, err
}

// jsonldJob maps a JobPosting onto a job.
func (m *mapper) jsonldJob(rec ldRecord) (domain.Job, error) {
	d, node := ld{refs: rec.Refs}, rec.Posting
	var job domain.Job
	job.Title = d.text(node["title"])
	if job.Title == "" {
		job.Title = d.text(node["name"])
	}
	for _, org := range d.list(node["hiringOrganization"]) {
		switch o := org.(type) {
		case string:
			job.Company = text(o)
		case map[string]any:
			job.Company = d.text(o["name"])
			job.CompanyLogo = ptr(d.url(o["logo"]))
		}
		if job.Company != "" {
			break
		}
	}
	job.URL = urlOf(d.url(node["url"]), d.url(node["sameAs"]))
	job.ID = d.id(node, job, m)
	job.PostedAt = dateTime(d.text(node["datePosted"]))

	if err := m.jsonldLocation(d, node, &job); err != nil {
		return job, err
	}
	for _, s := range d.strings(node["employmentType"]) {
		for _, part := range strings.Split(s, ",") {
			if t, ok := m.n.EmploymentType(strings.TrimSpace(part)); ok && job.EmploymentType == nil {
				job.EmploymentType = &t
			}
		}
	}
	job.Salary = d.salary(node["baseSalary"])

	raw := ""
	if s := d.strings(node["description"]); len(s) > 0 {
		raw = htmlOf(s[0])
	}
	job.DescriptionRaw = ptr(raw)
	plain := descriptionText(raw)
	job.Description = ptr(plain)

	m.jsonldEducation(d, node["educationRequirements"], &job)
	job.ExperienceLevel = ptr(d.experience(node["experienceRequirements"]))
	for _, s := range d.list(node["skills"]) {
		if str, ok := s.(string); ok && !strings.Contains(str, "<") {
			for _, part := range strings.FieldsFunc(str, func(r rune) bool { return r == ',' || r == ';' || r == '\n' }) {
				if t := text(part); t != "" {
					job.Skills = append(job.Skills, t)
				}
			}
			continue
		}
		job.Skills = append(job.Skills, d.items(s)...)
	}
	job.RequiredQualifications = d.items(node["qualifications"])
	job.Responsibilities = d.items(node["responsibilities"])
	for _, b := range d.items(node["jobBenefits"]) {
		job.Benefits = append(job.Benefits, splitBenefits(b)...)
	}

	texts := []string{plain}
	texts = append(texts, job.RequiredQualifications...)
	texts = append(texts, job.Responsibilities...)
	if c := d.text(node["securityClearanceRequirement"]); c != "" {
		texts = append(texts, "Security clearance: "+c)
	}
	texts = append(texts, d.items(node["eligibilityToWorkRequirement"])...)
	m.fillFromText(&job, texts...)
	return job, nil
}

// id returns the id of a posting: jsonld-<identifier> when its identifier
// is a number, else jsonld-<n>, n a hash (hashID) of the identifier and
// company, else of the url, else of the title and company.
func (d ld) id(node map[string]any, job domain.Job, m *mapper) string {
	ident := ""
	for _, e := range d.list(node["identifier"]) {
		switch x := e.(type) {
		case map[string]any:
			ident = d.text(x["value"])
			if ident == "" {
				ident = d.text(x["@value"])
			}
		default:
			ident = d.text(x)
		}
		if ident != "" {
			break
		}
	}
	if id, ok := numberID(formatJSONLD, ident); ok {
		return id
	}
	company := job.Company
	if company == "" {
		company = m.company
	}
	switch {
	case ident != "":
		return hashID(formatJSONLD, "identifier\x00"+fold.Fold(company)+"\x00"+ident)
	case job.URL != nil:
		return hashID(formatJSONLD, "url\x00"+*job.URL)
	}
	return hashID(formatJSONLD, "title\x00"+fold.Fold(job.Title)+"\x00"+fold.Fold(company))
}

// jsonldLocation maps jobLocation (places with a postal address, several
// for several locations), applicantLocationRequirements (countries and
// states) and jobLocationType TELECOMMUTE. A location text longer than
// normalize.MaxLocationLength makes the posting invalid, as it would in
// location.full.
func (m *mapper) jsonldLocation(d ld, node map[string]any, job *domain.Job) error {
	var places []normalize.Place
	given := map[string]bool{} // countries and states jobLocation names
	var tooLong error
	parse := func(s string) {
		t := text(s)
		if n := utf8.RuneCountInString(t); n > normalize.MaxLocationLength {
			tooLong = fmt.Errorf("location is longer than %d characters (%d)", normalize.MaxLocationLength, n)
			return
		}
		places = append(places, m.n.ParseLocation(t).Places...)
	}
	for _, e := range d.list(node["jobLocation"]) {
		switch x := e.(type) {
		case string:
			parse(x)
		case map[string]any:
			addr := x
			if a, ok := x["address"]; ok {
				if s, isText := d.deref(a).(string); isText {
					parse(s)
					continue
				}
				if list := d.list(a); len(list) > 0 {
					addr, _ = list[0].(map[string]any)
				}
			}
			p := normalize.Place{City: d.text(addr["addressLocality"]), State: d.text(addr["addressRegion"]), Country: d.text(addr["addressCountry"])}
			if p == (normalize.Place{}) {
				continue
			}
			for _, s := range []string{p.State, p.Country} {
				if s != "" {
					given[fold.Fold(m.n.Country(s))] = true
					given[fold.Fold(m.n.State(s))] = true
				}
			}
			places = append(places, p)
		}
	}
	onSite := len(places)
	requirements := d.list(node["applicantLocationRequirements"])
	for _, e := range requirements {
		switch x := e.(type) {
		case string:
			parse(x)
		case map[string]any:
			name := d.text(x["name"])
			if name == "" {
				continue
			}
			types := ldTypeNames(x)
			switch {
			case slices.Contains(types, "Country"):
				if !given[fold.Fold(m.n.Country(name))] {
					places = append(places, normalize.Place{Country: name})
				}
			case slices.Contains(types, "State"):
				if !given[fold.Fold(m.n.State(name))] {
					places = append(places, normalize.Place{State: name})
				}
			default:
				parse(name)
			}
		}
	}
	for _, p := range places {
		job.Location.City = append(job.Location.City, p.City)
		job.Location.State = append(job.Location.State, p.State)
		job.Location.Country = append(job.Location.Country, p.Country)
	}
	remote := false
	for _, t := range d.strings(node["jobLocationType"]) {
		remote = remote || strings.EqualFold(strings.TrimSpace(t), "TELECOMMUTE")
	}
	if remote || (onSite == 0 && len(requirements) > 0) {
		w := domain.WorkArrangementRemote
		job.WorkArrangement = &w
	}
	return tooLong
}

// salary maps baseSalary: a MonetaryAmount whose value is a number or a
// QuantitativeValue (minValue, maxValue or value, unitText). A unitText
// that is no period (not HOUR, DAY, WEEK, MONTH or YEAR) drops the salary.
func (d ld) salary(v any) *domain.Salary {
	for _, e := range d.list(v) {
		var s domain.Salary
		var unit string
		switch x := e.(type) {
		case map[string]any:
			s.Currency = ptr(d.text(x["currency"]))
			unit = d.text(x["unitText"])
			value := x["value"]
			if list := d.list(value); len(list) > 0 {
				value = list[0]
			}
			if q, ok := value.(map[string]any); ok {
				s.Min, s.Max = d.number(q["minValue"]), d.number(q["maxValue"])
				if s.Min == nil && s.Max == nil {
					s.Min, s.Max = d.number(q["value"]), d.number(q["value"])
				}
				if u := d.text(q["unitText"]); u != "" {
					unit = u
				}
			} else {
				s.Min, s.Max = d.number(value), d.number(value)
			}
		default:
			s.Min, s.Max = d.number(x), d.number(x)
		}
		if s.Min == nil && s.Max == nil {
			continue
		}
		if unit != "" {
			p, ok := period(unit)
			if !ok {
				continue
			}
			s.Period = &p
		}
		return &s
	}
	return nil
}

// credentialLevels are the education levels of Google's credentialCategory
// values; "postgraduate degree" and "professional certificate" name none.
var credentialLevels = map[string]string{
	"high school": "High School", "associate degree": "Associate's", "bachelor degree": "Bachelor's",
	"postgraduate degree": "", "professional certificate": "",
}

// jsonldEducation maps educationRequirements: texts, and
// EducationalOccupationalCredentials (their description or name or
// credentialCategory as the text, the category's level as a level).
func (m *mapper) jsonldEducation(d ld, v any, job *domain.Job) {
	for _, e := range d.list(v) {
		switch x := e.(type) {
		case string:
			job.Education = append(job.Education, items(x)...)
		case map[string]any:
			category := d.text(x["credentialCategory"])
			for _, t := range []string{d.text(x["description"]), d.text(x["name"]), category} {
				if t != "" {
					job.Education = append(job.Education, t)
					break
				}
			}
			if level, known := credentialLevels[strings.ToLower(category)]; known {
				if level != "" {
					job.EducationLevels = append(job.EducationLevels, level)
				}
			} else if category != "" {
				job.EducationLevels = append(job.EducationLevels, m.n.EducationLevels.FindIn(category)...)
			}
		}
	}
}

// experience maps experienceRequirements: the years a text asks for ("5+
// years"), else a short text as it is; monthsOfExperience of an
// OccupationalExperienceRequirements as "N+ years" (whole years) or "N+
// months".
func (d ld) experience(v any) string {
	for _, e := range d.list(v) {
		switch x := e.(type) {
		case string:
			t := text(normalize.HTMLText(x))
			if years := normalize.YearsOfExperience(t); years != "" {
				return years
			}
			if t != "" && len(t) <= 60 {
				return t
			}
		case map[string]any:
			if months := d.number(x["monthsOfExperience"]); months != nil && *months >= 1 && *months < 1200 {
				n := int(*months)
				if n%12 == 0 {
					return fmt.Sprintf("%d+ years", n/12)
				}
				return fmt.Sprintf("%d+ months", n)
			}
			if years := normalize.YearsOfExperience(d.text(x["description"])); years != "" {
				return years
			}
		}
	}
	return ""
}

// splitBenefits splits a short enumeration of benefits ("Medical, dental,
// and vision insurance; 401(k)") into its items at commas and semicolons;
// sentences stay whole.
func splitBenefits(s string) []string {
	if strings.Contains(strings.TrimSuffix(s, "."), ". ") || len(s) > 200 {
		return []string{s}
	}
	var out []string
	for _, part := range strings.FieldsFunc(strings.TrimSuffix(s, "."), func(r rune) bool { return r == ',' || r == ';' }) {
		part = strings.TrimSpace(part)
		for _, conj := range []string{"and ", "or ", "& "} {
			part = strings.TrimPrefix(part, conj)
		}
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
