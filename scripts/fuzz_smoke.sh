#!/bin/bash
# CI's fuzz smoke: builds the fuzzers with .clusterfuzzlite/build.sh, the OSS-Fuzz variables set
# by hand (so the ClusterFuzzLite build cannot rot), under ASan + UBSan; then runs every target
# for a bounded number of seconds from its seed corpus and dictionary. Any crash, leak,
# timeout or sanitizer report fails the run.
#
#   scripts/fuzz_smoke.sh [SECONDS_PER_TARGET]      (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"

export CC=clang-14 CXX=clang++-14
export CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
export SANITIZER=address
export OUT="$PWD/build/cflite-out" WORK="$PWD/build"
rm -rf "$OUT"
bash .clusterfuzzlite/build.sh

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ran=0
for bin in "$OUT"/*; do
  [ -x "$bin" ] && [ -f "$bin" ] || continue
  t=$(basename "$bin")
  work=$(mktemp -d)
  mkdir "$work/new" "$work/seeds"
  unzip -q "$OUT/${t}_seed_corpus.zip" -d "$work/seeds"
  dict=()
  [ -f "$OUT/$t.dict" ] && dict=(-dict="$OUT/$t.dict")
  echo "== $t: ${seconds}s"
  if ! "$bin" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=4096 "${dict[@]}" \
       -artifact_prefix="$work/" "$work/new" "$work/seeds" >"$work/log" 2>&1; then
    tail -40 "$work/log"
    echo "fuzz smoke: $t failed; the input is in $work"
    exit 1
  fi
  grep -E '^#[0-9]+[[:space:]]+DONE' "$work/log" | tail -1 || true
  rm -rf "$work"
  ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || { echo "fuzz smoke: no fuzz target was built"; exit 1; }
echo "== fuzz smoke passed: $ran targets"
