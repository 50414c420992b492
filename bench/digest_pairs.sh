#!/usr/bin/env bash
# Two or more `tensorgate` executables' loopback upload digest, in turn, against SHA-256's own
# speed measured in each round: figures, not pass/fail.
#   bench/digest_pairs.sh ROUNDS BYTES SERVICE_LOAD TENSORGATE...
#   e.g. bench/digest_pairs.sh 10 4294967296 build/release/bench/service_load /tmp/old build/release/cli/tensorgate
# Each round measures the raw hash (`service_load sha256`), then for each executable starts
# `serve` on an ephemeral port, streams BYTES with the default SHA-256 digest, and stops it. On a
# shared 2-vCPU VM one executable's figure moves by 10-20% from run to run: comparing within a
# round, then the median over rounds, is what separates two executables.
set -euo pipefail
[ $# -ge 4 ] || { sed -n 2,10p "$0" >&2; exit 2; }
ROUNDS=$1; BYTES=$2; LOAD=$3; shift 3
mbps() { python3 -c 'import json, sys; print(round(json.load(sys.stdin)["mb_per_s"]))'; }
. "$(dirname "$0")/serve_helpers.sh"
upload() {  # upload TENSORGATE: MB/s
  serve_start "$1"
  "$LOAD" stream --port "$SERVE_PORT" --bytes "$BYTES" --label pair | mbps
  serve_stop
}
ROWS=$(mktemp)
trap 'serve_stop; rm -f "$ROWS"' EXIT
for _ in $(seq 1 "$ROUNDS"); do
  row="$("$LOAD" sha256 --bytes "$BYTES" | mbps)"
  for tg in "$@"; do row="$row $(upload "$tg")"; done
  echo "$row" | tee -a "$ROWS"
done
python3 - "$ROWS" "$@" <<'PY'
import statistics, sys
rows = [list(map(int, l.split())) for l in open(sys.argv[1])]
for i, name in enumerate(sys.argv[2:], start=1):
    shares = [100 * r[i] / r[0] for r in rows]
    print(f"{name}: {min(shares):.1f}-{max(shares):.1f}% of the raw SHA-256, median {statistics.median(shares):.1f}%")
    if i > 1:
        print(f"  / {sys.argv[2]}: median {statistics.median(r[i] / r[1] for r in rows):.2f}")
PY
