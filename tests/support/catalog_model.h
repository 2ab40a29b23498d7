#pragma once
// The catalog GPU model called `name` (any name FindGpuModel accepts), failing the test
// when there is none, so a typo in a test fails loudly.

#include <catch2/catch.hpp>

#include "sim/cluster/gpu_model.h"

namespace migsim::test {

inline const GpuModel& Model(const char* name) {
  const GpuModel* model = FindGpuModel(name);
  REQUIRE(model != nullptr);
  return *model;
}

}  // namespace migsim::test
