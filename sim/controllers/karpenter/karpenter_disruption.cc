// Karpenter's disruption (karpenter.h; karpenter.cc has the loop and provisioning): which nodes
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

#include "sim/controllers/karpenter/karpenter.h"
#include "sim/core/check.h"

namespace migsim {

uint32_t Karpenter::DisruptionsAllowed(const ClusterApi& api, DisruptionReason reason,
                                       bool any_time) const {
  const uint32_t nodes = LaunchedNodes();
  int64_t allowed = INT64_MAX;
  for (const DisruptionBudgetSpec& b : spec_.budgets) {
    if (b.reasons_mask != 0 && (b.reasons_mask & static_cast<uint8_t>(reason)) == 0) continue;
    // A scheduled budget only ever lowers the allowance: at some time it is off.
    if (any_time ? b.schedule.has_value() : !b.ActiveAt(api.now())) continue;
    // A percentage of the NodePool's nodes, rounded up (as Karpenter scales it).
    const int64_t cap = b.percent ? (static_cast<int64_t>(nodes) * b.nodes + 99) / 100
                                  : static_cast<int64_t>(b.nodes);
    allowed = std::min(allowed, cap);
  }
  const int64_t disrupting = static_cast<int64_t>(draining() + awaiting_replacement_);
  return static_cast<uint32_t>(std::clamp<int64_t>(allowed - disrupting, 0, UINT32_MAX));
}

bool Karpenter::ConsolidationCandidate(const ClusterApi& api, uint32_t node, bool any_time,
                                       std::span<const uint8_t> needed) const {
  if (!needed.empty() && needed[node] != 0) return false;  // a waiting gang needs it
  const NodeClaimState& claim = claims_[node];
  return group_of(node) >= 0 && state(node) == State::kReady && !claim.awaiting &&
         api.nodes()[node].schedulable && claim.replaces < 0 && AboveMin(group_of(node)) &&
         (any_time || api.now() - LastChange(api, node) >= spec_.consolidate_after);
}

namespace {

// Multi-node consolidation looks at no more than this many candidates (Karpenter's
// MultiNodeConsolidation caps its search at 100).
constexpr size_t kMaxMultiNodeCandidates = 100;

}  // namespace

std::optional<Karpenter::Consolidation> Karpenter::FindConsolidation(const ClusterApi& api,
                                                                     bool any_time) const {
  std::vector<uint32_t> empty, busy;
  const std::vector<uint8_t> needed = api.NodesWaitingGangsNeed();
  for (uint32_t node = 0; node < node_count(); ++node) {
    if (!ConsolidationCandidate(api, node, any_time, needed)) continue;
    (api.nodes()[node].pods.empty() ? empty : busy).push_back(node);
  }
  if (!empty.empty() && DisruptionsAllowed(api, DisruptionReason::kEmpty, any_time) > 0) {
    return Consolidation{.empty = std::move(empty)};
  }
  const uint32_t budget = DisruptionsAllowed(api, DisruptionReason::kUnderutilized, any_time);
  if (spec_.consolidation_policy != ConsolidationPolicy::kWhenEmptyOrUnderutilized ||
      busy.empty() || budget == 0 || draining() + awaiting_replacement_ > 0) {
    return std::nullopt;
  }
  const std::vector<int32_t> allowed = api.disruption_budgets().Allowed();
  std::erase_if(busy, [&](uint32_t n) { return !PodsEvictable(api, n, allowed); });
  // The cheapest to disrupt first: fewest pods, then the dearest node.
  const auto price = [&](uint32_t n) {
    return api.cluster().node_groups[group_of(n)].price_per_hour;
  };
  std::sort(busy.begin(), busy.end(), [&](uint32_t a, uint32_t b) {
    const size_t pa = api.nodes()[a].pods.size(), pb = api.nodes()[b].pods.size();
    if (pa != pb) return pa < pb;
    return price(a) != price(b) ? price(a) > price(b) : a < b;
  });
  if (std::optional<Consolidation> multi = MultiNodeConsolidation(api, busy, budget, needed)) {
    return multi;
  }
  for (const uint32_t& node : busy) {
    if (std::optional<Consolidation> single = ConsolidationOf(api, {&node, 1}, needed)) {
      return single;
    }
  }
  return std::nullopt;
}

// Karpenter's firstNConsolidationOption: a binary search for the longest prefix of the
// candidates that makes a valid consolidation (assuming, as Karpenter does, that a prefix
// of a valid one is valid).
std::optional<Karpenter::Consolidation> Karpenter::MultiNodeConsolidation(
    const ClusterApi& api, std::span<const uint32_t> busy, uint32_t budget,
    std::span<const uint8_t> held) const {
  size_t low = 2;
  size_t high = std::min({busy.size(), size_t{budget}, kMaxMultiNodeCandidates});
  std::optional<Consolidation> longest;
  while (low <= high) {
    const size_t mid = (low + high) / 2;
    if (std::optional<Consolidation> c = ConsolidationOf(api, busy.first(mid), held)) {
      longest = std::move(c);
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return longest;
}

std::optional<Karpenter::Consolidation> Karpenter::ConsolidationOf(
    const ClusterApi& api, std::span<const uint32_t> nodes, std::span<const uint8_t> held) const {
  const std::vector<PendingPods> stranded = api.PodsThatCannotMove(nodes, held);
  Consolidation c{.nodes = {nodes.begin(), nodes.end()}};
  if (stranded.empty()) return c;
  const std::span<const NodeGroupSpec> groups = api.cluster().node_groups;
  double price = 0, dearest = 0;
  for (uint32_t node : nodes) {
    const NodeGroupSpec& group = groups[group_of(node)];
    if (group.capacity == CapacityType::kSpot) return std::nullopt;  // no spot-to-spot
    price += group.price_per_hour;
    dearest = std::max(dearest, group.price_per_hour);
  }
  const auto candidate_group = [&](uint32_t g) {
    return std::any_of(nodes.begin(), nodes.end(),
                       [&](uint32_t n) { return group_of(n) == static_cast<int32_t>(g); });
  };
  // Cheaper than the nodes together; and, replacing several, not of a candidate's offering
  // unless cheaper than the dearest candidate (Karpenter's filterOutSameInstanceType:
  // deleting fewer nodes would do).
  std::vector<Offering> cheaper = Offerings(api, false, nullptr);
  std::erase_if(cheaper, [&](const Offering& o) {
    return o.price_per_hour >= price ||
           (nodes.size() > 1 && candidate_group(o.group) && o.price_per_hour >= dearest);
  });
  uint32_t pods = 0;
  for (const PendingPods& k : stranded) pods += k.count;
  const std::vector<NodeClaimPlan> plan =
      PlanNodeClaims(cheaper, stranded, 1, scratch_resources(), api.device_classes());
  if (plan.size() != 1 || plan[0].pods != pods) return std::nullopt;
  c.replacement = static_cast<int32_t>(plan[0].group);
  return c;
}

// Carries out the decision of 15 s ago as far as it still holds: the empty nodes still
// empty candidates; the nodes with pods still candidates, within the budget, and their
// consolidation still valid, deleting or replacing as decided.
void Karpenter::Disrupt(ClusterApi& api) {
  const Consolidation planned = *command_;
  command_.reset();
  if (!planned.empty.empty()) {
    std::optional<Consolidation> now = FindConsolidation(api, false);
    if (!now) return;
    std::erase_if(now->empty, [&](uint32_t n) {
      return std::find(planned.empty.begin(), planned.empty.end(), n) == planned.empty.end();
    });
    if (!now->empty.empty()) Consolidate(api, *now);
    return;
  }
  if (draining() + awaiting_replacement_ > 0 ||
      DisruptionsAllowed(api, DisruptionReason::kUnderutilized) < planned.nodes.size()) {
    return;
  }
  const std::vector<uint8_t> needed = api.NodesWaitingGangsNeed();
  const std::vector<int32_t> allowed = api.disruption_budgets().Allowed();
  for (uint32_t node : planned.nodes) {
    if (!ConsolidationCandidate(api, node, false, needed) || api.nodes()[node].pods.empty() ||
        !PodsEvictable(api, node, allowed)) {
      return;
    }
  }
  const std::optional<Consolidation> now = ConsolidationOf(api, planned.nodes, needed);
  if (now && (now->replacement < 0) == (planned.replacement < 0)) Consolidate(api, *now);
}

void Karpenter::Consolidate(ClusterApi& api, const Consolidation& action) {
  uint32_t allowed = DisruptionsAllowed(api, DisruptionReason::kEmpty);
  for (uint32_t node : action.empty) {
    if (allowed == 0) break;
    if (!AboveMin(group_of(node))) continue;
    --allowed;
    Terminate(api, node);
  }
  if (!action.empty.empty()) return;
  if (action.replacement < 0) {
    for (uint32_t node : action.nodes) StartDrain(api, node);
    return;
  }
  const uint32_t fresh = LaunchClaim(api, static_cast<uint32_t>(action.replacement));
  claims_[fresh].replaces = static_cast<int32_t>(action.nodes.front());
  for (uint32_t node : action.nodes) {
    claims_[node].awaiting = true;
    ++awaiting_replacement_;
    api.Cordon(NodeId(node));
    claims_[node].replaced_by = static_cast<int32_t>(fresh);
  }
}

std::vector<uint32_t> Karpenter::ReplacedBy(uint32_t fresh) const {
  std::vector<uint32_t> nodes;
  for (uint32_t node = 0; node < claims_.size(); ++node) {
    if (claims_[node].replaced_by == static_cast<int32_t>(fresh)) nodes.push_back(node);
  }
  return nodes;
}

void Karpenter::NodeBecameReady(ClusterApi& api, uint32_t node) {
  claims_[node].touched = api.now();
  if (claims_[node].replaces >= 0) ReplacementReady(api, node);
}

void Karpenter::LaunchFailed(ClusterApi& api, uint32_t node) {
  if (claims_[node].replaces >= 0) ReplacementFailed(api, node);
}

// A node awaiting its replacement leaves that state first (the replacement stays, free
// to be consolidated).
void Karpenter::BeforeReclaim(ClusterApi& api, uint32_t node) {
  if (claims_[node].awaiting) EndAwaitingReplacement(api, node);
}

void Karpenter::NodeTerminated(ClusterApi& api, uint32_t node) { EndReplacement(api, node); }

void Karpenter::DrainAborted(ClusterApi& api, uint32_t node) { EndReplacement(api, node); }

// The replaced nodes leave the cordon Karpenter put on them: drained once their
// replacement is Ready, back in service when the replacement never registered.
void Karpenter::ReplacementReady(ClusterApi& api, uint32_t replacement) {
  for (uint32_t node : ReplacedBy(replacement)) {
    MIGSIM_CHECK(claims_[node].awaiting, "a replacement for a node no longer awaiting it");
    EndAwaitingReplacement(api, node);
    StartDrain(api, node);
  }
}

void Karpenter::ReplacementFailed(ClusterApi& api, uint32_t replacement) {
  for (uint32_t node : ReplacedBy(replacement)) {
    EndAwaitingReplacement(api, node);
    claims_[node].touched = api.now();
    EndReplacement(api, node);
  }
}

// Karpenter's cordon for the replacement is lifted; the node is Ready as before.
void Karpenter::EndAwaitingReplacement(ClusterApi& api, uint32_t node) {
  claims_[node].awaiting = false;
  --awaiting_replacement_;
  api.Uncordon(NodeId(node));
}

// A replaced node is gone or back in service: once all the nodes it replaces are, the
// replacement may be consolidated.
void Karpenter::EndReplacement(ClusterApi& api, uint32_t replaced) {
  NodeClaimState& claim = claims_[replaced];
  if (claim.replaced_by < 0) return;
  const auto fresh = static_cast<uint32_t>(claim.replaced_by);
  claim.replaced_by = -1;
  if (!ReplacedBy(fresh).empty()) return;
  claims_[fresh].replaces = -1;
  claims_[fresh].touched = api.now();
}

}  // namespace migsim
