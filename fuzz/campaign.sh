#!/bin/bash
# A fuzzing campaign: builds the libFuzzer targets (clang-14, ASan + UBSan), runs each in fork
# mode, merges new inputs into corpus/<target>/, keeps crashes as minimized regression files
# with a note of what broke, prints a table per target, then measures line coverage of core/
# over the merged corpora (clang source-based coverage of the replay builds).
#
#   fuzz/campaign.sh [--minutes N] [--jobs J] [--build DIR] [--no-coverage] [TARGET...]
#
# Defaults: 10 minutes, 2 jobs, every target. Work files go to build/campaign/. --build DIR
# takes the fuzzers of a tree already built with TG_FUZZ=ON (build/asan: the asan preset
# builds them too) instead of building the fuzz preset.
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=10
jobs=2
build=
coverage=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --no-coverage) coverage=0; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(sed -n 's/^ *tg_fuzzer(\([a-z_0-9]*\).*/\1/p' fuzz/CMakeLists.txt)
fi

work=build/campaign
mkdir -p "$work"
if [ -z "$build" ]; then
  echo "== building ${targets[*]} (preset fuzz)"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz --target "${targets[@]}"
  build=build/fuzz
fi

summary="$work/summary.tsv"
printf 'target\texec/s\tcorpus\tfeatures\tcrashes\n' >"$summary"
for t in "${targets[@]}"; do
  bin=$build/fuzz/$t
  out=$work/$t
  rm -rf "$out"
  mkdir -p "$out/new" "$out/crashes" corpus/"$t"/regressions
  dict=()
  [ -f fuzz/"$t".dict ] && dict=(-dict=fuzz/"$t".dict)
  echo "== $t: ${minutes} min, fork=${jobs}"
  "$bin" -fork="$jobs" -ignore_crashes=1 -max_total_time=$((minutes * 60)) -rss_limit_mb=4096 \
         -timeout=25 -print_final_stats=1 "${dict[@]}" -artifact_prefix="$out/crashes/" \
         "$out/new" corpus/"$t" >"$out/fuzz.log" 2>&1 || true
  "$bin" -merge=1 corpus/"$t" "$out/new" >"$out/merge.log" 2>&1 || true

  crashes=0
  for crash in "$out"/crashes/*; do
    [ -f "$crash" ] || continue
    crashes=$((crashes + 1))
    kind=$(basename "$crash" | cut -d- -f1)
    "$bin" -minimize_crash=1 -max_total_time=60 -exact_artifact_path="$crash.min" "$crash" >"$crash.minlog" 2>&1 || true
    [ -s "$crash.min" ] || cp "$crash" "$crash.min"
    name="$kind-$(sha1sum "$crash.min" | cut -c1-12)"
    cp "$crash.min" corpus/"$t"/regressions/"$name"
    {
      echo "found by fuzz/campaign.sh on $(date -u +%F) ($t, $kind)"
      { "$bin" "$crash.min" 2>&1 || true; } | grep -m3 -E 'INVARIANT|ERROR: |SUMMARY: |runtime error' || echo "no diagnostic line"
    } >corpus/"$t"/regressions/"$name".note
  done

  # Fork mode's status lines: "#<executions>: cov: C ft: F corp: N exec/s E ... time: <seconds>s"
  last=$(grep -E '^#[0-9]+: cov:' "$out/fuzz.log" | tail -1 || true)
  runs=$(sed -n 's/^#\([0-9]*\):.*/\1/p' <<<"$last")
  secs=$(sed -n 's/.* time: \([0-9]*\)s.*/\1/p' <<<"$last")
  execs=$([ -n "$runs" ] && [ "${secs:-0}" -gt 0 ] && echo $((runs / secs)) || echo "?")
  features=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  size=$(find corpus/"$t" -type f ! -name '*.note' | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\n' "$t" "${execs:-?}" "$size" "${features:-?}" "$crashes" >>"$summary"
done

echo
column -t -s $'\t' "$summary"
echo
[ "$coverage" -eq 0 ] || fuzz/coverage.sh "${targets[@]}"
