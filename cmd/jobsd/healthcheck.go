package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// healthcheck asks a running jobsd whether it is up (for container health
// checks, where no curl is installed): exit 0 when /healthz answers 200.
func (e env) healthcheck(ctx context.Context, args []string) error {
	fs := e.flagSet("healthcheck")
	url := fs.String("url", "http://127.0.0.1:8080/healthz", "the health URL to ask")
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait for the answer")
	if err := parse(fs, args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return usageError{err.Error()}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %d", *url, resp.StatusCode)
	}
	fmt.Fprintln(e.stdout, "ok")
	return nil
}
