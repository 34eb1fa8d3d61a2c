package main

import (
	"flag"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMaskPassword(t *testing.T) {
	for _, tc := range []struct{ dsn, want string }{
		{"postgres://u@h:5432/db?sslmode=disable", "postgres://u@h:5432/db?sslmode=disable"},
		{"postgres://u:pw@h/db?sslmode=disable", "postgres://u:xxxxx@h/db?sslmode=disable"},
		{"postgres://u@h/db?password=pw&sslmode=disable", "postgres://u@h/db?password=xxxxx&sslmode=disable"},
		{"postgresql://u@h/db?sslmode=require&sslpassword=pw", "postgresql://u@h/db?sslmode=require&sslpassword=xxxxx"},
		{"host=db password=pw dbname=jobs", "host=db password=xxxxx dbname=jobs"},
		{"password = 'p w\\'s' host=db sslpassword=k", "password = xxxxx host=db sslpassword=xxxxx"},
		{"host=db dbname=jobs", "host=db dbname=jobs"},
		{"postgres://u:pw@h/%zz", "(unparsable URL)"},
	} {
		t.Run(tc.dsn, func(t *testing.T) {
			got := maskPassword(tc.dsn)
			assert.Equal(t, tc.want, got)
			assert.NotContains(t, got, "pw")
		})
	}
}

// TestDatabaseURLFlag: --database-url holds the URL itself, from the flag,
// the environment or the default, while its default as the help prints it
// is masked.
func TestDatabaseURLFlag(t *testing.T) {
	const secret = "postgres://jobsd:s3cret@db.example:5432/jobs"
	for _, tc := range []struct {
		name, env string
		args      []string
		want      string
	}{
		{"the default", "", nil, DefaultDatabaseURL},
		{"from the environment", secret, nil, secret},
		{"from the flag", "postgres://other:0ther@h/db", []string{"--database-url", secret}, secret},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := env{getenv: func(k string) string {
				if k == "DATABASE_URL" {
					return tc.env
				}
				return ""
			}}
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			dsn := e.dbFlag(fs)
			require.NoError(t, fs.Parse(tc.args))
			assert.Equal(t, tc.want, *dsn)
			f := fs.Lookup("database-url")
			assert.Equal(t, tc.want, f.Value.(flag.Getter).Get())
			assert.NotContains(t, f.DefValue, "s3cret")
			assert.NotContains(t, f.DefValue, "0ther")
		})
	}
}

// TestMaskURLIn: a URL quoted in a library's message, as it is or as %q
// writes it, is replaced by its masked form.
func TestMaskURLIn(t *testing.T) {
	for _, tc := range []struct{ msg, url, want string }{
		{`dial redis://u:pw@h:6379/0: refused`, "redis://u:pw@h:6379/0", `dial redis://u:xxxxx@h:6379/0: refused`},
		{`parse "redis://u:p\"w@h/0": bad`, `redis://u:p"w@h/0`, `parse "(unparsable URL)": bad`},
		{`parse "redis://u:pw@h/%zz": invalid URL escape "%zz"`, "redis://u:pw@h/%zz", `parse "(unparsable URL)": invalid URL escape "%zz"`},
		{`no URL here`, "redis://u:pw@h/0", `no URL here`},
		{`nothing to mask`, "", `nothing to mask`},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			got := maskURLIn(tc.msg, tc.url)
			assert.Equal(t, tc.want, got)
			assert.NotContains(t, got, "pw")
		})
	}
}

func TestIsLoopbackAddr(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"127.8.9.10:0", true},
		{"localhost:8080", true},
		{"LocalHost:8080", true},
		{"[::1]:8080", true},
		{"[::ffff:127.0.0.1]:8080", true},
		{"0.0.0.0:8080", false},
		{":8080", false},
		{"[::]:8080", false},
		{"192.0.2.1:8080", false},
		{"jobsd.example:8080", false},
		{"localhost.example:8080", false},
		{"127.0.0.1", false}, // not HOST:PORT: net.Listen refuses it anyway
	} {
		t.Run(tc.addr, func(t *testing.T) {
			assert.Equal(t, tc.want, isLoopbackAddr(tc.addr))
		})
	}
}
