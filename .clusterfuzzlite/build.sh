#!/bin/bash
# Builds every fuzz target the OSS-Fuzz way: $CC/$CXX/$CXXFLAGS from the environment, the
# engine from $LIB_FUZZING_ENGINE, results in $OUT: each <target>, its
# <target>_seed_corpus.zip (corpus/<target>/, regressions included) and <target>.dict.
# CI runs this script on Debian with the variables set by hand (scripts/fuzz_smoke.sh), dry
# (CFLITE_DRY_RUN=1: configure, the target list, the seed corpora and dictionaries, no
# compiling), so it cannot rot; the fuzzers themselves CI builds once, in the asan preset.
set -euo pipefail
src="${SRC_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
build="${WORK:-$src/build}/cflite"

cmake -S "$src" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_CXX_COMPILER_LAUNCHER= \
  -DBoost_USE_STATIC_LIBS=ON \
  -DTG_FUZZ=ON -DTG_FUZZ_LINK="$LIB_FUZZING_ENGINE" \
  -DTG_BUILD_TESTS=OFF -DTG_BUILD_BENCH=OFF

targets=$(sed -n 's/^ *tg_fuzzer(\([a-z_0-9]*\).*/\1/p' "$src/fuzz/CMakeLists.txt")
built=()
for t in $targets; do
  # A target whose library is not configured here (the service without its dependencies) is
  # skipped rather than failing the build.
  if cmake --build "$build" --target help | grep -qE "^(\.\.\. )?$t(: |\$)"; then built+=("$t"); fi
done
[ ${#built[@]} -gt 0 ] || { echo "build.sh: no fuzz target is configured" >&2; exit 1; }
dry="${CFLITE_DRY_RUN:-0}"
[ "$dry" = 1 ] || cmake --build "$build" --target "${built[@]}"

mkdir -p "$OUT"
for t in "${built[@]}"; do
  [ "$dry" = 1 ] || cp "$build/fuzz/$t" "$OUT/"
  [ -f "$src/fuzz/$t.dict" ] && cp -L "$src/fuzz/$t.dict" "$OUT/$t.dict"
  rm -f "$OUT/${t}_seed_corpus.zip"
  (cd "$src/corpus/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" . -x '*.note')
done
echo "$([ "$dry" = 1 ] && echo "configured (dry run)" || echo built) ${built[*]} into $OUT"
