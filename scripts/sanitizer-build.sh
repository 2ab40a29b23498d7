# Sourced by scripts/test-sanitizers and scripts/fuzz: the one clang 14 build with
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage instrumentation
# (-DMIGSIM_FUZZ=ON), in build-fuzz/. It holds the fuzz targets and the whole test suite,
# so CI instruments and compiles the libraries once for both.

# Installs clang-14 and libclang-rt-14-dev (the sanitizer and libFuzzer runtimes) when
# missing.
ensure_clang() {
  local missing=() p sudo=""
  for p in clang-14 libclang-rt-14-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "sanitizer build: installing ${missing[*]}" >&2
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  fi
}

# Configures build-fuzz/ (once; MIGSIM_CMAKE_ARGS adds cmake arguments, e.g. CI's
# -DMIGSIM_WERROR=ON) and builds the given targets, or everything but the benchmarks when
# none are given.
sanitizer_build() {
  ensure_clang
  # The test plugins written in C (tests/policies/plugin) are built with clang too: the
  # sanitizer and fuzzer flags are clang's. A tree configured before C had a compiler of
  # its own is configured afresh (cmake cannot change a compiler in place).
  if [ -f build-fuzz/CMakeCache.txt ] &&
    ! grep -q '^CMAKE_C_COMPILER:[A-Z]*=.*clang-14$' build-fuzz/CMakeCache.txt; then
    rm -rf build-fuzz
  fi
  if [ ! -f build-fuzz/CMakeCache.txt ]; then
    local launcher=()
    if command -v ccache >/dev/null 2>&1; then
      launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    fi
    cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-14 \
      -DCMAKE_C_COMPILER=clang-14 \
      -DMIGSIM_FUZZ=ON -DMIGSIM_BUILD_TESTS=ON -DMIGSIM_BUILD_BENCH=OFF "${launcher[@]}" \
      ${MIGSIM_CMAKE_ARGS:-} >/dev/null
  fi
  local targets=()
  if [ $# -gt 0 ]; then targets=(--target "$@"); fi
  cmake --build build-fuzz -j"$(nproc)" "${targets[@]}" -- --no-print-directory >&2
}
