#!/usr/bin/env bash
# Prints the absolute path of a `helm` binary for linting and rendering deploy/helm/formward.
# Lookup: $HELM, our cache; else `go install` from the Go module proxy (a few minutes cold),
# cached like the Temporal CLI. Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=4.3.1
NAME=helm
OVERRIDE=HELM
MODULE=helm.sh/helm/v4/cmd/helm
runs() { "$1" version --short >/dev/null 2>&1; }
build() {
  (cd "$CACHE_DIR" && GOBIN="$CACHE_DIR" "$GO_BIN" install "helm.sh/helm/v4/cmd/helm@v$VERSION" >&2)
}
source "$(dirname "${BASH_SOURCE[0]}")/lib/cached-go-tool.sh"
print_cached_tool
