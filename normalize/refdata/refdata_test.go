package refdata_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/normalize/refdata"
)

// TestReadTSV reads a file plain and gzipped alike, its header skipped; a
// row short of columns and a damaged .gz are errors naming the file.
func TestReadTSV(t *testing.T) {
	dir := t.TempDir()
	text := "code\ttitle\n15-1252\tSoftware Developers\n29-1141\tRegistered Nurses\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.tsv"), []byte(text), 0o600))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err := zw.Write([]byte(text))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.tsv.gz"), gz.Bytes(), 0o600))

	for _, name := range []string{"a.tsv", "a.tsv.gz"} {
		var rows [][]string
		require.NoError(t, refdata.ReadTSV(filepath.Join(dir, name), 2, func(cols []string) error {
			rows = append(rows, append([]string(nil), cols...))
			return nil
		}), name)
		assert.Equal(t, [][]string{{"15-1252", "Software Developers"}, {"29-1141", "Registered Nurses"}}, rows, name)
	}
	err = refdata.ReadTSV(filepath.Join(dir, "a.tsv"), 3, func([]string) error { return nil })
	assert.ErrorContains(t, err, "a.tsv line 2: 2 columns, want 3")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.tsv.gz"), []byte(text), 0o600))
	_, err = refdata.Open(filepath.Join(dir, "bad.tsv.gz"))
	assert.ErrorContains(t, err, "bad.tsv.gz")
	_, err = refdata.Open(filepath.Join(dir, "missing.tsv"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
