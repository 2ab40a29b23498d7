#pragma once
// RunMetrics built one pod at a time, so that a run can fold its pods in as their records
// are released (EngineObserver::OnPodsReleased) instead of keeping them all.
//
// Folded in PodId order, it gives what ComputeMetrics gives for the same pods, bit for bit
// (the same operations in the same order) while the bound pods are at most `exact_limit`;
// in another order the sums (mean run time, throughput) may differ in their last bits,
// and past the limit the percentiles are estimates (LatencySummary).

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "sim/engine/pod_accounting.h"
#include "sim/metrics/latency_summary.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

class RunMetricsSummary {
 public:
  // `work` is indexed by the pods' TemplateId and must outlive the summary.
  explicit RunMetricsSummary(std::span<const TemplateWork> work, size_t exact_limit = kExactValues)
      : work_(work), latencies_(exact_limit) {}

  void Add(const Pod& pod);
  // The metrics of the pods added; the summary is spent.
  RunMetrics Finish(const AllocationRecorder& allocation, SimTime end);

 private:
  std::span<const TemplateWork> work_;
  int64_t submitted_ = 0, restarts_ = 0;
  PodCensus states_;
  SimTime first_submit_ = SimTime::Max();
  std::optional<SimTime> last_completion_;
  LatencySummary latencies_;
  double run_s_ = 0, done_ = 0, speeds_ = 0;
  const std::string* work_unit_ = nullptr;  // a TemplateWork::unit of work_, or "mixed"
};

}  // namespace migsim
