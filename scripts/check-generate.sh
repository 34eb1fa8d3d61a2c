#!/usr/bin/env bash
# Fails when the committed generated code (gqlgen's, the fast path's and
# the typed client's) differs from what `go generate` makes from
# schema.graphqls, gqlgen.yml and client/operations.graphql.
set -euo pipefail
cd "$(dirname "$0")/.."
files=(graph/generated.go graph/fastpath_gen.go graph/model/models_gen.go graph/schema.resolvers.go client/generated.go)
before="$(mktemp -d)"
trap 'rm -rf "$before"' EXIT
for f in "${files[@]}"; do mkdir -p "$before/$(dirname "$f")"; cp "$f" "$before/$f"; done
# gqlgen logs the schema's bindings it resolves itself ("adding resolver
# method …", "DateTime is incompatible with time.Time"): they are shown
# only when generating fails.
if ! go generate ./... >"$before/generate.log" 2>&1; then
  cat "$before/generate.log" >&2
  echo "check-generate: go generate failed" >&2
  exit 1
fi
status=0
for f in "${files[@]}"; do
  if ! diff -u "$before/$f" "$f" >/dev/null; then
    echo "check-generate: $f is stale: run 'go generate ./...' and commit the result" >&2
    status=1
  fi
done
untracked="$(git ls-files --others --exclude-standard graph client 2>/dev/null || true)"
if [ -n "$untracked" ]; then
  echo "check-generate: go generate made files that are not committed: $untracked" >&2
  status=1
fi
[ "$status" = 0 ] && echo "check-generate: the generated code is current"
exit $status
