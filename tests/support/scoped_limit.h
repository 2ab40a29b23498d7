#pragma once
// A limit of sim/io/input_limits.h set for one test (as --limit NAME=N sets it), and the
// defaults back when the test ends: tests use tiny limits rather than huge inputs.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/input_limits.h"

namespace migsim::test {

class ScopedLimit {
 public:
  explicit ScopedLimit(const std::string& assignment) {
    const Status s = io::SetInputLimit(assignment);
    REQUIRE(s.ok());
  }
  ~ScopedLimit() { io::ResetInputLimits(); }
  ScopedLimit(const ScopedLimit&) = delete;
  ScopedLimit& operator=(const ScopedLimit&) = delete;
};

}  // namespace migsim::test
