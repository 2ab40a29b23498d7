// Karpenter's disruption (engine_karpenter.cc has the loop and provisioning): which nodes
// to consolidate, and carrying a decision out. In Karpenter's order, each poll takes the
// first that applies:
//  1. emptiness: every empty candidate is deleted;
//  2. multi-node consolidation: the longest prefix (2 or more, at most 100) of the busy
//     candidates, cheapest to disrupt first, whose pods all fit the other nodes, or those
//     nodes and one new node cheaper than the prefix together, is deleted or replaced;
//  3. single-node consolidation: the first busy candidate whose pods fit the other nodes,
//     or one new cheaper node, is deleted or replaced.
// A replacement is launched with the replaced nodes cordoned; they are drained once it is
// Ready (back in service if it never registers).

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/engine.h"
#include "sim/engine/node_claims.h"

namespace migsim {

uint32_t Engine::DisruptionsAllowed(DisruptionReason reason, bool any_time) const {
  uint32_t nodes = 0;
  for (const GroupScale& g : group_scale_) nodes += g.launched;
  int64_t allowed = INT64_MAX;
  for (const DisruptionBudgetSpec& b : cluster_->karpenter.budgets) {
    if (b.reasons_mask != 0 && (b.reasons_mask & static_cast<uint8_t>(reason)) == 0) continue;
    // A scheduled budget only ever lowers the allowance: at some time it is off.
    if (any_time ? b.schedule.has_value() : !b.ActiveAt(now_)) continue;
    // A percentage of the NodePool's nodes, rounded up (as Karpenter scales it).
    const int64_t cap = b.percent ? (static_cast<int64_t>(nodes) * b.nodes + 99) / 100
                                  : static_cast<int64_t>(b.nodes);
    allowed = std::min(allowed, cap);
  }
  const int64_t disrupting = static_cast<int64_t>(draining_ + awaiting_replacement_);
  return static_cast<uint32_t>(std::clamp<int64_t>(allowed - disrupting, 0, UINT32_MAX));
}

bool Engine::ConsolidationCandidate(uint32_t node, bool any_time,
                                    std::span<const uint8_t> needed) const {
  const NodeScale& scale = node_scale_[node];
  if (!needed.empty() && needed[node] != 0) return false;  // a waiting gang needs it
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
    GangConstraint constraint = ConstraintOf(gang);
    if (constraint.topology_value.empty()) constraint.topology_key.clear();  // any domain
    PodView view = ViewOf(pods_[pending.value()]);
    view.gang = &constraint;
    needed.resize(node_info_.size(), 0);
    for (uint32_t node = 0; node < node_info_.size(); ++node) {
      if (cluster.Fits(view, node_info_[node])) needed[node] = 1;
    }
  }
  return needed;
}

namespace {

// Multi-node consolidation looks at no more than this many candidates (Karpenter's
// MultiNodeConsolidation caps its search at 100).
constexpr size_t kMaxMultiNodeCandidates = 100;

}  // namespace

std::optional<Engine::Consolidation> Engine::FindConsolidation(bool any_time) {
  std::vector<uint32_t> empty, busy;
  const std::vector<uint8_t> needed = NeededByWaitingGangs();
  for (uint32_t node = 0; node < node_scale_.size(); ++node) {
    if (!ConsolidationCandidate(node, any_time, needed)) continue;
    (node_info_[node].pods.empty() ? empty : busy).push_back(node);
  }
  if (!empty.empty() && DisruptionsAllowed(DisruptionReason::kEmpty, any_time) > 0) {
    return Consolidation{.empty = std::move(empty)};
  }
  const uint32_t budget = DisruptionsAllowed(DisruptionReason::kUnderutilized, any_time);
  if (cluster_->karpenter.consolidation_policy != ConsolidationPolicy::kWhenEmptyOrUnderutilized ||
      busy.empty() || budget == 0 || draining_ + awaiting_replacement_ > 0) {
    return std::nullopt;
  }
  const std::vector<int32_t> allowed = budgets_.Allowed();
  std::erase_if(busy, [&](uint32_t n) { return !PodsEvictable(n, allowed); });
  // The cheapest to disrupt first: fewest pods, then the dearest node.
  const auto price = [&](uint32_t n) {
    return cluster_->node_groups[node_scale_[n].group].price_per_hour;
  };
  std::sort(busy.begin(), busy.end(), [&](uint32_t a, uint32_t b) {
    const size_t pa = node_info_[a].pods.size(), pb = node_info_[b].pods.size();
    if (pa != pb) return pa < pb;
    return price(a) != price(b) ? price(a) > price(b) : a < b;
  });
  if (std::optional<Consolidation> multi = MultiNodeConsolidation(busy, budget, needed)) {
    return multi;
  }
  for (const uint32_t& node : busy) {
    if (std::optional<Consolidation> single = ConsolidationOf({&node, 1}, needed)) return single;
  }
  return std::nullopt;
}

// Karpenter's firstNConsolidationOption: a binary search for the longest prefix of the
// candidates that makes a valid consolidation (assuming, as Karpenter does, that a prefix
// of a valid one is valid).
std::optional<Engine::Consolidation> Engine::MultiNodeConsolidation(std::span<const uint32_t> busy,
                                                                    uint32_t budget,
                                                                    std::span<const uint8_t> held) {
  size_t low = 2;
  size_t high = std::min({busy.size(), size_t{budget}, kMaxMultiNodeCandidates});
  std::optional<Consolidation> longest;
  while (low <= high) {
    const size_t mid = (low + high) / 2;
    if (std::optional<Consolidation> c = ConsolidationOf(busy.first(mid), held)) {
      longest = std::move(c);
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return longest;
}

std::optional<Engine::Consolidation> Engine::ConsolidationOf(std::span<const uint32_t> nodes,
                                                             std::span<const uint8_t> held) {
  const std::vector<PendingPods> stranded = PodsThatCannotMove(nodes, held);
  Consolidation c{.nodes = {nodes.begin(), nodes.end()}};
  if (stranded.empty()) return c;
  double price = 0, dearest = 0;
  for (uint32_t node : nodes) {
    const NodeGroupSpec& group = cluster_->node_groups[node_scale_[node].group];
    if (group.capacity == CapacityType::kSpot) return std::nullopt;  // no spot-to-spot
    price += group.price_per_hour;
    dearest = std::max(dearest, group.price_per_hour);
  }
  const auto candidate_group = [&](uint32_t g) {
    return std::any_of(nodes.begin(), nodes.end(),
                       [&](uint32_t n) { return node_scale_[n].group == static_cast<int32_t>(g); });
  };
  // Cheaper than the nodes together; and, replacing several, not of a candidate's offering
  // unless cheaper than the dearest candidate (Karpenter's filterOutSameInstanceType:
  // deleting fewer nodes would do).
  std::vector<Offering> cheaper = Offerings(false, nullptr);
  std::erase_if(cheaper, [&](const Offering& o) {
    return o.price_per_hour >= price ||
           (nodes.size() > 1 && candidate_group(o.group) && o.price_per_hour >= dearest);
  });
  uint32_t pods = 0;
  for (const PendingPods& k : stranded) pods += k.count;
  const std::vector<NodeClaimPlan> plan =
      PlanNodeClaims(cheaper, stranded, 1, resources_, device_classes_);
  if (plan.size() != 1 || plan[0].pods != pods) return std::nullopt;
  c.replacement = static_cast<int32_t>(plan[0].group);
  return c;
}

// Carries out the decision of 15 s ago as far as it still holds: the empty nodes still
// empty candidates; the nodes with pods still candidates, within the budget, and their
// consolidation still valid, deleting or replacing as decided.
void Engine::KarpenterDisrupt() {
  const Consolidation planned = *command_;
  command_.reset();
  if (!planned.empty.empty()) {
    std::optional<Consolidation> now = FindConsolidation(false);
    if (!now) return;
    std::erase_if(now->empty, [&](uint32_t n) {
      return std::find(planned.empty.begin(), planned.empty.end(), n) == planned.empty.end();
    });
    if (!now->empty.empty()) Consolidate(*now);
    return;
  }
  if (draining_ + awaiting_replacement_ > 0 ||
      DisruptionsAllowed(DisruptionReason::kUnderutilized) < planned.nodes.size()) {
    return;
  }
  const std::vector<uint8_t> needed = NeededByWaitingGangs();
  const std::vector<int32_t> allowed = budgets_.Allowed();
  for (uint32_t node : planned.nodes) {
    if (!ConsolidationCandidate(node, false, needed) || node_info_[node].pods.empty() ||
        !PodsEvictable(node, allowed)) {
      return;
    }
  }
  const std::optional<Consolidation> now = ConsolidationOf(planned.nodes, needed);
  if (now && (now->replacement < 0) == (planned.replacement < 0)) Consolidate(*now);
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
  if (action.replacement < 0) {
    for (uint32_t node : action.nodes) StartScaleDownDrain(node);
    return;
  }
  const uint32_t fresh = LaunchNode(static_cast<uint32_t>(action.replacement));
  node_scale_[fresh].replaces = static_cast<int32_t>(action.nodes.front());
  for (uint32_t node : action.nodes) {
    NodeScale& scale = node_scale_[node];
    scale.state = NodeScale::State::kAwaitingReplacement;
    ++awaiting_replacement_;
    ++node_conditions_[node].cordons;
    UpdateSchedulable(node);
    scale.replaced_by = static_cast<int32_t>(fresh);
  }
}

std::vector<uint32_t> Engine::ReplacedBy(uint32_t fresh) const {
  std::vector<uint32_t> nodes;
  for (uint32_t node = 0; node < node_scale_.size(); ++node) {
    if (node_scale_[node].replaced_by == static_cast<int32_t>(fresh)) nodes.push_back(node);
  }
  return nodes;
}

// The replaced nodes leave the cordon Karpenter put on them: drained once their
// replacement is Ready, back in service when the replacement never registered.
void Engine::ReplacementReady(uint32_t replacement) {
  for (uint32_t node : ReplacedBy(replacement)) {
    MIGSIM_CHECK(node_scale_[node].state == NodeScale::State::kAwaitingReplacement,
                 "a replacement for a node no longer awaiting it");
    EndAwaitingReplacement(node);
    StartScaleDownDrain(node);
  }
}

void Engine::ReplacementFailed(uint32_t replacement) {
  for (uint32_t node : ReplacedBy(replacement)) {
    EndAwaitingReplacement(node);
    node_scale_[node].last_change = now_;
    EndReplacement(node);
  }
}

// Karpenter's cordon for the replacement is lifted; the node is Ready as before.
void Engine::EndAwaitingReplacement(uint32_t node) {
  node_scale_[node].state = NodeScale::State::kReady;
  --awaiting_replacement_;
  --node_conditions_[node].cordons;
  UpdateSchedulable(node);
}

// A replaced node is gone or back in service: once all the nodes it replaces are, the
// replacement may be consolidated.
void Engine::EndReplacement(uint32_t replaced) {
  NodeScale& scale = node_scale_[replaced];
  if (scale.replaced_by < 0) return;
  const auto fresh = static_cast<uint32_t>(scale.replaced_by);
  scale.replaced_by = -1;
  if (!ReplacedBy(fresh).empty()) return;
  node_scale_[fresh].replaces = -1;
  node_scale_[fresh].last_change = now_;
}

}  // namespace migsim
