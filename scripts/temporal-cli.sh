#!/usr/bin/env bash
# Prints the absolute path of a usable `temporal` CLI (the Temporal dev server lives in it).
# Lookup: $TEMPORAL_CLI, PATH, our cache; else `go install` (where Go exists), else the
# official release download. Progress goes to stderr; stdout carries only the path.
set -euo pipefail

# The one place the version is written; src/embedded/temporal-cli.ts reads the same file.
VERSION="$(tr -d '[:space:]' <"$(dirname "${BASH_SOURCE[0]}")/temporal-cli.version")"
HOME="${HOME:-$(echo ~)}" # bash's ~ falls back to the passwd entry, as Node's os.homedir() does
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/formward/temporal-cli-$VERSION"
CACHED="$CACHE_DIR/temporal"
log() { echo "temporal-cli: $*" >&2; }
absolute() { echo "$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")"; }
found() { absolute "$1"; exit 0; }
runs() { "$1" --version >/dev/null 2>&1; }

if [[ -n "${TEMPORAL_CLI:-}" ]]; then
  if [[ -f "$TEMPORAL_CLI" && -x "$TEMPORAL_CLI" ]]; then found "$TEMPORAL_CLI"; fi
  log "TEMPORAL_CLI=$TEMPORAL_CLI is not an executable file; looking elsewhere"
fi
if ON_PATH="$(command -v temporal 2>/dev/null)" && [[ -x "$ON_PATH" ]]; then found "$ON_PATH"; fi
if [[ -x "$CACHED" ]] && runs "$CACHED"; then found "$CACHED"; fi

mkdir -p "$CACHE_DIR"
# One provisioning at a time: a second caller waits, then finds the first one's result.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE_DIR/.lock"
  flock 9
  if [[ -x "$CACHED" ]] && runs "$CACHED"; then found "$CACHED"; fi
fi

GO_BIN="$(command -v go 2>/dev/null || true)"
if [[ -z "$GO_BIN" && -x /usr/local/go/bin/go ]]; then GO_BIN=/usr/local/go/bin/go; fi
if [[ -n "$GO_BIN" ]]; then
  # Newer tags carry a `replace` directive that `go install` refuses; 1.5.1 builds cleanly.
  log "building github.com/temporalio/cli/cmd/temporal@v$VERSION with $GO_BIN (about 10 minutes cold) ..."
  if (cd "$CACHE_DIR" && GOBIN="$CACHE_DIR" "$GO_BIN" install "github.com/temporalio/cli/cmd/temporal@v$VERSION" >&2) &&
    runs "$CACHED"; then
    log "built $CACHED"
    found "$CACHED"
  fi
  log "go install failed; trying the release download"
fi

case "$(uname -s)" in
  Linux) OS=linux ;;
  Darwin) OS=darwin ;;
  *) log "unsupported OS $(uname -s)"; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) ARCH=amd64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) log "unsupported architecture $(uname -m)"; exit 1 ;;
esac
URL="https://github.com/temporalio/cli/releases/download/v$VERSION/temporal_cli_${VERSION}_${OS}_${ARCH}.tar.gz"
if command -v curl >/dev/null 2>&1; then
  log "downloading $URL"
  TMP="$(mktemp -d)"
  trap 'rm -rf "$TMP"' EXIT
  if curl -fsSL --retry 3 --connect-timeout 20 -o "$TMP/cli.tar.gz" "$URL" &&
    tar -xzf "$TMP/cli.tar.gz" -C "$TMP" temporal && runs "$TMP/temporal"; then
    install -m 0755 "$TMP/temporal" "$CACHED"
    log "installed $CACHED"
    found "$CACHED"
  fi
else
  log "curl is missing, so the release download is not possible"
fi

log "could not obtain the Temporal CLI $VERSION (no Go toolchain that could build it, and the"
log "download failed). Install it (https://docs.temporal.io/cli) and set TEMPORAL_CLI, or set"
log "TEMPORAL_ADDRESS to an existing Temporal server."
exit 1
