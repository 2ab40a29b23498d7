// Karpenter as the provisioner of the node groups (autoscaling.h, README "Autoscaling"):
// every node group is one offering of a single NodePool.
//
// Every batch_idle (1 s), after that instant's scheduling cycle, the loop:
//  1. provisioning: the unschedulable pods the nodes already launching will not hold open
//     a batch; once no new one came for batch_idle, or batch_max after it opened, they are
//     packed onto new NodeClaims (node_claims.h), each launched as its cheapest offering;
//  2. disruption, every 10 s (Karpenter's polling period): Ready nodes of a group above its
//     minimum, untouched by pods for consolidateAfter, are candidates; empty ones are
//     deleted; under WhenEmptyOrUnderutilized, nodes with pods are deleted or replaced by
//     multi-node, then single-node, consolidation (engine_karpenter_disruption.cc). The
//     disruption budgets cap the nodes disrupted at once. A decision is carried out 15 s
//     later if it still holds.

#include <algorithm>
#include <cmath>

#include "sim/core/check.h"
#include "sim/engine/engine.h"
#include "sim/engine/node_claims.h"

namespace migsim {
namespace {

// Karpenter's disruption controller polls every 10 s, and carries a decision out only if it
// still holds 15 s later (its consolidation TTL): a pod bound meanwhile, such as one
// recreated after an eviction, keeps the node.
constexpr SimTime kDisruptionPoll = SimTime::Micros(10'000'000);
constexpr SimTime kValidationTtl = SimTime::Micros(15'000'000);

}  // namespace

void Engine::KarpenterScan() {
  scan_due_ = false;
  KarpenterProvision();
  if (command_ && now_ >= validate_at_) KarpenterDisrupt();
  if (now_ >= next_disruption_) {
    if (!command_) {
      command_ = FindConsolidation(false);
      validate_at_ = now_ + kValidationTtl;
    }
    next_disruption_ = now_ + kDisruptionPoll;
  }
  QueueScan();
}

// --- provisioning ---

std::vector<Offering> Engine::Offerings(bool registering_only, bool* backed_off) const {
  std::vector<Offering> offerings;
  const std::span<const NodeGroupSpec> groups = cluster_->node_groups;
  for (uint32_t g = 0; g < groups.size(); ++g) {
    const uint32_t room = groups[g].max - group_scale_[g].launched;
    if (room == 0) continue;
    if (registering_only && groups[g].provisioning > ProvisionLimit()) continue;
    if (now_ < group_scale_[g].backoff_until) {
      if (backed_off != nullptr) *backed_off = true;
      continue;
    }
    offerings.push_back({.group = g,
                         .spec = &cluster_->nodes[cluster_->pools[groups[g].pool].first],
                         .price_per_hour = groups[g].price_per_hour,
                         .room = room});
  }
  return offerings;
}

std::vector<NodeClaimPlan> Engine::PlanClaims(std::span<const PendingPods> kinds,
                                              bool registering_only, bool* backed_off) {
  const std::vector<Offering> offerings = Offerings(registering_only, backed_off);
  uint32_t room = 0;
  for (const Offering& o : offerings) room += o.room;
  if (room == 0) return {};
  return PlanNodeClaims(offerings, kinds, room, resources_, device_classes_);
}

void Engine::KarpenterProvision() {
  const std::vector<PendingPods> kinds = PendingBeyondUpcoming();
  uint32_t pods = 0;
  for (const PendingPods& k : kinds) pods += k.count;
  KarpenterBatch& batch = karpenter_;
  if (pods == 0) {
    batch.open = false;
    return;
  }
  if (!batch.open) {
    batch = {.open = true, .opened = now_, .changed = now_, .pods = pods};
    return;
  }
  if (pods != batch.pods) {
    batch.pods = pods;
    batch.changed = now_;
  }
  const KarpenterSpec& spec = cluster_->karpenter;
  if (now_ - batch.changed < spec.batch_idle && now_ - batch.opened < spec.batch_max) return;
  batch.open = false;
  for (const NodeClaimPlan& claim : PlanClaims(kinds, false, nullptr)) {
    LaunchNode(claim.group);
  }
}

bool Engine::KarpenterMayAct() {
  if (draining_ > 0 || awaiting_replacement_ > 0 || karpenter_.open || command_) return true;
  for (const GroupScale& g : group_scale_) {
    if (g.provisioning > 0) return true;
  }
  if (FindConsolidation(true)) return true;
  const std::vector<PendingPods> kinds = PendingBeyondUpcoming();
  if (kinds.empty()) return false;
  bool backed_off = false;
  const bool endless = config_.horizon == SimTime::Max();
  return !PlanClaims(kinds, endless, &backed_off).empty() || backed_off;
}

}  // namespace migsim
