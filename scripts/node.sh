#!/usr/bin/env bash
# Prints the absolute path of a `bin` directory holding Node.js of the pinned line, to put first
# on PATH: `PATH="$(bash scripts/node.sh):$PATH"`. Without an argument, the runtime line (the
# first line of scripts/node.version; a `node` on PATH of that major or newer will do); with a
# major version (`bash scripts/node.sh 22`), exactly that line, pinned in the same file.
# Lookup: PATH, our cache; else `npm pack node-<os>-<arch>@<version>` from the npm registry (the
# package holds `bin/node` only; the system's npm runs under it). Progress goes to stderr;
# stdout carries only the path.
set -euo pipefail

# The one place the versions are written: one a line, the runtime first.
VERSIONS_FILE="$(dirname "${BASH_SOURCE[0]}")/node.version"
HOME="${HOME:-$(echo ~)}" # bash's ~ falls back to the passwd entry, as Node's os.homedir() does
CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/formward"
log() { echo "node: $*" >&2; }
major_of() { local v="${1#v}"; echo "${v%%.*}"; }

RUNTIME="$(grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' "$VERSIONS_FILE" | head -n 1)"
WANTED_MAJOR="${1:-$(major_of "$RUNTIME")}"
if [[ ! "$WANTED_MAJOR" =~ ^[0-9]+$ ]]; then
  log "usage: $0 [major version], e.g. $0 22"
  exit 2
fi
VERSION="$(grep -E "^$WANTED_MAJOR\.[0-9]+\.[0-9]+$" "$VERSIONS_FILE" | head -n 1 || true)"
if [[ -z "$VERSION" ]]; then
  log "no Node.js $WANTED_MAJOR.x is pinned in $VERSIONS_FILE"
  exit 2
fi

# The node on PATH: of the runtime line or newer without an argument, else of exactly that line.
if ON_PATH="$(command -v node 2>/dev/null)" && ON_PATH_VERSION="$("$ON_PATH" --version 2>/dev/null)"; then
  ON_PATH_MAJOR="$(major_of "$ON_PATH_VERSION")"
  if [[ "$ON_PATH_MAJOR" =~ ^[0-9]+$ ]] &&
    { { [[ $# -eq 0 ]] && ((ON_PATH_MAJOR >= WANTED_MAJOR)); } || ((ON_PATH_MAJOR == WANTED_MAJOR)); }; then
    cd "$(dirname "$ON_PATH")" && pwd
    exit 0
  fi
fi

CACHE_DIR="$CACHE_ROOT/node-$VERSION"
runs() { [[ "$("$1/node" --version 2>/dev/null)" == "v$VERSION" ]]; }
found() { echo "$CACHE_DIR/bin"; exit 0; }
if runs "$CACHE_DIR/bin"; then found; fi

mkdir -p "$CACHE_ROOT"
# One provisioning at a time: a second caller waits, then finds the first one's result.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE_ROOT/.node-$VERSION.lock"
  flock 9
  if runs "$CACHE_DIR/bin"; then found; fi
fi

case "$(uname -s)" in
  Linux) OS=linux ;;
  Darwin) OS=darwin ;;
  *) log "unsupported OS $(uname -s)"; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) ARCH=x64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) log "unsupported architecture $(uname -m)"; exit 1 ;;
esac
PACKAGE="node-$OS-$ARCH@$VERSION"
if ! command -v npm >/dev/null 2>&1; then
  log "Node.js $VERSION is needed and npm is missing, so it cannot be fetched; install Node.js $WANTED_MAJOR (https://nodejs.org)"
  exit 1
fi

TMP="$(mktemp -d "$CACHE_ROOT/.node-$VERSION.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
log "fetching $PACKAGE from the npm registry ..."
# npm checks the tarball against the registry's integrity hash.
TARBALL="$(cd "$TMP" && npm pack --silent "$PACKAGE" | tail -n 1)"
mkdir "$TMP/unpacked"
tar -xzf "$TMP/$TARBALL" -C "$TMP/unpacked" --strip-components=1 # the tarball's `package/`
if ! runs "$TMP/unpacked/bin"; then
  log "$PACKAGE does not hold a working bin/node of version $VERSION"
  exit 1
fi
rm -rf "$CACHE_DIR"
mv "$TMP/unpacked" "$CACHE_DIR"
log "installed $CACHE_DIR"
found
