#include "sim/metrics/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/engine/pod_accounting.h"

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

// Mean run time and throughput of the completed pods.
void ComputeWork(std::span<const Pod> pods, std::span<const TemplateWork> work, RunMetrics& m) {
  double run_s = 0, done = 0, speeds = 0;
  for (const Pod& pod : pods) {
    if (pod.phase != PodPhase::kSucceeded) continue;
    const double took = (pod.ended - pod.started).seconds();
    run_s += took;
    const TemplateWork& w = work[pod.tmpl.value()];
    done += w.work;
    if (took > 0) speeds += w.work / took;
    if (m.work_unit.empty()) m.work_unit = w.unit;
    if (m.work_unit != w.unit) m.work_unit = "mixed";
  }
  if (m.pods.completed > 0) {
    m.mean_run_s = run_s / static_cast<double>(m.pods.completed);
    m.pod_throughput_per_s = speeds / static_cast<double>(m.pods.completed);
  }
  if (m.makespan_s && *m.makespan_s > 0) m.throughput_per_s = done / *m.makespan_s;
}

RunMetrics ComputeMetrics(std::span<const Pod> pods, const AllocationRecorder& allocation,
                          SimTime end, std::span<const TemplateWork> work) {
  RunMetrics m;
  m.pods = CountPods(pods);
  m.end_s = end.seconds();
  if (pods.empty()) return m;
  SimTime first_submit = SimTime::Max();
  std::optional<SimTime> last_completion;
  std::vector<double> latencies;
  latencies.reserve(pods.size());
  for (const Pod& pod : pods) {
    first_submit = std::min(first_submit, pod.created);
    if (pod.phase == PodPhase::kSucceeded && (!last_completion || pod.ended > *last_completion)) {
      last_completion = pod.ended;
    }
    if (WasBound(pod)) latencies.push_back((pod.bound - pod.created).seconds());
  }
  m.queueing = ComputeLatency(std::move(latencies));
  SimTime window_end = last_completion.value_or(end);
  if (last_completion) m.makespan_s = (*last_completion - first_submit).seconds();
  m.gpu_allocation_ratio = allocation.MeanRatio(first_submit, window_end);
  m.gpu_compute_utilization = allocation.MeanBusy(first_submit, window_end);
  ComputeWork(pods, work, m);
  return m;
}

}  // namespace migsim
