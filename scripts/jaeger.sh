#!/usr/bin/env bash
# Prints the absolute path of a `jaeger` binary: Jaeger v2, an OpenTelemetry Collector
# distribution with an OTLP receiver, in-memory storage and a query API, that
# test/tracing/jaeger-trace.test.ts starts on 127.0.0.1. Lookup: $JAEGER, our cache; else a
# build from the Go module proxy (about 5 minutes warm). `go install` refuses the module (its
# go.mod has replace directives), so the module is downloaded and built in a copy of it.
# Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=1.76.0
HOME="${HOME:-$(echo ~)}"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/formward/jaeger-$VERSION"
CACHED="$CACHE_DIR/jaeger"
log() { echo "jaeger: $*" >&2; }
runs() { "$1" version >/dev/null 2>&1; }

if [[ -n "${JAEGER:-}" && -x "$JAEGER" ]]; then
  echo "$(cd "$(dirname "$JAEGER")" && pwd -P)/$(basename "$JAEGER")"
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
  log "no Go toolchain to build github.com/jaegertracing/jaeger@v$VERSION; install Go, or set"
  log "JAEGER to a jaeger (v2) binary (the tracing test needs one)"
  exit 1
fi
log "building github.com/jaegertracing/jaeger/cmd/jaeger@v$VERSION with $GO_BIN ..."
MODULE_DIR="$(cd "$CACHE_DIR" && "$GO_BIN" mod download -json "github.com/jaegertracing/jaeger@v$VERSION" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')"
if [[ -z "$MODULE_DIR" || ! -d "$MODULE_DIR" ]]; then
  log "go mod download gave no module directory"
  exit 1
fi
# The module cache is read-only: build in a writable copy, removed afterwards.
BUILD_DIR="$(mktemp -d)"
trap 'rm -rf "$BUILD_DIR"' EXIT
cp -R "$MODULE_DIR/." "$BUILD_DIR"
chmod -R u+w "$BUILD_DIR"
(cd "$BUILD_DIR" && "$GO_BIN" build -o "$CACHED.tmp" ./cmd/jaeger >&2)
mv "$CACHED.tmp" "$CACHED"
runs "$CACHED"
log "built $CACHED"
echo "$CACHED"
