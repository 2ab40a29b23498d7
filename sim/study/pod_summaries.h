#pragma once
// The results a run computes from its pods, folded in one pod at a time: the run metrics,
// queueing by priority class, jobs, tenants and unserved demand, and each pod's record
// for the per-pod listing. What lets a run give back the records of pods that are over
// (EngineConfig::release_ended_pods): as a block of them is released it is folded in
// (OnPodsReleased), and at the end the pods still held are.
//
// Folded in PodId order — a run that releases nothing folds every pod at its end — the
// results are those the whole-list functions (ComputeMetrics, ...) give, bit for bit, up
// to `exact_limit` values of a percentile (LatencySummary). Folded as blocks are released,
// sums may differ in their last bits (another order of addition) and past the limit the
// percentiles are estimates within kSketchRelativeError.

#include <functional>
#include <span>
#include <vector>

#include "sim/engine/observer.h"
#include "sim/metrics/job_completion.h"
#include "sim/metrics/priority_latency.h"
#include "sim/metrics/run_metrics_summary.h"
#include "sim/metrics/tenant_share.h"
#include "sim/metrics/unserved_demand.h"
#include "workloads/job_rule.h"
#include "workloads/scenario.h"

namespace migsim {

class PodSummaries final : public EngineObserver {
 public:
  // `scenario`, `work` and `rules` must outlive the summaries; `claim_gpu_hours` as
  // TenantSummary's.
  PodSummaries(const Scenario& scenario, std::span<const TemplateWork> work,
               std::span<const JobRule> rules, std::span<const double> claim_gpu_hours,
               size_t exact_limit);

  // Called with each pod as it is folded in (the per-pod listing); may be empty.
  std::function<void(const Pod&)> on_pod;

  void OnPodsReleased(std::span<const Pod> pods) override;
  // Folds one pod in; `end` is the end of the run, for a pod still pending or bound.
  void Add(const Pod& pod, SimTime end);

  RunMetrics metrics(const AllocationRecorder& allocation, SimTime end) {
    return run_.Finish(allocation, end);
  }
  std::vector<PriorityClassLatency> priority_classes() { return priority_.Finish(); }
  // m.jobs, m.tenants, m.gpu_hours and m.jain_index.
  void AddJobsAndTenants(std::span<const double> late_claim_gpu_hours, RunMetrics& m);
  UnservedDemand unserved(const PendingRecorder& pending, SimTime end,
                          const std::function<std::string(OwnerId)>& workload_name) {
    return unserved_.Finish(pending, end, workload_name);
  }

 private:
  RunMetricsSummary run_;
  PriorityLatencySummary priority_;
  JobSummary jobs_;
  TenantSummary tenants_;
  UnservedDemandSummary unserved_;
};

}  // namespace migsim
