#!/usr/bin/env bash
# Prints the path of a usable `temporal` CLI (the Temporal dev server lives in it).
# Lookup: $TEMPORAL_CLI, PATH, our cache; else `go install` (where Go exists), else the
# official release download. Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=1.5.1
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/formward/temporal-cli-$VERSION"
CACHED="$CACHE_DIR/temporal"
log() { echo "temporal-cli: $*" >&2; }

if [[ -n "${TEMPORAL_CLI:-}" ]]; then
  [[ -x "$TEMPORAL_CLI" ]] || { log "TEMPORAL_CLI=$TEMPORAL_CLI is not executable"; exit 1; }
  echo "$TEMPORAL_CLI"; exit 0
fi
if command -v temporal >/dev/null 2>&1; then command -v temporal; exit 0; fi
if [[ -x "$CACHED" ]]; then echo "$CACHED"; exit 0; fi

mkdir -p "$CACHE_DIR"
GO_BIN="$(command -v go || true)"
[[ -z "$GO_BIN" && -x /usr/local/go/bin/go ]] && GO_BIN=/usr/local/go/bin/go
if [[ -n "$GO_BIN" ]]; then
  # Newer tags carry a `replace` directive that `go install` refuses; 1.5.1 builds cleanly.
  log "building github.com/temporalio/cli/cmd/temporal@v$VERSION with $GO_BIN (a few minutes) ..."
  if (cd "$CACHE_DIR" && GOBIN="$CACHE_DIR" GOFLAGS=-mod=mod "$GO_BIN" install "github.com/temporalio/cli/cmd/temporal@v$VERSION" >&2); then
    [[ -x "$CACHED" ]] && { echo "$CACHED"; exit 0; }
  fi
  log "go install failed; trying the release download"
fi

case "$(uname -s)" in Linux) OS=linux ;; Darwin) OS=darwin ;; *) log "unsupported OS $(uname -s)"; exit 1 ;; esac
case "$(uname -m)" in x86_64|amd64) ARCH=amd64 ;; aarch64|arm64) ARCH=arm64 ;; *) log "unsupported arch $(uname -m)"; exit 1 ;; esac
URL="https://github.com/temporalio/cli/releases/download/v$VERSION/temporal_cli_${VERSION}_${OS}_${ARCH}.tar.gz"
log "downloading $URL"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
if curl -fsSL --retry 3 -o "$TMP/cli.tar.gz" "$URL" && tar -xzf "$TMP/cli.tar.gz" -C "$TMP" temporal; then
  install -m 0755 "$TMP/temporal" "$CACHED"
  echo "$CACHED"; exit 0
fi
log "could not obtain the Temporal CLI: install it and set TEMPORAL_CLI, or set TEMPORAL_ADDRESS"
exit 1
