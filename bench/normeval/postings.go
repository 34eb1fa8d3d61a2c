package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// The real-postings set: titles as employers' boards write them, not as
// the taxonomy does, from the reference data's postings/ folder, labelled
// by judgement in normalize/testdata/eval/postings.tsv. The postings may
// not be copied into the repository (postings/PROVENANCE.md), so the
// labels are keyed by the posting's id and the titles are read from the
// reference data on every run.

// postingsFile is the postings file within the reference-data directory.
const postingsFile = "postings/simplify_internships_2024-10-25.json"

// A draw of the postings: its seed (changing it changes which titles the
// labels cover) and the least number of distinct titles it holds.
type draw struct {
	seed uint64
	size int
}

// sampleDraw is the real-postings set of postings.tsv. Its misses have
// been read while writing rules, so it no longer measures titles the
// rules were not written from.
var sampleDraw = draw{seed: 33, size: 800}

// holdoutDraw is the held-out set of postings_holdout.tsv: titles of no
// posting of sampleDraw, labelled the same way, whose misses are not read
// while writing rules (README.md).
var holdoutDraw = draw{seed: 34, size: 400}

// holdout draws the held-out set: holdoutDraw, among the titles sampleDraw
// did not draw.
func holdout(ps []posting) []posting {
	return samplePostings(ps, holdoutDraw, titleSet(samplePostings(ps, sampleDraw, nil)))
}

// freshDraw is the third set, postings_fresh.tsv: titles of no posting of
// sampleDraw or holdoutDraw, nor near twins (twinKey) of theirs, labelled
// the same way after the rules the held-out set steered (README.md).
var freshDraw = draw{seed: 35, size: 400}

// fresh draws the third set: freshDraw, among the titles that neither
// earlier draw took and that are no near twin of one they took.
func fresh(ps []posting) []posting {
	first := samplePostings(ps, sampleDraw, nil)
	taken := map[string]bool{}
	for _, p := range append(first, samplePostings(ps, holdoutDraw, titleSet(first))...) {
		taken[twinKey(p.Title)] = true
	}
	exclude := map[string]bool{}
	for _, p := range ps {
		if taken[twinKey(p.Title)] {
			exclude[titleKey(p.Title)] = true
		}
	}
	return samplePostings(ps, freshDraw, exclude)
}

// titleKey is a title folded by space and case: the draw takes one
// posting per key.
func titleKey(title string) string {
	return strings.ToLower(strings.Join(strings.Fields(title), " "))
}

// titleSet is the set of the titleKeys of postings.
func titleSet(ps []posting) map[string]bool {
	out := make(map[string]bool, len(ps))
	for _, p := range ps {
		out[titleKey(p.Title)] = true
	}
	return out
}

// posting is the part of a posting the evaluation reads.
type posting struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Company string `json:"company_name"`
}

// errNoPostings: the reference data has no postings file (the
// real-postings set is then skipped).
var errNoPostings = errors.New("the reference data has no " + postingsFile)

// readPostings reads the postings file of the reference-data directory.
func readPostings(refData string) ([]posting, error) {
	b, err := os.ReadFile(filepath.Join(refData, postingsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoPostings
	}
	if err != nil {
		return nil, fmt.Errorf("read postings: %w", err)
	}
	var ps []posting
	if err := json.Unmarshal(b, &ps); err != nil {
		return nil, fmt.Errorf("read postings: %w", err)
	}
	return ps, nil
}

// sampleWords are words that say nothing about the occupation: the
// internship itself, its season and year, levels and joiners. A family key
// is what remains of a title without them.
var sampleWords = map[string]bool{
	"intern": true, "interns": true, "internship": true, "internships": true, "co": true, "op": true,
	"coop": true, "ops": true, "summer": true, "fall": true, "spring": true, "winter": true, "autumn": true,
	"i": true, "ii": true, "iii": true, "iv": true, "and": true, "of": true, "the": true, "for": true,
	"in": true, "a": true, "an": true, "to": true, "at": true, "with": true, "on": true, "term": true,
	"student": true, "students": true, "undergraduate": true, "graduate": true, "program": true,
	"trainee": true, "apprentice": true, "apprenticeship": true, "placement": true, "year": true,
	"month": true, "months": true, "week": true, "weeks": true, "paid": true, "remote": true,
	"hybrid": true, "onsite": true, "us": true, "usa": true, "new": true, "grad": true,
}

// familyKey is a crude family of a title, used only to stratify the draw:
// the last two words of the title that remain once the words of
// sampleWords, numbers and parenthesized parts are dropped ("Associate
// Process Engineer II" and "Process Engineer Intern - Summer 2025" are
// both "process engineer").
func familyKey(title string) string {
	words := keyWords(title)
	if len(words) > 2 {
		words = words[len(words)-2:]
	}
	return strings.Join(words, " ")
}

// twinKey is a title without the words of sampleWords, numbers, brackets
// and punctuation: two titles of one twinKey ("Software Engineer Intern -
// Summer 2025", "Software Engineer Co-op (Fall)") are near twins.
func twinKey(title string) string { return strings.Join(keyWords(title), " ") }

// keyWords are the lower-case words of a title but those of sampleWords,
// numbers and parenthesized parts.
func keyWords(title string) []string {
	var b strings.Builder
	depth := 0
	for _, r := range strings.ToLower(title) {
		switch {
		case r == '(' || r == '[':
			depth++
		case r == ')' || r == ']':
			if depth > 0 {
				depth--
			}
		case depth > 0:
		case unicode.IsLetter(r):
			b.WriteRune(r)
		default:
			b.WriteByte(' ')
		}
	}
	var words []string
	for _, w := range strings.Fields(b.String()) {
		if !sampleWords[w] {
			words = append(words, w)
		}
	}
	return words
}

// withoutTwins returns the labels whose title has no near twin (twinKey)
// among the titles of others.
func withoutTwins(labels, others []postingLabel, titles map[string]string) []postingLabel {
	taken := map[string]bool{}
	for _, l := range others {
		taken[twinKey(titles[l.ID])] = true
	}
	var out []postingLabel
	for _, l := range labels {
		if !taken[twinKey(titles[l.ID])] {
			out = append(out, l)
		}
	}
	return out
}

// samplePostings draws a sample: one posting per distinct title
// (titleKey) not in exclude, the titles grouped by familyKey, and from
// each group f·√size titles in an order seeded by d.seed (the fraction
// rounded up with that probability, by a seeded draw per group), f the
// least step of 0.01 that yields d.size titles. The square root keeps rare
// families in the sample while large ones give several titles each,
// enough to judge their consistency. The result is sorted by id.
func samplePostings(ps []posting, d draw, exclude map[string]bool) []posting {
	seen := map[string]bool{}
	groups := map[string][]posting{}
	for _, p := range ps {
		t := titleKey(p.Title)
		if t == "" || seen[t] || exclude[t] {
			continue
		}
		seen[t] = true
		k := familyKey(p.Title)
		groups[k] = append(groups[k], p)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rng := rand.New(rand.NewPCG(d.seed, 0))
	draw := make([]float64, len(keys)) // each group's rounding draw
	for i, k := range keys {
		g := groups[k]
		sort.Slice(g, func(i, j int) bool { return g[i].ID < g[j].ID })
		rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
		draw[i] = rng.Float64()
	}
	var out []posting
	for f := 0.01; ; f += 0.01 {
		out = out[:0]
		for i, k := range keys {
			g := groups[k]
			x := f * math.Sqrt(float64(len(g)))
			n := int(x)
			if draw[i] < x-float64(n) {
				n++
			}
			out = append(out, g[:min(n, len(g))]...)
		}
		if len(out) >= d.size || len(out) == len(seen) {
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// writeSample writes the sample for labelling (id, company, title), to a
// file outside the repository.
func writeSample(path string, sample []posting) error {
	var b strings.Builder
	b.WriteString("id\tcompany\ttitle\n")
	for _, p := range sample {
		fmt.Fprintf(&b, "%s\t%s\t%s\n", p.ID, fold.Collapse(p.Company), fold.Collapse(p.Title))
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// postingLabel is one row of postings.tsv: a posting's id and what the
// job is, by judgement: its SOC 2018 occupation ("15-1252"), a major
// group ("17-0000") when the title names only a field, or "-" when it
// names no occupation (no category is then the right answer); the family
// of titles it belongs to, and whether the labeller was sure.
type postingLabel struct {
	ID, SOC, Family string
	Sure            bool
}

// postingsColumns is the header of postings.tsv.
var postingsColumns = []string{"id", "soc", "family", "sure"}

// loadLabels reads postings.tsv.
func loadLabels(path string) ([]postingLabel, error) {
	rows, err := loadTSV(path, postingsColumns)
	if err != nil {
		return nil, err
	}
	out := make([]postingLabel, len(rows))
	for i, r := range rows {
		sure, err := sureOf(path, r[0], r[3])
		if err != nil {
			return nil, err
		}
		out[i] = postingLabel{ID: r[0], SOC: r[1], Family: r[2], Sure: sure}
	}
	return out, nil
}

// sureOf reads the sure column of posting id's label in path: y or n,
// and nothing else (a "yes" would otherwise count as not sure).
func sureOf(path, id, sure string) (bool, error) {
	if sure != "y" && sure != "n" {
		return false, fmt.Errorf("%s: posting %s: sure is %q, want y or n", path, id, sure)
	}
	return sure == "y", nil
}

// postingsTally is a real-postings set's result in one run.
type postingsTally struct {
	name           string // "real postings", or the held-out set's
	heldOut        bool   // its misses and its families' answers are not printed
	rows, sureRows int
	n, sure        [3]int // by outcome: all rows, and the rows labelled sure
	// families are the families of at least minFamily titles, with the
	// share of their titles on the family's most common answer.
	families []familyConsistency
	misses   []string
}

// familyConsistency is how one family's titles landed: Most of its
// Titles on its most common category, Answer ("" when none has one).
type familyConsistency struct {
	Family       string
	Titles, Most int
	Answer       string // the most common answer
}

func (f familyConsistency) share() float64 { return percent(f.Most, f.Titles) }

// minFamily is the least number of titles of a family whose consistency
// is judged.
const minFamily = 5

// judgePosting judges the normalizer's category of a title against its
// label, and returns the answer's code ("" for no category).
func judgePosting(n *normalize.Normalizer, title string, l postingLabel) (outcome, string, string) {
	cat, ok := n.Title(title)
	code := ""
	if ok {
		code = cat.Code
		if len(code) > 7 {
			code = code[:7]
		}
	}
	got := "no category"
	if code != "" {
		got = fmt.Sprintf("%s (%s / %s / %s)", cat.Code, cat.Field, cat.Role, cat.Specialization)
	}
	switch {
	case l.SOC == "-" && code == "":
		return correct, code, got
	case code == "":
		return noAnswer, code, got
	case code == l.SOC:
		return correct, code, got
	}
	return wrong, code, got
}

// runPostings judges every labelled posting of the set called name.
func runPostings(n *normalize.Normalizer, name string, labels []postingLabel, titles map[string]string, verbose bool) (*postingsTally, error) {
	t := &postingsTally{name: name}
	answers := map[string]map[string]int{} // family → answer → titles
	for _, l := range labels {
		title, ok := titles[l.ID]
		if !ok {
			return nil, fmt.Errorf("%s: no posting %s in %s", name, l.ID, postingsFile)
		}
		o, code, got := judgePosting(n, title, l)
		t.rows++
		t.n[o]++
		if l.Sure {
			t.sureRows++
			t.sure[o]++
		}
		if answers[l.Family] == nil {
			answers[l.Family] = map[string]int{}
		}
		answers[l.Family][code]++
		if verbose && o != correct {
			kind := map[outcome]string{wrong: "WRONG", noAnswer: "NONE "}[o]
			t.misses = append(t.misses, fmt.Sprintf("  %s %q\texpected %s (%s)\tgot %s", kind, title, l.SOC, l.Family, got))
		}
	}
	for fam, byAnswer := range answers {
		f := familyConsistency{Family: fam}
		for a, k := range byAnswer {
			f.Titles += k
			// On one role: no category is no answer to be consistent on.
			if a != "" && (k > f.Most || (k == f.Most && a < f.Answer)) {
				f.Most, f.Answer = k, a
			}
		}
		if f.Titles >= minFamily && fam != "none" {
			t.families = append(t.families, f)
		}
	}
	sort.Slice(t.families, func(i, j int) bool {
		if t.families[i].share() != t.families[j].share() {
			return t.families[i].share() < t.families[j].share()
		}
		return t.families[i].Family < t.families[j].Family
	})
	return t, nil
}

// Targets of the real-postings set: most titles placed, few left without
// a category, and the titles of one family on one category.
const (
	postingsCorrectTarget     = 97.0 // role correct, percent, at least
	postingsNoCategoryTarget  = 2.0  // no category, percent, at most
	postingsConsistencyTarget = 95.0 // each family of minFamily titles, percent, at least
)

// printPostings prints the real-postings table.
func printPostings(w io.Writer, t *postingsTally) {
	fmt.Fprintf(w, "\n%s (%s, %d labelled titles, %d of them labelled sure):\n\n", t.name, postingsFile, t.rows, t.sureRows)
	fmt.Fprintln(w, "| rows | role correct | wrong | no category |")
	fmt.Fprintln(w, "|------|-------------:|------:|------------:|")
	fmt.Fprintf(w, "| all  | %11.1f%% | %4.1f%% | %10.1f%% |\n", percent(t.n[correct], t.rows), percent(t.n[wrong], t.rows), percent(t.n[noAnswer], t.rows))
	fmt.Fprintf(w, "| sure | %11.1f%% | %4.1f%% | %10.1f%% |\n", percent(t.sure[correct], t.sureRows), percent(t.sure[wrong], t.sureRows), percent(t.sure[noAnswer], t.sureRows))
	fmt.Fprintf(w, "\nfamilies of %d titles or more (%d), least consistent first:", minFamily, len(t.families))
	for i, f := range t.families {
		if i%4 == 0 {
			fmt.Fprint(w, "\n ")
		}
		if t.heldOut {
			fmt.Fprintf(w, " %s %d/%d (%.0f%%);", f.Family, f.Most, f.Titles, f.share())
			continue
		}
		answer := f.Answer
		if answer == "" {
			answer = "none"
		}
		fmt.Fprintf(w, " %s %d/%d (%.0f%% %s);", f.Family, f.Most, f.Titles, f.share(), answer)
	}
	fmt.Fprintln(w)
}

// checkPostingsTargets prints the targets of the real-postings set.
func checkPostingsTargets(w io.Writer, t *postingsTally) bool {
	all := true
	line := targetLine(w, &all)
	c, none := percent(t.n[correct], t.rows), percent(t.n[noAnswer], t.rows)
	line(fmt.Sprintf("%s role correct ≥ %.0f%%", t.name, postingsCorrectTarget), fmt.Sprintf("%.1f%%", c), c >= postingsCorrectTarget)
	line(fmt.Sprintf("%s no category ≤ %.0f%%", t.name, postingsNoCategoryTarget), fmt.Sprintf("%.1f%%", none), none <= postingsNoCategoryTarget)
	var low []string
	for _, f := range t.families {
		if f.share() < postingsConsistencyTarget {
			low = append(low, fmt.Sprintf("%s %.0f%%", f.Family, f.share()))
		}
	}
	value := "all"
	if len(low) > 0 {
		value = fmt.Sprintf("%d below: %s", len(low), strings.Join(low, ", "))
	}
	line(fmt.Sprintf("%s: every family of ≥ %d titles ≥ %.0f%% on one role", t.name, minFamily, postingsConsistencyTarget), value, len(low) == 0)
	return all
}
