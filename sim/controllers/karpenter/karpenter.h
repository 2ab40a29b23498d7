#pragma once
// Karpenter as the provisioner of the node groups (node_group_spec.h, README "Autoscaling"):
// every node group is one offering of a single NodePool.
//
// Every batch_idle (1 s), after that instant's scheduling cycle, the loop:
//  1. provisioning: the unschedulable pods the nodes already launching will not hold open
//     a batch; once no new one came for batch_idle, or batch_max after it opened, they are
//     packed onto new NodeClaims (node_claims.h), each launched as its cheapest offering;
//  2. disruption, every 10 s (Karpenter's polling period): Ready nodes of a group above its
//     minimum, untouched by pods for consolidateAfter, are candidates; empty ones are
//     deleted; under WhenEmptyOrUnderutilized, nodes with pods are deleted or replaced by
//     multi-node, then single-node, consolidation (karpenter_disruption.cc). The
//     disruption budgets cap the nodes disrupted at once. A decision is carried out 15 s
//     later if it still holds.
// The nodes' launches, Ready, drains and billing are the node groups' (node_groups.h).

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/controllers/karpenter/node_claims.h"
#include "sim/controllers/node_groups/node_groups.h"

namespace migsim {

class Karpenter final : public NodeGroups {
 public:
  explicit Karpenter(const KarpenterSpec& spec);

  std::string_view name() const override { return "karpenter"; }
  void Start(ClusterApi& api) override;
  // Asked only when nothing but the next loop (and flushes, draws) is queued: whether it
  // could still launch or disrupt a node (without a horizon, offerings that can never
  // register in time left out).
  bool MayAct(const ClusterApi& api) const override;

 private:
  // A consolidation: the empty candidates to delete, or nodes with pods (one, or more by
  // multi-node consolidation) to delete (replacement < 0) or to replace by one node of
  // group `replacement`.
  struct Consolidation {
    std::vector<uint32_t> empty{};
    std::vector<uint32_t> nodes{};
    int32_t replacement = -1;
  };
  // By node: Karpenter's replacements (on the new node, the node it replaces until that one
  // is gone or back in service, the new node being no candidate meanwhile; on a replaced
  // node, its replacement), whether it is cordoned awaiting its replacement, and when
  // Karpenter last counted it touched (consolidateAfter also counts from
  // ClusterApi::node_changed_at).
  struct NodeClaimState {
    int32_t replaces = -1;
    int32_t replaced_by = -1;
    bool awaiting = false;
    SimTime touched;
  };
  // The provisioning batch (karpenter.cc).
  struct Batch {
    bool open = false;
    SimTime opened, changed;
    uint32_t pods = 0;
  };

  // Provisioning, then disruption.
  void Loop(ClusterApi& api) override;
  void NodeBecameReady(ClusterApi& api, uint32_t node) override;
  void LaunchFailed(ClusterApi& api, uint32_t node) override;
  void BeforeReclaim(ClusterApi& api, uint32_t node) override;
  void NodeTerminated(ClusterApi& api, uint32_t node) override;
  void DrainAborted(ClusterApi& api, uint32_t node) override;
  // karpenter.sh/do-not-disrupt keeps the node.
  bool MayDisrupt(const PodTemplate& t) const override { return !t.do_not_disrupt; }

  void Provision(ClusterApi& api);
  uint32_t LaunchClaim(ClusterApi& api, uint32_t group);  // one NodeClaim: one scale-up
  std::vector<NodeClaimPlan> PlanClaims(const ClusterApi& api, std::span<const PendingPods> kinds,
                                        bool registering_only, bool* backed_off) const;
  // Disruption (karpenter_disruption.cc).
  void Disrupt(ClusterApi& api);
  void Consolidate(ClusterApi& api, const Consolidation& action);
  // How many more nodes the budgets let be disrupted for `reason` now; `any_time`: at the
  // best time (scheduled budgets off).
  uint32_t DisruptionsAllowed(const ClusterApi& api, DisruptionReason reason,
                              bool any_time = false) const;
  // `needed`: ClusterApi::NodesWaitingGangsNeed, whose nodes are no candidates.
  bool ConsolidationCandidate(const ClusterApi& api, uint32_t node, bool any_time,
                              std::span<const uint8_t> needed) const;
  // The next consolidation; `any_time`: as if consolidateAfter had passed everywhere.
  std::optional<Consolidation> FindConsolidation(const ClusterApi& api, bool any_time) const;
  // Deleting or replacing `nodes` together, when their pods fit the other nodes, or those
  // and one new node cheaper than `nodes` together; nullopt otherwise. `held`: the nodes
  // waiting gangs need, which take no moved pod.
  std::optional<Consolidation> ConsolidationOf(const ClusterApi& api,
                                               std::span<const uint32_t> nodes,
                                               std::span<const uint8_t> held) const;
  // The longest valid prefix (2 or more) of `busy` within `budget` nodes.
  std::optional<Consolidation> MultiNodeConsolidation(const ClusterApi& api,
                                                      std::span<const uint32_t> busy,
                                                      uint32_t budget,
                                                      std::span<const uint8_t> held) const;
  std::vector<uint32_t> ReplacedBy(uint32_t fresh) const;  // the nodes awaiting `fresh`
  void ReplacementReady(ClusterApi& api, uint32_t replacement);
  void ReplacementFailed(ClusterApi& api, uint32_t replacement);
  void EndReplacement(ClusterApi& api, uint32_t replaced);
  void EndAwaitingReplacement(ClusterApi& api, uint32_t node);
  SimTime LastChange(const ClusterApi& api, uint32_t node) const;

  KarpenterSpec spec_;
  std::vector<NodeClaimState> claims_;  // by node
  uint32_t awaiting_replacement_ = 0;
  Batch batch_;
  // The next disruption poll, and the consolidation decided there, carried out if still
  // valid at validate_at_.
  SimTime next_disruption_;
  std::optional<Consolidation> command_;
  SimTime validate_at_;
};

}  // namespace migsim
