#!/bin/bash
# CI's fuzz smoke: runs every libFuzzer target of the asan preset's build (clang-14, ASan +
# UBSan, TG_FUZZ=ON; scripts/test.sh has built it) for a bounded number of seconds from its
# corpus and dictionary. Any crash, leak, timeout or sanitizer report fails the run.
# ClusterFuzzLite's .clusterfuzzlite/build.sh is then run dry (configure, target list, seed
# corpora, dictionaries; CFLITE_DRY_RUN=1) with the OSS-Fuzz variables set by hand, so it cannot
# rot without CI noticing, and without a second build of the whole tree.
#
#   scripts/fuzz_smoke.sh [SECONDS_PER_TARGET]
# Without an argument the smoke has a fixed total, 270 s, shared by the targets (at least 5 s
# each): a new target shortens the others' runs instead of lengthening CI.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/asan

targets=$(sed -n 's/^ *tg_fuzzer(\([a-z_0-9]*\).*/\1/p' fuzz/CMakeLists.txt)
count=$(echo "$targets" | wc -w)
seconds="${1:-$(( count > 0 && 270 / count > 5 ? 270 / count : 5 ))}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ran=0
for t in $targets; do
  bin="$build/fuzz/$t"
  [ -x "$bin" ] || { echo "fuzz smoke: $bin is missing (build the asan preset first)"; exit 1; }
  work=$(mktemp -d)
  mkdir "$work/new"
  dict=()
  [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
  echo "== $t: ${seconds}s"
  if ! "$bin" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=4096 "${dict[@]}" \
       -artifact_prefix="$work/" "$work/new" "corpus/$t" >"$work/log" 2>&1; then
    tail -40 "$work/log"
    echo "fuzz smoke: $t failed; the input is in $work"
    exit 1
  fi
  grep -E '^#[0-9]+[[:space:]]+DONE' "$work/log" | tail -1 || true
  rm -rf "$work"
  ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || { echo "fuzz smoke: no fuzz target was found"; exit 1; }
echo "== fuzz smoke passed: $ran targets"

echo "== ClusterFuzzLite build.sh (dry run)"
out=$(mktemp -d)
CC=clang-14 CXX=clang++-14 CXXFLAGS="-O1 -fsanitize=address,undefined -fsanitize=fuzzer-no-link" \
  LIB_FUZZING_ENGINE="-fsanitize=fuzzer" SANITIZER=address OUT="$out" WORK="$PWD/build" \
  CFLITE_DRY_RUN=1 bash .clusterfuzzlite/build.sh
for t in $targets; do
  [ -s "$out/${t}_seed_corpus.zip" ] || { echo "build.sh: no seed corpus for $t"; exit 1; }
done
rm -rf "$out"
