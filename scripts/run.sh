#!/bin/sh
# Installs the dependencies, builds the release preset and runs the main job: the validation
# service on its default address, 127.0.0.1:8080 (docs/service.md). Extra arguments go to
# `tensorgate serve`, e.g. scripts/run.sh --listen 0.0.0.0:8080 --config tensorgate.ini
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target tensorgate
echo "tensorgate serve: try  curl --data-binary @samples/tinyllm-bigram.safetensors 'http://127.0.0.1:8080/v1/validate?name=bigram'"
exec ./build/release/cli/tensorgate serve "$@"
