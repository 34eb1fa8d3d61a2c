package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// readmeBase is the address the README's examples use (make run's).
const readmeBase = "http://127.0.0.1:8080"

// example is a curl command of the README and the answer it shows, if any.
type example struct {
	line    int    // of the command in README.md
	command string // the curl command, continuation lines joined
	want    string // the JSON shown after it ("" when none)
}

// readmeExamples reads the curl commands of README.md's sh blocks. The
// answer of a command is the json block right after its sh block (when the
// block holds one command), or a "# => JSON" comment right after the
// command.
func readmeExamples(t *testing.T) []example {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	lines := strings.Split(string(b), "\n")
	var out []example
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```sh" {
			continue
		}
		var block []example
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			l := strings.TrimSpace(lines[j])
			switch {
			case strings.HasPrefix(l, "curl "):
				start := j
				for strings.HasSuffix(strings.TrimSpace(lines[j]), `\`) && j+1 < len(lines) {
					l = strings.TrimSuffix(strings.TrimSpace(l), `\`) + " " + strings.TrimSpace(lines[j+1])
					j++
				}
				block = append(block, example{line: start + 1, command: l})
			case strings.HasPrefix(l, "# => ") && len(block) > 0:
				block[len(block)-1].want = strings.TrimPrefix(l, "# => ")
			}
		}
		// A json block right after the sh block answers its one command.
		k := j + 1
		for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
			k++
		}
		if k < len(lines) && strings.TrimSpace(lines[k]) == "```json" && len(block) == 1 {
			end := k + 1
			for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
				end++
			}
			block[0].want = strings.Join(lines[k+1:end], "\n")
		}
		out = append(out, block...)
		i = j
	}
	return out
}

// curlArg matches one argument of a curl command: a single- or
// double-quoted string or a bare word.
var curlArg = regexp.MustCompile(`'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)`)

// request makes the HTTP request a README curl command describes (-H, -d,
// -X and the URL; $KEY is the key, the README's address the service's).
func (s *service) readmeRequest(t *testing.T, command string) *http.Request {
	t.Helper()
	command = strings.SplitN(command, "  #", 2)[0] // a trailing comment
	var args []string
	for _, m := range curlArg.FindAllStringSubmatch(command, -1) {
		switch {
		case strings.HasPrefix(m[0], "'"):
			args = append(args, m[1])
		case strings.HasPrefix(m[0], `"`):
			args = append(args, strings.NewReplacer(`\"`, `"`, `\\`, `\`, "$KEY", s.key).Replace(m[2]))
		default:
			args = append(args, strings.ReplaceAll(m[3], "$KEY", s.key))
		}
	}
	require.Equal(t, "curl", args[0])
	method, target, body := http.MethodGet, "", ""
	header := http.Header{}
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "-H":
			i++
			name, value, _ := strings.Cut(args[i], ":")
			header.Set(strings.TrimSpace(name), strings.TrimSpace(value))
		case "-d":
			i++
			body, method = args[i], http.MethodPost
		case "-X":
			i++
			method = args[i]
		case "-s", "-i":
		default:
			target = args[i]
		}
	}
	require.True(t, strings.HasPrefix(target, readmeBase), "README examples call %s: %s", readmeBase, command)
	req, err := http.NewRequest(method, s.base+strings.TrimPrefix(target, readmeBase), strings.NewReader(body))
	require.NoError(t, err)
	req.Header = header
	return req
}

// TestReadmeExamples runs every curl command of the README against the
// demo data make run loads (the seed is deterministic), and checks the
// answers it shows: each member shown must be in the answer with that
// value (a string ending in "…" is a prefix), each list shown has the
// answer's length. A command without an answer shown must succeed.
func TestReadmeExamples(t *testing.T) {
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	jobsd(t, dsn, "seed", "--n", "5000")
	s := startServiceOn(t, dsn)
	s.key = strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "demo", "--rate", "100000", "--burst", "100000"))

	examples := readmeExamples(t)
	require.NotEmpty(t, examples)
	shown := 0
	for _, ex := range examples {
		t.Run(fmt.Sprintf("README.md:%d", ex.line), func(t *testing.T) {
			resp, err := http.DefaultClient.Do(s.readmeRequest(t, ex.command))
			require.NoError(t, err)
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, resp.StatusCode, "%s\n%s", ex.command, got)
			var gotJSON any
			require.NoError(t, json.Unmarshal(got, &gotJSON), "%s", got)
			if ex.want == "" {
				if m, ok := gotJSON.(map[string]any); ok {
					assert.Nil(t, m["errors"], "%s: %s", ex.command, got)
				}
				return
			}
			shown++
			var want any
			dec := json.NewDecoder(bytes.NewReader([]byte(ex.want)))
			dec.UseNumber()
			require.NoError(t, dec.Decode(&want), "the answer shown in README.md:%d is not JSON", ex.line)
			var gotNumbers any
			dec = json.NewDecoder(bytes.NewReader(got))
			dec.UseNumber()
			require.NoError(t, dec.Decode(&gotNumbers))
			for _, diff := range shownIn(want, gotNumbers, "") {
				t.Errorf("README.md:%d %s\n  the answer is:\n%s", ex.line, diff, indent(got))
			}
		})
	}
	assert.Positive(t, shown, "no README example shows its answer")
}

// shownIn lists where want, as the README shows it, is not in got.
func shownIn(want, got any, path string) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: an object is shown, the answer has %v", path, got)}
		}
		var diffs []string
		for k, v := range w {
			gv, ok := g[k]
			if !ok {
				diffs = append(diffs, fmt.Sprintf("%s.%s is shown, the answer has no such member", path, k))
				continue
			}
			diffs = append(diffs, shownIn(v, gv, path+"."+k)...)
		}
		return diffs
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: a list of %d is shown, the answer has %v", path, len(w), got)}
		}
		var diffs []string
		for i := range w {
			diffs = append(diffs, shownIn(w[i], g[i], fmt.Sprintf("%s[%d]", path, i))...)
		}
		return diffs
	case string:
		if g, ok := got.(string); ok && (g == w || strings.HasSuffix(w, "…") && strings.HasPrefix(g, strings.TrimSuffix(w, "…"))) {
			return nil
		}
	default:
		if fmt.Sprint(want) == fmt.Sprint(got) {
			return nil
		}
	}
	return []string{fmt.Sprintf("%s: %v is shown, the answer has %v", path, want, got)}
}

func indent(b []byte) string {
	var out bytes.Buffer
	if json.Indent(&out, b, "    ", "  ") != nil {
		return string(b)
	}
	return "    " + out.String()
}
