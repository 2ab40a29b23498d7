#pragma once
// The metrics every output reports (definitions in README "Output"):
// makespan, queueing latency, GPU allocation ratio and pod accounting.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/pod.h"
#include "sim/metrics/allocation_recorder.h"

namespace migsim {

struct LatencyStats {
  int64_t count = 0;  // pods that were bound
  double mean_s = 0, p50_s = 0, p95_s = 0, p99_s = 0, max_s = 0;
  // 0: the percentiles are exact; else each is within this relative error of the exact
  // one (a run of more values than LatencySummary keeps: sim/metrics/latency_summary.h).
  double relative_error = 0;
};

struct PriorityClassLatency {
  std::string name;  // the class's, or "(none)" for pods without one
  int32_t priority = 0;
  int64_t pods = 0;  // pods of the class the run created (bound or not)
  LatencyStats queueing;
};

// A Kueue ClusterQueue over a run (kueue_metrics.h).
struct ClusterQueueMetrics {
  std::string name;
  int64_t workloads = 0;   // created in the queue
  int64_t admitted = 0;    // admitted at least once
  int64_t waiting = 0;     // pending at the end (never admitted, or evicted and not readmitted)
  int64_t evictions = 0;   // preemptions of its workloads
  LatencyStats admission;  // creation -> first admission, over admitted workloads
  // nvidia.com/gpu beyond its nominal quota (over flavors), time-weighted over the run.
  double borrowed_gpus_mean = 0;
  int64_t borrowed_gpus_max = 0;
};

// Every pod the run created, by its state at the end: submitted = completed + failed +
// running + pending + deleted. CountPods cannot break that sum (it puts each of the run's
// pods in one state); Engine::Run checks it at the end of every run against each
// controller's submissions, counted as they happened (sim/engine/pod_accounting.h).
struct PodCounts {
  int64_t submitted = 0;
  int64_t completed = 0;
  int64_t failed = 0;
  int64_t running = 0;   // bound to a node at the end (starting or running)
  int64_t pending = 0;   // never bound, or not yet
  int64_t deleted = 0;   // removed by their controller (scale-down, failed Job)
  int64_t restarts = 0;  // in-place container restarts (not pods: not in the identity)
};

// Jobs: what a user submitted as one unit (a Job, a Workflow, a bare-pod workload, each
// pod of a trace; Deployments are services, not jobs). Definitions in job_completion.h.
struct JobStats {
  int64_t completed = 0;   // every pod it needed succeeded
  int64_t failed = 0;      // failed for good (a Job past its backoffLimit, ...)
  int64_t unfinished = 0;  // neither, at the end of the run
  // Job completion time (first pod created -> last pod ended) of completed jobs.
  LatencyStats completion;
  // Completed jobs' completion time / service time (job_completion.h): ratios >= 1 in
  // the `_s` fields. Jobs whose pods never ran for a positive time are left out.
  LatencyStats slowdown;
};

// One tenant (namespace) of a run: its share of the GPU time and its jobs.
struct TenantUsage {
  std::string name;
  int64_t pods = 0;      // pods the run created in it
  double gpu_hours = 0;  // GPU capacity allocated to its pods x time (tenant_share.h)
  double gpu_share = 0;  // its gpu_hours / every tenant's; 0 when no GPU time at all
  JobStats jobs;
};

// MIG repartitioning and fragmentation over a run (README "Output"): what the MIG manager's
// node-wide windows cost a static cluster, and what DRA's DynamicMIG does instead.
struct MigMetrics {
  // Stranded compute slices / compute slices of MIG-enabled GPUs, both integrated over the
  // run (sim/policy/mig_fragmentation.h); 0 without MIG.
  double fragmentation = 0;
  int64_t reconfiguration_windows = 0;  // MIG manager windows opened (relabels, policies)
  int64_t instances_created = 0;        // DRA DynamicMIG instances created at allocation
  int64_t instances_destroyed = 0;      // ... and destroyed at release
  double creation_s = 0;                // instance creation time pods waited for, summed
};

// Pods pending over a run: the most pending at once over a positive time, and the
// time-weighted mean over [0, end of run] (unserved_demand.h).
struct PendingLoad {
  int64_t peak = 0;
  double mean = 0;
};

// One workload's (its controller's: "Deployment/chat") or one namespace's waiting pods.
struct WaitingGroup {
  std::string name;
  int64_t pods = 0;             // pods the run created in it
  int64_t deleted_unbound = 0;  // of those, deleted without ever binding
  int64_t never_bound = 0;      // never bound: deleted unbound, pending at the end, ...
  double longest_wait_s = 0;    // the longest any of its pods was pending
  PendingLoad pending;
};

// Demand the run did not serve, or served late, whether or not the pods ever bound
// (unserved_demand.h): what queueing latency, which counts only pods that bound, cannot
// show. A pod's wait is its time pending: creation -> binding; for a pod never bound,
// creation -> its end (deleted by its controller) or the end of the run.
struct UnservedDemand {
  int64_t deleted_unbound = 0;       // pods deleted (scale-down, failed Job) before binding
  LatencyStats deleted_unbound_wait;  // their waits, creation -> deletion
  // Pods that never bound: deleted unbound, pending at the end, or ended otherwise
  // before binding. What plan SLO max_unserved bounds.
  int64_t never_bound = 0;
  double longest_wait_s = 0;  // the longest wait of any pod, bound or not
  PendingLoad pending;
  std::vector<WaitingGroup> workloads;   // workloads with pods, in OwnerId order
  std::vector<WaitingGroup> namespaces;  // namespaces with pods, in the scenario's order
};

struct RunMetrics {
  // Last completion - first submission; nullopt when no pod completed.
  std::optional<double> makespan_s;
  LatencyStats queueing;
  // Time-weighted over the makespan window, or over [first submission, end of run]
  // when no pod completed.
  double gpu_allocation_ratio = 0;
  // GPU capacity kept busy computing / total, over the same window (a process busies
  // its device by its duty cycle; time-sliced ones by their shares): how much of what
  // was allocated did work.
  double gpu_compute_utilization = 0;
  PodCounts pods;
  double end_s = 0;  // simulated time at the end of the run
  // Completed pods' run time (start -> end), mean; 0 when none completed.
  double mean_run_s = 0;
  // Work of completed pods / makespan, in `work_unit`s per second ("mixed" when the
  // completed pods' job classes name different units); 0 without a makespan.
  double throughput_per_s = 0;
  // Mean over completed pods of their work / their run time: the speed one pod saw.
  double pod_throughput_per_s = 0;
  std::string work_unit;
  // Preemption (Engine::preemptions): pods evicted, and the GPU-hours they held that no
  // checkpoint kept.
  int64_t preemptions = 0;
  double gpu_hours_lost_to_preemption = 0;
  // Queueing latency by PriorityClass (priority_latency.h); empty when no pod has one.
  std::vector<PriorityClassLatency> queueing_by_priority_class;
  // Per Kueue ClusterQueue, in the scenario's order; empty without Kueue.
  std::vector<ClusterQueueMetrics> cluster_queues{};
  // Jobs (job_completion.h) and tenants (tenant_share.h): completion time, slowdown, GPU
  // time per namespace and Jain's fairness index over the namespaces' GPU time.
  JobStats jobs;
  std::vector<TenantUsage> tenants;  // namespaces with pods, in the scenario's order
  double gpu_hours = 0;              // every pod's GPU capacity x time allocated
  std::optional<double> jain_index;  // nullopt when no tenant was allocated GPU time
  MigMetrics mig{};
  UnservedDemand unserved{};
};

// What one pod of a template is worth when it completes.
struct TemplateWork {
  double work = 1;
  std::string unit = "runs";
};

// Nearest-rank percentile of sorted values: the value at rank ceil(p * n).
// REQUIRES: !sorted.empty(), 0 < p <= 1.
double NearestRank(std::span<const double> sorted, double p);

LatencyStats ComputeLatency(std::vector<double> latencies_s);
// True for a pod that was bound to a node (its queueing latency is bound - created).
inline bool WasBound(const Pod& pod) { return pod.phase != PodPhase::kPending && pod.node.valid(); }
PodCounts CountPods(std::span<const Pod> pods);
// `work` is indexed by the pods' TemplateId.
RunMetrics ComputeMetrics(std::span<const Pod> pods, const AllocationRecorder& allocation,
                          SimTime end, std::span<const TemplateWork> work);

}  // namespace migsim
