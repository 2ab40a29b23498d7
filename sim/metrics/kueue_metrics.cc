#include "sim/metrics/kueue_metrics.h"

#include <algorithm>

#include "sim/metrics/step_series.h"

namespace migsim {

std::vector<ClusterQueueMetrics> KueueMetrics(const KueueController& controller, SimTime end) {
  const KueueAdmission& kueue = controller.state();
  const size_t queues = kueue.spec().cluster_queues.size();
  std::vector<ClusterQueueMetrics> out(queues);
  std::vector<std::vector<double>> latencies(queues);
  for (size_t w = 0; w < kueue.workload_count(); ++w) {
    const WorkloadRecord& r = kueue.workload(WorkloadId(static_cast<WorkloadId::Rep>(w)));
    ClusterQueueMetrics& m = out[static_cast<size_t>(r.request.cluster_queue)];
    ++m.workloads;
    m.evictions += r.evictions;
    if (r.state == WorkloadRecord::State::kPending) ++m.waiting;
    if (!r.first_admitted) continue;
    ++m.admitted;
    latencies[static_cast<size_t>(r.request.cluster_queue)].push_back(
        (*r.first_admitted - r.created).seconds());
  }
  for (size_t q = 0; q < queues; ++q) {
    ClusterQueueMetrics& m = out[q];
    m.name = kueue.spec().cluster_queues[q].name;
    m.admission = ComputeLatency(std::move(latencies[q]));
    StepSeries borrowed;
    for (const auto& [at, gpus] : kueue.borrowed_gpus(static_cast<int32_t>(q))) {
      borrowed.Set(at, static_cast<double>(gpus));
      if (at <= end) m.borrowed_gpus_max = std::max(m.borrowed_gpus_max, gpus);
    }
    m.borrowed_gpus_mean = borrowed.Mean(SimTime::Zero(), end);
  }
  return out;
}

}  // namespace migsim
