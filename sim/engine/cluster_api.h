#pragma once
// What a cluster controller (cluster_controller.h) may read of the cluster and the verbs it
// may use: the API server's side of the seam. In Kubernetes the Cluster Autoscaler,
// Karpenter, Kueue, the GPU Operator's MIG manager and whatever kills nodes are separate
// processes that see the cluster through the API server and change it through its verbs;
// here each is a ClusterController that sees it through a ClusterApi.
//
// The engine gives each controller its own ClusterApi (timers come back to the controller
// that set them) and checks every verb as it checks a policy's decision: a verb used against
// its REQUIRES is an internal error (MIGSIM_CHECK), never a silent change.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/cluster/mig_config.h"
#include "sim/core/ids.h"
#include "sim/core/sim_time.h"
#include "sim/dra/device_class.h"
#include "sim/engine/cluster_spec.h"
#include "sim/engine/disruption_budget.h"
#include "sim/engine/kueue_spec.h"
#include "sim/engine/node_conditions.h"
#include "sim/engine/node_runtime.h"
#include "sim/engine/observer.h"
#include "sim/engine/pending_pods.h"
#include "sim/engine/pod.h"
#include "sim/policy/cluster_view.h"
#include "sim/policy/resources.h"

namespace migsim {

// What a timer is to the end of a run without a horizon, which ends when only idle events
// are left. kActive: it keeps the run going. kIdle: it does not, unless its controller
// MayAct() then (an autoscaler's periodic scan). kIdleWithoutHorizon: as kIdle in a run
// without a horizon, kActive in one with a horizon, where it runs up to the horizon like any
// event (a failure process's next draw: failures no work is left to suffer).
enum class TimerKind : uint8_t { kActive, kIdle, kIdleWithoutHorizon };

// A node group's instance changing, as the node groups' controller announces it
// (ClusterApi::AnnounceNodeChange) or the engine does (a node deleted for good).
enum class NodeChange : uint8_t {
  kStarted,     // running from t = 0 (its group's initial nodes), at the run's start
  kReady,       // a launched instance registered Ready
  kTerminated,  // the instance is gone (scaled down, reclaimed, or deleted by DeleteNode)
  kRemoved,     // a node that is no node group's was deleted for good (DeleteNode)
};

class ClusterApi {
 public:
  // Reading.
  virtual SimTime now() const = 0;
  // The run's seed: a controller seeds its own random streams from it (each with a
  // constant of its own), so that its draws neither shift nor are shifted by others'.
  virtual uint64_t seed() const = 0;
  virtual const ClusterSpec& cluster() const = 0;
  // A pod by id; one whose record the run released reads as PodStore::Released().
  virtual const Pod& pod(PodId id) const = 0;
  virtual std::span<const NodeInfo> nodes() const = 0;
  virtual const NodeRuntime& node_runtime(NodeId node) const = 0;
  virtual const PodTemplate& pod_template(TemplateId tmpl) const = 0;
  virtual const ResourceTable& resources() const = 0;
  // When the MIG change under way on `node` ends (<= now(): none is).
  virtual SimTime reconfiguring_until(NodeId node) const = 0;
  // The node's conditions (node_conditions.h).
  virtual const NodeConditions& node_conditions(NodeId node) const = 0;
  // The instance running in `node`'s slot: a node group's node counts its launches (a node
  // terminated and launched again is another instance, as a new cloud instance ID is); 0
  // for every other node.
  virtual uint32_t node_instance(NodeId node) const = 0;
  // The run's horizon (SimTime::Max(): none; the run ends when only idle timers are left).
  virtual SimTime horizon() const = 0;
  // The DeviceClasses the run's claims name (for simulating pods on nodes that do not exist).
  virtual std::span<const dra::DeviceClass> device_classes() const = 0;
  // Whether `owner`'s pods are recreated when evicted (false: bare Pods; Controller::
  // RecreatesPods).
  virtual bool RecreatesPods(OwnerId owner) const = 0;
  // The PodDisruptionBudgets and their counts now (disruptionsAllowed: Allowed()).
  virtual const DisruptionBudgets& disruption_budgets() const = 0;
  // The last time a pod bound to `node` or left it, or its resources or schedulable flag
  // changed (zero: never). Karpenter's consolidateAfter counts from it.
  virtual SimTime node_changed_at(NodeId node) const = 0;

  // What the scheduler says, as the autoscalers' simulations ask it (kube-scheduler's
  // framework run on a snapshot; nothing changes).
  // The scheduler's verdict after the last cycle: the pending pods it refused (tried at
  // least once; not nominated by preemption, pinned to a node or holding shared claims)
  // that fit no node as it stands, one PendingPods per scheduling class (the class's oldest
  // pod's view); a gang's pods are one per gang (those waiting for nodes). Highest priority,
  // then oldest, first.
  virtual std::vector<PendingPods> UnschedulablePods() const = 0;
  // A removal of the `leaving` nodes simulated as the autoscalers do: their pods (not
  // terminating) moved all at once, each onto the first other node that fits it besides the
  // pods already sent there (gangs keep their (anti-)affinity); the pods that find no room.
  // Nodes marked in `held` (by node; empty: none) take no pod.
  virtual std::vector<PendingPods> PodsThatCannotMove(std::span<const uint32_t> leaving,
                                                      std::span<const uint8_t> held) const = 0;
  // By node, 1 where the next pod of a gang waiting for nodes (after a failed attempt) fits
  // as the node stands: nodes that gang needs. Empty when no gang waits.
  virtual std::vector<uint8_t> NodesWaitingGangsNeed() const = 0;

  // Calls this controller's OnTimer(tag) at `at`. REQUIRES: at >= now().
  virtual void SetTimer(SimTime at, uint64_t tag, TimerKind kind = TimerKind::kActive) = 0;

  // The MIG manager's mechanism (the engine's: nvidia.com/mig.config applied by mig-parted).
  // BeginMigChange starts applying `target` to `node`, labelled `config`, for `duration`: gang
  // reservations there are released, pods on the GPUs that change lose their device (ended
  // DeviceLost at once, their lost GPU time booked to `book`) and the device plugin is
  // withdrawn. REQUIRES: the node is not reconfiguring.
  virtual void BeginMigChange(NodeId node, const std::vector<GpuMigSetting>& target,
                              const std::string& config, SimTime duration, LossBook book) = 0;
  // A repartition a policy asked for (Policy::PostFilter) that the engine validated: every
  // busy GPU instance keeps its placement, so no pod loses its device; the device plugin is
  // withdrawn until `until`. REQUIRES: the node is not reconfiguring, until >= now().
  virtual void BeginMigRepartition(NodeId node, const std::string& config, SimTime until) = 0;
  // The change under way on `node` is applied: `gpus` (labelled `config`) become its
  // layouts, devices are rebuilt, surviving pods follow theirs, pending pods are retried.
  virtual void FinishMigChange(NodeId node, const std::vector<GpuMigSetting>& gpus,
                               const std::string& config) = 0;

  // Node conditions (the kubelet's, the node lifecycle controller's and the API server's
  // mechanism; the engine keeps the counts of node_conditions.h). REQUIRES for each: the
  // node is not removed.
  // The node goes NotReady (the kubelet stops posting status): unschedulable (the
  // not-ready:NoSchedule taint) once the first cause comes, its gang reservations released,
  // and its pods stop at once and end NodeLost after `toleration` (the NoExecute taint
  // manager's eviction). Counted: one more cause.
  virtual void SetNodeNotReady(NodeId node, SimTime toleration) = 0;
  // One cause of NotReady ends; when none is left the node is Ready again, and empty: what
  // was still bound there (pods whose toleration runs) ends NodeLost now (the machine
  // rebooted). REQUIRES: the node is NotReady.
  virtual void SetNodeReady(NodeId node) = 0;
  // The device plugin marks GPU `gpu` unhealthy (counted, as NotReady) and withdraws its
  // devices: gang reservations there are released and pods on it end GpuFailed at once;
  // healthy: one cause ends, and with the last the devices come back and pending pods are
  // retried. REQUIRES (healthy): the GPU is unhealthy.
  virtual void SetGpuHealth(NodeId node, int gpu, bool healthy) = 0;
  // kubectl cordon (counted): the node takes no new pod, and gang reservations there are
  // released. Uncordon lifts one cordon. REQUIRES (Uncordon): the node is cordoned.
  virtual void Cordon(NodeId node) = 0;
  virtual void Uncordon(NodeId node) = 0;
  // Evicts, through the Eviction API, every pod on `node` not terminating that its
  // PodDisruptionBudgets let go (in pod order), each ending Evicted after its grace period
  // (at most `max_grace`), its lost GPU time booked to `book`; true when a budget refused one.
  virtual bool EvictPods(NodeId node, SimTime max_grace, LossBook book) = 0;
  // The node's instance is gone: a node group's node is terminated by its group (absent
  // until launched again); any other node is deleted for good (removed). Pods still there
  // end now (NodeRemoved, or the reason they were being evicted for). REQUIRES: the node is
  // neither removed nor absent.
  virtual void DeleteNode(NodeId node) = 0;
  // Sets the node's nvidia.com/mig.config.state label ("failed", ...). REQUIRES: the node is
  // not reconfiguring.
  virtual void SetMigConfigState(NodeId node, const std::string& state) = 0;
  // Reports to the run's observers (the API server's Events): a fault that hit or was
  // repaired (a hit counts towards the run budget's fault_hits), and the GPUs of node pool
  // `pool` that are available, out of `total`.
  virtual void RecordFault(const FaultNotice& notice) = 0;
  virtual void RecordPoolAvailability(uint32_t pool, int64_t available, int64_t total) = 0;
  // Reports to the run's observers a Kueue workload's change of state (the Kueue controller).
  virtual void RecordKueueWorkload(const KueueWorkloadNotice& notice) = 0;

  // A node group's instances (the cloud provider's and the kubelet's mechanism; the verbs of
  // the node groups' controller, NodeGroups). The engine keeps the node's conditions.
  // At Start: `node`'s slot has no instance (absent: unschedulable, out of the GPU capacity).
  // REQUIRES: now() is 0, the node is not absent yet.
  virtual void SetNodeAbsent(NodeId node) = 0;
  // A launched instance of group `group` registered Ready: no longer absent, back in the GPU
  // capacity, pending pods retried; the run's observers are told (OnNodeScaled kReady).
  // REQUIRES: the node is absent.
  virtual void RegisterNode(NodeId node, uint32_t group) = 0;
  // The instance of group `group` in `node`'s slot is terminated: gang reservations there
  // are released, what is still on the node ends now (NodeRemoved, or the reason it was
  // being evicted for), the node is absent and out of the GPU capacity; the observers are
  // told (OnNodeScaled kTerminated). REQUIRES: the node is neither absent nor removed.
  virtual void TerminateInstance(NodeId node, uint32_t group) = 0;
  // Tells the run's observers of a change to a group's node that the verbs above do not
  // report (a launch, a drain started or given up, a launch that never registered).
  virtual void ReportNodeScaled(NodeId node, uint32_t group, NodeScaleChange change) = 0;
  // Tells every cluster controller, in their order (this one included), that a node group's
  // instance changed (ClusterController::OnNodeChanged). REQUIRES: change is not kRemoved.
  virtual void AnnounceNodeChange(NodeId node, NodeChange change) = 0;

  // Kueue's verdicts, told to the workload controller that asked (ControllerContext::
  // RequestAdmission): admitted with, per pod set, the template to create its pods from;
  // or evicted (it deletes its pods gracefully and waits to be admitted again).
  virtual void TellAdmitted(OwnerId owner, WorkloadId workload,
                            std::span<const TemplateId> templates) = 0;
  virtual void TellEvicted(OwnerId owner, WorkloadId workload) = 0;

 protected:
  ~ClusterApi() = default;
};

}  // namespace migsim
