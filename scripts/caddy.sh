#!/usr/bin/env bash
# Prints the absolute path of a `caddy` binary: the web server whose on-demand TLS gives
# custom form-page domains their certificates. test/domains/caddy-https.int.test.ts starts it on
# 127.0.0.1 against Pebble. Lookup: $CADDY, our cache; else `go install` from the Go module
# proxy (a few minutes cold), cached like the Temporal CLI. Progress goes to stderr; stdout
# carries only the path.
set -euo pipefail

VERSION=2.11.9
NAME=caddy
OVERRIDE=CADDY
MODULE=github.com/caddyserver/caddy/v2/cmd/caddy
runs() { "$1" version >/dev/null 2>&1; }
build() {
  (cd "$CACHE_DIR" && GOBIN="$CACHE_DIR" "$GO_BIN" install "$MODULE@v$VERSION" >&2)
}
source "$(dirname "${BASH_SOURCE[0]}")/lib/cached-go-tool.sh"
print_cached_tool
