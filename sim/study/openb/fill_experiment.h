#pragma once
// The fill experiment of the ATC'23 FGD study on the Alibaba openb trace
// (openb-protocol.md §2): the original pods in a random order, topped up by resampling to
// `tune_ratio` of the cluster's GPU capacity, scheduled one by one by a GPU-sharing policy
// with no departures; an unschedulable pod is dropped and counted. After every pod the
// arrived and allocated milli-GPU and the cluster's fragmentation are recorded.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/rng.h"
#include "sim/core/status.h"
#include "sim/policy/gpu_fragmentation.h"
#include "sim/policy/gpu_share.h"
#include "sim/policy/gpu_share_scorer.h"
#include "sim/policy/policy.h"

namespace migsim {

struct FillNode {
  std::string name;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int gpus = 0;
  std::string model;
};

struct FillPod {
  std::string name;
  int64_t memory_mib = 0;
  PodShape shape;
};

struct FillConfig {
  // The policy's label in results; for RunFill, a GpuShareScorerNames() entry.
  std::string policy = "fgd";
  uint64_t seed = 42;
  double tune_ratio = 1.3;
};

// The cluster after one pod.
struct FillEvent {
  int64_t arrived_milli = 0;  // GPU request of every pod so far, failed ones included
  int64_t used_milli = 0;     // milli-GPU allocated
  double frag_milli = 0;      // cluster fragmentation F (§5.4)
  double idle_milli = 0;      // unallocated milli-GPU
};

struct FailedShape {
  PodShape shape;
  int64_t count = 0;
};

// The cluster when the run ends, in the terms of the reference simulator's final report
// (openb-protocol.md §2.5 "Reference final state"), so the two compare field by field.
struct FillFinalState {
  int64_t cpu_milli_used = 0, cpu_milli_total = 0;
  int64_t memory_mib_used = 0, memory_mib_total = 0;
  int64_t gpus_allocated = 0;  // GPUs holding any allocation (the report's "Gpu")
  int64_t milli_gpu_used = 0;
  FragBreakdown idle;  // the idle milli-GPU split by category; fragment() is F
};

struct FillResult {
  int64_t total_gpus = 0;
  int64_t pods_submitted = 0;  // originals + tuned clones
  int64_t pods_failed = 0;
  // Of the failed pods, those the policy placed where the checks refused (RunPolicyFill:
  // a node that does not fit, devices that are not free): a buggy policy shows here.
  int64_t answers_refused = 0;
  std::vector<FillEvent> events;    // one per pod, in submission order
  std::vector<FailedShape> failed;  // by decreasing count
  FillFinalState final_state;
};

// The pods of a run in submission order (§2.2 steps 4 and 6): the originals sorted by
// name (`pool`, also the typical-pod sample) then shuffled, followed by clones drawn with
// replacement until the GPU request reaches `target_milli`. Pointers into `pods`.
struct FillPlan {
  std::vector<const FillPod*> pool;
  std::vector<const FillPod*> order;
};
FillPlan PlanSubmissions(const std::vector<FillPod>& pods, double target_milli, Rng& rng);

// A uniformly random permutation of 0..n-1: node i's tie-break rank (§2.2 step 7).
std::vector<int64_t> RandomRanks(size_t n, Rng& rng);

// What every run on one trace shares, computed once (§2.2 steps 1 and 2, no randomness):
// the originals sorted by name (PlanSubmissions' pool), the typical pods, and each pod's
// shape and request class (shape and memory) as small ids. Read-only once made, so runs
// on several threads share one. Keeps the address of `pods`, which must outlive it.
class FillTrace {
 public:
  explicit FillTrace(const std::vector<FillPod>& pods);

  const std::vector<FillPod>& pods() const { return *pods_; }
  const std::vector<const FillPod*>& pool() const { return pool_; }
  const std::vector<TypicalPod>& typical() const { return typical_; }
  size_t shapes() const { return shapes_; }
  size_t classes() const { return classes_; }
  // REQUIRES: `pod` is an element of pods().
  uint32_t ShapeOf(const FillPod& pod) const { return ids_[Index(pod)].shape; }
  uint32_t ClassOf(const FillPod& pod) const { return ids_[Index(pod)].cls; }

 private:
  struct Ids {
    uint32_t shape = 0;
    uint32_t cls = 0;
  };
  size_t Index(const FillPod& pod) const { return static_cast<size_t>(&pod - pods_->data()); }

  const std::vector<FillPod>* pods_;
  std::vector<const FillPod*> pool_;
  std::vector<TypicalPod> typical_;
  std::vector<Ids> ids_;  // by pod of pods()
  size_t shapes_ = 0;
  size_t classes_ = 0;
};

// Makes the policy a run uses, from the run's random stream and typical pods (which
// outlive it); nullptr for an unknown name. policies/ provides MakeGpuShareScorer.
using GpuShareScorerFactory = std::function<std::unique_ptr<GpuShareScorer>(
    std::string_view name, const GpuShareContext& context)>;

// InvalidArgument for an unknown policy or an empty cluster.
Result<FillResult> RunFill(const std::vector<FillNode>& nodes, const std::vector<FillPod>& pods,
                           const FillConfig& config, const GpuShareScorerFactory& make_policy);
// The same, on a trace prepared once for many runs.
Result<FillResult> RunFill(const std::vector<FillNode>& nodes, const FillTrace& trace,
                           const FillConfig& config, const GpuShareScorerFactory& make_policy);

// The same protocol — the same submissions, ranks, events and final state — with any
// Policy choosing the node and devices, through the engine-shaped view of
// fill_cluster_view.h (node i of the view is the node of rank i). A pod the policy leaves
// unplaced, or places where the engine's checks refuse, fails. `policy` serves this run
// alone (policies keep state between pods); config.policy is its label.
// InvalidArgument for an empty cluster or a node the view cannot represent.
Result<FillResult> RunPolicyFill(const std::vector<FillNode>& nodes,
                                 const std::vector<FillPod>& pods, const FillConfig& config,
                                 Policy& policy);
Result<FillResult> RunPolicyFill(const std::vector<FillNode>& nodes, const FillTrace& trace,
                                 const FillConfig& config, Policy& policy);

}  // namespace migsim
