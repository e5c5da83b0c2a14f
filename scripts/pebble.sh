#!/usr/bin/env bash
# Prints the absolute path of a `pebble` binary: Let's Encrypt's test ACME server. Its DNS
# companion `pebble-challtestsrv` is built into the same directory, beside it. The custom-domain
# HTTPS test starts both on 127.0.0.1. Lookup: $PEBBLE (with pebble-challtestsrv beside it),
# our cache; else `go install` from the Go module proxy, cached like the Temporal CLI.
# Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=2.10.3
NAME=pebble
OVERRIDE=PEBBLE
MODULE=github.com/letsencrypt/pebble/v2/cmd/pebble
runs() { [[ -x "$(dirname "$1")/pebble-challtestsrv" ]] && "$1" -version >/dev/null 2>&1; }
build() {
  (cd "$CACHE_DIR" && GOBIN="$CACHE_DIR" "$GO_BIN" install \
    "github.com/letsencrypt/pebble/v2/cmd/pebble@v$VERSION" \
    "github.com/letsencrypt/pebble/v2/cmd/pebble-challtestsrv@v$VERSION" >&2)
}
source "$(dirname "${BASH_SOURCE[0]}")/lib/cached-go-tool.sh"
print_cached_tool
