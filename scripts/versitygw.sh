#!/usr/bin/env bash
# Prints the absolute path of a `versitygw` binary: the S3-compatible gateway (posix backend)
# that the object-store tests start on 127.0.0.1. Lookup: $VERSITYGW, our cache; else
# `go install` from the Go module proxy (about 5 minutes cold), cached like the Temporal CLI.
# Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=1.8.0
HOME="${HOME:-$(echo ~)}"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/formward/versitygw-$VERSION"
CACHED="$CACHE_DIR/versitygw"
log() { echo "versitygw: $*" >&2; }
runs() { "$1" --version >/dev/null 2>&1; }

if [[ -n "${VERSITYGW:-}" && -x "$VERSITYGW" ]]; then
  echo "$(cd "$(dirname "$VERSITYGW")" && pwd -P)/$(basename "$VERSITYGW")"
  exit 0
fi
if [[ -x "$CACHED" ]] && runs "$CACHED"; then echo "$CACHED"; exit 0; fi

mkdir -p "$CACHE_DIR"
# One build at a time: a second caller waits, then finds the first one's result.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE_DIR/.lock"
  flock 9
  if [[ -x "$CACHED" ]] && runs "$CACHED"; then echo "$CACHED"; exit 0; fi
fi

GO_BIN="$(command -v go 2>/dev/null || true)"
if [[ -z "$GO_BIN" && -x /usr/local/go/bin/go ]]; then GO_BIN=/usr/local/go/bin/go; fi
if [[ -z "$GO_BIN" ]]; then
  log "no Go toolchain to build github.com/versity/versitygw@v$VERSION; install Go, or set"
  log "VERSITYGW to a versitygw binary (the object-store tests need one)"
  exit 1
fi
log "building github.com/versity/versitygw/cmd/versitygw@v$VERSION with $GO_BIN ..."
(cd "$CACHE_DIR" && GOBIN="$CACHE_DIR" "$GO_BIN" install "github.com/versity/versitygw/cmd/versitygw@v$VERSION" >&2)
runs "$CACHED"
log "built $CACHED"
echo "$CACHED"
