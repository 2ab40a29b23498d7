#pragma once
// The fill experiment's cluster as the engine shows it to a Policy, so that any policy a
// scenario can name (a plugin library, a Python object, a registry built-in with
// parameters, a weighted combination) can place the fill's pods. The nodes and pods are
// shaped as `migsim run scenarios/openb/default-replay.json` shapes them: each node a
// NodeRuntime built from an openb row (its CPU and memory, its GPUs of a catalog model,
// the openb model as label alibabacloud.com/gpu-card-model, device_plugin.fractional with
// 1000 alibabacloud.com/gpu-milli per GPU); each pod a Trace workload's pod (CPU, memory,
// num_gpu x gpu_milli of the share resource, gpu_spec as node affinity on the model label).
//
// Node i of the view is the node of tie-break rank i (openb-protocol.md §2.2 step 7), so a
// policy whose ties go to the lowest node id — the API's default Place — breaks them as
// the protocol does. Answers are checked as Engine::Valid checks them (the node exists
// and ClusterView::Fits; chosen devices pass NodeRuntime::ValidChoices) and, as in the
// study's node YAML, a node holds at most 1001 pods; a refused answer binds nothing.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/core/status.h"
#include "sim/engine/cluster_spec.h"
#include "sim/engine/node_runtime.h"
#include "sim/policy/policy.h"
#include "sim/study/openb/fill_experiment.h"

namespace migsim {

class FillClusterView {
 public:
  // What became of one pod: bound (the node's rank and the GPUs it took, by index), or
  // not — the policy found no node, or answered with a placement the checks refused.
  struct Outcome {
    std::optional<size_t> rank;
    std::vector<int> gpus;
    bool refused = false;
  };

  // `by_rank[i]` is the node of rank i; `pods` the trace (FillPod addresses identify the
  // pods Place is given). Both must outlive the view. InvalidArgument (from Make) for a
  // node the engine cannot represent (CPU not in whole cores).
  static Result<std::unique_ptr<FillClusterView>> Make(std::vector<const FillNode*> by_rank,
                                                       const std::vector<FillPod>& pods);

  // Offers `pod` (the trace's, the `submission`-th submitted: its PodId) to `policy` and
  // binds it where the policy says, when the answer passes the engine's checks.
  Outcome Place(Policy& policy, const FillPod& pod, uint32_t submission);

 private:
  FillClusterView(const std::vector<FillPod>& pods) : pods_(&pods) {}
  bool Valid(const Placement& placement, const PodView& pod, const ClusterView& view) const;

  const std::vector<FillPod>* pods_;
  ResourceTable resources_;
  std::vector<NodeSpec> specs_;  // by rank; NodeRuntime keeps pointers into it
  std::vector<NodeRuntime> runtimes_;
  std::vector<NodeInfo> info_;
  std::vector<PodRequests> requests_;    // by trace pod
  std::vector<NodeAffinity> affinity_;   // by trace pod
  std::vector<NodeRuntime::Held> held_;  // reused per bind
};

}  // namespace migsim
