package currency

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// daily is the daily file's layout (spaces after commas, a trailing empty
// column, a spelled-out date).
const daily = "Date, USD, JPY, GBP, \n13 April 2026, 1.1684, 186.75, 0.87058, \n"

// history is the history file's layout: newest first, N/A cells.
const history = `Date,USD,JPY,BGN,GBP,
2026-04-13,1.1684,186.75,N/A,0.87058,
2026-04-10,1.1711,186.43,N/A,0.87105,
2024-01-02,1.0956,155.78,1.9558,0.86645,
`

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, in, date string
		rates          map[string]float64
		missing        []string
	}{
		{name: "the daily file", in: daily, date: "2026-04-13",
			rates: map[string]float64{"EUR": 1, "USD": 1.1684, "JPY": 186.75, "GBP": 0.87058}},
		{name: "the history: its latest day, N/A is no rate", in: history, date: "2026-04-13",
			rates: map[string]float64{"EUR": 1, "USD": 1.1684, "GBP": 0.87058}, missing: []string{"BGN", "CHF"}},
		{name: "oldest first: still the latest day", in: "Date,USD\n2024-01-02,1.09\n2026-04-13,1.1684\n", date: "2026-04-13",
			rates: map[string]float64{"USD": 1.1684}},
		{name: "an empty cell is no rate", in: "Date,USD,JPY\n2026-04-13,,186.75\n", date: "2026-04-13",
			rates: map[string]float64{"JPY": 186.75}, missing: []string{"USD"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse(strings.NewReader(tc.in))
			require.NoError(t, err)
			assert.Equal(t, tc.date, r.Date())
			for code, want := range tc.rates {
				got, ok := r.Rate(code)
				assert.True(t, ok, code)
				assert.Equal(t, want, got, code)
			}
			for _, code := range tc.missing {
				_, ok := r.Rate(code)
				assert.False(t, ok, code)
			}
			assert.NotEmpty(t, r.Digest())
		})
	}
}

func TestParseRefusesMalformedFiles(t *testing.T) {
	for _, tc := range []struct{ name, in, err string }{
		{"empty", "", "empty file"},
		{"no rows", "Date,USD\n", "no day's rates"},
		{"no Date column", "Day,USD\n2026-04-13,1.1\n", `line 1: the header must be "Date"`},
		{"a bad code", "Date,US Dollar\n2026-04-13,1.1\n", `line 1, column 2: "US Dollar" is not a currency code`},
		{"a lower-case code", "Date,usd\n2026-04-13,1.1\n", `"usd" is not a currency code`},
		{"a bad date", "Date,USD\n13/04/2026,1.1\n", `line 2: "13/04/2026" is not a date`},
		{"a bad rate", "Date,USD\n2026-04-13,one\n", `line 2, USD: "one" is not a rate`},
		{"a zero rate", "Date,USD\n2026-04-13,0\n", `line 2, USD: "0" is not a rate`},
		{"a negative rate in an older row", "Date,USD\n2026-04-13,1.1\n2026-04-10,-1\n", `line 3, USD: "-1" is not a rate`},
		{"a short row", "Date,USD,JPY\n2026-04-13,1.1\n", "line 2: 2 cells where the header has 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}

func TestDigestAndSame(t *testing.T) {
	a, err := Parse(strings.NewReader(daily))
	require.NoError(t, err)
	b, err := Parse(strings.NewReader("Date,GBP,JPY,USD\n2026-04-13,0.87058,186.75,1.1684\n"))
	require.NoError(t, err)
	c, err := Parse(strings.NewReader("Date,GBP,JPY,USD\n2026-04-13,0.87058,186.75,1.17\n"))
	require.NoError(t, err)
	assert.True(t, Same(a, b), "the same rates in another layout")
	assert.False(t, Same(a, c))
	assert.False(t, Same(a, nil))
	assert.True(t, Same(nil, nil))
}

func TestValidCode(t *testing.T) {
	for in, want := range map[string]string{"usd": "USD", "Jpy": "JPY", "EUR": "EUR"} {
		got, ok := ValidCode(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got)
	}
	for _, in := range []string{"", "US", "USDX", "U$D", "12€", "ÜSD"} {
		_, ok := ValidCode(in)
		assert.False(t, ok, in)
	}
}

func TestSourceReload(t *testing.T) {
	dir := t.TempDir()
	path := FileIn(dir)
	s, err := Open(path)
	require.NoError(t, err, "a missing file is no rates")
	assert.Nil(t, s.Rates())

	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	write := func(body string, mod time.Time) {
		require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
		require.NoError(t, os.Chtimes(path, mod, mod))
	}
	t0 := time.Now().Add(-time.Hour)
	write(daily, t0)
	changed, err := s.Reload()
	require.NoError(t, err)
	assert.True(t, changed, "the file appeared")
	require.NotNil(t, s.Rates())
	usd, _ := s.Rates().Rate("USD")
	assert.Equal(t, 1.1684, usd)

	changed, err = s.Reload()
	require.NoError(t, err)
	assert.False(t, changed, "unchanged file")

	write("Date,USD\n2026-04-14,1.2\n", t0.Add(time.Minute))
	changed, err = s.Reload()
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, "2026-04-14", s.Rates().Date())

	write("Date,USD\n2026-04-15,oops\n", t0.Add(2*time.Minute))
	_, err = s.Reload()
	require.Error(t, err)
	assert.Equal(t, "2026-04-14", s.Rates().Date(), "a bad file keeps the rates before it")

	require.NoError(t, os.Remove(path))
	changed, err = s.Reload()
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Nil(t, s.Rates(), "a removed file is no rates")

	_, err = Open(path + ".bad")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte("nonsense"), 0o644))
	_, err = Open(path)
	require.Error(t, err, "a file that does not parse stops the start")
}
