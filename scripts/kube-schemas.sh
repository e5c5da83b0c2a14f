#!/usr/bin/env bash
# Prints the absolute path of a directory of Kubernetes JSON schemas in kubeconform's layout
# (<kind>-<group>-<version>.json, standalone and strict), for validating the Helm chart
# offline: kubeconform downloads its schemas from a web site by default. They are made from
# the OpenAPI document in the k8s.io/kubernetes module and the ServiceMonitor
# CustomResourceDefinition in the prometheus-operator module, both from the Go module proxy,
# by scripts/kube-schemas.mjs. Lookup: $KUBE_SCHEMAS_DIR, our cache; else build it.
# Progress goes to stderr; stdout carries only the path.
set -euo pipefail

KUBERNETES_VERSION=1.35.4
PROMETHEUS_OPERATOR_VERSION=0.85.0
HOME="${HOME:-$(echo ~)}"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/formward/kube-schemas-$KUBERNETES_VERSION-$PROMETHEUS_OPERATOR_VERSION"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
log() { echo "kube-schemas: $*" >&2; }
# The last file written marks a complete directory.
complete() { [[ -f "$1/deployment-apps-v1.json" && -f "$1/servicemonitor-monitoring-v1.json" ]]; }

if [[ -n "${KUBE_SCHEMAS_DIR:-}" ]]; then
  if complete "$KUBE_SCHEMAS_DIR"; then (cd "$KUBE_SCHEMAS_DIR" && pwd -P); exit 0; fi
  log "KUBE_SCHEMAS_DIR=$KUBE_SCHEMAS_DIR lacks deployment-apps-v1.json or servicemonitor-monitoring-v1.json; looking elsewhere"
fi
if complete "$CACHE_DIR"; then echo "$CACHE_DIR"; exit 0; fi

mkdir -p "$CACHE_DIR"
# One build at a time: a second caller waits, then finds the first one's result.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE_DIR/.lock"
  flock 9
  if complete "$CACHE_DIR"; then echo "$CACHE_DIR"; exit 0; fi
fi

GO_BIN="$(command -v go 2>/dev/null || true)"
if [[ -z "$GO_BIN" && -x /usr/local/go/bin/go ]]; then GO_BIN=/usr/local/go/bin/go; fi
if [[ -z "$GO_BIN" ]]; then
  log "no Go toolchain to download k8s.io/kubernetes@v$KUBERNETES_VERSION with; install Go, or"
  log "set KUBE_SCHEMAS_DIR to a directory of kubeconform's standalone-strict schemas"
  exit 1
fi
# Outside any go.mod, so that the download asks for exactly these modules.
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
module_dir() {
  log "downloading $1 ..."
  (cd "$WORK" && "$GO_BIN" mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
}
KUBERNETES="$(module_dir "k8s.io/kubernetes@v$KUBERNETES_VERSION")"
OPERATOR="$(module_dir "github.com/prometheus-operator/prometheus-operator@v$PROMETHEUS_OPERATOR_VERSION")"
rm -f "$CACHE_DIR"/*.json
node "$SCRIPT_DIR/kube-schemas.mjs" "$KUBERNETES/api/openapi-spec/swagger.json" "$WORK/out" \
  "$OPERATOR/jsonnet/prometheus-operator/servicemonitors-crd.json"
# The two marker files last, so that an interrupted copy is not taken for a complete one.
find "$WORK/out" -name '*.json' ! -name deployment-apps-v1.json ! -name servicemonitor-monitoring-v1.json \
  -exec cp -t "$CACHE_DIR/" {} +
cp "$WORK/out/servicemonitor-monitoring-v1.json" "$WORK/out/deployment-apps-v1.json" "$CACHE_DIR/"
if complete "$CACHE_DIR"; then
  log "wrote $CACHE_DIR"
  echo "$CACHE_DIR"
  exit 0
fi
log "the conversion finished but $CACHE_DIR is incomplete"
exit 1
