package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gzipped returns s compressed as jobsd's gzip middleware sends it.
func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

// TestSendReadsOnlyWhatItNeeds checks that a measured request still
// reports every failure while skipping the bodies it does not keep.
func TestSendReadsOnlyWhatItNeeds(t *testing.T) {
	long := `{"data":{"job":{"description":"` + string(bytes.Repeat([]byte("x"), 5000)) + `"}}}`
	answers := map[string]struct {
		status int
		body   string
	}{
		"/rest-ok":      {http.StatusOK, `{"data":{"id":"a-1"}}`},
		"/rest-missing": {http.StatusNotFound, `{"error":{"code":"not_found","message":"no job has id a-2"}}`},
		"/gql-ok":       {http.StatusOK, long},
		"/gql-errors":   {http.StatusOK, `{"errors":[{"message":"boom"}],"data":null}`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := answers[r.URL.Path]
		if r.URL.Path == "/graphql" { // the body names the answer
			name, _ := io.ReadAll(r.Body)
			a = answers[string(name)]
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(a.status)
		_, _ = w.Write(gzipped(t, a.body))
	}))
	defer srv.Close()
	c := newClient(srv.URL, "key", 1)
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		path      string
		transport string
		whole     bool
		wantBody  string
		wantErr   string
	}{
		{"REST kept", "/rest-ok", restT, true, `{"data":{"id":"a-1"}}`, ""},
		{"REST not kept", "/rest-ok", restT, false, "", ""},
		{"REST error not kept", "/rest-missing", restT, false, `{"error":{"code":"not_found","message":"no job has id a-2"}}`, "status 404"},
		{"GraphQL kept", "/gql-ok", graphQLT, true, long, ""},
		{"GraphQL not kept", "/gql-ok", graphQLT, false, "", ""},
		{"GraphQL errors not kept", "/gql-errors", graphQLT, false, `{"errors":[{"message":"boom"}],"data":null}`, "GraphQL errors"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kase := testCase{REST: tc.path}
			if tc.transport == graphQLT {
				kase = testCase{GraphQL: []byte(tc.path)}
			}
			body, err := c.send(ctx, kase, tc.transport, tc.whole)
			if tc.wantErr == "" {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
			}
			assert.Equal(t, tc.wantBody, string(body))
		})
	}
}

func TestPrefix(t *testing.T) {
	for _, tc := range []struct {
		name    string
		body    string
		gzipped bool
		want    string
	}{
		{"plain", `{"errors":[]}`, false, `{"errors":`},
		{"plain short", `{}`, false, `{}`},
		{"gzipped", `{"data":{"job":null}}`, true, `{"data":{"`},
		{"gzipped short", `{}`, true, `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.body)
			if tc.gzipped {
				body = gzipped(t, tc.body)
			}
			got, err := prefix(body, tc.gzipped, len(graphQLErrorsFirst))
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
	_, err := prefix([]byte("not gzip"), true, 4)
	assert.Error(t, err)
}
