package normalize

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Stored data must be renormalized after any change to the title rules:
// the digest serve compares with the data's changes with the rules
// version, with any embedded vocabulary (titles.json and
// title_languages.json among them), and with the files' names.
func TestDigestCoversTitleRules(t *testing.T) {
	embedded := fstest.MapFS{}
	require.NoError(t, fs.WalkDir(vocabFS, "vocab", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := vocabFS.ReadFile(path)
		embedded[path] = &fstest.MapFile{Data: b}
		return err
	}))
	for _, name := range []string{"vocab/titles.json", "vocab/title_languages.json"} {
		require.Contains(t, embedded, name, "embedded, so hashed")
	}
	base, err := sumVocabularies(embedded, rulesVersion, "")
	require.NoError(t, err)
	real, err := vocabularySum("")
	require.NoError(t, err)
	assert.Equal(t, real, base, "the digest hashes the embedded vocabularies")

	other, err := sumVocabularies(embedded, rulesVersion+1, "")
	require.NoError(t, err)
	assert.NotEqual(t, base, other, "a new rules version")

	changed := fstest.MapFS{}
	for k, v := range embedded {
		changed[k] = v
	}
	changed["vocab/title_languages.json"] = &fstest.MapFile{Data: append([]byte(nil), embedded["vocab/title_languages.json"].Data[:10]...)}
	other, err = sumVocabularies(changed, rulesVersion, "")
	require.NoError(t, err)
	assert.NotEqual(t, base, other, "a changed title vocabulary")
}
