// A second labeller: how far two blind labellings of the same titles
// agree, the ceiling of any measure against one of them.

package main

import (
	"fmt"
	"io"

	"github.com/jobsd-dev/jobsd/normalize"
)

// secondLabel is a row of postings_second.tsv: a posting of postings.tsv
// labelled again, blind to the first label and to the normalizer.
type secondLabel struct {
	ID, SOC string
	Sure    bool
}

// secondColumns is the header of postings_second.tsv.
var secondColumns = []string{"id", "soc", "sure"}

// loadSecondLabels reads postings_second.tsv.
func loadSecondLabels(path string) ([]secondLabel, error) {
	rows, err := loadTSV(path, secondColumns)
	if err != nil {
		return nil, err
	}
	out := make([]secondLabel, len(rows))
	for i, r := range rows {
		sure, err := sureOf(path, r[0], r[2])
		if err != nil {
			return nil, err
		}
		out[i] = secondLabel{ID: r[0], SOC: r[1], Sure: sure}
	}
	return out, nil
}

// agreementTally compares the second labels with the first ones, and the
// normalizer's answers with the first labels, on the same rows: all of
// them, those both labellers were sure of, and those the first was not.
type agreementTally struct {
	rows                  [3]int
	same, normalizerRight [3]int
	sameMajor             int
}

// The kinds of rows an agreementTally counts.
const (
	allRows = iota
	bothSureRows
	firstUnsureRows
)

// runAgreement compares second with the first labels (by id) and judges
// the normalizer on the same rows.
func runAgreement(n *normalize.Normalizer, first []postingLabel, second []secondLabel, titles map[string]string) (*agreementTally, error) {
	byID := make(map[string]postingLabel, len(first))
	for _, l := range first {
		byID[l.ID] = l
	}
	t := &agreementTally{}
	for _, s := range second {
		f, ok := byID[s.ID]
		if !ok {
			return nil, fmt.Errorf("second labels: posting %s is not labelled in postings.tsv", s.ID)
		}
		title, ok := titles[s.ID]
		if !ok {
			return nil, fmt.Errorf("second labels: no posting %s in %s", s.ID, postingsFile)
		}
		if majorGroup(s.SOC) == majorGroup(f.SOC) {
			t.sameMajor++
		}
		o, _, _ := judgePosting(n, title, f)
		kinds := []int{allRows}
		if s.Sure && f.Sure {
			kinds = append(kinds, bothSureRows)
		}
		if !f.Sure {
			kinds = append(kinds, firstUnsureRows)
		}
		for _, k := range kinds {
			t.rows[k]++
			if s.SOC == f.SOC {
				t.same[k]++
			}
			if o == correct {
				t.normalizerRight[k]++
			}
		}
	}
	return t, nil
}

// printAgreement prints how the second labeller and the normalizer agree
// with the first labels on the same rows.
func printAgreement(w io.Writer, t *agreementTally) {
	fmt.Fprintf(w, "\nsecond labeller (%d titles of postings.tsv labelled again, blind; the ceiling of a measure against one labeller):\n\n", t.rows[allRows])
	fmt.Fprintln(w, "| rows                          | second labeller agrees | normalizer role correct |")
	fmt.Fprintln(w, "|-------------------------------|-----------------------:|------------------------:|")
	for k, name := range []string{"all", "both labellers sure", "first labeller not sure"} {
		fmt.Fprintf(w, "| %-29s | %21.1f%% | %22.1f%% |\n", fmt.Sprintf("%s (%d)", name, t.rows[k]),
			percent(t.same[k], t.rows[k]), percent(t.normalizerRight[k], t.rows[k]))
	}
	fmt.Fprintf(w, "\n- the labels' major groups agree on %.1f%% of the rows\n", percent(t.sameMajor, t.rows[allRows]))
}

// majorGroup is the SOC major group of a label ("15" of "15-1252"), or
// the label when it names none ("-").
func majorGroup(soc string) string {
	if len(soc) < 2 {
		return soc
	}
	return soc[:2]
}
