// Karpenter as the provisioner of the node groups (autoscaling.h, README "Autoscaling"):
// every node group is one offering of a single NodePool.
//
// Every batch_idle (1 s), after that instant's scheduling cycle, the loop:
//  1. provisioning: the unschedulable pods the nodes already launching will not hold open
//     a batch; once no new one came for batch_idle, or batch_max after it opened, they are
//     packed onto new NodeClaims (node_claims.h), each launched as its cheapest offering;
//  2. disruption, every 10 s (Karpenter's polling period): Ready nodes of a group above its
//     minimum, untouched by pods for consolidateAfter, are candidates; empty ones are
//     deleted; under WhenEmptyOrUnderutilized one more candidate (fewest pods first) is
//     deleted when its pods fit the other nodes all at once, or replaced by a cheaper on-demand
//     or spot node when its pods fit one (a spot node is only deleted: spot-to-spot
//     consolidation is off by default). The disruption budgets cap the nodes disrupted at
//     once. A decision is carried out 15 s later if it still holds. A deleted node is
//     drained as the Cluster Autoscaler's are; a replaced one is cordoned at once and
//     drained when its replacement is Ready.

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

// --- disruption ---

uint32_t Engine::DisruptionsAllowed(DisruptionReason reason) const {
  uint32_t nodes = 0;
  for (const GroupScale& g : group_scale_) nodes += g.launched;
  int64_t allowed = INT64_MAX;
  for (const DisruptionBudgetSpec& b : cluster_->karpenter.budgets) {
    if (b.reasons_mask != 0 && (b.reasons_mask & static_cast<uint8_t>(reason)) == 0) continue;
    // A percentage of the NodePool's nodes, rounded up (as Karpenter scales it).
    const int64_t cap = b.percent ? (static_cast<int64_t>(nodes) * b.nodes + 99) / 100
                                  : static_cast<int64_t>(b.nodes);
    allowed = std::min(allowed, cap);
  }
  const int64_t disrupting = static_cast<int64_t>(draining_ + awaiting_replacement_);
  return static_cast<uint32_t>(std::clamp<int64_t>(allowed - disrupting, 0, UINT32_MAX));
}

bool Engine::ConsolidationCandidate(uint32_t node, bool any_time) const {
  const NodeScale& scale = node_scale_[node];
  return scale.group >= 0 && scale.state == NodeScale::State::kReady &&
         node_info_[node].schedulable && scale.replaces < 0 && AboveMin(scale.group) &&
         (any_time || now_ - scale.last_change >= cluster_->karpenter.consolidate_after);
}

// Karpenter's disruption simulates the pending pods too: a node that a waiting gang's pods
// fit is one they need (they wait for the rest of the gang's nodes), not one to remove.
std::vector<uint8_t> Engine::NeededByWaitingGangs() const {
  std::vector<uint8_t> needed;
  const ClusterView cluster(node_info_, resources_, now_);
  for (const Gang& gang : gangs_) {
    if (gang.live <= gang.bound || !gang.failed_at) continue;
    const PodId pending = FirstUnplaced(gang);
    if (!pending.valid()) continue;
    const GangConstraint constraint = ConstraintOf(gang);
    PodView view = ViewOf(pods_[pending.value()]);
    view.gang = &constraint;
    needed.resize(node_info_.size(), 0);
    for (uint32_t node = 0; node < node_info_.size(); ++node) {
      if (cluster.Fits(view, node_info_[node])) needed[node] = 1;
    }
  }
  return needed;
}

std::optional<Engine::Consolidation> Engine::FindConsolidation(bool any_time) {
  std::vector<uint32_t> empty, busy;
  const std::vector<uint8_t> needed = NeededByWaitingGangs();
  for (uint32_t node = 0; node < node_scale_.size(); ++node) {
    if (!ConsolidationCandidate(node, any_time)) continue;
    if (!needed.empty() && needed[node] != 0) continue;
    (node_info_[node].pods.empty() ? empty : busy).push_back(node);
  }
  if (!empty.empty() && DisruptionsAllowed(DisruptionReason::kEmpty) > 0) {
    return Consolidation{.empty = std::move(empty)};
  }
  if (cluster_->karpenter.consolidation_policy != ConsolidationPolicy::kWhenEmptyOrUnderutilized ||
      busy.empty() || DisruptionsAllowed(DisruptionReason::kUnderutilized) == 0 ||
      draining_ + awaiting_replacement_ > 0) {
    return std::nullopt;
  }
  // The cheapest to disrupt first: fewest pods, then the dearest node.
  const auto price = [&](uint32_t n) {
    return cluster_->node_groups[node_scale_[n].group].price_per_hour;
  };
  std::sort(busy.begin(), busy.end(), [&](uint32_t a, uint32_t b) {
    const size_t pa = node_info_[a].pods.size(), pb = node_info_[b].pods.size();
    if (pa != pb) return pa < pb;
    return price(a) != price(b) ? price(a) > price(b) : a < b;
  });
  const std::vector<int32_t> allowed = budgets_.Allowed();
  for (uint32_t node : busy) {
    if (!PodsEvictable(node, allowed)) continue;
    const std::vector<PendingPods> stranded = PodsThatCannotMove(node);
    if (stranded.empty()) return Consolidation{.node = node};
    const NodeGroupSpec& group = cluster_->node_groups[node_scale_[node].group];
    if (group.capacity == CapacityType::kSpot) continue;
    std::vector<Offering> cheaper = Offerings(false, nullptr);
    std::erase_if(cheaper, [&](const Offering& o) { return o.price_per_hour >= price(node); });
    const std::vector<NodeClaimPlan> plan =
        PlanNodeClaims(cheaper, stranded, 1, resources_, device_classes_);
    if (plan.size() == 1 && plan[0].pods == stranded.size()) {
      return Consolidation{.node = node, .replacement = static_cast<int32_t>(plan[0].group)};
    }
  }
  return std::nullopt;
}

// Carries out the decision of 15 s ago as far as it still holds: the empty nodes still
// empty candidates, or the same node still to delete, or still to replace.
void Engine::KarpenterDisrupt() {
  const Consolidation planned = *command_;
  command_.reset();
  std::optional<Consolidation> now = FindConsolidation(false);
  if (!now) return;
  if (!planned.empty.empty()) {
    std::erase_if(now->empty, [&](uint32_t n) {
      return std::find(planned.empty.begin(), planned.empty.end(), n) == planned.empty.end();
    });
    if (!now->empty.empty()) Consolidate(*now);
    return;
  }
  if (now->empty.empty() && now->node == planned.node &&
      (now->replacement < 0) == (planned.replacement < 0)) {
    Consolidate(*now);
  }
}

void Engine::Consolidate(const Consolidation& action) {
  uint32_t allowed = DisruptionsAllowed(DisruptionReason::kEmpty);
  for (uint32_t node : action.empty) {
    if (allowed == 0) break;
    if (!AboveMin(node_scale_[node].group)) continue;
    --allowed;
    TerminateNode(node);
  }
  if (!action.empty.empty()) return;
  if (action.replacement < 0) return StartScaleDownDrain(action.node);
  NodeScale& scale = node_scale_[action.node];
  scale.state = NodeScale::State::kAwaitingReplacement;
  ++awaiting_replacement_;
  ++node_faults_[action.node].cordons;
  UpdateSchedulable(action.node);
  const uint32_t fresh = LaunchNode(static_cast<uint32_t>(action.replacement));
  node_scale_[fresh].replaces = static_cast<int32_t>(action.node);
  scale.replaced_by = static_cast<int32_t>(fresh);
}

// The replaced node leaves the cordon Karpenter put on it: drained once its replacement is
// Ready, back in service when the replacement never registered.
void Engine::ReplacementReady(uint32_t replacement) {
  const auto node = static_cast<uint32_t>(node_scale_[replacement].replaces);
  MIGSIM_CHECK(node_scale_[node].state == NodeScale::State::kAwaitingReplacement,
               "a replacement for a node no longer awaiting it");
  EndAwaitingReplacement(node);
  StartScaleDownDrain(node);
}

void Engine::ReplacementFailed(uint32_t replacement) {
  const auto node = static_cast<uint32_t>(node_scale_[replacement].replaces);
  EndAwaitingReplacement(node);
  node_scale_[node].last_change = now_;
  EndReplacement(node);
}

// Karpenter's cordon for the replacement is lifted; the node is Ready as before.
void Engine::EndAwaitingReplacement(uint32_t node) {
  node_scale_[node].state = NodeScale::State::kReady;
  --awaiting_replacement_;
  --node_faults_[node].cordons;
  UpdateSchedulable(node);
}

// The replaced node is gone or back in service: its replacement may be consolidated.
void Engine::EndReplacement(uint32_t replaced) {
  NodeScale& scale = node_scale_[replaced];
  if (scale.replaced_by < 0) return;
  NodeScale& fresh = node_scale_[scale.replaced_by];
  fresh.replaces = -1;
  fresh.last_change = now_;
  scale.replaced_by = -1;
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
