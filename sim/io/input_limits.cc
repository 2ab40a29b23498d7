#include "sim/io/input_limits.h"

namespace migsim::io {
namespace {

// Set once, at a fuzz target's start, before any reader runs (see the header).
InputLimits& Limits() {
  static InputLimits limits;
  return limits;
}

}  // namespace

const InputLimits& CurrentInputLimits() { return Limits(); }

void UseFuzzingInputLimits() {
  Limits() = InputLimits{.pods_per_field = 2000,
                         .pods_per_scenario = 10'000,
                         .pods_per_file = 20'000,
                         .sweep_points = 20};
}

}  // namespace migsim::io
