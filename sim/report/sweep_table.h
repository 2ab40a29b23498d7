#pragma once
// A sweep's results as the table `migsim sweep` and `migsim merge` print.

#include <string>
#include <vector>

#include "sim/study/sweep/sweep_results.h"

namespace migsim {

// A row per run: point, the values it sets, variant, makespan, p95 queueing latency,
// GPU allocation ratio and compute utilization, pods completed/failed/pending, cost.
std::string FormatSweepTable(const SweepResults& results);

// The columns' pointers shortened for a title to their last two tokens, or more when that
// is ambiguous ("/cluster/nodes/p4d/count" -> "p4d/count", "/seed" -> "seed").
std::vector<std::string> SweepColumnTitles(const std::vector<std::string>& pointers);

}  // namespace migsim
