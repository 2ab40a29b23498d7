#!/usr/bin/env bash
# Installs the Debian packages migsim needs (only those missing) and builds it in
# Release into build/. Idempotent: on a machine that has everything, it only runs the
# (incremental) build. --with-browser also installs Chromium, which the test suite uses
# to render an HTML report headless.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libboost-graph-dev nlohmann-json3-dev libcli11-dev libeigen3-dev
          catch2 libbenchmark-dev libyaml-cpp-dev pybind11-dev python3-dev)
# python3-venv: `pip install .` into a fresh virtual environment (README "Python", and its
# test); ccache: that install's build then reuses this build's objects (below).
packages+=(python3-venv ccache)
# python3-jsonschema, python3-yaml: the schema/loader agreement test (tests/schema) and the
# Indexed Job recipe test (scripts/test-indexed-job).
packages+=(python3-jsonschema python3-yaml)
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

# Through ccache, with paths relative to the checkout and precompiled headers cacheable (as
# sim/python/wheel_backend.py sets them): `pip install .` then compiles the same command lines
# beside build/ and takes these objects (README "Python").
launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros}"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" ${MIGSIM_CMAKE_ARGS:-} >/dev/null
fi
cmake --build build -j"$(nproc)" -- --no-print-directory >&2
