#!/bin/sh
# Installs the dependencies, builds, and runs every test: the release build, then the
# ASan + UBSan build. This is the README's test command; .ci/run calls it.
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh

for preset in release asan; do
  echo "== $preset: configure, build, test"
  cmake --preset "$preset"
  cmake --build --preset "$preset"
  ctest --preset "$preset" -j2
done
echo "== all tests passed"
