#pragma once
// Runs one variant of a scenario and collects what the outputs report: the one owner of
// "make the policy, run the engine, collect the results" for every study.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/metrics/autoscaling_metrics.h"
#include "sim/metrics/energy_metrics.h"
#include "sim/metrics/fault_metrics.h"
#include "sim/metrics/gang_metrics.h"
#include "sim/metrics/latency_summary.h"
#include "sim/metrics/queue_timelines.h"
#include "sim/metrics/run_metrics.h"
#include "sim/metrics/timeline_recorder.h"
#include "sim/policy/policy.h"
#include "sim/study/queueing_check.h"
#include "workloads/scenario.h"

namespace migsim {

struct PodRecord {
  std::string name, owner, node, device;
  SimTime created;
  std::optional<SimTime> bound, started, ended;
  std::string state;   // pending, starting, running, completed, failed, deleted
  std::string reason;  // why it ended (Completed, Error, DeviceLost, ...), or empty
  uint32_t restarts = 0;
  SimTime wait;  // how long it was pending, bound or not (WaitOf, unserved_demand.h)
  // Completed pods: work per second of run time, and run time / the job class's run
  // time alone on a whole GPU of the node's model (1 = as fast as that).
  std::optional<double> throughput_per_s, slowdown;
};

struct NodeRecord {
  std::string name, type;
  Labels labels;
  int64_t cpu_milli = 0, memory_mib = 0;
  // Extended resources as the device plugin advertises them at the end: allocatable,
  // and how many of each are requested by pods bound there.
  std::vector<std::pair<std::string, int>> allocatable, allocated;
};

struct VariantResult {
  std::string name;
  std::string policy;
  RunMetrics metrics;
  // The policy's answers (Engine::policy_decisions), those the engine refused (a node that
  // does not fit, a device that is busy...) and why it refused the first (empty if none).
  int64_t policy_decisions = 0;
  int64_t rejected_decisions = 0;
  std::string first_rejection;
  // RunOptions::should_stop stopped the run: only name, policy and the counts above are
  // filled, the rest describes nothing.
  bool stopped = false;
  std::vector<NodeRecord> nodes;
  std::vector<PodRecord> pods;          // empty unless asked for
  std::vector<TimelinePoint> timeline;  // empty unless asked for
  // The mean queueing latency beside queueing theory's, when the scenario asks.
  std::vector<TheoryComparison> theory;
  // Its gangs; none when the run declared no gang.
  std::optional<GangMetrics> gangs;
  // What faults did; none when the scenario has no faults or failure processes.
  std::optional<FaultMetrics> faults;
  // What node autoscaling did and what the nodes cost; none without node groups.
  std::optional<AutoscalingMetrics> autoscaling;
  // The run's energy, its cost and CO2 (every run).
  EnergyMetrics energy;
  // Waiting, admitted and GPUs in use over time per Kueue ClusterQueue and per namespace;
  // none without Kueue and with one namespace, or without the timeline collected.
  std::optional<QueueTimelines> queues;
  // Set when the run stopped early, past its budget (CurrentRunBudget): its results are
  // not a run's and must not be reported as one (OverrunMessage says why).
  std::optional<BudgetOverrun> overrun;
};

// The budget every run gets: io::CurrentInputLimits' run-pods and fault-events.
RunBudget CurrentRunBudget();

// "the run stopped at simulated time T s: more than N pods created (...) (raise it with
// --limit run-pods=N)".
std::string OverrunMessage(const BudgetOverrun& overrun);

// "R of D decisions were rejected (first: <first_rejection>)", for a result whose policy
// had answers refused (rejected_decisions > 0): the one wording `run` and `sweep` warn with.
std::string RejectionMessage(const VariantResult& result);

// True when the scenario puts a pool under DRA.
bool HasDraPool(const Scenario& scenario);
// True when a variant of the file puts a pool under DRA: its outputs then report the MIG
// metrics (RunMetrics::mig) of every variant, for the comparison.
bool HasDraPool(const ScenarioFile& file);

// True when some variant of the file autoscales a pool: its outputs then report every
// variant's cost (VariantResult::autoscaling), for the comparison.
bool HasNodeGroups(const ScenarioFile& file);

// A scenario file's variants, run.
struct RunReport {
  const ScenarioFile* file = nullptr;
  std::vector<VariantResult> variants;  // in the order they ran
};

// The records VariantResult::pods keeps of a run that released pods (RunOptions::pod_sink).
inline constexpr size_t kListedPods = 10'000;

struct RunOptions {
  bool collect_pods = false;      // VariantResult::pods
  bool collect_timeline = false;  // VariantResult::timeline
  // Measures MIG fragmentation (VariantResult::metrics.mig) even when this variant has no
  // DRA pool, so that a file's static variants compare with its DRA ones (HasDraPool).
  bool measure_mig_fragmentation = false;
  // Reports what the nodes cost (VariantResult::autoscaling) even when this variant has no
  // node group, so that a file's fixed variants compare with its autoscaled ones.
  bool measure_cost = false;
  // Extra observers (e.g. a progress display); they must outlive the call.
  std::vector<EngineObserver*> observers{};
  // Asked between event times (EngineConfig::should_stop): true stops the run there and
  // the result is VariantResult::stopped.
  std::function<bool()> should_stop{};
  // The queue order the policy run supplies (Policy::SuppliedQueueOrder), whatever the
  // scenario's scheduler.queue_order says: Python's run(queue_order="policy").
  // REQUIRES: the policy supplies one.
  bool queue_order_from_policy = false;
  // A run of more pods than this (its Pod workloads and traces) gives back the records of
  // pods that are over as it goes (EngineConfig::release_ended_pods; not with gangs) and
  // folds them into its results then (PodSummaries); any run reports percentiles of up to
  // this many values exactly, of more within kSketchRelativeError (LatencySummary).
  size_t exact_limit = kExactValues;
  // With collect_pods: called with each pod's record as the run folds it in (a per-pod
  // listing written as the run goes). In PodId order, unless the run released pods: then
  // block after block of PodStore::kBlockSize pods in the order they were over, in PodId
  // order within each, and the pods still held at the end after them, in PodId order.
  // VariantResult::pods keeps the records too, all of them unless the run released pods:
  // then only the first kListedPods (what the HTML report and the trace draw).
  std::function<void(const PodRecord&)> pod_sink{};
};

// What the engine runs of `scenario`: its cluster (referenced: it must outlive the engine),
// templates, a controller per workload, the scheduler's settings and queue order — the one
// `order_source` supplies when given, else the one scheduler.queue_order names.
// REQUIRES: `order_source` supplies a queue order when given; given when
// scheduler.queue_order is "policy".
EngineInputs MakeEngineInputs(const Scenario& scenario, Policy* order_source = nullptr);

// A fresh policy of the kind the scenario names: the one place a study makes a policy
// from a scenario. REQUIRES: the scenario's policy is valid (the loaders check it).
std::unique_ptr<Policy> MakeScenarioPolicy(const Scenario& scenario);

// Runs `scenario` under a fresh MakeScenarioPolicy(scenario): policies may learn from what
// they placed (fgd), so no two runs share one. Deterministic: the same scenario gives the
// same result.
VariantResult RunVariant(const std::string& name, const Scenario& scenario,
                         const RunOptions& options = {});

// Runs `scenario` under `policy` instead of the one it names: for tests with a scripted
// policy, or to compare policies on one scenario. `policy` must not have run before if
// results are to be reproducible.
VariantResult RunVariant(const std::string& name, const Scenario& scenario, Policy& policy,
                         const RunOptions& options = {});

// What the cluster's nodes cost per hour: the sum of their types' price_per_hour.
double ClusterCostPerHour(const ClusterSpec& cluster);

}  // namespace migsim
