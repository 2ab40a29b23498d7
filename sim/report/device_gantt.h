#pragma once
// The HTML report's per-variant Gantt chart of pod runs on each GPU device.

#include <string>

#include "sim/study/run.h"

namespace migsim {

// The variant's heading and its chart (an inline SVG), or a note when it has no pods
// (not collected) or none ran on a GPU device.
std::string DeviceGanttSection(const VariantResult& v);

}  // namespace migsim
