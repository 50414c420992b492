#!/bin/sh
# Install every build and test dependency of tensorgate from Debian 12 packages.
# Idempotent: packages already present are skipped by apt; safe to run again.
set -eu

PACKAGES="
  build-essential cmake ninja-build pkg-config ccache git ca-certificates
  libboost1.81-dev libboost-json1.81-dev libboost-program-options1.81-dev
  libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libssl-dev zlib1g-dev
  clang-14 llvm-14 libclang-rt-14-dev
  python3 python3-jsonschema
  curl zip unzip
"

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done

if [ -z "$missing" ]; then
  echo "setup: all dependencies present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
echo "setup: installed$missing"
