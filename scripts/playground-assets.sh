#!/usr/bin/env bash
# Vendors the GraphiQL playground's browser assets from the npm registry into
# playground/assets (embedded in the binary), with their licences, so that
# the playground works without a CDN. Run it (make playground-assets) after
# changing a version below.
set -euo pipefail
cd "$(dirname "$0")/.."

GRAPHIQL=4.1.2
REACT=18.2.0
EXPLORER=4.0.6
# The graphql-transport-ws client GraphiQL runs subscriptions with (its
# UMD build, global graphqlWs); the reference search page loads it from
# the playground's assets too. The version of clients/apollo-test.
GRAPHQL_WS=6.0.6

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "graphiql@$GRAPHIQL" "react@$REACT" "react-dom@$REACT" "@graphiql/plugin-explorer@$EXPLORER" "graphql-ws@$GRAPHQL_WS" >/dev/null)
for pkg in "graphiql-$GRAPHIQL" "react-$REACT" "react-dom-$REACT" "graphiql-plugin-explorer-$EXPLORER" "graphql-ws-$GRAPHQL_WS"; do
  mkdir -p "$work/$pkg" && tar xzf "$work/$pkg.tgz" -C "$work/$pkg"
done
out=playground/assets
rm -rf "$out" && mkdir -p "$out"
cp "$work/graphiql-$GRAPHIQL/package/graphiql.min.js" "$work/graphiql-$GRAPHIQL/package/graphiql.min.css" "$out/"
cp "$work/react-$REACT/package/umd/react.production.min.js" "$out/"
cp "$work/react-dom-$REACT/package/umd/react-dom.production.min.js" "$out/"
cp "$work/graphiql-plugin-explorer-$EXPLORER/package/dist/index.umd.js" "$out/graphiql-plugin-explorer.umd.js"
cp "$work/graphiql-plugin-explorer-$EXPLORER/package/dist/style.css" "$out/graphiql-plugin-explorer.css"
cp "$work/graphql-ws-$GRAPHQL_WS/package/umd/graphql-ws.min.js" "$out/"
{
  echo "# Third-party assets of the playground"
  echo
  echo "Copied unchanged from the npm registry by scripts/playground-assets.sh."
  echo
  for spec in "graphiql $GRAPHIQL graphiql-$GRAPHIQL" "react $REACT react-$REACT" "react-dom $REACT react-dom-$REACT" "@graphiql/plugin-explorer $EXPLORER graphiql-plugin-explorer-$EXPLORER" "graphql-ws $GRAPHQL_WS graphql-ws-$GRAPHQL_WS"; do
    set -- $spec
    echo "## $1 $2"
    echo
    licence_file=""
    for f in LICENSE LICENSE.md; do
      if [ -z "$licence_file" ] && [ -f "$work/$3/package/$f" ]; then licence_file="$work/$3/package/$f"; fi
    done
    if [ -n "$licence_file" ]; then
      echo '```'
      cat "$licence_file"
      echo '```'
    else
      license="$(node -p "require('$work/$3/package/package.json').license")"
      echo "Licence: $license (the package.json \"license\" field; the package ships no LICENSE file)."
    fi
    echo
  done
} > "$out/LICENSES.md"
sed -i 's/[[:space:]]*$//' "$out/LICENSES.md"
ls -la "$out" >&2
