// Title classification: the best phrase among a title's words, and the category it names.

package titles

import (
	"math"
	"slices"
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// candidate is a phrase found in a title.
type candidate struct {
	cat      int32
	weight   float32 // of the phrase's words
	coverage float32 // weight over the weight of the title's words
	head     bool    // the phrase holds the title's head word
	hand     bool
	words    []string
}

func (t *Taxonomy) class(c candidate) int {
	if c.cat < 0 {
		return 0
	}
	if t.cats[c.cat].Level == LevelField {
		return 1
	}
	return 2
}

// better reports whether a beats b.
func (t *Taxonomy) better(a, b candidate) bool {
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
	t     *Taxonomy
	known []token
	head  string
	total float32
	must  []string // words the phrase must hold
	stack []int    // the words of the set being looked up, by index in known
	best  candidate
	// hand is the best phrase found that is hand-written (refines).
	hand candidate
}

// bestIn returns the best phrase whose words are all among ctx and that
// holds the words of must.
func (t *Taxonomy) bestIn(ctx []token, must []string) candidate {
	s := searcher{t: t, best: candidate{cat: noCategory}, hand: candidate{cat: noCategory}, must: must}
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
	if t.refines(s.best, s.hand) {
		return s.best
	}
	return s.hand
}

// refines reports whether the best phrase found, ref, stands over the
// best phrase of the hand-written vocabulary, hand: it is that phrase, or
// beats it and holds all its words (a reference title that says more:
// "Retail Sales Supervisor" over "Sales Supervisor"). A reference title
// made of other words is another reading of the title, and the
// hand-written one, naming as much, stands: "Flight Software Engineer" is
// no flight engineer, "Machine Learning Stack Engineer" no fuel cell
// engineer.
func (t *Taxonomy) refines(ref, hand candidate) bool {
	if ref.hand || hand.cat < 0 || t.class(hand) < t.class(ref) || hand.head != ref.head {
		return true
	}
	for _, w := range hand.words {
		if !slices.Contains(ref.words, w) {
			return false
		}
	}
	return true
}

// walk looks up every set of up to maxPhraseWords known words.
func (s *searcher) walk(from, size int, h uint64, w float32, head bool) {
	for i := from; i < len(s.known); i++ {
		tk := s.known[i]
		hi, wi, headI := h+tk.h, w+tk.w, head || tk.s == s.head
		s.stack = append(s.stack, i)
		if p, ok := s.t.phrases[hi]; ok && p.cat >= 0 && wi/s.total >= minCoverage && s.holdsMust() {
			c := candidate{cat: p.cat, weight: wi, coverage: wi / s.total, head: headI, hand: p.hand}
			if better, hand := s.t.better(c, s.best), c.hand && s.t.better(c, s.hand); better || hand {
				// The words that make the phrase, for a more precise one
				// (classify): not the soft and modifier ones.
				c.words = make([]string, 0, len(s.stack))
				for _, k := range s.stack {
					if w := s.known[k].s; s.t.lex.kind[w] == wordPlain {
						c.words = append(c.words, w)
					}
				}
				if better {
					s.best = c
				}
				if hand {
					s.hand = c
				}
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

// Classify returns the category of a title, and false when the taxonomy
// recognizes nothing in it or the title is longer than MaxTitleLength.
func (t *Taxonomy) Classify(title string) (Category, bool) {
	if fold.TooLong(title, MaxTitleLength) {
		return Category{}, false
	}
	if id, ok := t.byName[fold.Fold(title)]; ok {
		return t.cats[id], true
	}
	mainWords, asideWords := t.split(title)
	mainRead, asideRead := t.translate(mainWords, false), t.translate(asideWords, false)
	if c, ok := t.readHead(mainRead, asideRead); ok {
		return c, true
	}
	c, ok := t.classifyWords(mainRead, asideRead)
	if c.Level < LevelRole && t.hasForeign(mainWords) {
		// False friends alone ("Chef de Cuisine" aside) are read as
		// foreign words when nothing else names a role.
		if f, fok := t.classifyWords(t.translate(mainWords, true), t.translate(asideWords, true)); f.Level >= LevelRole {
			return f, fok
		}
	}
	if c.Level < LevelRole {
		if tc, tok := t.readTopic(mainRead, asideRead, c, ok); tok {
			return tc, true
		}
	}
	return c, ok
}

// topicOverField reports whether a topic's reading tc replaces the field
// field a title names: it must be more precise and of that field
// ("Product - Warehouse" is no product manager), unless the field is a
// first segment's discipline alone ("Engineering Intern - Machine
// Learning") or the title is the topic alone, whose words named the field
// ("Design Verification" is no designer's; "Quality Intern (Food &
// Beverage)" is not the topic alone).
func (t *Taxonomy) topicOverField(tc, field Category, mainWords, asideWords [][]string) bool {
	if tc.Level <= field.Level {
		return false
	}
	if tc.Code[:2] == field.Code[:2] || len(mainWords[0]) == 1 && t.lex.disciplines[mainWords[0][0]] {
		return true
	}
	if len(mainWords) > 1 || len(asideWords) > 0 {
		return false
	}
	_, whole := t.topicOf(withoutTerm(mainWords[0], t.lex.seasons))
	return whole
}

// withoutTerm returns a segment without the term words it begins with
// ("Summer AI/ML Intern"), keeping its last word.
func withoutTerm(seg []string, seasons map[string]bool) []string {
	for len(seg) > 1 && seasons[seg[0]] {
		seg = seg[1:]
	}
	return seg
}

// readTopic reads a title that names no role by its first segment that a
// topic of titles.json reads (topicReading), that is about the job the
// title is about (readTopicAt) and whose reading stands over the field the
// title names, if it names one (field, hasField; topicOverField): the
// segment reads as the job the topic names, with the words before a
// discipline kept ("Strategic Analytics" is a strategic data analyst).
func (t *Taxonomy) readTopic(mainWords, asideWords [][]string, field Category, hasField bool) (Category, bool) {
	for i, seg := range mainWords {
		c, ok := t.readTopicAt(mainWords, asideWords, i, seg, nil)
		if ok && (!hasField || t.topicOverField(c, field, mainWords, asideWords)) {
			return c, true
		}
	}
	return Category{}, false
}

// topicReading returns the words a segment reads as by a topic, if a topic
// reads it: the segment is one or a list of ones of one job, ends in a
// discipline that is one or in a topic of several words (the words before
// kept), begins with one (topicPrefix) or holds one before its head
// (topicBeforeHead). A term before the topic is read past.
func (t *Taxonomy) topicReading(seg []string) ([]string, bool) {
	seg = withoutTerm(seg, t.lex.seasons) // a term before a topic: "Summer AI/ML Intern"
	if len(seg) == 0 {
		return nil, false
	}
	if tp, ok := t.topicOf(seg); ok {
		return tp.job, true
	}
	if as, ok := t.topicList(seg); ok {
		return as, true
	}
	if tp, ok := t.topics[seg[len(seg)-1]]; ok && t.lex.disciplines[seg[len(seg)-1]] {
		return append(slices.Clone(seg[:len(seg)-1]), tp.job...), true
	}
	for k := min(len(seg)-1, maxTopicWords); k >= 2; k-- {
		if tp, ok := t.topicOf(seg[len(seg)-k:]); ok { // "SoC Logic Design"
			return append(slices.Clone(seg[:len(seg)-k]), tp.job...), true
		}
	}
	if as, ok := t.topicPrefix(seg); ok {
		return as, true
	}
	return t.topicBeforeHead(seg)
}

// topicList returns the job of a segment made of two topics or more of
// one word that all have that job ("C++ and CUDA", "Python/Java").
func (t *Taxonomy) topicList(seg []string) ([]string, bool) {
	if len(seg) < 2 {
		return nil, false
	}
	first, ok := t.topics[seg[0]]
	if !ok {
		return nil, false
	}
	for _, w := range seg[1:] {
		if tp, ok := t.topics[w]; !ok || !slices.Equal(tp.job, first.job) {
			return nil, false
		}
	}
	return first.job, true
}

// topicPrefix returns the job of the longest topic of computing that
// begins a segment, when what follows says what the topic is applied to
// ("ML for Battery Manufacturing", "Software Systems"), not a discipline,
// an occupation or another topic of its own ("Software Sales",
// "Quantitative Technologist"). Only a computing role, a specialty of its
// own ("ML", "Firmware", "Software"), begins a segment as its subject; a
// business function's name before other words is no job ("Product Demo",
// "Marketing Events", "Supply Chain Receiving").
func (t *Taxonomy) topicPrefix(seg []string) ([]string, bool) {
	for k := min(len(seg)-1, maxTopicWords); k >= 1; k-- {
		if tp, ok := t.topicOf(seg[:k]); ok {
			if !isComputingRole(tp.code) || slices.ContainsFunc(seg[k:], t.namesOwnSubject) {
				return nil, false
			}
			return tp.job, true
		}
	}
	return nil, false
}

// isComputingRole reports whether a SOC code is a role of the computer and
// mathematical occupations (major group 15), not the field itself.
func isComputingRole(code string) bool {
	return strings.HasPrefix(code, "15-") && code != "15-0000"
}

// isEngineering reports whether a SOC code is of architecture and
// engineering (major group 17): a topic of engineering is named as a
// title's team or object as often as its job ("AI - Manufacturing",
// "Hardware Intern - Marketing").
func isEngineering(code string) bool { return strings.HasPrefix(code, "17-") }

// topicBeforeHead returns the job of a topic within a segment that ends
// in a head naming an occupation only with others, when that job has the
// same head: "ADAS Perception Algorithm Engineer" is a computer vision
// engineer, whatever the words the vocabulary does not know.
func (t *Taxonomy) topicBeforeHead(seg []string) ([]string, bool) {
	n := len(seg)
	if n < 3 || !t.occupationHead(seg[n-1]) {
		return nil, false
	}
	for i := 0; i < n-1; i++ {
		for k := min(n-1, i+maxTopicWords); k > i; k-- {
			if tp, ok := t.topicOf(seg[i:k]); ok && tp.job[len(tp.job)-1] == seg[n-1] {
				return tp.job, true
			}
		}
	}
	return nil, false
}

// maxTopicWords is the most words a topic of titles.json may have.
const maxTopicWords = 4

// topicOf returns the topic that words are, if they are one.
func (t *Taxonomy) topicOf(words []string) (topic, bool) {
	if len(words) == 1 {
		tp, ok := t.topics[words[0]]
		return tp, ok
	}
	if len(words) == 0 || len(words) > maxTopicWords {
		return topic{}, false
	}
	var buf [128]byte
	key := buf[:0]
	for i, w := range words {
		if i > 0 {
			key = append(key, ' ')
		}
		key = append(key, w...)
	}
	tp, ok := t.topics[string(key)] // no allocation: a lookup by bytes
	return tp, ok
}

// namesOwnSubject reports whether a word is a discipline, a topic that is
// no engineering object (isEngineering) or an occupation's word: a subject
// of its own, not what a topic is applied to ("AI Product", "ML
// Security"; not "ML for Battery Manufacturing").
func (t *Taxonomy) namesOwnSubject(w string) bool {
	if tp, ok := t.topics[w]; ok && !isEngineering(tp.code) {
		return true
	}
	return t.lex.disciplines[w] || t.occupationWord(w)
}

// classifyWords classifies the cleaned words of a title (split).
func (t *Taxonomy) classifyWords(mainWords, asideWords [][]string) (Category, bool) {
	if id, ok := t.senseOf(mainWords, asideWords); ok {
		return t.narrow(id, mainWords, asideWords), true
	}
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
	// A first segment of level words before others is a level, not the
	// occupation: "Associate – Graduate Program 2026 – Risk Analyst".
	if len(segs) > 1 && t.onlyLevels(segs[0]) {
		segs = segs[1:]
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
	if t.class(best) < 2 {
		if c, ok := t.headFallback(segs, best); ok {
			best = c
		}
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
		return Category{}, false
	}
	c := t.cats[best.cat]
	if c.Level == LevelRole {
		if sid, ok := t.specialization(best.cat, all); ok {
			return t.cats[sid], true
		}
	}
	return c, true
}

// readHead reads the first main segment that ends in a word of
// head_readings as the reading says: an abbreviation reads as what it
// stands for, as O*NET's own short titles do ("Payroll Admin" is a payroll
// administrator, "Database Admin" a database administrator), and a
// discipline as the one who practises it, as internship titles name the
// job ("Electrical Engineering Intern" is an electrical engineer,
// "Marketing Analytics Co-op" a marketing analyst, "Actuarial Intern" an
// actuary). It does not when the segment as written, with or without its
// soft words, is a phrase of the hand-written vocabulary that names a
// category ("Lead HR Admin", "Head of Marketing"), when a discipline is
// not the job the title is about (disciplineIsTheJob), or when the
// segment so read, alone, names no role ("Admin" is an administrative
// assistant, "Engineering" a field).
// It returns the whole title so read, or the segment's role when the rest
// of the title names another ("Database Admin - Cloud Solutions" is no
// administrator of clouds). Later segments are not read so: the first
// holds the head.
func (t *Taxonomy) readHead(mainWords, asideWords [][]string) (Category, bool) {
	for i, seg := range mainWords {
		end := len(seg) // the head's end: before a word of head_forms
		if end >= 2 && t.lex.headForms[seg[end-1]] && t.lex.disciplines[seg[end-2]] && !t.handNames(seg[end-2:]) {
			end--
		}
		// A later segment of one word is about the job the first names
		// ("Adjunct Professor - Nursing").
		if end == 0 || (i > 0 && len(seg) < 2) {
			continue
		}
		as, ok := t.lex.headReadings[seg[end-1]]
		if !ok {
			continue
		}
		if t.handPhrase(seg) || t.handNames(seg) {
			return Category{}, false // known as written: "Head of Marketing"
		}
		read := slices.Clone(mainWords)
		read[i] = append(slices.Clone(seg[:end-1]), as...)
		_, whole := t.topicOf(seg[:end]) // a topic of its own: "Business Analytics" is no business analysis
		_, isTopic := t.topics[seg[end-1]]
		// A discipline that is a topic names its practitioner only as the
		// hand-written vocabulary knows them ("Marketing Analytics" is a
		// marketing analyst); else it is the topic's job ("Healthcare
		// Analytics" is a data analyst in healthcare).
		if end > 1 && (whole || isTopic && !t.handNames(read[i])) {
			return t.readTopicAt(mainWords, asideWords, i, seg[:end], seg[:end-1])
		}
		alone, ok := t.classifyWords(read[i:i+1], nil)
		if !ok || alone.Level < LevelRole {
			if i == 0 && end == 1 && len(mainWords) > 1 {
				continue // a field alone ("Engineering Intern - Machine Learning"): the next segment names the job
			}
			return Category{}, false
		}
		if t.lex.disciplines[seg[end-1]] && !t.disciplineIsTheJob(mainWords, i, seg[:end-1], alone.Code, false) {
			return Category{}, false
		}
		if whole, ok := t.classifyWords(read, asideWords); ok && whole.Code == alone.Code && whole.Role == alone.Role {
			return whole, true // a specialization the rest names
		}
		return alone, true
	}
	return Category{}, false
}

// readTopicAt reads segment i of a title, whose words without a head
// form are seg, by a topic (topicReading), when it is about the job the
// title is about (disciplineIsTheJob, with the words before the
// discipline its head reading read: "Professor of Business Analytics" is
// no data analyst, nor "Teacher - Computer Science" a software developer)
// and no field named first stands against it (topicOverField).
func (t *Taxonomy) readTopicAt(mainWords, asideWords [][]string, i int, seg, before []string) (Category, bool) {
	read, ok := t.topicReading(seg)
	if !ok {
		return Category{}, false
	}
	words := slices.Clone(mainWords)
	words[i] = read
	c, ok := t.classifyWords(words, asideWords)
	// A topic that no discipline ends names a team as often as a job: a
	// later segment's topic may name the job ("Hardware Intern -
	// Marketing"; "Business Intelligence Co-op - Finance" is a BI analyst's).
	team := !t.lex.disciplines[seg[len(seg)-1]]
	if !ok || !t.disciplineIsTheJob(mainWords, i, before, c.Code, team) {
		return Category{}, false
	}
	for _, earlier := range mainWords[:i] {
		if field, ok := t.classifyWords([][]string{earlier}, nil); ok && !t.topicOverField(c, field, mainWords, asideWords) {
			return Category{}, false // "Teacher - Computer Science": the field named first stands
		}
	}
	return c, true
}

// disciplineIsTheJob reports whether segment i of a title, ending in a
// discipline after the words before, names the job the title is about: no
// word before the discipline names an occupation ("Professor of Civil
// Engineering", "Head of Accounting"), no earlier segment names a role or
// holds such a word ("Data Scientist - Pricing Analytics", "Manager,
// Digital Marketing"), and no later segment names another job than the
// discipline's practitioner (code), alone or, when laterTopics, by a topic
// that is no engineering domain, or holds a word naming one ("Nursing -
// Nurse Practitioner", "Biology - Lab Technician", "Hardware -
// Marketing"; not "Machine Learning - Core ML", "AI - Manufacturing").
func (t *Taxonomy) disciplineIsTheJob(mainWords [][]string, i int, before []string, code string, laterTopics bool) bool {
	// aboutAJob: the words name a role, or hold an occupation's word.
	aboutAJob := func(words []string) bool {
		return t.namesRole(words) || slices.ContainsFunc(words, t.occupationWord)
	}
	// anotherJob: the words name a role other than code's, or hold a
	// head that names an occupation only with other words ("technician").
	anotherJob := func(words []string) bool {
		if c, ok := t.roleOf(words); ok {
			return c.Code != code
		}
		if read, ok := t.topicReading(words); ok && laterTopics {
			// A job a topic names, not an engineering object: "Hardware
			// Intern - Marketing", not "AI - Manufacturing".
			c, ok := t.roleOf(read)
			return ok && c.Code != code && !isEngineering(c.Code)
		}
		return slices.ContainsFunc(words, t.occupationHead)
	}
	if aboutAJob(before) {
		return false
	}
	for j, seg := range mainWords {
		if (j < i && aboutAJob(seg)) || (j > i && anotherJob(seg)) {
			return false
		}
	}
	return true
}

// roleOf returns the role a segment's words name alone, if they name one.
func (t *Taxonomy) roleOf(words []string) (Category, bool) {
	if len(words) == 0 {
		return Category{}, false
	}
	c, ok := t.classifyWords([][]string{words}, nil)
	return c, ok && c.Level >= LevelRole
}

// namesRole reports whether a segment's words, alone, name a role.
func (t *Taxonomy) namesRole(words []string) bool {
	_, ok := t.roleOf(words)
	return ok
}

// occupationWord reports whether a word names an occupation alone, or
// is a head that names one with others ("professor", "manager", "head").
func (t *Taxonomy) occupationWord(w string) bool {
	return t.occupationHead(w) || t.namesRole([]string{w})
}

// occupationHead reports whether a word is a head that names an
// occupation only with others: an ambiguous phrase of the hand-written
// vocabulary ("manager", "technician").
func (t *Taxonomy) occupationHead(w string) bool {
	p, ok := t.phrases[hashWord(w)]
	return ok && p.hand && p.cat == noCategory
}

// handNames reports whether words, as they are, are a phrase of the
// hand-written vocabulary naming a role ("accounting assistant", "head of
// marketing"; not a field, as "software" is).
func (t *Taxonomy) handNames(words []string) bool {
	p, ok := t.phrases[hashBag(words)]
	return ok && p.hand && p.cat >= 0 && t.cats[p.cat].Level >= LevelRole
}

// handPhrase reports whether words, but for their soft words, are a
// phrase of two or more words of the hand-written vocabulary naming a
// category.
func (t *Taxonomy) handPhrase(words []string) bool {
	kept := make([]string, 0, len(words))
	for _, w := range words {
		if t.lex.kind[w] != wordSoft {
			kept = append(kept, w)
		}
	}
	if len(kept) < 2 {
		return false
	}
	p, ok := t.phrases[hashBag(kept)]
	return ok && p.hand && p.cat >= 0
}

// headFallback reads a title that names no role by its head: its first
// segment without its first words, the longest rest first, so that a
// known head is never lost to modifiers the vocabulary does not know
// ("Field Deployed Data Engineer"); the phrase must hold the head, and
// no word naming an occupation alone ("manager") is dropped. When
// nothing names a role, a head of head_roles names its own
// ("Online Instructor"). A role must be of the field already found, if
// one was.
func (t *Taxonomy) headFallback(segs [][]token, found candidate) (candidate, bool) {
	fits := func(c candidate) bool {
		return t.class(c) == 2 && (found.cat < 0 || t.cats[c.cat].Code[:2] == t.cats[found.cat].Code[:2])
	}
	if len(segs) == 0 {
		return candidate{}, false
	}
	seg := segs[0]
	head := seg[len(seg)-1]
	from := 1 // the whole segment was read before
	if !head.known {
		// Words the vocabulary does not know after a head naming an
		// occupation with others are a code or a name, not the head:
		// "Data Analyst PEY/ASIP".
		for i := len(seg) - 2; i >= 0; i-- {
			if seg[i].known {
				if t.occupationHead(seg[i].s) {
					seg, from = slices.Clone(seg[:i+1]), 0
					seg[i].segEnd = true
					head = seg[i]
				}
				break
			}
		}
	}
	if head.known {
		for k := from; k < len(seg); k++ {
			if k > 0 && seg[k-1].known {
				if p, ok := t.phrases[seg[k-1].h]; ok && p.hand && p.cat == noCategory {
					break // an occupation's word ("manager") is no modifier to drop
				}
			}
			if c := t.bestIn(seg[k:], []string{head.s}); fits(c) {
				return c, true
			}
		}
	}
	if id, ok := t.headRoles[head.s]; ok {
		if c := (candidate{cat: id, head: true, words: []string{head.s}}); fits(c) {
			return c, true
		}
	}
	return candidate{}, false
}

// onlyLevels reports whether a segment is made of level prefixes only.
func (t *Taxonomy) onlyLevels(seg []token) bool {
	for _, tk := range seg {
		if !t.lex.levelPrefixes[tk.s] {
			return false
		}
	}
	return true
}

// senseOf returns the role of the first sense whose head the title's
// main words hold, with a word of its context anywhere in the title.
func (t *Taxonomy) senseOf(mainWords, asideWords [][]string) (int32, bool) {
	if len(t.senses) == 0 {
		return 0, false
	}
	holds := func(segs [][]string, phrase []string) bool {
		for _, seg := range segs {
			all := true
			for _, w := range phrase {
				all = all && slices.Contains(seg, w)
			}
			if all {
				return true
			}
		}
		return false
	}
	for _, s := range t.senses {
		head := false
		for _, h := range s.heads {
			head = head || holds(mainWords, h)
		}
		if !head {
			continue
		}
		for _, c := range s.context {
			if holds(mainWords, c) || holds(asideWords, c) {
				return s.cat, true
			}
		}
	}
	return 0, false
}

// narrow returns a role's specialization that the title's words name, or
// the role.
func (t *Taxonomy) narrow(role int32, mainWords, asideWords [][]string) Category {
	var words []token
	for _, seg := range append(mainWords, asideWords...) {
		for _, w := range seg {
			words = append(words, token{s: w, pos: len(words)})
		}
	}
	if sid, ok := t.specialization(role, words); ok {
		return t.cats[sid]
	}
	return t.cats[role]
}

// sameBroadOccupation reports whether two SOC detailed occupations are of
// one broad occupation ("25-2056" and "25-2059" are of 25-2050).
func sameBroadOccupation(a, b string) bool {
	return len(a) >= 6 && len(b) >= 6 && a[:6] == b[:6]
}

// specialization returns the specialization of a role that the title's
// words name, the earliest in the title.
func (t *Taxonomy) specialization(role int32, words []token) (int32, bool) {
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
