#!/usr/bin/env bash
# Installs the Debian packages migsim needs (only those missing) and builds it in
# Release into build/. Idempotent: on a machine that has everything, it only runs the
# (incremental) build. --with-browser also installs Chromium, which the test suite uses
# to render an HTML report headless.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libboost-graph-dev nlohmann-json3-dev libcli11-dev libeigen3-dev
          catch2 libbenchmark-dev libyaml-cpp-dev pybind11-dev python3-dev)
if [ "${1:-}" = "--with-browser" ]; then packages+=(chromium); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${MIGSIM_CMAKE_ARGS:-} >/dev/null
fi
cmake --build build -j"$(nproc)" -- --no-print-directory >&2
