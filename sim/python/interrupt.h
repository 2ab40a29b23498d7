#pragma once
// What stops a run made from Python between two event times (EngineConfig::should_stop):
// a signal whose handler raised — Ctrl-C's KeyboardInterrupt — or the run's Python policy
// having failed (its exception comes out of migsim.run anyway: the rest of the run would
// be wasted). Python's signal handlers run only when C code asks (PyErr_CheckSignals), so a
// long run in C++ would otherwise ignore Ctrl-C until it ends.

#include <pybind11/pybind11.h>

#include <chrono>
#include <cstdint>
#include <optional>

#include "sim/python/python_policy.h"

namespace migsim::python {

class Interrupt {
 public:
  // `policy`: the run's Python policy, or null. `gil_released`: the run goes on without the
  // GIL (a built-in policy), so asking Python takes it for the time of the check.
  Interrupt(const PythonPolicy* policy, bool gil_released)
      : policy_(policy), gil_released_(gil_released) {}

  // Whether the run must stop now. Python is asked at most every kPeriod of wall time
  // (the clock read every kCalls calls), so a run pays a few nanoseconds per event time.
  bool operator()();

  // Raises what stopped the run (the handler's exception), if a signal did. REQUIRES: the
  // GIL is held.
  void RaiseIfSignalled();

 private:
  static constexpr uint32_t kCalls = 32;
  static constexpr std::chrono::milliseconds kPeriod{20};

  const PythonPolicy* policy_;
  bool gil_released_;
  uint32_t calls_ = 0;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::optional<pybind11::error_already_set> error_;
};

}  // namespace migsim::python
