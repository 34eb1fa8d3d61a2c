// Digest: the name of the vocabularies, reference data and rules records are normalized with.

package normalize

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// rulesVersion numbers the normalization rules written in code (title
// cleaning, location parsing, the way reference data is read). Raise it
// with every change that normalizes some value differently, so that the
// data's vocabulary digest no longer matches and serve says to run jobsd
// renormalize.
const rulesVersion = 17

// refDataDirs are the folders of a reference-data directory the
// normalizer reads.
var refDataDirs = []string{"locations", "occupations", "skills"}

// Digest names the vocabularies in use: the rules version, the
// project's vocabularies and the reference-data files, hashed. Data
// normalized with one digest is found by the same words under another
// only if both are equal; the store records it with the data.
func (n *Normalizer) Digest() string { return n.digest }

// vocabularySum hashes the rules version, the embedded vocabularies and
// the files of refData's folders (none when refData is ""): their names,
// contents and sizes.
func vocabularySum(refData string) ([]byte, error) {
	return sumVocabularies(vocabFS, rulesVersion, refData)
}

// sumVocabularies is vocabularySum with the embedded vocabularies and
// the rules version given (vocab is a file system with a folder "vocab").
func sumVocabularies(vocab fs.FS, rules int, refData string) ([]byte, error) {
	h := sha256.New()
	fmt.Fprintf(h, "rules %d\n", rules)
	add := func(fsys fs.FS, root, label string) error {
		return fs.WalkDir(fsys, root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			f, err := fsys.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			fmt.Fprintf(h, "%s/%s\n", label, path)
			n, err := io.Copy(h, f)
			h.Write([]byte(strconv.FormatInt(n, 10) + "\n"))
			return err
		})
	}
	if err := add(vocab, "vocab", "builtin"); err != nil {
		return nil, fmt.Errorf("vocabulary digest: %w", err)
	}
	if refData != "" {
		dir := os.DirFS(refData)
		for _, sub := range refDataDirs {
			if _, err := os.Stat(filepath.Join(refData, sub)); err != nil {
				continue
			}
			if err := add(dir, sub, "refdata"); err != nil {
				return nil, fmt.Errorf("vocabulary digest: %w", err)
			}
		}
	}
	return h.Sum(nil), nil
}

// digestName is the Digest of the vocabularies hashed to sum.
func digestName(refData string, sum []byte) string {
	label := "builtin"
	if refData != "" {
		label = "refdata"
	}
	return label + "-" + hex.EncodeToString(sum[:8])
}
