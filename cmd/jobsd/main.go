// Command jobsd is the Job Discovery Service: it serves job postings over
// GraphQL and REST, and imports, generates and migrates the data behind
// them. Run "jobsd help" for the subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "jobsd:", err)
		}
		os.Exit(exitCode(err))
	}
}

// usageError is an error in how jobsd was called (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) || errors.Is(err, flag.ErrHelp) {
		return 2
	}
	return 1
}

// env is how jobsd reads its environment: tests pass a map.
type env struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

const usage = `jobsd — the Job Discovery Service

Usage:
  jobsd serve   [--addr HOST:PORT] [--no-migrate] [--playground-key KEY]   serve GraphQL, REST and the playground
                [--demo]                                                   (and the search page at /demo/)
  jobsd migrate [up|status]                                                apply or list schema migrations
  jobsd import  [--format ndjson|jsonld|greenhouse|lever] [--company NAME] [--skip-invalid]
                [--snapshot --source NAME [--allow-mass-close]] FILE|-     import job postings (and tombstones); a snapshot closes what it lacks
  jobsd purge   --closed-before DURATION|TIMESTAMP                         remove postings closed before then for good
  jobsd seed    [--n N] [--seed S] [--if-empty] [--out FILE]               generate demo postings and import them
  jobsd renormalize                                                        normalize every stored job again (after a vocabulary change)
  jobsd textindex                                                          index new descriptions for keyword search now (serve does it in the background)
  jobsd apikey  create --name NAME [--replace] | list | revoke NAME|PREFIX manage API keys
  jobsd healthcheck [--url URL]                                            exit 0 when a running jobsd is up

serve, import, seed and renormalize take --refdata DIR (default: $JOBSD_REFDATA), the reference data.
Every command that uses the database takes --database-url (default: $DATABASE_URL,
else postgres://postgres@127.0.0.1:5432/jobsd?sslmode=disable).
Run "jobsd COMMAND -h" for the flags of a command.
`

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := env{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{"a command is required"}
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return e.serve(ctx, rest)
	case "migrate":
		return e.migrate(ctx, rest)
	case "import":
		return e.importJobs(ctx, rest)
	case "purge":
		return e.purge(ctx, rest)
	case "seed":
		return e.seed(ctx, rest)
	case "renormalize":
		return e.renormalize(ctx, rest)
	case "textindex":
		return e.textIndex(ctx, rest)
	case "apikey":
		return e.apikey(ctx, rest)
	case "healthcheck":
		return e.healthcheck(ctx, rest)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return usageError{fmt.Sprintf("unknown command %q", cmd)}
}
