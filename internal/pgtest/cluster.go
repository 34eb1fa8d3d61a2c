package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// Cluster is a private PostgreSQL server a test starts, stops and restarts,
// made with the installed binaries (initdb, pg_ctl) in a temporary folder.
type Cluster struct {
	t     testing.TB
	bin   string
	dir   string
	port  int
	owner []string // command prefix that runs as the cluster's owner
}

// NewCluster initializes and starts a cluster; it is stopped and removed
// when the test ends. The test fails when PostgreSQL's binaries are not
// installed.
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	bin := binDir()
	require.NotEmpty(t, bin, "PostgreSQL server binaries (initdb, pg_ctl) are needed: apt-get install postgresql")
	dir, err := os.MkdirTemp("", "jobsd-pg-")
	require.NoError(t, err)
	c := &Cluster{t: t, bin: bin, dir: dir, port: freePort(t)}
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root.
		u, err := user.Lookup("postgres")
		require.NoError(t, err, "running as root needs a postgres user to own the cluster")
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		require.NoError(t, os.Chown(dir, uid, gid))
		c.owner = []string{"runuser", "-u", "postgres", "--"}
	}
	c.run("initdb", "-D", c.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale")
	c.Start()
	c.cleanup()
	return c
}

// NewReplica makes a streaming replica of primary (pg_basebackup) and starts
// it; it is stopped and removed when the test ends.
func NewReplica(t testing.TB, primary *Cluster) *Cluster {
	t.Helper()
	c := primary.sibling(t)
	c.run("pg_basebackup", "-h", "127.0.0.1", "-p", strconv.Itoa(primary.port), "-U", "postgres",
		"-D", c.data(), "-R", "-X", "stream", "--checkpoint=fast")
	c.Start()
	c.cleanup()
	return c
}

// sibling is a new, empty cluster folder owned like c's.
func (c *Cluster) sibling(t testing.TB) *Cluster {
	t.Helper()
	dir, err := os.MkdirTemp("", "jobsd-pg-")
	require.NoError(t, err)
	s := &Cluster{t: t, bin: c.bin, dir: dir, port: freePort(t), owner: c.owner}
	if len(c.owner) > 0 {
		info, err := os.Stat(c.dir)
		require.NoError(t, err)
		st := info.Sys().(*syscall.Stat_t)
		require.NoError(t, os.Chown(dir, int(st.Uid), int(st.Gid)))
	}
	return s
}

func (c *Cluster) cleanup() {
	t := c.t
	t.Cleanup(func() {
		_ = c.command("pg_ctl", "-D", c.data(), "-m", "immediate", "stop").Run()
		_ = os.RemoveAll(c.dir)
	})
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

// URL returns the URL of database name on the cluster.
func (c *Cluster) URL(name string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, name)
}

// Start starts the server and waits until it accepts connections.
func (c *Cluster) Start() {
	c.t.Helper()
	c.run("pg_ctl", "-D", c.data(), "-w", "-t", "60", "-l", filepath.Join(c.dir, "log"),
		"-o", fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -k %s", c.port, c.dir), "start")
}

// Stop stops the server at once, as a crash or an outage would.
func (c *Cluster) Stop() {
	c.t.Helper()
	c.run("pg_ctl", "-D", c.data(), "-w", "-m", "immediate", "stop")
}

func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	argv := append(append(append([]string{}, c.owner...), filepath.Join(c.bin, name)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.dir
	return cmd
}

func (c *Cluster) run(name string, args ...string) {
	c.t.Helper()
	out, err := c.command(name, args...).CombinedOutput()
	require.NoError(c.t, err, "%s: %s", name, out)
}

// binDir finds the directory of initdb and pg_ctl.
func binDir() string {
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dir := string(out[:len(out)-1])
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	return ""
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
