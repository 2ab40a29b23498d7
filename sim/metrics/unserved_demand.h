#pragma once
// Demand a run left waiting (UnservedDemand, run_metrics.h): pods deleted before they
// ever bound, pods that never bound, the longest wait of any pod, bound or not, and the
// pods pending over time, overall, per workload and per namespace. Queueing latency counts
// only pods that bound; a Deployment's replicas that wait through a peak and are deleted
// at the scale-down never bind, and only these metrics see them.

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/pod.h"
#include "sim/metrics/pending_recorder.h"
#include "sim/metrics/latency_summary.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

// How long `pod` was pending: creation -> binding; never bound, creation -> its end, or
// `end` (the end of the run) while it is still pending.
SimTime WaitOf(const Pod& pod, SimTime end);

// The run's unserved demand; `end` is the end of the run and `pending` recorded it.
// `templates` are indexed by TemplateId, `namespaces` by PodTemplate::namespace_index;
// `workload_name` names an owner ("Deployment/chat"). The mean pending is the pods' waits
// over the run's length (the time integral of the pending count).
UnservedDemand ComputeUnservedDemand(std::span<const Pod> pods,
                                     std::span<const PodTemplate> templates,
                                     std::span<const std::string> namespaces,
                                     const PendingRecorder& pending, SimTime end,
                                     const std::function<std::string(OwnerId)>& workload_name);

// The same, one pod at a time (RunMetricsSummary's contract). `end` in Add is the end of
// the run for a pod still pending then; a pod that ended does not use it.
class UnservedDemandSummary {
 public:
  // `templates` and `namespaces` must outlive the summary.
  UnservedDemandSummary(std::span<const PodTemplate> templates,
                        std::span<const std::string> namespaces, size_t exact_limit = kExactValues)
      : templates_(templates), namespaces_(namespaces), by_namespace_(namespaces.size()),
        deleted_waits_(exact_limit) {}
  void Add(const Pod& pod, SimTime end);
  UnservedDemand Finish(const PendingRecorder& pending, SimTime end,
                        const std::function<std::string(OwnerId)>& workload_name);

 private:
  std::span<const PodTemplate> templates_;
  std::span<const std::string> namespaces_;
  WaitingGroup all_;
  std::vector<WaitingGroup> workloads_, by_namespace_;
  LatencySummary deleted_waits_;
};

// "28 pods were deleted without ever binding (Deployment/chat 28), the longest after
// 10.1 h", or "" when none was.
std::string DescribeUnboundDeletions(const UnservedDemand& demand);

// A duration for people: "35.0 s", "4.2 min", "10.1 h".
std::string HumanDuration(double seconds);

}  // namespace migsim
