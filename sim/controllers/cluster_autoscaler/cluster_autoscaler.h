#pragma once
// The Cluster Autoscaler (README "Autoscaling"): its loop over the node groups it sizes.
//
// Every scan interval (--scan-interval), after that instant's scheduling cycle, the loop:
//  1. scale-up: takes the unschedulable pods (pending, refused by the scheduler, not
//     nominated to a node by preemption), leaves out those that fit a Ready node as it is
//     and those the nodes already launching will hold, simulates each group's new nodes
//     (scale_up_estimate.h) and grows the group its expander picks (expander.h);
//  2. scale-down: a Ready node of a group above its minimum is unneeded while its
//     utilization is under the threshold and each of its pods could move (not a bare pod,
//     its PodDisruptionBudgets allow an eviction, it fits another Ready node); unneeded
//     for scale-down-unneeded-time, outside the delays after a scale-up, a scale-down and
//     a failed drain, it goes: empty nodes at once (max-empty-bulk-delete a scan), others
//     through a drain (max-drain-parallelism at a time).
// The nodes' launches, Ready, drains and billing are the node groups' (node_groups.h).

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/controllers/node_groups/node_groups.h"
#include "sim/core/rng.h"

namespace migsim {

class ClusterAutoscaler final : public NodeGroups {
 public:
  explicit ClusterAutoscaler(const ClusterAutoscalerSpec& spec);

  std::string_view name() const override { return "cluster-autoscaler"; }
  void Start(ClusterApi& api) override;
  // Asked only when nothing but the next scan (and flushes, draws) is queued: whether that
  // scan could still launch or terminate a node. Without a horizon, a group whose nodes can
  // never register in time is left out, so that the run ends.
  bool MayAct(const ClusterApi& api) const override;

 private:
  // The scan: scale-up, then scale-down.
  void Loop(ClusterApi& api) override;
  void NodeBecameReady(ClusterApi& api, uint32_t node) override;
  void NodeTerminated(ClusterApi& api, uint32_t node) override;
  void DrainAborted(ClusterApi& api, uint32_t node) override;
  // cluster-autoscaler.kubernetes.io/safe-to-evict: "false" keeps the node.
  bool MayDisrupt(const PodTemplate& t) const override { return t.safe_to_evict; }

  // What growing each group would do for the unschedulable pods (those that some group's
  // nodes would hold); `backed_off` is set when a group in back-off could have been asked.
  // `registering_only`: groups whose nodes can never be Ready in time are left out.
  std::vector<ScaleUpOption> ScaleUpOptions(const ClusterApi& api, bool& backed_off,
                                            bool registering_only) const;
  void LaunchNodes(ClusterApi& api, uint32_t group, uint32_t count);
  // Scale-down (scale_down.cc).
  void ScaleDown(ClusterApi& api);
  bool Unneeded(const ClusterApi& api, uint32_t node, const std::vector<int32_t>& allowed) const;
  double Utilization(const ClusterApi& api, uint32_t node) const;

  ClusterAutoscalerSpec spec_;
  Rng rng_{0};                           // the expander's draws (seeded at Start)
  std::vector<SimTime> unneeded_since_;  // by node; SimTime::Max(): needed
  SimTime last_scale_up_ = SimTime::Zero();
  SimTime last_scale_down_ = SimTime::Zero();
  SimTime last_drain_failure_ = SimTime::Zero();
  bool scaled_up_ = false, scaled_down_ = false, drain_failed_ = false;
};

}  // namespace migsim
