# Sourced by the bench scripts (service_bench.sh, digest_pairs.sh): `tensorgate serve` on an
# ephemeral loopback port.
#   serve_start TENSORGATE   starts it; sets SERVE_PID, SERVE_PORT and SERVE_LOG, or exits 1
#   serve_stop               stops it (SIGTERM, waits) and removes its log; safe to call twice
serve_start() {
  SERVE_LOG=$(mktemp)
  "$1" serve --listen 127.0.0.1:0 >"$SERVE_LOG" 2>&1 &
  SERVE_PID=$!
  SERVE_PORT=""
  for _ in $(seq 1 100); do
    SERVE_PORT=$(grep -o '"address":"127.0.0.1:[0-9]*"' "$SERVE_LOG" | head -1 | sed 's/.*://; s/"//') || true
    [ -n "$SERVE_PORT" ] && return 0
    sleep 0.05
  done
  echo "$1 did not start" >&2
  cat "$SERVE_LOG" >&2
  exit 1
}

serve_stop() {
  [ -n "${SERVE_PID:-}" ] || return 0
  kill -TERM "$SERVE_PID" 2>/dev/null || true
  wait "$SERVE_PID" 2>/dev/null || true
  rm -f "$SERVE_LOG"
  SERVE_PID=""
}
