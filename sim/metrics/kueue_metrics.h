#pragma once
// Kueue per ClusterQueue (definitions in README "Output"): workloads admitted and waiting,
// admission latency, evictions, borrowed GPUs over time.

#include <vector>

#include "sim/core/sim_time.h"
#include "sim/engine/kueue_admission.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

// One entry per ClusterQueue of `kueue`'s spec, in order, from its state at `end` (the
// end of the run); borrowed GPUs are averaged over [0, end].
std::vector<ClusterQueueMetrics> KueueMetrics(const KueueAdmission& kueue, SimTime end);

}  // namespace migsim
