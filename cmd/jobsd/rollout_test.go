package main_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// TestServeInstancesStartTogether: serve instances started at once on a
// fresh database, as in a rolling deploy, all migrate (one applies the
// migrations, the others wait for it and find none left) and all become
// ready.
func TestServeInstancesStartTogether(t *testing.T) {
	dsn := pgtest.NewURL(t)
	const n = 3
	type instance struct {
		cmd     *exec.Cmd
		logs    *syncBuffer
		addr    chan string
		applied chan []string
		exited  chan struct{} // closed when the process closed its stderr
	}
	instances := make([]*instance, n)
	for i := range instances {
		cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--refdata", "")
		cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn)
		stderr, err := cmd.StderrPipe()
		require.NoError(t, err)
		in := &instance{cmd: cmd, logs: &syncBuffer{}, addr: make(chan string, 1), applied: make(chan []string, 1), exited: make(chan struct{})}
		instances[i] = in
		go func() {
			defer close(in.exited)
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				in.logs.WriteString(sc.Text() + "\n")
				var entry struct {
					Msg, Addr  string
					Migrations []string
				}
				if json.Unmarshal(sc.Bytes(), &entry) != nil {
					continue
				}
				switch entry.Msg {
				case "jobsd listening":
					in.addr <- entry.Addr
				case "applied migrations":
					in.applied <- entry.Migrations
				}
			}
		}()
	}
	for _, in := range instances {
		require.NoError(t, in.cmd.Start())
		t.Cleanup(func() {
			_ = in.cmd.Process.Kill()
			_ = in.cmd.Wait()
		})
	}

	var migrated int
	for i, in := range instances {
		var base string
		select {
		case a := <-in.addr:
			base = "http://" + a
		case <-in.exited:
			t.Fatalf("instance %d exited: %s", i, in.logs)
		case <-time.After(60 * time.Second):
			t.Fatalf("instance %d did not start: %s", i, in.logs)
		}
		ready := false
		for range 300 {
			resp, err := http.Get(base + "/readyz")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					ready = true
					break
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
		require.True(t, ready, "instance %d never became ready: %s", i, in.logs)
		select {
		case names := <-in.applied:
			migrated++
			assert.NotEmpty(t, names)
		default:
		}
	}
	assert.Equal(t, 1, migrated, "one instance applies the migrations, the others find none left")
	status := jobsd(t, dsn, "migrate", "status")
	assert.NotContains(t, status, "pending")
	assert.Equal(t, len(strings.Split(strings.TrimSpace(status), "\n")), strings.Count(status, "applied"))
}
