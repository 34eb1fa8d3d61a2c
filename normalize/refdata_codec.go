// Reference-data cache body: the normalizer's compiled state written to and read from bytes.

package normalize

import (
	"fmt"

	"github.com/jobsd-dev/jobsd/internal/wire"
	"github.com/jobsd-dev/jobsd/normalize/places"
	"github.com/jobsd-dev/jobsd/normalize/terms"
	"github.com/jobsd-dev/jobsd/normalize/titles"
)

// The body of a cache file holds everything New builds (the twelve
// vocabularies, the gazetteer, the title taxonomy, the sources), with
// pointers shared between structures written once in a table and referred
// to by index, so that a normalizer read back has the same sharing as one
// built from the files. Integers are varints, strings a length and their
// bytes; the strings read back are slices of one copy of the body.
//
// Every struct field of the state is written; TestCacheLayout fails when a
// field is added to one of these types, so that the codec and
// cacheFormat follow.

// encodeState writes n's state.
func encodeState(w *wire.Writer, n *Normalizer) {
	w.Uvarint(uint64(len(n.sources)))
	for _, s := range n.sources {
		w.String(s.Name)
		w.String(s.Licence)
		w.String(s.Attribution)
	}
	terms.EncodeVocabs(w, n.vocabs())
	n.geo.Encode(w)
	n.taxonomy.Encode(w)
}

// decodeState reads a state encodeState wrote into n.
func decodeState(r *wire.Reader, n *Normalizer) (err error) {
	defer func() {
		if r := recover(); r != nil { // the checks above should make this unreachable
			err = fmt.Errorf("%w: recovered: %v", wire.ErrCorrupt, r)
		}
	}()
	n.sources = make([]Source, r.Count(1))
	for i := range n.sources {
		n.sources[i] = Source{Name: r.View(), Licence: r.View(), Attribution: r.View()}
	}
	vocabs := terms.DecodeVocabs(r, len(n.vocabPointers()))
	for i, dst := range n.vocabPointers() {
		*dst = vocabs[i]
	}
	n.geo = places.Decode(r)
	n.taxonomy = titles.Decode(r)
	if err := r.Done(); err != nil {
		return err
	}
	n.Skills.SetKnownElsewhere(n.knownElsewhere)
	for _, v := range n.vocabs() {
		if v != n.Skills && v.HasTypos() {
			return fmt.Errorf("%w: a typo index outside the skills vocabulary", wire.ErrCorrupt)
		}
	}
	return nil
}

// vocabPointers lists the normalizer's vocabularies in the cache's order.
func (n *Normalizer) vocabPointers() []**Vocab {
	return []**Vocab{&n.Skills, &n.Tools, &n.TechnicalSkills, &n.SoftSkills, &n.Certifications, &n.Benefits,
		&n.EducationMajors, &n.EducationLevels, &n.Visas, &n.SecurityClearances, &n.EmploymentTypes, &n.WorkArrangements}
}

func (n *Normalizer) vocabs() []*Vocab {
	var out []*Vocab
	for _, p := range n.vocabPointers() {
		out = append(out, *p)
	}
	return out
}
