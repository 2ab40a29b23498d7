#pragma once
// Cluster controllers: what acts on the cluster itself rather than on a workload's pods
// (those are workload Controllers, controller.h) — the Cluster Autoscaler, Karpenter,
// Kueue, the MIG manager, node faults. Each lives in a folder of its own among the
// controllers (README "How the code is laid out"), owns its state, its events (as timers)
// and its results, and talks to the engine only through its ClusterApi (cluster_api.h).
//
// The engine calls its controllers in the order it was given them (make_controllers.cc
// documents that order): the order of their timers' sequence numbers, and so of the run,
// depends on it. Within an instant: the events (timers among them), then BeforeCycle of
// each controller, the scheduling cycle, then AfterCycle of each.

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "sim/engine/cluster_api.h"
#include "sim/engine/kueue_spec.h"

namespace migsim {

// The Kueue role: the engine forwards workload controllers' admission requests
// (ControllerContext::RequestAdmission, FinishWorkload) to the one controller that takes it.
class WorkloadAdmission {
 public:
  // REQUIRES: `local_queue` is a LocalQueue of the run's Kueue objects, `pod_sets` not empty.
  virtual WorkloadId RequestAdmission(ClusterApi& api, OwnerId owner, int32_t local_queue,
                                      std::span<const PodSet> pod_sets) = 0;
  virtual void FinishWorkload(ClusterApi& api, WorkloadId workload) = 0;

 protected:
  ~WorkloadAdmission() = default;
};

// The MIG manager role: takes the MIG layouts policies ask for (Policy::PostFilter's
// MigReconfiguration), once the engine validated them, and applies them.
class MigLayoutRequests {
 public:
  // `target`: every GPU's setting once applied. REQUIRES: the node is not reconfiguring.
  virtual void RequestLayout(ClusterApi& api, NodeId node,
                             std::vector<GpuMigSetting> target) = 0;

 protected:
  ~MigLayoutRequests() = default;
};

// The node provider role (the node groups' controller, NodeGroups): what the engine asks of
// the instances behind the nodes.
class NodeProvider {
 public:
  // The instance running in `node`'s slot (ClusterApi::node_instance).
  virtual uint32_t Instance(NodeId node) const = 0;
  // ClusterApi::DeleteNode of a node group's node: its instance is terminated (its slot may
  // launch again); true. False: `node` is no group's, and the engine removes it for good.
  virtual bool DeleteInstance(ClusterApi& api, NodeId node) = 0;

 protected:
  ~NodeProvider() = default;
};

class ClusterController {
 public:
  virtual ~ClusterController() = default;
  // "mig-manager", "kueue", "faults", "cluster-autoscaler", "karpenter", ...
  virtual std::string_view name() const = 0;
  // At t = 0, after the workload controllers' Start.
  virtual void Start(ClusterApi& /*api*/) {}
  virtual void OnTimer(ClusterApi& /*api*/, uint64_t /*tag*/) {}
  // Around each scheduling cycle: before it (Kueue's admissions), after it (an autoscaler's
  // scan of what the scheduler left pending). AfterCycle is not called after the cycle at
  // t = 0, which runs before any event.
  virtual void BeforeCycle(ClusterApi& /*api*/) {}
  virtual void AfterCycle(ClusterApi& /*api*/) {}
  // `node` changed (NodeChange), at the point of the engine's call sequence where it did.
  virtual void OnNodeChanged(ClusterApi& /*api*/, NodeId /*node*/, NodeChange /*change*/) {}
  // Asked when only idle events are left (TimerKind::kIdle) and this controller has an idle
  // timer queued: true when it may still change something, which keeps the run going.
  virtual bool MayAct(const ClusterApi& /*api*/) const { return false; }
  // At the end of a run that was not stopped (EngineConfig::should_stop): books close.
  virtual void Finish(ClusterApi& /*api*/) {}
  // The roles this controller takes, if any (at most one controller takes each).
  virtual WorkloadAdmission* admission() { return nullptr; }
  virtual MigLayoutRequests* mig_layouts() { return nullptr; }
  virtual NodeProvider* node_provider() { return nullptr; }
};

using ClusterControllers = std::vector<std::unique_ptr<ClusterController>>;

// The first of `controllers` that is a T, or null: how results are read after a run.
template <class T>
const T* FindController(std::span<const std::unique_ptr<ClusterController>> controllers) {
  for (const std::unique_ptr<ClusterController>& c : controllers) {
    if (const auto* found = dynamic_cast<const T*>(c.get())) return found;
  }
  return nullptr;
}

}  // namespace migsim
