// The noisy titles: job titles written the way employers write them,
// generated from the O*NET titles of the reference data by fixed, seeded
// rules (normalize/testdata/eval/README.md lists them). Nothing derived
// from the reference data is committed: the set is built each run.

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/normalize/refdata"
)

// noisySeed fixes the sample and the noise: the set is the same on every
// run over the same reference data.
const noisySeed = 21

// How many source titles are sampled from each file (at most one per SOC
// occupation and file).
const (
	noisyFromReported  = 520
	noisyFromAlternate = 320
)

// noisySource is a clean title and its label, fixed before any noise is
// added and before the normalizer runs.
type noisySource struct {
	title, soc string
}

// cleanShape is a title the rules can add noise to: letters, spaces,
// hyphens and apostrophes, one to four words.
var cleanShape = regexp.MustCompile(`^[A-Za-z][A-Za-z'-]*( [A-Za-z][A-Za-z'-]*){0,3}$`)

// noiseInSource are words a source title must not already hold: the
// rules add them, and the label is that of the title without them.
var noiseInSource = map[string]bool{"senior": true, "sr": true, "junior": true, "jr": true, "lead": true,
	"intern": true, "trainee": true, "apprentice": true, "entry": true, "level": true, "chief": true,
	"head": true, "principal": true, "staff": true, "i": true, "ii": true, "iii": true, "iv": true,
	"graduate": true, "associate": true, "assistant": true, "or": true}

// ambiguousTitles are the titles the set's README leaves out as
// genuinely ambiguous, folded.
var ambiguousTitles = map[string]bool{"associate": true, "consultant": true, "product manager": true,
	"data engineer": true, "security engineer": true}

// noisyTitles builds the noisy titles from the occupations folder of a
// reference-data directory: rows "input, soc, specialization" like
// titles.tsv's (specialization empty), and each row's source title's
// auditKey.
func noisyTitles(refData string) (rows [][]string, keys []string, err error) {
	dir := filepath.Join(refData, "occupations")
	// Every SOC code each folded title is filed under, in all the files:
	// a title filed under two occupations has no one label.
	codes := map[string]map[string]bool{}
	file := func(name string, col int, each func(soc, title string)) error {
		return refdata.ReadTSV(filepath.Join(dir, name), col+1, func(cols []string) error {
			if len(cols[0]) >= 7 {
				each(cols[0][:7], strings.TrimSpace(cols[col]))
			}
			return nil
		})
	}
	note := func(soc, title string) {
		for _, name := range titleNames(title) {
			k := wordSet(name)
			if codes[k] == nil {
				codes[k] = map[string]bool{}
			}
			codes[k][soc] = true
		}
	}
	var reported, alternate []noisySource
	for _, f := range []struct {
		name string
		col  int
		into *[]noisySource
	}{
		{"onet_occupation_data.tsv", 1, nil},
		{"bls_soc_2018_direct_match_titles.tsv", 2, nil},
		{"onet_sample_of_reported_titles.tsv.gz", 2, &reported},
		{"onet_alternate_titles.tsv.gz", 2, &alternate},
	} {
		err := file(f.name, f.col, func(soc, title string) {
			note(soc, title)
			if f.into != nil {
				*f.into = append(*f.into, noisySource{title, soc})
			}
		})
		if err != nil {
			return nil, nil, fmt.Errorf("noisy titles: %w", err)
		}
	}
	rng := rand.New(rand.NewPCG(noisySeed, noisySeed))
	var sources []noisySource
	for _, part := range []struct {
		all []noisySource
		n   int
	}{{reported, noisyFromReported}, {alternate, noisyFromAlternate}} {
		sources = append(sources, sample(part.all, part.n, codes, rng)...)
	}
	seen := map[string]bool{}
	for i, s := range sources {
		noisy := addNoise(s.title, i, rng)
		if k := fold.Fold(noisy); !seen[k] {
			seen[k] = true
			rows = append(rows, []string{noisy, s.soc, ""})
			keys = append(keys, auditKey(s.title))
		}
	}
	return rows, keys, nil
}

// sample picks up to n usable titles, at most one per SOC occupation, in
// a seeded random order.
func sample(all []noisySource, n int, codes map[string]map[string]bool, rng *rand.Rand) []noisySource {
	var ok []noisySource
	seen := map[string]bool{}
	for _, s := range all {
		k := fold.Fold(s.title)
		if seen[k] || !usable(s, codes[wordSet(s.title)]) {
			continue
		}
		seen[k] = true
		ok = append(ok, s)
	}
	slices.SortFunc(ok, func(a, b noisySource) int { return strings.Compare(a.soc+a.title, b.soc+b.title) })
	rng.Shuffle(len(ok), func(i, j int) { ok[i], ok[j] = ok[j], ok[i] })
	var out []noisySource
	taken := map[string]bool{}
	for _, s := range ok {
		if len(out) == n {
			break
		}
		if !taken[s.soc] {
			taken[s.soc] = true
			out = append(out, s)
		}
	}
	return out
}

// wordSet is a title as the set of its words, folded, without a plural's
// final s, in order: "Technician, Bindery" and "Bindery Technicians" are
// one title, whose occupations are those of both.
func wordSet(title string) string {
	words := strings.FieldsFunc(fold.Fold(title), func(r rune) bool { return r < 'a' || r > 'z' })
	for i, w := range words {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			words[i] = w[:len(w)-1]
		}
	}
	slices.Sort(words)
	return strings.Join(slices.Compact(words), " ")
}

// oNETAlias is O*NET's way of writing one title two ways: "Watch
// Technician (Watch Tech)", "MIG Welder (Metal Inert Gas Welder)".
var oNETAlias = regexp.MustCompile(`^(.+?)\s*\((.+)\)$`)

// titleNames are the names under which a title, as O*NET's files write
// it, files its occupation: the title itself and, for "A (B)", A and B
// apart. A source title is ambiguous when one of these names of another
// occupation's title has its words.
func titleNames(title string) []string {
	if m := oNETAlias.FindStringSubmatch(title); m != nil {
		return []string{title, m[1], m[2]}
	}
	return []string{title}
}

// usable reports whether a source title can be labelled by its file's
// occupation: one occupation only, a clean shape, no noise of its own,
// and no team convention against the label (the set's README).
func usable(s noisySource, socs map[string]bool) bool {
	if len(socs) != 1 || !cleanShape.MatchString(s.title) {
		return false
	}
	folded := fold.Fold(s.title)
	if ambiguousTitles[folded] {
		return false
	}
	for _, w := range strings.FieldsFunc(folded, func(r rune) bool { return r == ' ' || r == '-' }) {
		if noiseInSource[w] {
			return false
		}
	}
	switch {
	case s.soc == "15-1251": // the team files programmers under 15-1252
		return false
	case s.soc == "15-1254" && !strings.Contains(folded, "web"): // web developers say "web"
		return false
	case strings.HasPrefix(s.soc, "15-12") && s.soc != "15-1252" && (strings.HasSuffix(folded, " engineer") || strings.HasSuffix(folded, " developer")):
		// engineers and developers of software of every kind are 15-1252
		// by the team's convention, where O*NET files some elsewhere
		return false
	}
	return true
}

// The noise, by kind. Each list is project-written.
var (
	programs = []string{"Graduate Program 2026 – %s", "Early Talent %s", "%s - New Grad", "New Grad %s",
		"%s (New Grad 2026)", "Associate – Graduate Program 2026 – %s", "%s - Early Career Program",
		"2026 Graduate %s", "%s – Summer 2026 Internship", "%s Intern (Fall 2026)", "Campus Hire - %s",
		"%s, Rotational Program", "Future Talent Programme - %s", "%s - University Graduate"}
	levels = []string{"%s II", "%s III", "Sr. %s", "Junior %s", "%s - Entry-Level", "%s l", "%s III - E3",
		"%s (L5)", "%s, Level 2", "%s 2", "%s IV", "Jr %s", "Senior %s I", "%s - Mid Level", "Entry Level %s",
		"%s E4", "%s - Band 6", "%s Grade 7"}
	locations = []string{"%s - Austin, TX", "%s (Remote)", "%s - Remote, US", "%s | London, UK",
		"%s – Toronto, ON (Hybrid)", "%s - Chicago IL", "%s (Onsite - Denver, CO)", "%s - Remote (EMEA)",
		"%s – Bengaluru", "%s, NYC", "%s - Multiple Locations", "%s (Hybrid - Seattle)", "%s - Madrid, Spain"}
	modifiers = []string{"Field Deployed %s", "Forward Deployed %s", "Client-Facing %s", "Rotational %s",
		"Multi-Site %s", "Flex %s", "Mission Critical %s", "Founding %s", "Customer-Facing %s", "On-Call %s"}
	suffixes = []string{"%s - Req #4471", "%s // Req 2026-0113", "%s | Night Shift", "%s (Contract)",
		"%s - Full Time", "%s - $5,000 Sign-On Bonus", "%s (Part-Time, Weekends)", "%s - Immediate Start",
		"%s | 12-Month Contract", "%s - Days, 3x12"}
	// abbreviations are how employers shorten words of a title.
	abbreviations = map[string]string{"manager": "Mgr", "assistant": "Asst", "engineer": "Engr", "developer": "Dev",
		"technician": "Tech", "representative": "Rep", "coordinator": "Coord", "administrator": "Admin",
		"operations": "Ops", "department": "Dept", "maintenance": "Maint", "specialist": "Spclst",
		"director": "Dir", "supervisor": "Supv", "management": "Mgmt", "customer": "Cust", "service": "Svc",
		"account": "Acct", "marketing": "Mktg", "executive": "Exec", "international": "Intl"}
)

// addNoise dresses a clean title in one or two kinds of noise: the i-th
// title gets kind i mod 6 first, then, half the time, another kind.
func addNoise(title string, i int, rng *rand.Rand) string {
	kinds := []func(string) string{
		func(s string) string { return fmt.Sprintf(pick(programs, rng), s) },
		func(s string) string { return fmt.Sprintf(pick(levels, rng), s) },
		func(s string) string { return fmt.Sprintf(pick(locations, rng), s) },
		func(s string) string { return fmt.Sprintf(pick(modifiers, rng), s) },
		func(s string) string {
			if a, ok := abbreviate(s, rng); ok {
				return a
			}
			return "Sr. " + s
		},
		func(s string) string { return fmt.Sprintf(pick(suffixes, rng), s) },
	}
	first := i % len(kinds)
	s := kinds[first](title)
	if rng.IntN(2) == 0 {
		// The second kind wraps the first: an abbreviation or a modifier
		// goes on the title itself, the rest around the whole.
		second := rng.IntN(len(kinds))
		switch {
		case second == first:
		case second == 4:
			if a, ok := abbreviate(title, rng); ok {
				s = strings.Replace(s, title, a, 1)
			}
		case second == 3:
			s = strings.Replace(s, title, kinds[second](title), 1)
		default:
			s = kinds[second](s)
		}
	}
	switch rng.IntN(12) {
	case 0:
		s = strings.ToUpper(s)
	case 1:
		s = strings.ToLower(s)
	}
	return s
}

// abbreviate shortens the words of a title that employers shorten, and
// reports whether it had any (the first kind then says "Sr." instead).
func abbreviate(title string, rng *rand.Rand) (string, bool) {
	words := strings.Fields(title)
	done := false
	for i, w := range words {
		if a, ok := abbreviations[strings.ToLower(w)]; ok {
			words[i], done = a, true
		}
	}
	if !done {
		return title, false
	}
	if rng.IntN(3) == 0 {
		return strings.Join(words, " ") + ".", true
	}
	return strings.Join(words, " "), true
}

func pick(list []string, rng *rand.Rand) string { return list[rng.IntN(len(list))] }

// auditKey names a source title in noisy_audit.tsv without writing it
// there: the first 16 hex digits of the SHA-256 of its folded form (the
// reference data may not be copied into the repository).
func auditKey(title string) string {
	sum := sha256.Sum256([]byte(fold.Fold(title)))
	return hex.EncodeToString(sum[:8])
}

// auditColumns is the header of noisy_audit.tsv.
var auditColumns = []string{"key", "onet_soc", "soc_says"}

// loadAudit reads noisy_audit.tsv: the rows of the noisy set whose label
// (O*NET's filing) a blind audit found the SOC 2018 definitions
// contradict, by auditKey.
func loadAudit(path string) (map[string]bool, error) {
	rows, err := loadTSV(path, auditColumns)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(rows))
	for _, r := range rows {
		if r[1] == r[2] {
			return nil, fmt.Errorf("%s: key %s: the SOC says what O*NET files (%s): no contradiction to record", path, r[0], r[1])
		}
		out[r[0]] = true
	}
	return out, nil
}

// uncontradicted returns the rows whose key the audit does not list, and
// how many it set aside.
func uncontradicted(rows [][]string, keys []string, contradicted map[string]bool) ([][]string, int) {
	var kept [][]string
	for i, row := range rows {
		if !contradicted[keys[i]] {
			kept = append(kept, row)
		}
	}
	return kept, len(rows) - len(kept)
}

// The targets of the noisy titles (reference-data run), in percent.
const (
	noisyRoleTarget  = 95
	noisyNoneCeiling = 2
)

// printNoisy prints the noisy titles' table: role correct, field correct
// (the SOC major group, whatever the role), no category, wrong.
func printNoisy(w io.Writer, t *tally) {
	fmt.Fprintln(w, "\n| noisy titles | rows | role correct | field correct | no category | wrong |")
	fmt.Fprintln(w, "|--------------|-----:|-------------:|--------------:|------------:|------:|")
	fmt.Fprintf(w, "| %-12s | %4d | %11.1f%% | %12.1f%% | %10.1f%% | %4.1f%% |\n", "(generated)", t.rows,
		t.pct(correct), percent(t.side["field"], t.sideRows["field"]), t.pct(noAnswer), t.pct(wrong))
}

// checkNoisyTargets prints the noisy titles' targets with PASS or FAIL
// and reports whether all passed; true when there is no noisy set. The
// rows of kept are those whose label the SOC definitions do not
// contradict (the audit set aside the others): "wrong < no category"
// counts only them, as a wrong answer against a contradicted label is no
// error of the normalizer's.
func checkNoisyTargets(w io.Writer, t, kept *tally, setAside int) bool {
	if t == nil {
		return true
	}
	all := true
	line := targetLine(w, &all)
	c, na := t.pct(correct), t.pct(noAnswer)
	line(fmt.Sprintf("noisy titles correct (role level) ≥ %d%%", noisyRoleTarget), fmt.Sprintf("%.1f%%", c), c >= noisyRoleTarget)
	line(fmt.Sprintf("noisy titles: no category ≤ %d%%", noisyNoneCeiling), fmt.Sprintf("%.1f%%", na), na <= noisyNoneCeiling)
	line("noisy titles whose label the SOC definitions do not contradict: a wrong answer is rarer than no category (wrong < no category, or wrong = 0)",
		fmt.Sprintf("wrong %d, no category %d (%d rows set aside by the audit; all rows: wrong %d, no category %d)",
			kept.n[wrong], kept.n[noAnswer], setAside, t.n[wrong], t.n[noAnswer]),
		kept.n[wrong] == 0 || kept.n[wrong] < kept.n[noAnswer])
	return all
}

// writeTSV writes rows under a header, tab-separated.
func writeTSV(path string, header []string, rows [][]string) error {
	var b strings.Builder
	b.WriteString(strings.Join(header, "\t") + "\n")
	for _, r := range rows {
		b.WriteString(strings.Join(r, "\t") + "\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
