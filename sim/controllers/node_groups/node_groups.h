#pragma once
// The node groups (node_group_spec.h) and every node's instance: the cloud provider's layer
// that a provisioner (the Cluster Autoscaler, Karpenter) sizes, as cloudprovider.NodeGroup
// is the Cluster Autoscaler's and CloudProvider Karpenter's. It launches a group's absent
// nodes (billed from the launch), registers each Ready after its group's provisioning delay
// or gives it up at the provisioner's limit (and backs the group off), drains and terminates
// nodes, reclaims a deleted group node (a spot interruption's end), and bills every node,
// a group's or not, from its start to its termination or the end of the run.
//
// Alone (a run without node groups) it only bills. A provisioner derives from it
// (make_controllers.cc registers each): its loop (Loop) runs every `loop_period`, after that
// instant's scheduling cycle, and decides when to launch, drain and terminate; it hears of
// its nodes through the hooks below.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "sim/controllers/node_groups/scale_up_estimate.h"
#include "sim/engine/cluster_controller.h"

namespace migsim {

class NodeGroups : public ClusterController, public NodeProvider {
 public:
  // What happened to each node group (by ClusterSpec::node_groups index).
  struct Counters {
    int64_t scale_ups = 0;           // scale-ups of this group
    int64_t nodes_launched = 0;      // nodes launched (scale-ups add one or more)
    int64_t nodes_terminated = 0;    // nodes scaled down (empty or drained) or reclaimed
    int64_t spot_reclaims = 0;       // of those, reclaimed by a spot interruption
    int64_t provision_failures = 0;  // nodes not Ready within the provisioner's limit
    int64_t drains_aborted = 0;      // scale-down drains given up (evictions refused)
  };

  // `provision_limit`: from launch to Ready, beyond which a node is given up;
  // `group_backoff`: how long a group is left out after one was; `loop_period`: how often
  // the provisioner's Loop runs (SimTime::Max(): no provisioner, which never launches).
  NodeGroups(SimTime provision_limit = SimTime::Max(), SimTime group_backoff = SimTime::Zero(),
             SimTime loop_period = SimTime::Max())
      : provision_limit_(provision_limit),
        group_backoff_(group_backoff),
        loop_period_(loop_period) {}

  std::string_view name() const override { return "node-groups"; }
  void Start(ClusterApi& api) override;
  void OnTimer(ClusterApi& api, uint64_t tag) final;
  // The provisioner's loop, when it is due: it sees what the scheduling cycle left.
  void AfterCycle(ClusterApi& api) final;
  void OnNodeChanged(ClusterApi& api, NodeId node, NodeChange change) override;
  void Finish(ClusterApi& api) override;
  NodeProvider* node_provider() final { return this; }
  uint32_t Instance(NodeId node) const final;
  bool DeleteInstance(ClusterApi& api, NodeId node) final;

  // Results, after the run: the hours each node was billed, and each group's counters.
  double BilledNodeHours(NodeId node) const { return billed_seconds_[node.value()] / 3600; }
  std::span<const Counters> counters() const { return counters_; }

 protected:
  // A group node's state (kFixed: no group's).
  enum class State : uint8_t { kFixed, kAbsent, kProvisioning, kReady, kDraining };
  struct GroupScale {
    uint32_t min = 0;       // NodeGroupSpec::min
    uint32_t launched = 0;  // provisioning, Ready or draining
    uint32_t provisioning = 0;
    uint32_t draining = 0;
    SimTime backoff_until;
  };

  // The provisioner's side. Its loop; the next is queued after it, as an idle timer (it
  // does not keep a run going by itself: the provisioner's MayAct decides).
  virtual void Loop(ClusterApi& /*api*/) {}
  // A launched node registered Ready (after the other controllers were told).
  virtual void NodeBecameReady(ClusterApi& /*api*/, uint32_t /*node*/) {}
  // A launched node never registered: given up, absent again, its group backed off.
  virtual void LaunchFailed(ClusterApi& /*api*/, uint32_t /*node*/) {}
  // A node is about to be reclaimed (DeleteInstance), before it is terminated.
  virtual void BeforeReclaim(ClusterApi& /*api*/, uint32_t /*node*/) {}
  // A node was terminated (after the other controllers were told).
  virtual void NodeTerminated(ClusterApi& /*api*/, uint32_t /*node*/) {}
  // A drain was given up: the node is Ready again.
  virtual void DrainAborted(ClusterApi& /*api*/, uint32_t /*node*/) {}
  // Whether the provisioner may evict a pod of `t` (its annotations).
  virtual bool MayDisrupt(const PodTemplate& /*t*/) const { return true; }

  // Launches an absent node of `group`: billed from now, Ready after the group's
  // provisioning delay unless that is beyond the limit. Returns the node. REQUIRES: the
  // group has room (launched < max).
  uint32_t Launch(ClusterApi& api, uint32_t group);
  void CountScaleUp(uint32_t group) { ++counters_[group].scale_ups; }
  // Terminates a Ready or draining node: absent again, billing stops.
  void Terminate(ClusterApi& api, uint32_t node);
  // Cordons a Ready node and evicts its pods as their budgets allow, each with its grace
  // period capped at --max-graceful-termination-sec (600 s), every 5 s; the node is
  // terminated once empty, and the drain given up when evictions are still refused after
  // MaxPodEvictionTime (120 s).
  void StartDrain(ClusterApi& api, uint32_t node);

  State state(uint32_t node) const { return nodes_[node].state; }
  int32_t group_of(uint32_t node) const { return nodes_[node].group; }
  const GroupScale& group(uint32_t g) const { return groups_[g]; }
  size_t node_count() const { return nodes_.size(); }
  uint32_t draining() const { return draining_; }
  bool AnyProvisioning() const;
  uint32_t LaunchedNodes() const;
  // Nodes being drained are on their way out: they do not count towards the minimum.
  bool AboveMin(int32_t group) const;
  // The groups a node may be launched in now: with room, not backed off (`backed_off` set
  // when one is), and with `registering_only` only those whose nodes register in time.
  std::vector<Offering> Offerings(const ClusterApi& api, bool registering_only,
                                  bool* backed_off) const;
  // The unschedulable pods beyond what the nodes already launching will hold.
  std::vector<PendingPods> PendingBeyondUpcoming(const ClusterApi& api) const;
  // Every pod on `node` may be evicted by this provisioner: none is a gang's reservation or
  // a bare pod or annotated against it (MayDisrupt), and the budgets (`allowed`:
  // DisruptionBudgets::Allowed) let each ready one go. Terminating pods leave anyway.
  bool PodsEvictable(const ClusterApi& api, uint32_t node,
                     const std::vector<int32_t>& allowed) const;
  // The nodes' simulations run on nodes built from the groups' specs, which intern resource
  // names in a table of their own (a copy of the run's: same ids).
  ResourceTable& scratch_resources() const { return scratch_resources_; }
  SimTime provision_limit() const { return provision_limit_; }

 private:
  enum class GroupTimer : uint8_t { kReady, kProvisionTimeout, kDrainTick };
  struct NodeScale {
    State state = State::kFixed;
    int32_t group = -1;
    uint32_t launch = 0;  // the instance: launches of this slot
    SimTime drain_started;
  };
  // Tags at or above this are the node groups' own timers; below, the loop's.
  static constexpr uint64_t kGroupTimer = uint64_t{1} << 63;
  static uint64_t Tag(GroupTimer kind, uint32_t node, uint32_t launch);
  void QueueLoop(ClusterApi& api);
  void NodeReady(ClusterApi& api, uint32_t node);
  void ProvisionTimeout(ClusterApi& api, uint32_t node);
  void DrainTick(ClusterApi& api, uint32_t node, uint32_t launch);
  void AbortDrain(ClusterApi& api, uint32_t node);
  void StopBilling(const ClusterApi& api, uint32_t node);

  SimTime provision_limit_;
  SimTime group_backoff_;
  SimTime loop_period_;
  bool loop_due_ = false;
  std::vector<NodeScale> nodes_;
  std::vector<GroupScale> groups_;
  std::vector<Counters> counters_;
  uint32_t draining_ = 0;
  std::vector<SimTime> billed_since_;  // SimTime::Max(): not billed now
  std::vector<double> billed_seconds_;
  mutable ResourceTable scratch_resources_;
};

}  // namespace migsim
