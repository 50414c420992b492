#!/bin/sh
# Installs the dependencies, builds the release preset and runs the main job: for now,
# `tensorgate check` on the samples the repository ships (the HTTP service replaces it).
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target tensorgate
status=0
./build/release/cli/tensorgate check samples/ "$@" || status=$?
echo "tensorgate check exited with status $status (samples/broken-dtype.safetensors is invalid on purpose)"
