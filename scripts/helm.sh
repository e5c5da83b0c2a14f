#!/usr/bin/env bash
# Prints the absolute path of a `helm` binary for linting and rendering deploy/helm/formward.
# Lookup: $HELM, our cache; else `go install` from the Go module proxy (a few minutes cold),
# cached like the Temporal CLI. Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=4.3.1
HOME="${HOME:-$(echo ~)}"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/formward/helm-$VERSION"
CACHED="$CACHE_DIR/helm"
log() { echo "helm: $*" >&2; }
runs() { "$1" version --short >/dev/null 2>&1; }

if [[ -n "${HELM:-}" && -x "$HELM" ]]; then
  echo "$(cd "$(dirname "$HELM")" && pwd -P)/$(basename "$HELM")"
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
  log "no Go toolchain to build helm.sh/helm/v4@v$VERSION; install Go, or set HELM to a"
  log "helm binary (the chart's lint, render and test need one)"
  exit 1
fi
log "building helm.sh/helm/v4/cmd/helm@v$VERSION with $GO_BIN ..."
(cd "$CACHE_DIR" && GOBIN="$CACHE_DIR" "$GO_BIN" install "helm.sh/helm/v4/cmd/helm@v$VERSION" >&2)
runs "$CACHED"
log "built $CACHED"
echo "$CACHED"
