package store

import (
	"context"
	"database/sql"
	"errors"
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
