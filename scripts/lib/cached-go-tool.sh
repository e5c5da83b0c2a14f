# Sourced by scripts/versitygw.sh, helm.sh, kubeconform.sh and jaeger.sh: prints the absolute
# path of a Go-built tool, from $OVERRIDE, else our cache, else built once (a second caller
# waits on the lock and finds the first one's result). Progress goes to stderr; stdout
# carries only the path.
#
# The caller sets NAME, VERSION, MODULE (for messages) and OVERRIDE (the variable that may name
# a binary), defines `runs PATH` (the binary works) and `build` (writes $CACHED with $GO_BIN),
# then calls print_cached_tool.

log() { echo "$NAME: $*" >&2; }

print_cached_tool() {
  HOME="${HOME:-$(echo ~)}"
  CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/formward/$NAME-$VERSION"
  CACHED="$CACHE_DIR/$NAME"
  local given="${!OVERRIDE:-}"
  if [[ -n "$given" && -x "$given" ]]; then
    echo "$(cd "$(dirname "$given")" && pwd -P)/$(basename "$given")"
    exit 0
  fi
  if [[ -x "$CACHED" ]] && runs "$CACHED"; then echo "$CACHED"; exit 0; fi

  mkdir -p "$CACHE_DIR"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$CACHE_DIR/.lock"
    flock 9
    if [[ -x "$CACHED" ]] && runs "$CACHED"; then echo "$CACHED"; exit 0; fi
  fi

  GO_BIN="$(command -v go 2>/dev/null || true)"
  if [[ -z "$GO_BIN" && -x /usr/local/go/bin/go ]]; then GO_BIN=/usr/local/go/bin/go; fi
  if [[ -z "$GO_BIN" ]]; then
    log "no Go toolchain to build $MODULE@v$VERSION; install Go, or set $OVERRIDE to a $NAME binary"
    exit 1
  fi
  log "building $MODULE@v$VERSION with $GO_BIN ..."
  build
  runs "$CACHED"
  log "built $CACHED"
  echo "$CACHED"
}
