package main

import (
	"context"
	"fmt"
	"math"
	"text/tabwriter"
	"time"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/store"
)

func (e env) apikey(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usageError{"apikey: create, list or revoke"}
	}
	action, rest := args[0], args[1:]
	fs := e.flagSet("apikey " + action)
	dsn := e.dbFlag(fs)
	var name *string
	var replace *bool
	var rate *float64
	var burst *int
	if action == "create" {
		name = fs.String("name", "", "name of the key (who or what uses it)")
		replace = fs.Bool("replace", false, "revoke the active key of the same name first")
		rate = fs.Float64("rate", 0, "sustained requests per second (0: the server default)")
		burst = fs.Int("burst", 0, "burst size (0: the server default)")
	}
	if err := parse(fs, rest); err != nil {
		return err
	}
	if action == "create" && (!(*rate >= 0) || math.IsInf(*rate, 1) || *burst < 0) {
		return usageError{"apikey create: --rate must be a number ≥ 0 and --burst ≥ 0 (0: the server default)"}
	}
	db, err := openMigrated(ctx, *dsn, store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	st := store.New(db)
	switch action {
	case "create":
		if *name == "" {
			return usageError{"apikey create: --name is required"}
		}
		key, prefix, hash := auth.NewKey()
		k := &store.APIKey{Name: *name, Prefix: prefix, Hash: hash}
		if *rate > 0 {
			k.RatePerSecond = rate
		}
		if *burst > 0 {
			k.Burst = burst
		}
		if err := st.CreateAPIKey(ctx, k, *replace); err != nil {
			return fmt.Errorf("apikey create: %w (an active key named %q may exist: use --replace or another name)", err, *name)
		}
		fmt.Fprintln(e.stdout, key)
		fmt.Fprintf(e.stderr, "apikey: created %q (prefix %s); the key is shown only this once\n", *name, prefix)
	case "list":
		keys, err := st.APIKeys(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tPREFIX\tCREATED\tLAST USED\tREVOKED")
		for _, k := range keys {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.Name, k.Prefix, k.CreatedAt.UTC().Format(time.RFC3339), when(k.LastUsedAt), when(k.RevokedAt))
		}
		return tw.Flush()
	case "revoke":
		if fs.NArg() != 1 {
			return usageError{"apikey revoke: give the NAME or PREFIX of the key"}
		}
		n, err := st.RevokeAPIKey(ctx, fs.Arg(0))
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("apikey revoke: no active key has the name or prefix %q", fs.Arg(0))
		}
		fmt.Fprintf(e.stdout, "apikey: revoked %d key(s)\n", n)
	default:
		return usageError{fmt.Sprintf("apikey: unknown action %q (create, list or revoke)", action)}
	}
	return nil
}

func when(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}
