#!/usr/bin/env bash
# Prints the absolute path of a directory holding the Temporal server at the version
# docker-compose.yml pins: `temporal-server`, `temporal-sql-tool` and the PostgreSQL schema
# (schema/postgresql/v12/{temporal,visibility}). Lookup: $TEMPORAL_SERVER_DIR, our cache;
# else `go install` where Go exists. Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=1.32.2
GO_TOOLCHAIN=go1.26.10 # the server's go.mod asks for a newer Go than some machines have
HOME="${HOME:-$(echo ~)}"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/formward/temporal-server-$VERSION"
log() { echo "temporal-server: $*" >&2; }
complete() {
  [[ -x "$1/temporal-server" && -x "$1/temporal-sql-tool" &&
    -f "$1/schema/postgresql/v12/temporal/schema.sql" &&
    -f "$1/schema/postgresql/v12/visibility/schema.sql" ]]
}
found() { (cd "$1" && pwd -P); exit 0; }

if [[ -n "${TEMPORAL_SERVER_DIR:-}" ]]; then
  if complete "$TEMPORAL_SERVER_DIR"; then found "$TEMPORAL_SERVER_DIR"; fi
  log "TEMPORAL_SERVER_DIR=$TEMPORAL_SERVER_DIR lacks temporal-server, temporal-sql-tool or schema/; looking elsewhere"
fi
if complete "$CACHE_DIR"; then found "$CACHE_DIR"; fi

mkdir -p "$CACHE_DIR"
# One provisioning at a time: a second caller waits, then finds the first one's result.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE_DIR/.lock"
  flock 9
  if complete "$CACHE_DIR"; then found "$CACHE_DIR"; fi
fi

GO_BIN="$(command -v go 2>/dev/null || true)"
if [[ -z "$GO_BIN" && -x /usr/local/go/bin/go ]]; then GO_BIN=/usr/local/go/bin/go; fi
if [[ -z "$GO_BIN" ]]; then
  log "no Go toolchain to build the Temporal server $VERSION with. Install Go (https://go.dev/dl),"
  log "or put temporal-server, temporal-sql-tool and schema/ from the temporalio/admin-tools and"
  log "temporalio/server $VERSION images into a directory and set TEMPORAL_SERVER_DIR to it."
  exit 1
fi

BUILD="$CACHE_DIR/.build"
rm -rf "$BUILD"
mkdir -p "$BUILD"
log "building go.temporal.io/server cmd/server and cmd/tools/sql @v$VERSION with $GO_BIN (about 3 minutes cold) ..."
(cd "$BUILD" && GOTOOLCHAIN="$GO_TOOLCHAIN" GOBIN="$BUILD" "$GO_BIN" install \
  "go.temporal.io/server/cmd/server@v$VERSION" "go.temporal.io/server/cmd/tools/sql@v$VERSION" >&2)
MODULE="$(cd "$BUILD" && GOTOOLCHAIN="$GO_TOOLCHAIN" "$GO_BIN" env GOMODCACHE)/go.temporal.io/server@v$VERSION"
rm -rf "$CACHE_DIR/schema"
mkdir -p "$CACHE_DIR/schema/postgresql"
cp -R "$MODULE/schema/postgresql/v12" "$CACHE_DIR/schema/postgresql/"
chmod -R u+w "$CACHE_DIR/schema" # the module cache is read-only; keep our copy removable
install -m 0755 "$BUILD/sql" "$CACHE_DIR/temporal-sql-tool"
install -m 0755 "$BUILD/server" "$CACHE_DIR/temporal-server" # last: its presence marks completion
rm -rf "$BUILD"
if complete "$CACHE_DIR"; then
  log "built $CACHE_DIR"
  found "$CACHE_DIR"
fi
log "the build finished but $CACHE_DIR is incomplete"
exit 1
