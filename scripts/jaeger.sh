#!/usr/bin/env bash
# Prints the absolute path of a `jaeger` binary: Jaeger v2, an OpenTelemetry Collector
# distribution with an OTLP receiver, in-memory storage and a query API, that
# test/tracing/jaeger-trace.int.test.ts starts on 127.0.0.1. Lookup: $JAEGER, our cache; else a
# build from the Go module proxy (about 5 minutes warm). `go install` refuses the module (its
# go.mod has replace directives), so the module is downloaded and built in a copy of it.
# Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=1.76.0
NAME=jaeger
OVERRIDE=JAEGER
MODULE=github.com/jaegertracing/jaeger/cmd/jaeger
runs() { "$1" version >/dev/null 2>&1; }
build() {
  # `go install` refuses the module (its go.mod has replace directives): build in a copy.
  local module_dir
  module_dir="$(cd "$CACHE_DIR" && "$GO_BIN" mod download -json "github.com/jaegertracing/jaeger@v$VERSION" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')"
  if [[ -z "$module_dir" || ! -d "$module_dir" ]]; then
    log "go mod download gave no module directory"
    exit 1
  fi
  # The module cache is read-only: build in a writable copy, removed afterwards.
  BUILD_DIR="$(mktemp -d)"
  trap 'rm -rf "$BUILD_DIR"' EXIT
  cp -R "$module_dir/." "$BUILD_DIR"
  chmod -R u+w "$BUILD_DIR"
  (cd "$BUILD_DIR" && "$GO_BIN" build -o "$CACHED.tmp" ./cmd/jaeger >&2)
  mv "$CACHED.tmp" "$CACHED"
}
source "$(dirname "${BASH_SOURCE[0]}")/lib/cached-go-tool.sh"
print_cached_tool
