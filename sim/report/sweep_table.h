#pragma once
// A sweep's results as the table `migsim sweep` and `migsim merge` print.

#include <string>

#include "sim/study/sweep/sweep_results.h"

namespace migsim {

// A row per run: point, the values it sets, variant, makespan, p95 queueing latency,
// GPU allocation ratio and compute utilization, pods completed/failed/pending, cost.
std::string FormatSweepTable(const SweepResults& results);

}  // namespace migsim
