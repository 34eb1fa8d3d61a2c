package store

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"time"

	"github.com/uptrace/bun"
)

// APIKey is a stored API key: never the key itself, only its hash and the
// prefix shown in listings.
type APIKey struct {
	bun.BaseModel `bun:"table:api_keys,alias:k"`

	ID            int64      `bun:"id,pk,autoincrement"`
	Name          string     `bun:"name"`
	Prefix        string     `bun:"prefix"`
	Hash          []byte     `bun:"key_hash"`
	RatePerSecond *float64   `bun:"rate_per_second"`
	Burst         *int       `bun:"burst"`
	CreatedAt     time.Time  `bun:"created_at,nullzero,default:now()"`
	LastUsedAt    *time.Time `bun:"last_used_at"`
	RevokedAt     *time.Time `bun:"revoked_at"`
}

// CreateAPIKey stores a new key. With replace, an active key of the same
// name is revoked first; without it, an active key of that name is an
// error.
func (s *Store) CreateAPIKey(ctx context.Context, k *APIKey, replace bool) error {
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if replace {
			if _, err := tx.NewUpdate().Model((*APIKey)(nil)).Set("revoked_at = now()").
				Where("name = ? AND revoked_at IS NULL", k.Name).Exec(ctx); err != nil {
				return wrap(err, "revoke key "+k.Name)
			}
		}
		if _, err := tx.NewInsert().Model(k).Returning("id, created_at").Exec(ctx); err != nil {
			return wrap(err, "create key "+k.Name)
		}
		return nil
	})
}

// APIKeys lists every key, newest first.
func (s *Store) APIKeys(ctx context.Context) ([]APIKey, error) {
	var keys []APIKey
	if err := s.db.NewSelect().Model(&keys).Order("id DESC").Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, wrap(err, "list keys")
	}
	return keys, nil
}

// RevokeAPIKey revokes the active keys whose name or prefix is nameOrPrefix
// and returns how many it revoked.
func (s *Store) RevokeAPIKey(ctx context.Context, nameOrPrefix string) (int, error) {
	res, err := s.db.NewUpdate().Model((*APIKey)(nil)).Set("revoked_at = now()").
		Where("revoked_at IS NULL AND (name = ? OR prefix = ?)", nameOrPrefix, nameOrPrefix).Exec(ctx)
	if err != nil {
		return 0, wrap(err, "revoke key")
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// APIKeyByHash returns the active key with the hash, or nil when none.
func (s *Store) APIKeyByHash(ctx context.Context, hash []byte) (*APIKey, error) {
	var k APIKey
	err := s.db.NewSelect().Model(&k).Where("key_hash = ? AND revoked_at IS NULL", hash).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap(err, "find key")
	}
	return &k, nil
}

// TouchAPIKey records that the key was used now.
func (s *Store) TouchAPIKey(ctx context.Context, id int64) error {
	_, err := s.db.NewUpdate().Model((*APIKey)(nil)).Set("last_used_at = now()").Where("id = ?", id).Exec(ctx)
	return wrap(err, "touch key")
}

// ActiveAPIKeys returns every key not revoked.
func (s *Store) ActiveAPIKeys(ctx context.Context) ([]APIKey, error) {
	var keys []APIKey
	if err := s.db.NewSelect().Model(&keys).Where("revoked_at IS NULL").Order("id").Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, wrap(err, "list active keys")
	}
	return keys, nil
}

// apiKeysVersion changes whenever a key is created, revoked or changed:
// the keys' count, newest id and latest revocation, and a hash of their
// limits.
func (s *Store) apiKeysVersion(ctx context.Context) (string, error) {
	var v string
	err := s.db.NewRaw(`SELECT count(*)::text || ':' || coalesce(max(id), 0)::text || ':' ||
coalesce(max(revoked_at)::text, '') || ':' || md5(coalesce(string_agg(id::text || '/' || coalesce(rate_per_second::text, '') || '/' ||
coalesce(burst::text, '') || '/' || (revoked_at IS NULL)::text, ',' ORDER BY id), ''))
FROM api_keys`).Scan(ctx, &v)
	return v, wrap(err, "read the keys' version")
}

// WatchAPIKeys calls onChange with the active keys now and when they were
// read (the instant before the reading started), then again within every
// interval after they change (a key created, revoked or given other
// limits, by any process), until ctx ends. It returns the first load's
// error; later failures are logged and retried.
func (s *Store) WatchAPIKeys(ctx context.Context, every time.Duration, onChange func([]APIKey, time.Time), log *slog.Logger) error {
	load := func() (string, error) {
		at := time.Now()
		v, err := s.apiKeysVersion(ctx)
		if err != nil {
			return "", err
		}
		keys, err := s.ActiveAPIKeys(ctx)
		if err != nil {
			return "", err
		}
		onChange(keys, at)
		return v, nil
	}
	version, err := load()
	if err != nil {
		return err
	}
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			v, err := s.apiKeysVersion(ctx)
			if err == nil && v != version {
				v, err = load()
			}
			switch {
			case err != nil && ctx.Err() == nil:
				log.Warn("API keys not reread; retrying", "err", err)
			case err == nil:
				version = v
			}
		}
	}()
	return nil
}
