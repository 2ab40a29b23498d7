// The libFuzzer entry points of every fuzz target: compiled once per target with
// MIGSIM_FUZZ_TARGET naming it (fuzz/CMakeLists.txt). A broken promise, and an internal
// error (MIGSIM_CHECK throws), is printed and aborts, which libFuzzer reports as a crash
// with the input.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_inputs.h"
#include "sim/core/check.h"
#include "sim/io/input_limits.h"

// Before the first input: the loaders' size limits at the fuzz size (sim/io/input_limits.h).
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  migsim::io::UseFuzzingInputLimits();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const migsim::fuzz::FuzzTarget* const target =
      migsim::fuzz::FindFuzzTarget(MIGSIM_FUZZ_TARGET);
  if (target == nullptr) {
    std::fprintf(stderr, "fuzz: no target '%s'\n", MIGSIM_FUZZ_TARGET);
    std::abort();
  }
  std::string problem;
  try {
    problem = target->parse({reinterpret_cast<const char*>(data), size});
  } catch (const migsim::InternalError& e) {
    // A broken invariant (sim/core/check.h) is a finding, as the abort it used to be.
    std::fprintf(stderr, "fuzz: %s: internal error: %s\n", MIGSIM_FUZZ_TARGET, e.what());
    std::abort();
  }
  if (!problem.empty()) {
    std::fprintf(stderr, "fuzz: %s: %s\n", MIGSIM_FUZZ_TARGET, problem.c_str());
    std::abort();
  }
  return 0;
}
