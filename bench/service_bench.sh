#!/usr/bin/env bash
# The service benchmark: figures, not pass/fail.
#   bench/service_bench.sh [BUILD_DIR]        BUILD_DIR defaults to build/service
#   BYTES=1073741824 bench/service_bench.sh   a quick run (default 16 GiB)
# Measures, on loopback, in one run:
#   - a streamed upload of a valid file into the NullSink (the same Beast read loop, no work),
#     into the service with digest=none, and with the SHA-256 digest;
#   - `openssl dgst -sha256` over the same bytes (piped from the generator), and SHA-256's own
#     speed: `openssl speed -evp sha256` (the same EVP call over an in-memory buffer, 64 KiB
#     blocks), the figure the digest path is held to;
#   - the server's peak RSS (VmHWM) after the large uploads;
#   - requests/s and p50/p99 latency for 4 KiB files over 64 keep-alive connections.
set -euo pipefail
BUILD=${1:-build/service}
BYTES=${BYTES:-17179869184}
TG="$BUILD/cli/tensorgate"
LOAD="$BUILD/bench/service_load"
[ -x "$TG" ] && [ -x "$LOAD" ] || { echo "build tensorgate and service_load in $BUILD first" >&2; exit 2; }

LOG=$(mktemp)
"$TG" serve --listen 127.0.0.1:0 >"$LOG" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -f "$LOG"' EXIT
PORT=""
for _ in $(seq 1 100); do
  PORT=$(grep -o '"address":"127.0.0.1:[0-9]*"' "$LOG" | head -1 | sed 's/.*://; s/"//') || true
  [ -n "$PORT" ] && break
  sleep 0.05
done
[ -n "$PORT" ] || { echo "the server did not start" >&2; cat "$LOG" >&2; exit 1; }
echo "server pid $PID on port $PORT, upload size $BYTES bytes" >&2

SINK=$("$LOAD" sink --bytes "$BYTES")
PLAIN=$("$LOAD" stream --port "$PORT" --bytes "$BYTES" --query digest=none --label service-no-digest)
SHA=$("$LOAD" stream --port "$PORT" --bytes "$BYTES" --label service-sha256)
RSS_KB=$(awk '/VmHWM/{print $2}' /proc/$PID/status)
T0=$(date +%s.%N)
"$LOAD" gen --bytes "$BYTES" | openssl dgst -sha256 >/dev/null
T1=$(date +%s.%N)
RAW_KB=$(openssl speed -evp sha256 -bytes 65536 -seconds 3 2>/dev/null | awk '/^sha256/{sub("k", "", $NF); print $NF}')
SMALL=$("$LOAD" small --port "$PORT" --connections 64 --requests 200 --bytes 4096)

echo "$SINK"; echo "$PLAIN"; echo "$SHA"; echo "$SMALL"
python3 - "$SINK" "$PLAIN" "$SHA" "$BYTES" "$T0" "$T1" "$RSS_KB" "$RAW_KB" <<'PY'
import json, sys
sink, plain, sha = (json.loads(a) for a in sys.argv[1:4])
size, t0, t1, rss = int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
raw = float(sys.argv[8]) * 1000 / 1e6
openssl = size / (t1 - t0) / 1e6
print(f"null sink           {sink['mb_per_s']:8.1f} MB/s")
print(f"service, no digest  {plain['mb_per_s']:8.1f} MB/s  = {100 * plain['mb_per_s'] / sink['mb_per_s']:.1f}% of the sink (goal >= 80%)")
print(f"openssl dgst        {openssl:8.1f} MB/s")
print(f"sha256, raw (EVP)   {raw:8.1f} MB/s")
print(f"service, sha256     {sha['mb_per_s']:8.1f} MB/s  = {100 * sha['mb_per_s'] / raw:.1f}% of the raw SHA-256 (goal >= 85%), "
      f"{100 * sha['mb_per_s'] / openssl:.1f}% of openssl dgst")
print(f"server peak RSS     {rss / 1024:8.1f} MiB (goal < 64 MiB)")
ok = all(r['status'] == 200 and r['valid'] for r in (plain, sha))
print("verdicts            " + ("valid, 200" if ok else "UNEXPECTED"))
PY
