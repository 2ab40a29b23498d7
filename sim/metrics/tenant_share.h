#pragma once
// Tenants (namespaces): each one's share of the cluster's GPU time, and how evenly the
// GPU time went to them (Jain's fairness index).
//
// GPU time of a pod: the GPU capacity it holds while bound (Pod::gpus: a whole GPU 1, a
// MIG device its compute slices / the GPU's, a time-sliced or MPS replica 1 / replicas, a
// fractional share its units / the GPU's) x the time it held it, from binding to its end
// (or to the end of the run). A tenant's GPU time is its pods' sum, in GPU-hours.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/pod.h"
#include "sim/metrics/job_completion.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

// One entry per namespace that has pods, in the order of `namespaces` (indexed by
// PodTemplate::namespace_index): its pods, GPU-hours, share of all tenants' GPU-hours and
// the stats of its jobs (`jobs` from CollectJobs). `end` is the end of the run. A pod's
// GPU-hours are Pod::gpus from bind to end; `claim_gpu_hours` (by namespace, empty or one
// per namespace) adds what shared ResourceClaims held (Engine::SharedClaimGpuHours).
std::vector<TenantUsage> TenantUsages(std::span<const Pod> pods,
                                      std::span<const PodTemplate> templates,
                                      std::span<const std::string> namespaces,
                                      std::span<const JobRecord> jobs, SimTime end,
                                      std::span<const double> claim_gpu_hours = {});

// The same, one pod at a time (RunMetricsSummary's contract). `claim_gpu_hours` as above,
// known when the summary starts (at the end of a run whose pods are all held), else
// given to Finish (`late_claim_gpu_hours`, added after the pods' sums). `end` in Add is
// the end of the run, for pods still bound then.
class TenantSummary {
 public:
  TenantSummary(std::span<const PodTemplate> templates, std::span<const std::string> namespaces,
                std::span<const double> claim_gpu_hours = {});
  void Add(const Pod& pod, SimTime end);
  // `jobs_by_namespace`: JobSummary's by_namespace.
  std::vector<TenantUsage> Finish(std::span<const JobStats> jobs_by_namespace,
                                  std::span<const double> late_claim_gpu_hours = {});

 private:
  std::span<const PodTemplate> templates_;
  std::span<const std::string> namespaces_;
  std::vector<int64_t> pod_count_;
  std::vector<double> gpu_hours_;
  double total_ = 0;
};

// Jain's fairness index J = (Σx)² / (n Σx²) over the n values: 1 when all are equal, 1/n
// when one has everything. nullopt when there are none or all are 0.
std::optional<double> JainIndex(std::span<const double> x);

}  // namespace migsim
