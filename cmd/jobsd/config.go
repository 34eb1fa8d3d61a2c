package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/migrations"
	"github.com/jobsd-dev/jobsd/ratelimit"
	"github.com/jobsd-dev/jobsd/store"
)

// DefaultDatabaseURL is used when neither --database-url nor DATABASE_URL
// is given: the local PostgreSQL server.
const DefaultDatabaseURL = "postgres://postgres@127.0.0.1:5432/jobsd?sslmode=disable"

// flagSet returns a flag set for a subcommand whose errors and usage go to
// stderr.
func (e env) flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("jobsd "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}

// dbFlag adds --database-url with the environment's default, which the
// help prints with its password masked.
func (e env) dbFlag(fs *flag.FlagSet) *string {
	dsn := e.getenv("DATABASE_URL")
	if dsn == "" {
		dsn = DefaultDatabaseURL
	}
	fs.Var(secretURL{&dsn}, "database-url", "PostgreSQL `URL` (env DATABASE_URL)")
	return &dsn
}

// secretURLVar adds a flag holding a URL that may carry a password, empty
// by default; the flag prints it masked.
func secretURLVar(fs *flag.FlagSet, name, usage string) *string {
	var u string
	fs.Var(secretURL{&u}, name, usage)
	return &u
}

// secretURL is the value of a flag holding a URL that may carry a password
// (--database-url, --redis-url). Its String, which the help prints as the
// default, masks the password; Get returns the URL itself.
type secretURL struct{ dsn *string }

// String returns the URL with its password masked.
func (d secretURL) String() string {
	if d.dsn == nil { // the zero value, which the flag package prints to tell a default
		return ""
	}
	return maskPassword(*d.dsn)
}

// Get returns the URL, password included.
func (d secretURL) Get() any { return *d.dsn }

// Set sets the URL.
func (d secretURL) Set(s string) error {
	*d.dsn = s
	return nil
}

// envFlag names a flag and the environment variable that sets it; invert
// is for a variable that says the opposite of its boolean flag.
type envFlag struct {
	flag, variable string
	invert         bool
}

// fromEnv sets each flag that the command line left alone and whose
// variable is set, through the flag's own parser: a value it refuses is a
// usage error naming the variable, not a silent default. Call it after
// parse, so that flags win over the environment.
func fromEnv(fs *flag.FlagSet, getenv func(string) string, vars []envFlag) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, v := range vars {
		value := getenv(v.variable)
		if value == "" || given[v.flag] {
			continue
		}
		if v.invert {
			on, err := strconv.ParseBool(value)
			if err != nil {
				return usageError{fmt.Sprintf("%s=%s: not true or false", v.variable, value)}
			}
			value = strconv.FormatBool(!on)
		}
		if err := fs.Set(v.flag, value); err != nil {
			return usageError{fmt.Sprintf("%s=%s: invalid value for --%s: %v", v.variable, value, v.flag, err)}
		}
	}
	return nil
}

// parse parses flags, turning a parse failure into a usage error.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return usageError{err.Error()}
	}
	return nil
}

// openDB connects to the database, its pool sized by opts.
func openDB(ctx context.Context, dsn string, opts store.Options) (*bun.DB, error) {
	db, err := store.Open(ctx, dsn, opts)
	if err != nil {
		return nil, fmt.Errorf("%w (database %s)", err, maskPassword(dsn))
	}
	return db, nil
}

// openMigrated opens the database at dsn and applies its pending
// migrations: what every command that reads or writes jobs starts with.
func openMigrated(ctx context.Context, dsn string, opts store.Options) (*bun.DB, error) {
	db, err := openDB(ctx, dsn, opts)
	if err != nil {
		return nil, err
	}
	if _, err := migrations.Up(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// maskPassword hides the passwords of a database URL (in its user
// information, or as its password or sslpassword parameter) or of a
// keyword/value connection string, for messages and the help.
func maskPassword(dsn string) string {
	if !strings.Contains(dsn, "://") {
		return passwordSetting.ReplaceAllString(dsn, "${1}xxxxx")
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "(unparsable URL)"
	}
	if q := u.Query(); q.Has("password") || q.Has("sslpassword") {
		for _, k := range []string{"password", "sslpassword"} {
			if q.Has(k) {
				q.Set(k, "xxxxx")
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.Redacted() // the user information's password as xxxxx
}

// maskURLIn returns msg with rawURL, as it is or as %q writes it, replaced
// by its masked form: for the errors of libraries that quote the URL they
// were given.
func maskURLIn(msg, rawURL string) string {
	if rawURL == "" {
		return msg
	}
	masked := maskPassword(rawURL)
	quoted := strconv.Quote(rawURL)
	msg = strings.ReplaceAll(msg, quoted[1:len(quoted)-1], masked)
	return strings.ReplaceAll(msg, rawURL, masked)
}

// checkRedisURL returns a usage error, which does not quote the URL and
// so not its password either, when rawURL does not parse as a URL.
func checkRedisURL(rawURL string) error {
	if _, err := url.Parse(rawURL); err != nil {
		return usageError{"serve: --redis-url (REDIS_URL) is not a valid URL; percent-encode the reserved characters of its password"}
	}
	return nil
}

// newRedisLimiter returns the rate limiter sharing its buckets through
// the Redis at rawURL, and its client. No error it returns holds the URL's
// password: an unparsable URL is checkRedisURL's usage error, and any
// other error has the URL masked.
func newRedisLimiter(rawURL string, log *slog.Logger) (*ratelimit.Redis, *redis.Client, error) {
	if err := checkRedisURL(rawURL); err != nil {
		return nil, nil, err
	}
	r, client, err := ratelimit.NewRedis(rawURL, log)
	if err != nil {
		return nil, nil, fmt.Errorf("rate limiter on Redis %s: %s", maskPassword(rawURL), maskURLIn(err.Error(), rawURL))
	}
	return r, client, nil
}

// isLoopbackAddr reports whether a listen address HOST:PORT accepts
// connections from this machine only: its host is localhost or a loopback
// IP (127.0.0.0/8, ::1). An empty host, which listens on every interface,
// and any other name are not.
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// passwordSetting is a password or sslpassword setting of a keyword/value
// connection string, its value bare or single-quoted.
var passwordSetting = regexp.MustCompile(`((?:^|\s)(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)
