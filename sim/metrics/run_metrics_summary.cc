#include "sim/metrics/run_metrics_summary.h"

#include <algorithm>

namespace migsim {

void RunMetricsSummary::Add(const Pod& pod) {
  ++submitted_;
  restarts_ += pod.restarts;
  states_.Count(pod.phase);
  first_submit_ = std::min(first_submit_, pod.created);
  if (pod.phase == PodPhase::kSucceeded && (!last_completion_ || pod.ended > *last_completion_)) {
    last_completion_ = pod.ended;
  }
  if (WasBound(pod)) latencies_.Add((pod.bound - pod.created).seconds());
  if (pod.phase != PodPhase::kSucceeded) return;
  // Run time and throughput of the completed pods.
  const double took = (pod.ended - pod.started).seconds();
  run_s_ += took;
  const TemplateWork& w = work_[pod.tmpl.value()];
  done_ += w.work;
  if (took > 0) speeds_ += w.work / took;
  // The first unit, or "mixed"; compared by address first: pods of one template share it.
  static const std::string kMixed = "mixed";
  if (work_unit_ == nullptr || work_unit_->empty()) work_unit_ = &w.unit;
  if (work_unit_ != &w.unit && *work_unit_ != w.unit) work_unit_ = &kMixed;
}

RunMetrics RunMetricsSummary::Finish(const AllocationRecorder& allocation, SimTime end) {
  RunMetrics m;
  m.pods = {.submitted = submitted_,
            .completed = states_.completed,
            .failed = states_.failed,
            .running = states_.running,
            .pending = states_.pending,
            .deleted = states_.deleted,
            .restarts = restarts_};
  m.end_s = end.seconds();
  if (submitted_ == 0) return m;
  m.queueing = latencies_.Finish();
  const SimTime window_end = last_completion_.value_or(end);
  if (last_completion_) m.makespan_s = (*last_completion_ - first_submit_).seconds();
  m.gpu_allocation_ratio = allocation.MeanRatio(first_submit_, window_end);
  m.gpu_compute_utilization = allocation.MeanBusy(first_submit_, window_end);
  if (work_unit_ != nullptr) m.work_unit = *work_unit_;
  if (m.pods.completed > 0) {
    m.mean_run_s = run_s_ / static_cast<double>(m.pods.completed);
    m.pod_throughput_per_s = speeds_ / static_cast<double>(m.pods.completed);
  }
  if (m.makespan_s && *m.makespan_s > 0) m.throughput_per_s = done_ / *m.makespan_s;
  return m;
}

}  // namespace migsim
