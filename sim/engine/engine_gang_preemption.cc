// Gangs that preempt: DefaultPreemption (docs/scheduling.md §2) for a coscheduling PodGroup
// (§3), all or nothing.
//
// kube-scheduler runs DefaultPreemption for each pod of a gang on its own, so it may evict
// pods for a gang that still cannot start. migsim preempts for the gang as a whole, as gang
// schedulers (Volcano, KAI) do: victims are evicted only when every pending member has a
// node to go to once they are gone.

#include <algorithm>
#include <map>
#include <string>

#include "sim/engine/engine.h"
#include "sim/engine/preemption.h"
#include "sim/policy/gang_constraint.h"

namespace migsim {

namespace {

// The topology domain a node offers a gang: "" without a topology key; nullptr when the
// node has no value for the key (it cannot take part).
const std::string* DomainOf(const NodeInfo& node, const GangConstraint& c) {
  static const std::string kAnywhere;
  return c.topology_key.empty() ? &kAnywhere : FindLabel(node.labels, c.topology_key);
}

}  // namespace

std::vector<Pod*> Engine::PendingMembers(const Gang& gang) {
  std::vector<Pod*> pending;
  for (PodId id : gang.members) {
    Pod& pod = pods_[id.value()];
    if (pod.phase == PodPhase::kPending && !pod.reserved) pending.push_back(&pod);
  }
  return pending;
}

// Called when the gang could neither bind nor hold reservations. Its pending members must
// share one template (a DistributedJob's do) and be eligible, as single pods are
// (preemptionPolicy, PodEligibleToPreemptOthers).
void Engine::PreemptForGang(const Gang& gang) {
  const std::vector<Pod*> pending = PendingMembers(gang);
  if (pending.empty()) return;
  const Pod& first = *pending.front();
  if (!preemptive_order_ && Rank(first) <= lowest_priority_) return;
  if (!templates_[first.tmpl.value()].preempts) return;
  for (const Pod* member : pending) {
    if (member->tmpl != first.tmpl || !EligibleToPreempt(*member)) return;
  }
  const GangConstraint constraint = ConstraintOf(gang);
  PodView view = ViewOf(first);
  view.gang = &constraint;
  view.priority = Rank(first);
  const std::vector<NodeVictims> candidates = FindCandidates(view, pending.size());
  const std::vector<GangSeat> plan = PlanGang(view, candidates, pending.size());
  if (plan.size() < pending.size()) return;  // not all of them: evict nobody
  for (size_t i = 0; i < plan.size(); ++i) {
    if (plan[i].victims != nullptr) {
      for (PodId victim : plan[i].victims->victims) Evict(pods_[victim.value()]);
    }
    Pod& member = *pending[i];
    if (!member.nominated.valid()) nominated_pods_.push_back(member.id);
    member.nominated = plan[i].node;
  }
}

// One distinct node per member: per topology domain, the nodes where a member fits as they
// are, then DefaultPreemption's candidates in its order (PreemptRather); the first domain,
// in label order, with `count` of them. Empty when no domain has enough. Members share a
// template, so a node that takes one takes any.
std::vector<Engine::GangSeat> Engine::PlanGang(const PodView& view,
                                               const std::vector<NodeVictims>& candidates,
                                               size_t count) const {
  const GangConstraint& c = *view.gang;
  const ClusterView cluster(node_info_, resources_, now_);
  std::map<std::string, std::vector<GangSeat>> seats;
  for (const NodeInfo& node : node_info_) {
    const std::string* domain = DomainOf(node, c);
    if (domain != nullptr && cluster.Fits(view, node)) seats[*domain].push_back({node.id});
  }
  std::vector<const NodeVictims*> ordered;
  for (const NodeVictims& candidate : candidates) ordered.push_back(&candidate);
  std::stable_sort(ordered.begin(), ordered.end(), [](const NodeVictims* a, const NodeVictims* b) {
    return PreemptRather(*a, *b);
  });
  for (const NodeVictims* candidate : ordered) {
    const NodeInfo& node = node_info_[candidate->node.value()];
    const std::string* domain = DomainOf(node, c);
    if (domain != nullptr && c.Allows(node.id, node.labels)) {
      seats[*domain].push_back({node.id, candidate});
    }
  }
  for (auto& [domain, found] : seats) {
    if (found.size() < count) continue;
    found.resize(count);
    return found;
  }
  return {};
}

}  // namespace migsim
