#!/usr/bin/env bash
# Prints the absolute path of a `versitygw` binary: the S3-compatible gateway (posix backend)
# that the object-store tests start on 127.0.0.1. Lookup: $VERSITYGW, our cache; else
# `go install` from the Go module proxy (about 5 minutes cold), cached like the Temporal CLI.
# Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=1.8.0
NAME=versitygw
OVERRIDE=VERSITYGW
MODULE=github.com/versity/versitygw/cmd/versitygw
runs() { "$1" --version >/dev/null 2>&1; }
build() {
  (cd "$CACHE_DIR" && GOBIN="$CACHE_DIR" "$GO_BIN" install "github.com/versity/versitygw/cmd/versitygw@v$VERSION" >&2)
}
source "$(dirname "${BASH_SOURCE[0]}")/lib/cached-go-tool.sh"
print_cached_tool
