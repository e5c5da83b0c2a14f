#!/usr/bin/env bash
# Prints the absolute path of a `kubeconform` binary, which validates the manifests the chart
# renders (with the schemas scripts/kube-schemas.sh writes; it cannot download its own here).
# Lookup: $KUBECONFORM, our cache; else `go install` from the Go module proxy (a minute or two
# cold), cached like the Temporal CLI. Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=0.8.0
HOME="${HOME:-$(echo ~)}"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/formward/kubeconform-$VERSION"
CACHED="$CACHE_DIR/kubeconform"
log() { echo "kubeconform: $*" >&2; }
runs() { "$1" -v >/dev/null 2>&1; }

if [[ -n "${KUBECONFORM:-}" && -x "$KUBECONFORM" ]]; then
  echo "$(cd "$(dirname "$KUBECONFORM")" && pwd -P)/$(basename "$KUBECONFORM")"
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
  log "no Go toolchain to build github.com/yannh/kubeconform@v$VERSION; install Go, or set"
  log "KUBECONFORM to a kubeconform binary"
  exit 1
fi
log "building github.com/yannh/kubeconform/cmd/kubeconform@v$VERSION with $GO_BIN ..."
(cd "$CACHE_DIR" && GOBIN="$CACHE_DIR" "$GO_BIN" install "github.com/yannh/kubeconform/cmd/kubeconform@v$VERSION" >&2)
runs "$CACHED"
log "built $CACHED"
echo "$CACHED"
