#pragma once
// Kubernetes resource quantities ("500m", "2", "1.5Gi", "1G", "1e3"), parsed exactly as
// decimal numbers and rounded up the way the API server rounds them.
//
// Accepted: an optional '+', digits with an optional decimal point (at most 18 significant
// digits and 9 after the point), then a binary suffix (Ki Mi Gi Ti Pi Ei), a decimal
// suffix (n u m k M G T P E) or a decimal exponent (e3, E-2). Errors are InvalidArgument
// without a location; the caller locates them.

#include <cstdint>
#include <string_view>

#include "sim/core/status.h"

namespace migsim::io {

// CPU in millicores, rounded up: "500m" -> 500, "2" -> 2000, "0.0001" -> 1.
Result<int64_t> ParseCpuMilli(std::string_view quantity);

// Memory in MiB, rounded up: "512Mi" -> 512, "1Gi" -> 1024, "1G" -> 954, "1000000" -> 1.
Result<int64_t> ParseMemoryMib(std::string_view quantity);

}  // namespace migsim::io
