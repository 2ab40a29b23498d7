#pragma once
// A run's mean queueing latency beside the exact answer of queueing theory
// (Scenario::queueing_theory): the evidence that the engine is exact.

#include <string>
#include <vector>

#include "sim/metrics/run_metrics.h"
#include "workloads/queueing_theory_spec.h"

namespace migsim {

struct TheoryComparison {
  std::string model;  // QueueingModelName
  std::string klass;  // a priority class's name, or "all"
  double simulated_s = 0;
  double exact_s = 0;
  double utilisation = 0;  // ρ = λ E[S] / c
  int servers = 1;
  double relative_error() const { return exact_s > 0 ? simulated_s / exact_s - 1 : 0; }
};

// The exact mean wait of each of the spec's classes, and the run's. A class the run has
// no latency for is compared with 0 (its pods never ran: the comparison shows it).
std::vector<TheoryComparison> CompareWithTheory(const QueueingTheorySpec& spec,
                                                const RunMetrics& metrics);

// The exact mean waits by the spec's classes.
std::vector<double> ExactMeanWaits(const QueueingTheorySpec& spec);

}  // namespace migsim
