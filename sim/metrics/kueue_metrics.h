#pragma once
// Kueue per ClusterQueue (definitions in README "Output"): workloads admitted and waiting,
// admission latency, evictions, borrowed GPUs over time.

#include <vector>

#include "sim/core/sim_time.h"
#include "sim/controllers/kueue/kueue_controller.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

// One entry per ClusterQueue of the run's Kueue objects, in order, from Kueue's state at
// `end` (the end of the run); borrowed GPUs are averaged over [0, end].
std::vector<ClusterQueueMetrics> KueueMetrics(const KueueController& controller, SimTime end);

}  // namespace migsim
