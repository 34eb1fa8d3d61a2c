// Command normeval measures how well package normalize maps what people
// type to canonical values, on the team's evaluation set in
// normalize/testdata/eval (job titles to SOC 2018 occupations, location
// text to places and work arrangements, skills to their umbrella skills).
//
// It runs the normalizer twice, with its built-in vocabularies only and
// with the reference data of --refdata, prints a table per run and checks
// the accuracy targets on the reference-data run:
//
//	go -C bench run ./normeval [--refdata DIR] [--fail=false] [-v]
//
// (make eval runs it from the repository's root.)
//
// The evaluation set was written from knowledge of real job postings, not
// from the implementation; -v lists the misses for people reviewing them,
// never for tuning the vocabularies against (see the set's README.md).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// outcome is how the normalizer did on one row.
type outcome int

const (
	correct outcome = iota
	wrong
	noAnswer
)

// verdict is the judgement of one row: its outcome, what the normalizer
// answered (for -v) and the row's side metrics (name → hit), if any.
type verdict struct {
	outcome   outcome
	got       string
	side      map[string]bool
	fieldOnly bool // titles: the answer names a field, not a role
}

// vocabEval is one vocabulary of the evaluation: its file, how a row is
// judged and the targets of the reference-data run.
type vocabEval struct {
	name      string
	file      string   // in the evaluation directory
	columns   []string // the header the file must have
	minRows   int      // the least rows the set must have (see main_test.go)
	target    float64  // the least correct share, in percent
	sideNames []string // side metrics, in print order
	judge     func(n *normalize.Normalizer, row []string) verdict
}

var vocabs = []vocabEval{
	{
		name: "titles", file: "titles.tsv", columns: []string{"input", "soc", "specialization"},
		minRows: 420, target: 90,
		sideNames: []string{"field", "specialization"},
		judge:     judgeTitle,
	},
	{
		name: "locations", file: "locations.tsv", columns: []string{"input", "places", "arrangement"},
		minRows: 320, target: 97,
		judge: judgeLocation,
	},
	{
		name: "skills", file: "skills.tsv", columns: []string{"input", "canonical", "umbrella"},
		minRows: 320, target: 95,
		sideNames: []string{"canonical name"},
		judge:     judgeSkill,
	},
}

// judgeTitle: right when the SOC code of the answer is the row's. A
// field-level answer ("15-0000") is a wrong answer at role level; the side
// metric "field" counts it right when its major group is the row's.
func judgeTitle(n *normalize.Normalizer, row []string) verdict {
	want, wantSpec := row[1], row[2]
	cat, ok := n.Title(row[0])
	code := cat.Code
	if len(code) > 7 {
		code = code[:7]
	}
	v := verdict{side: map[string]bool{"field": ok && len(code) >= 2 && code[:2] == want[:2]}}
	if wantSpec != "" {
		v.side["specialization"] = ok && fold.Fold(cat.Specialization) == fold.Fold(wantSpec)
	}
	switch {
	case !ok || code == "":
		v.outcome = noAnswer
	case code == want:
		v.outcome = correct
	default:
		v.outcome = wrong
	}
	v.fieldOnly = ok && cat.Level == normalize.LevelField
	if ok {
		v.got = fmt.Sprintf("%s (%s / %s / %s)", cat.Code, cat.Field, cat.Role, cat.Specialization)
	}
	return v
}

// judgeLocation: right when the set of places and the arrangement are the
// row's; no answer when neither a place nor an arrangement came back.
func judgeLocation(n *normalize.Normalizer, row []string) verdict {
	p := n.ParseLocation(row[0])
	var got []string
	for _, pl := range p.Places {
		pl = n.Complete(pl) // the places an imported job records
		got = append(got, pl.City+"/"+pl.State+"/"+pl.Country)
	}
	// The set writes on-site like an arrangement not said (its README).
	arrangement := ""
	if w, ok := p.Arrangement(); ok && w != domain.WorkArrangementOnsite {
		arrangement = string(w)
	}
	v := verdict{got: strings.Join(got, " | ") + "  [" + arrangement + "]"}
	switch {
	case placeSet(got) == placeSet(canonicalPlaces(n, splitPlaces(row[1]))) && arrangement == row[2]:
		v.outcome = correct
	case len(got) == 0 && arrangement == "":
		v.outcome = noAnswer
	default:
		v.outcome = wrong
	}
	return v
}

// judgeSkill: right when the skill is known (Normalizer.Skill: the skills
// vocabulary, or the certifications, technical and soft skills and tools
// ones, as a skills list is read) and its umbrella is the row's. The side
// metric compares the canonical name.
func judgeSkill(n *normalize.Normalizer, row []string) verdict {
	name, umbrella, ok := n.Skill(row[0])
	if !ok {
		return verdict{outcome: noAnswer, side: map[string]bool{"canonical name": false}}
	}
	v := verdict{
		got:  name + " → " + umbrella,
		side: map[string]bool{"canonical name": fold.Fold(name) == fold.Fold(row[1])},
	}
	// The expected umbrella by the vocabulary's own name for it, when it
	// has one ("EHR" is the skill it calls Electronic Health Records):
	// skills are compared by identity, not by spelling.
	wantUmbrella := row[2]
	if w, _, ok := n.Skill(row[2]); ok {
		wantUmbrella = w
	}
	if fold.Fold(umbrella) == fold.Fold(row[2]) || fold.Fold(umbrella) == fold.Fold(wantUmbrella) {
		v.outcome = correct
	} else {
		v.outcome = wrong
	}
	return v
}

// splitPlaces splits the places column ("a/b/c | d/e/f").
func splitPlaces(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "|") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// canonicalPlaces spells expected places as the normalizer spells the same
// places (Normalizer.PlaceOf: "New York City/New York/United States" is
// the city it calls New York): places are compared by identity, not by
// which of their names the row and the gazetteer chose. Each part is read
// within the row's own state and country, so a row naming Cambridge,
// England never matches Cambridge, Massachusetts.
func canonicalPlaces(n *normalize.Normalizer, places []string) []string {
	out := make([]string, len(places))
	for i, p := range places {
		parts := append(strings.Split(p, "/"), "", "")
		pl := n.PlaceOf(parts[0], parts[1], parts[2])
		out[i] = pl.City + "/" + pl.State + "/" + pl.Country
	}
	return out
}

// placeSet is the order-free, folded form of places "city/state/country".
func placeSet(places []string) string {
	set := map[string]bool{}
	for _, p := range places {
		parts := strings.Split(p, "/")
		for i := range parts {
			parts[i] = fold.Fold(strings.TrimSpace(parts[i]))
		}
		set[strings.Join(parts, "/")] = true
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, " | ")
}

// loadTSV reads a tab-separated file whose first line is the header want.
// Every row has len(want) fields; blank lines and lines starting with "#"
// are skipped.
func loadTSV(path string, want []string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if line == 1 {
			if got := strings.Join(strings.Split(text, "\t"), ","); got != strings.Join(want, ",") {
				return nil, fmt.Errorf("%s: header is %q, want %q", path, got, strings.Join(want, ","))
			}
			continue
		}
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != len(want) {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d", path, line, len(fields), len(want))
		}
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		rows = append(rows, fields)
	}
	return rows, sc.Err()
}

// tally is one vocabulary's result in one run.
type tally struct {
	vocabName      string
	rows           int
	n              [3]int         // by outcome
	side, sideRows map[string]int // side metric → hits, rows it applies to
	fieldOnlyWrong int            // titles: wrong answers that name a field only
	misses         []string       // for -v
}

func (t *tally) pct(o outcome) float64 { return percent(t.n[o], t.rows) }

func percent(k, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(k) / float64(of)
}

func run(n *normalize.Normalizer, ve vocabEval, rows [][]string, verbose bool) *tally {
	t := &tally{rows: len(rows), side: map[string]int{}, sideRows: map[string]int{}, vocabName: ve.name}
	for _, row := range rows {
		v := ve.judge(n, row)
		t.n[v.outcome]++
		for name, hit := range v.side {
			t.sideRows[name]++
			if hit {
				t.side[name]++
			}
		}
		if v.outcome == wrong && v.fieldOnly {
			t.fieldOnlyWrong++
		}
		if verbose && v.outcome != correct {
			kind := "WRONG"
			if v.outcome == noAnswer {
				kind = "NONE "
			}
			want := strings.TrimRight(strings.Join(row[1:], " ; "), " ;")
			t.misses = append(t.misses, fmt.Sprintf("  %s %q\texpected %s\tgot %s", kind, row[0], want, v.got))
		}
	}
	return t
}

func printTable(w io.Writer, title string, ts []*tally) {
	fmt.Fprintf(w, "\n### %s\n\n", title)
	fmt.Fprintln(w, "| vocabulary | rows | correct | wrong | no answer | precision | coverage |")
	fmt.Fprintln(w, "|------------|-----:|--------:|------:|----------:|----------:|---------:|")
	for _, t := range ts {
		answered := t.n[correct] + t.n[wrong]
		fmt.Fprintf(w, "| %-10s | %4d | %6.1f%% | %4.1f%% | %8.1f%% | %8.1f%% | %7.1f%% |\n",
			t.vocabName, t.rows, t.pct(correct), t.pct(wrong), t.pct(noAnswer),
			percent(t.n[correct], answered), percent(answered, t.rows))
	}
	fmt.Fprintln(w)
	for i, t := range ts {
		for _, name := range vocabs[i].sideNames {
			fmt.Fprintf(w, "- %s, %s: %.1f%% (%d of %d rows", t.vocabName, sideLabel(name), percent(t.side[name], t.sideRows[name]), t.side[name], t.sideRows[name])
			if name == "field" {
				fmt.Fprintf(w, "; %d of the wrong answers name a field only", t.fieldOnlyWrong)
			}
			fmt.Fprintln(w, ")")
		}
	}
}

func sideLabel(name string) string {
	switch name {
	case "field":
		return "field level (SOC major group)"
	case "specialization":
		return "specialization (rows that give one)"
	case "canonical name":
		return "canonical name (information only)"
	}
	return name
}

// targetLine returns a printer of one row of the targets table, with PASS
// or FAIL, that clears *all on a FAIL.
func targetLine(w io.Writer, all *bool) func(target, value string, ok bool) {
	return func(target, value string, ok bool) {
		res := "PASS"
		if !ok {
			res, *all = "FAIL", false
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", target, value, res)
	}
}

// checkTargets prints the targets of the reference-data run with PASS or
// FAIL and reports whether all passed.
func checkTargets(w io.Writer, ts []*tally) bool {
	fmt.Fprintln(w, "\n### targets (reference-data run)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| target | value | result |")
	fmt.Fprintln(w, "|--------|-------|--------|")
	all := true
	line := targetLine(w, &all)
	for i, t := range ts {
		ve := vocabs[i]
		level := ""
		if ve.name == "titles" {
			level = " (role level)"
		}
		c := t.pct(correct)
		line(fmt.Sprintf("%s correct%s ≥ %.0f%%", ve.name, level, ve.target), fmt.Sprintf("%.1f%%", c), c >= ve.target)
		wr, na := t.n[wrong], t.n[noAnswer]
		line(fmt.Sprintf("%s: a wrong answer is rarer than no answer (wrong < no answer, or wrong = 0)", ve.name),
			fmt.Sprintf("wrong %d, no answer %d", wr, na), wr == 0 || wr < na)
	}
	return all
}

// serviceModule is the module line of the service's go.mod; the tools'
// own module (bench/go.mod) sits below it.
const serviceModule = "module github.com/jobsd-dev/jobsd"

// repoRoot is the nearest directory at or above the working directory
// whose go.mod is the service's, or the working directory.
func repoRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && isServiceModule(b) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd
		}
		dir = parent
	}
}

// isServiceModule reports whether the go.mod declares the service's module.
func isServiceModule(gomod []byte) bool {
	for _, line := range strings.Split(string(gomod), "\n") {
		if strings.TrimSpace(line) == serviceModule {
			return true
		}
	}
	return false
}

// defaultRefData is $JOBSD_REFDATA, else ../shared/data beside the
// repository when it exists, else "".
func defaultRefData(root string) string {
	if d := os.Getenv("JOBSD_REFDATA"); d != "" {
		return d
	}
	d := filepath.Join(root, "..", "shared", "data")
	if fi, err := os.Stat(d); err == nil && fi.IsDir() {
		return d
	}
	return ""
}

func main() {
	if err := mainErr(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "normeval:", err)
		if errors.Is(err, errTargets) {
			os.Exit(1)
		}
		os.Exit(2)
	}
}

var errTargets = errors.New("accuracy targets missed")

func mainErr(args []string, w io.Writer) error {
	root := repoRoot()
	fs := flag.NewFlagSet("normeval", flag.ContinueOnError)
	refData := fs.String("refdata", defaultRefData(root), "reference-data directory (default $JOBSD_REFDATA, else ../shared/data when present)")
	dir := fs.String("dir", filepath.Join(root, "normalize", "testdata", "eval"), "evaluation-set directory")
	fail := fs.Bool("fail", true, "exit non-zero when a target of the reference-data run is missed")
	verbose := fs.Bool("v", false, "list every miss (input, expected, got), for human review only")
	noisyOut := fs.String("noisy-out", "", "also write the noisy titles built from the reference data to this file (TSV), for inspection; keep it out of git")
	sampleOut := fs.String("postings-sample", "", "write the real-postings sample (id, company, title) to this file for labelling, and stop; keep it out of git")
	holdoutOut := fs.String("holdout-sample", "", "write the held-out sample (id, company, title) to this file for labelling, and stop; keep it out of git")
	freshOut := fs.String("fresh-sample", "", "write the third sample (id, company, title) to this file for labelling, and stop; keep it out of git")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *sampleOut != "" || *holdoutOut != "" || *freshOut != "" {
		ps, err := readPostings(*refData)
		if err != nil {
			return err
		}
		if *sampleOut != "" {
			if err := writeSample(*sampleOut, samplePostings(ps, sampleDraw, nil)); err != nil {
				return err
			}
		}
		if *holdoutOut != "" {
			if err := writeSample(*holdoutOut, holdout(ps)); err != nil {
				return err
			}
		}
		if *freshOut != "" {
			return writeSample(*freshOut, fresh(ps))
		}
		return nil
	}
	data := make([][][]string, len(vocabs))
	for i, ve := range vocabs {
		rows, err := loadTSV(filepath.Join(*dir, ve.file), ve.columns)
		if err != nil {
			return err
		}
		data[i] = rows
	}

	type runSpec struct {
		title string
		opts  []normalize.Option
	}
	runs := []runSpec{{"built-in vocabularies: normalize.New()", nil}}
	if *refData != "" {
		if fi, err := os.Stat(*refData); err != nil || !fi.IsDir() {
			return fmt.Errorf("reference data %q is not a directory", *refData)
		}
		runs = append(runs, runSpec{"with reference data: normalize.New(normalize.WithRefData(" + *refData + "))",
			[]normalize.Option{normalize.WithRefData(*refData)}})
	} else {
		fmt.Fprintln(w, "no reference data (--refdata, $JOBSD_REFDATA or ../shared/data): reporting the built-in run only; the targets are not checked")
	}

	var noisy, noisyKept [][]string
	var setAside int
	if *refData != "" {
		var keys []string
		var err error
		if noisy, keys, err = noisyTitles(*refData); err != nil {
			return err
		}
		contradicted, err := loadAudit(filepath.Join(*dir, "noisy_audit.tsv"))
		if err != nil {
			return err
		}
		noisyKept, setAside = uncontradicted(noisy, keys, contradicted)
		if *noisyOut != "" {
			if err := writeTSV(*noisyOut, vocabs[0].columns, noisy); err != nil {
				return err
			}
		}
	}
	labels, err := loadLabels(filepath.Join(*dir, "postings.tsv"))
	if err != nil {
		return err
	}
	heldOut, err := loadLabels(filepath.Join(*dir, "postings_holdout.tsv"))
	if err != nil {
		return err
	}
	freshLabels, err := loadLabels(filepath.Join(*dir, "postings_fresh.tsv"))
	if err != nil {
		return err
	}
	second, err := loadSecondLabels(filepath.Join(*dir, "postings_second.tsv"))
	if err != nil {
		return err
	}
	var titles map[string]string // posting id → title, from the reference data
	if *refData != "" {
		ps, err := readPostings(*refData)
		switch {
		case errors.Is(err, errNoPostings):
			fmt.Fprintln(w, "real postings: skipped:", err)
		case err != nil:
			return err
		}
		if ps != nil {
			titles = make(map[string]string, len(ps))
		}
		for _, p := range ps {
			titles[p.ID] = p.Title
		}
	}
	fmt.Fprintf(w, "evaluation set: %s (titles %d, locations %d, skills %d rows; noisy titles %d, built from the reference data; real postings %d labelled, %d held out, %d fresh)\n",
		*dir, len(data[0]), len(data[1]), len(data[2]), len(noisy), len(labels), len(heldOut), len(freshLabels))
	passed := true
	for ri, rs := range runs {
		n, err := normalize.New(rs.opts...)
		if err != nil {
			return fmt.Errorf("%s: %w", rs.title, err)
		}
		ts := make([]*tally, len(vocabs))
		for i, ve := range vocabs {
			ts[i] = run(n, ve, data[i], *verbose)
		}
		printTable(w, rs.title, ts)
		var nt, nk *tally
		if len(noisy) > 0 {
			nt = run(n, vocabs[0], noisy, *verbose)
			nt.vocabName = "noisy titles"
			nk = run(n, vocabs[0], noisyKept, false)
			printNoisy(w, nt)
		}
		var pt, ht, ft *postingsTally
		if titles != nil {
			if pt, err = runPostings(n, "real postings", labels, titles, *verbose); err != nil {
				return err
			}
			printPostings(w, pt)
			at, err := runAgreement(n, labels, second, titles)
			if err != nil {
				return err
			}
			printAgreement(w, at)
			// The sets whose misses, and what their families were
			// answered, are never printed: rules are not written from them
			// (README.md).
			unread := func(name string, ls []postingLabel) (*postingsTally, error) {
				t, err := runPostings(n, name, ls, titles, false)
				if err != nil {
					return nil, err
				}
				t.heldOut = true
				printPostings(w, t)
				return t, nil
			}
			if ht, err = unread("real postings, held out", heldOut); err != nil {
				return err
			}
			// Its titles with no near twin in the first set: those the
			// rules written from the first set's misses cannot fix by
			// reading the same words.
			if _, err = unread("real postings, held out, no near twin in the first set", withoutTwins(heldOut, labels, titles)); err != nil {
				return err
			}
			// The third set, drawn after the held-out set had steered
			// rules.
			if ft, err = unread("real postings, fresh", freshLabels); err != nil {
				return err
			}
		}
		if *verbose {
			if pt != nil {
				fmt.Fprintf(w, "\nmisses, real postings (%d):\n", len(pt.misses))
				for _, m := range pt.misses {
					fmt.Fprintln(w, m)
				}
			}
			for _, t := range append(ts, nt) {
				if t == nil {
					continue
				}
				fmt.Fprintf(w, "\nmisses, %s (%d):\n", t.vocabName, len(t.misses))
				for _, m := range t.misses {
					fmt.Fprintln(w, m)
				}
			}
		}
		if ri == 1 {
			passed = checkTargets(w, ts)
			passed = checkNoisyTargets(w, nt, nk, setAside) && passed
			if pt != nil {
				passed = checkPostingsTargets(w, pt) && passed
				passed = checkPostingsTargets(w, ht) && passed
				passed = checkPostingsTargets(w, ft) && passed
			}
		}
	}
	if !passed && *fail {
		return errTargets
	}
	return nil
}
