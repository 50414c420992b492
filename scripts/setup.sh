#!/bin/sh
# Install every build and test dependency of tensorgate from Debian 12 packages.
# Idempotent: packages already present are skipped by apt; safe to run again.
set -eu

PACKAGES="
  build-essential cmake ninja-build pkg-config ccache git ca-certificates
  libboost1.81-dev libboost-json1.81-dev libboost-program-options1.81-dev
  libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libssl-dev zlib1g-dev libbz2-dev liblzma-dev liblz4-dev libexpat1-dev
  clang-14 llvm-14 libclang-rt-14-dev
  python3 python3-jsonschema python3-yaml python3-jinja2
  chromium chromium-driver python3-selenium
  curl zip unzip
  nginx-light openssl
  pre-commit systemd
"
# pre-commit, systemd (systemd-analyze, not a running systemd), python3-yaml: tests/deploy/.
# kubectl (kustomize) for tests/deploy/test_kubernetes.py: Debian's kubernetes-client unless a
# kubectl is already installed (it would conflict with another package's /usr/bin/kubectl).
command -v kubectl >/dev/null 2>&1 || PACKAGES="$PACKAGES kubernetes-client"
# npm installs the validators of tests/deploy/package.json (action-validator, kubernetes-models).
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"

# The npm validators, pinned by tests/deploy/package-lock.json; again only when the lock changed.
install_node_validators() {
  dir="$(cd "$(dirname "$0")/.." && pwd)/tests/deploy"
  stamp="$dir/node_modules/.installed-package-lock.json"
  if cmp -s "$stamp" "$dir/package-lock.json"; then
    echo "setup: npm validators present"
    return
  fi
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$dir/package-lock.json" "$stamp"
  echo "setup: installed the npm validators of tests/deploy"
}

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done

if [ -z "$missing" ]; then
  echo "setup: all dependencies present"
  install_node_validators
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
echo "setup: installed$missing"
install_node_validators
