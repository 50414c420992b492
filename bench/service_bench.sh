#!/usr/bin/env bash
# The service benchmark: figures, not pass/fail.
#   bench/service_bench.sh [BUILD_DIR]        BUILD_DIR defaults to build/service
#   BYTES=1073741824 bench/service_bench.sh   a quick run (default 16 GiB)
# Measures, on loopback, in one run:
#   - a streamed upload of a valid file into the NullSink (the same Beast read loop, no work),
#     into the service with digest=none, and with the SHA-256 digest;
#   - the same upload through the service without TCP (service_load memory: the real session
#     and its worker threads, reading from a function that copies as recv would), with and
#     without the digest: on loopback the client shares the two cores and the server runs the
#     client's TCP sends in its own thread (bench/README.md says why), a cost a real client on
#     another machine does not put on the server;
#   - `openssl dgst -sha256` over the same bytes (piped from the generator), and SHA-256's own
#     speed, the figure the digest path is held to: the faster of `openssl speed -evp sha256`
#     (64 KiB blocks) and the digest's own call (tensorgate::Sha256) over a 1 MiB buffer;
#   - the server's peak RSS (VmHWM) after the large uploads;
#   - requests/s and p50/p99 latency for 4 KiB files over 64 keep-alive connections.
set -euo pipefail
BUILD=${1:-build/service}
BYTES=${BYTES:-17179869184}
TG="$BUILD/cli/tensorgate"
LOAD="$BUILD/bench/service_load"
[ -x "$TG" ] && [ -x "$LOAD" ] || { echo "build tensorgate and service_load in $BUILD first" >&2; exit 2; }

. "$(dirname "$0")/serve_helpers.sh"
trap serve_stop EXIT
serve_start "$TG"
PID=$SERVE_PID
PORT=$SERVE_PORT
echo "server pid $PID on port $PORT, upload size $BYTES bytes" >&2

SINK=$("$LOAD" sink --bytes "$BYTES")
PLAIN=$("$LOAD" stream --port "$PORT" --bytes "$BYTES" --query digest=none --label service-no-digest)
SHA=$("$LOAD" stream --port "$PORT" --bytes "$BYTES" --label service-sha256)
RSS_KB=$(awk '/VmHWM/{print $2}' /proc/$PID/status)
MEM_PLAIN=$("$LOAD" memory --bytes "$BYTES" --query digest=none --label memory-no-digest)
MEM_SHA=$("$LOAD" memory --bytes "$BYTES" --label memory-sha256)
OWN=$("$LOAD" sha256 --bytes "$BYTES")
T0=$(date +%s.%N)
"$LOAD" gen --bytes "$BYTES" | openssl dgst -sha256 >/dev/null
T1=$(date +%s.%N)
RAW_KB=$(openssl speed -evp sha256 -bytes 65536 -seconds 3 2>/dev/null | awk '/^sha256/{sub("k", "", $NF); print $NF}')
SMALL=$("$LOAD" small --port "$PORT" --connections 64 --requests 200 --bytes 4096)

echo "$SINK"; echo "$PLAIN"; echo "$SHA"; echo "$MEM_PLAIN"; echo "$MEM_SHA"; echo "$OWN"; echo "$SMALL"
python3 - "$SINK" "$PLAIN" "$SHA" "$BYTES" "$T0" "$T1" "$RSS_KB" "$RAW_KB" "$MEM_PLAIN" "$MEM_SHA" "$OWN" <<'PY'
import json, sys
sink, plain, sha = (json.loads(a) for a in sys.argv[1:4])
size, t0, t1, rss = int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
mem_plain, mem_sha, own = (json.loads(a) for a in sys.argv[9:12])
evp = float(sys.argv[8]) * 1000 / 1e6
raw = max(evp, own['mb_per_s'])
openssl = size / (t1 - t0) / 1e6
print(f"null sink           {sink['mb_per_s']:8.1f} MB/s")
print(f"service, no digest  {plain['mb_per_s']:8.1f} MB/s  = {100 * plain['mb_per_s'] / sink['mb_per_s']:.1f}% of the sink (goal >= 80%)")
print(f"openssl dgst        {openssl:8.1f} MB/s")
print(f"sha256, raw (EVP)   {evp:8.1f} MB/s")
print(f"sha256, raw (ours)  {own['mb_per_s']:8.1f} MB/s  (the faster of the two is the raw speed)")
print(f"service, sha256     {sha['mb_per_s']:8.1f} MB/s  = {100 * sha['mb_per_s'] / raw:.1f}% of the raw SHA-256 on loopback, "
      f"{100 * sha['mb_per_s'] / openssl:.1f}% of openssl dgst")
print(f"no TCP, no digest   {mem_plain['mb_per_s']:8.1f} MB/s")
print(f"no TCP, sha256      {mem_sha['mb_per_s']:8.1f} MB/s  = {100 * mem_sha['mb_per_s'] / raw:.1f}% of the raw SHA-256 (goal >= 85%)")
print(f"server peak RSS     {rss / 1024:8.1f} MiB (goal < 64 MiB)")
ok = all(r['status'] == 200 and r['valid'] for r in (plain, sha, mem_plain, mem_sha))
print("verdicts            " + ("valid, 200" if ok else "UNEXPECTED"))
PY
