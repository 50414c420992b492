#!/bin/sh
# Installs the dependencies, builds, and runs every test: the release build, the ASan + UBSan
# build, the service and its socket tests under ThreadSanitizer (the tsan presets build and run
# only those), and a short fuzz smoke (ClusterFuzzLite's build.sh, then every fuzzer for a bounded
# time under ASan + UBSan). This is the README's test command; .ci/run calls it.
#   FUZZ_SECONDS=N scripts/test.sh     seconds per fuzz target (default: 270 s shared by the
#                                      targets, at least 5 s each; 0 skips the smoke)
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh

for preset in release asan tsan; do
  echo "== $preset: configure, build, test"
  cmake --preset "$preset"
  cmake --build --preset "$preset"
  ctest --preset "$preset" -j2
done
if [ -z "${FUZZ_SECONDS:-}" ]; then
  echo "== fuzz smoke"
  ./scripts/fuzz_smoke.sh
elif [ "$FUZZ_SECONDS" -gt 0 ]; then
  echo "== fuzz smoke"
  ./scripts/fuzz_smoke.sh "$FUZZ_SECONDS"
fi
echo "== all tests passed"
