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
  std::optional<double> makespan_s = std::nullopt;              // makespan <= this; no makespan fails
  // completed / (submitted - deleted) >= this; met when nothing is left to count.
  std::optional<double> min_completed_fraction = std::nullopt;
};

// Why `metrics` misses the objectives: every missed one, "; "-separated, e.g.
// "p95 queueing latency 312.4 s > 60 s; 3 pods pending > 0". Empty when all are met.
std::string SloMisses(const PlanSlo& slo, const RunMetrics& metrics);

}  // namespace migsim
