#!/usr/bin/env bash
# Prints the absolute path of a `kubeconform` binary, which validates the manifests the chart
# renders (with the schemas scripts/kube-schemas.sh writes; it cannot download its own here).
# Lookup: $KUBECONFORM, our cache; else `go install` from the Go module proxy (a minute or two
# cold), cached like the Temporal CLI. Progress goes to stderr; stdout carries only the path.
set -euo pipefail

VERSION=0.8.0
NAME=kubeconform
OVERRIDE=KUBECONFORM
MODULE=github.com/yannh/kubeconform/cmd/kubeconform
runs() { "$1" -v >/dev/null 2>&1; }
build() {
  (cd "$CACHE_DIR" && GOBIN="$CACHE_DIR" "$GO_BIN" install "github.com/yannh/kubeconform/cmd/kubeconform@v$VERSION" >&2)
}
source "$(dirname "${BASH_SOURCE[0]}")/lib/cached-go-tool.sh"
print_cached_tool
