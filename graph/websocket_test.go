package graph

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
)

// TestStalledSocketWritesFail: a write to a WebSocket whose client reads
// nothing fails after its limit, instead of holding the connection's
// writer for good; a client that reads gets what is written.
func TestStalledSocketWritesFail(t *testing.T) {
	server, client := net.Pipe() // a write waits for the reader, as a full TCP buffer does
	defer client.Close()
	conn := stallBounded{server, 100 * time.Millisecond}

	start := time.Now()
	_, err := conn.Write([]byte("nobody reads this"))
	require.Error(t, err)
	assert.True(t, errors.Is(err, os.ErrDeadlineExceeded), "%v", err)
	assert.Less(t, time.Since(start), 2*time.Second)

	got := make(chan []byte, 1)
	go func() {
		b := make([]byte, 4)
		n, _ := client.Read(b)
		got <- b[:n]
	}()
	_, err = conn.Write([]byte("read"))
	require.NoError(t, err)
	assert.Equal(t, []byte("read"), <-got)
}

// TestRefusalCloseCodes: only a missing or unknown key is 4403; too many
// failed attempts and keys that cannot be checked tell the client to retry.
func TestRefusalCloseCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
	}{
		{domain.Errorf(domain.CodeUnauthorized, "the x-api-key is unknown or revoked"), CloseForbidden},
		{domain.Errorf(domain.CodeRateLimited, "too many"), CloseTooManyInits},
		{domain.Errorf(domain.CodeUnavailable, "the keys cannot be checked"), CloseInternal},
		{errors.New("connection refused"), CloseInternal},
	} {
		code, reason := closeCodeOf(tc.err)
		assert.Equal(t, tc.code, code, "%v", tc.err)
		assert.NotContains(t, reason, "connection refused", "internal details stay in the log")
	}
}
