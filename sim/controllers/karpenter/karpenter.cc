#include "sim/controllers/karpenter/karpenter.h"

#include <algorithm>

namespace migsim {
namespace {

// Karpenter's disruption controller polls every 10 s, and carries a decision out only if it
// still holds 15 s later (its consolidation TTL): a pod bound meanwhile, such as one
// recreated after an eviction, keeps the node.
constexpr SimTime kDisruptionPoll = SimTime::Micros(10'000'000);
constexpr SimTime kValidationTtl = SimTime::Micros(15'000'000);

}  // namespace

Karpenter::Karpenter(const KarpenterSpec& spec)
    : NodeGroups(spec.registration_ttl, spec.unavailable_offering_ttl, spec.batch_idle),
      spec_(spec) {}

void Karpenter::Start(ClusterApi& api) {
  NodeGroups::Start(api);
  claims_.resize(node_count());
}

void Karpenter::Loop(ClusterApi& api) {
  const SimTime now = api.now();
  Provision(api);
  if (command_ && now >= validate_at_) Disrupt(api);
  if (now >= next_disruption_) {
    if (!command_) {
      command_ = FindConsolidation(api, false);
      validate_at_ = now + kValidationTtl;
    }
    next_disruption_ = now + kDisruptionPoll;
  }
}

bool Karpenter::MayAct(const ClusterApi& api) const {
  if (draining() > 0 || awaiting_replacement_ > 0 || batch_.open || command_) return true;
  if (AnyProvisioning()) return true;
  if (FindConsolidation(api, true)) return true;
  const std::vector<PendingPods> kinds = PendingBeyondUpcoming(api);
  if (kinds.empty()) return false;
  bool backed_off = false;
  const bool endless = api.horizon() == SimTime::Max();
  return !PlanClaims(api, kinds, endless, &backed_off).empty() || backed_off;
}

// --- provisioning ---

std::vector<NodeClaimPlan> Karpenter::PlanClaims(const ClusterApi& api,
                                                 std::span<const PendingPods> kinds,
                                                 bool registering_only, bool* backed_off) const {
  const std::vector<Offering> offerings = Offerings(api, registering_only, backed_off);
  uint32_t room = 0;
  for (const Offering& o : offerings) room += o.room;
  if (room == 0) return {};
  return PlanNodeClaims(offerings, kinds, room, scratch_resources(), api.device_classes());
}

void Karpenter::Provision(ClusterApi& api) {
  const SimTime now = api.now();
  const std::vector<PendingPods> kinds = PendingBeyondUpcoming(api);
  uint32_t pods = 0;
  for (const PendingPods& k : kinds) pods += k.count;
  if (pods == 0) {
    batch_.open = false;
    return;
  }
  if (!batch_.open) {
    batch_ = {.open = true, .opened = now, .changed = now, .pods = pods};
    return;
  }
  if (pods != batch_.pods) {
    batch_.pods = pods;
    batch_.changed = now;
  }
  if (now - batch_.changed < spec_.batch_idle && now - batch_.opened < spec_.batch_max) return;
  batch_.open = false;
  for (const NodeClaimPlan& claim : PlanClaims(api, kinds, false, nullptr)) {
    LaunchClaim(api, claim.group);
  }
}

uint32_t Karpenter::LaunchClaim(ClusterApi& api, uint32_t group) {
  CountScaleUp(group);
  return Launch(api, group);
}

// consolidateAfter counts from the later of a pod's change on the node and Karpenter's
// own (a node Ready, a replacement ended).
SimTime Karpenter::LastChange(const ClusterApi& api, uint32_t node) const {
  return std::max(api.node_changed_at(NodeId(node)), claims_[node].touched);
}

}  // namespace migsim
