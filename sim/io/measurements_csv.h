#pragma once
// Measured speeds per device, as CSV, for `migsim calibrate`.
//
//   gpu_model,kind,speed          (header, required)
//   A100-SXM4-40GB,1g.5gb,642     (kind: a MIG profile of the model, or "gpu")
//
// Lines starting with '#' and blank lines are skipped. Each model needs a reference:
// its full-size instance (7g), or a "gpu" row, whose speed is scaled by the instance's
// SMs over the GPU's.

#include <string>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/hardware_catalog.h"
#include "sim/perf/mig_curve.h"

namespace migsim {

struct MeasuredPoint {
  int line = 0;
  std::string gpu_model;  // catalog name
  std::string kind;       // MIG profile name
  double speed = 0;
  CurvePoint point;  // shares and speed relative to the model's full-size instance
};

// The profile points of `text` (not the reference rows). Errors name `file` and the line.
// GPU models are those of `catalog` (the built-ins, or those and a scenario's own).
Result<std::vector<MeasuredPoint>> ParseMeasurements(
    const std::string& text, const std::string& file,
    const HardwareCatalog& catalog = BuiltinCatalog());

Result<std::vector<MeasuredPoint>> LoadMeasurementsFile(
    const std::string& path, const HardwareCatalog& catalog = BuiltinCatalog());

}  // namespace migsim
