#include "sim/metrics/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "sim/engine/pod_accounting.h"
#include "sim/metrics/run_metrics_summary.h"

namespace migsim {

double NearestRank(std::span<const double> sorted, double p) {
  size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

LatencyStats ComputeLatency(std::vector<double> latencies_s) {
  LatencyStats s;
  s.count = static_cast<int64_t>(latencies_s.size());
  if (latencies_s.empty()) return s;
  std::sort(latencies_s.begin(), latencies_s.end());
  s.mean_s = std::accumulate(latencies_s.begin(), latencies_s.end(), 0.0) /
             static_cast<double>(latencies_s.size());
  s.p50_s = NearestRank(latencies_s, 0.50);
  s.p95_s = NearestRank(latencies_s, 0.95);
  s.p99_s = NearestRank(latencies_s, 0.99);
  s.max_s = latencies_s.back();
  return s;
}

PodCounts CountPods(std::span<const Pod> pods) {
  PodCounts c;
  PodCensus states;
  for (const Pod& pod : pods) {
    c.restarts += pod.restarts;
    states.Count(pod.phase);
  }
  c.submitted = static_cast<int64_t>(pods.size());
  c.completed = states.completed;
  c.failed = states.failed;
  c.running = states.running;
  c.pending = states.pending;
  c.deleted = states.deleted;
  return c;
}

RunMetrics ComputeMetrics(std::span<const Pod> pods, const AllocationRecorder& allocation,
                          SimTime end, std::span<const TemplateWork> work) {
  RunMetricsSummary summary(work, SIZE_MAX);
  for (const Pod& pod : pods) summary.Add(pod);
  return summary.Finish(allocation, end);
}

}  // namespace migsim
