package graph

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStalledSocketWritesFail: a write to a WebSocket whose client reads
// nothing fails after stallLimit, instead of holding the connection's
// writer for good; a client that reads gets what is written.
func TestStalledSocketWritesFail(t *testing.T) {
	defer func(d time.Duration) { stallLimit = d }(stallLimit)
	stallLimit = 100 * time.Millisecond
	server, client := net.Pipe() // a write waits for the reader, as a full TCP buffer does
	defer client.Close()
	conn := stallBounded{server}

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
