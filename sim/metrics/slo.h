#pragma once
// Service-level objectives over a run's metrics: what `migsim plan` asks of a cluster
// size. Here rather than with the plan search so that the plan file reader (sim/io) can
// hold them without depending on the study that uses them.

#include <cstdint>
#include <optional>
#include <string>

#include "sim/metrics/run_metrics.h"

namespace migsim {

// Service-level objectives of one run; an unset objective is not checked.
struct PlanSlo {
  std::optional<double> p95_queueing_latency_s = std::nullopt;  // p95 queueing latency <= this
  std::optional<int64_t> max_pending = std::nullopt;            // pods pending at the end <= this
  std::optional<double> makespan_s = std::nullopt;  // makespan <= this; no makespan fails
  // completed / (submitted - deleted) >= this; met when nothing is left to count.
  std::optional<double> min_completed_fraction = std::nullopt;
  // Serving objectives, which count pods that never bound (UnservedDemand):
  std::optional<double> max_wait_s = std::nullopt;         // longest wait of any pod <= this
  std::optional<int64_t> max_unserved = std::nullopt;      // pods never bound <= this
  std::optional<int64_t> max_pending_peak = std::nullopt;  // most pods pending at once <= this
};

// Why `metrics` misses the objectives: every missed one, "; "-separated, e.g.
// "p95 queueing latency 312.4 s > 60 s; 3 pods pending > 0". Empty when all are met.
std::string SloMisses(const PlanSlo& slo, const RunMetrics& metrics);

// Why the objectives cannot judge the demand `metrics` left unserved, or "" when they can
// (or nothing was left). Pods deleted without ever binding are bounded only by
// max_wait_s, max_unserved and max_pending_peak; pods pending at the end also by
// max_pending and min_completed_fraction. p95 queueing latency counts only pods that
// bound, and makespan only pods that completed. E.g. "28 pods were deleted without ever
// binding (longest wait 10.1 h); the objectives (p95_queueing_latency_s, max_pending) count
// only bound pods or the end of the run: add max_wait_s or max_unserved".
std::string UnjudgedDemand(const PlanSlo& slo, const RunMetrics& metrics);

}  // namespace migsim
