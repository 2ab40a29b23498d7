// What the autoscalers ask of the scheduler (ClusterApi's simulations): the pods it left
// unschedulable, a removal of nodes simulated, and the nodes gangs waiting for nodes need.
// Nothing here changes the run.

#include <algorithm>
#include <iterator>
#include <utility>

#include "sim/engine/engine.h"

namespace migsim {

bool Engine::FitsSomeNode(const PodView& view) const {
  const ClusterView cluster(node_info_, resources_, now_);
  for (const NodeInfo& node : node_info_) {
    if (cluster.Fits(view, node)) return true;
  }
  return false;
}

std::vector<PendingPods> Engine::UnschedulablePods() const {
  size_t classes = 0;
  for (SchedulingClassId c : template_class_) classes = std::max<size_t>(classes, c.value() + 1);
  std::vector<uint32_t> count(classes, 0);
  std::vector<PodId> first(classes);
  std::vector<uint8_t> refused(classes, 0);
  std::vector<GangId> gangs;
  std::vector<uint8_t> gang_seen(gangs_.size(), 0);
  queue_.ForEach([&](PodId id) {
    const Pod& pod = pods_[id.value()];
    if (pod.phase != PodPhase::kPending || pod.nominated.valid()) return;
    if (pod.gang.valid()) {
      if (gang_seen[pod.gang.value()] == 0) gangs.push_back(pod.gang);
      gang_seen[pod.gang.value()] = 1;
      return;
    }
    const PodTemplate& t = templates_[pod.tmpl.value()];
    if (t.node_name.valid() || !t.shared_claims.empty()) return;
    const size_t c = template_class_[pod.tmpl.value()].value();
    ++count[c];
    if (!first[c].valid() || id < first[c]) first[c] = id;
    if (pod.attempts > 0) refused[c] = 1;
  });
  std::vector<PendingPods> kinds;
  for (size_t c = 0; c < classes; ++c) {
    if (count[c] == 0 || !refused[c]) continue;
    const PodView view = ViewOf(pods_[first[c].value()]);
    if (!FitsSomeNode(view)) kinds.push_back({view, count[c]});
  }
  for (GangId g : gangs) {
    if (std::optional<PendingPods> kind = GangAwaitingNodes(gangs_[g.value()])) {
      kinds.push_back(std::move(*kind));
    }
  }
  std::sort(kinds.begin(), kinds.end(), [](const PendingPods& a, const PendingPods& b) {
    return a.view.priority != b.view.priority ? a.view.priority > b.view.priority
                                              : a.view.id < b.view.id;
  });
  return kinds;
}

namespace {

PodRequests Sum(const PodRequests& a, const PodRequests& b) {
  PodRequests sum{.cpu_milli = a.cpu_milli + b.cpu_milli,
                  .memory_mib = a.memory_mib + b.memory_mib,
                  .extended = a.extended};
  for (const ResourceRequest& r : b.extended) {
    auto it = std::find_if(sum.extended.begin(), sum.extended.end(),
                           [&](const ResourceRequest& x) { return x.resource == r.resource; });
    if (it != sum.extended.end()) {
      it->count += r.count;
    } else {
      sum.extended.insert(std::upper_bound(sum.extended.begin(), sum.extended.end(), r,
                                           [](const ResourceRequest& x, const ResourceRequest& y) {
                                             return x.resource < y.resource;
                                           }),
                          r);
    }
  }
  return sum;
}

}  // namespace

// All of the leaving nodes' pods at once: each onto the first node not leaving that fits it
// besides the pods already sent there (their requests summed; DRA claims are checked one pod at a
// time), as the autoscalers simulate a node's removal. A gang's pods keep their pod
// (anti-)affinity: one per node away from the gang's other pods, in the gang's topology
// domain (the stranded ones carry that domain, for a replacement node).
std::vector<PendingPods> Engine::PodsThatCannotMove(std::span<const uint32_t> leaving,
                                                    std::span<const uint8_t> held) const {
  const ClusterView cluster(node_info_, resources_, now_);
  std::vector<std::pair<uint32_t, PodRequests>> sent;
  std::vector<std::pair<GangId, GangConstraint>> gangs;  // as the moves so far leave them
  std::vector<PendingPods> stranded;
  const auto left = [&](uint32_t i) {
    return std::find(leaving.begin(), leaving.end(), i) != leaving.end();
  };
  for (const uint32_t node : leaving) {
    for (const BoundPod& bound : node_info_[node].pods) {
      const Pod& pod = pods_[bound.id.value()];
      if (pod.terminating) continue;
      PodView view = ViewOf(pod);
      GangConstraint* gang = nullptr;
      if (pod.gang.valid()) {
        auto it = std::find_if(gangs.begin(), gangs.end(),
                               [&](const auto& g) { return g.first == pod.gang; });
        if (it == gangs.end()) {
          gangs.emplace_back(pod.gang, ConstraintOf(gangs_[pod.gang.value()]));
          it = std::prev(gangs.end());
        }
        gang = &it->second;
        view.gang = gang;
      }
      bool placed = false;
      for (uint32_t i = 0; i < node_info_.size() && !placed; ++i) {
        if (left(i) || (!held.empty() && held[i] != 0) || !cluster.Fits(view, node_info_[i])) {
          continue;
        }
        auto it =
            std::find_if(sent.begin(), sent.end(), [&](const auto& s) { return s.first == i; });
        if (it == sent.end()) {
          sent.emplace_back(i, *view.requests);
          placed = true;
        } else if (PodRequests more = Sum(it->second, *view.requests);
                   node_info_[i].HasRoomFor(more)) {
          it->second = std::move(more);
          placed = true;
        }
        if (placed && gang != nullptr) gang->Take(NodeId(i));
      }
      if (placed) continue;
      view.gang = nullptr;
      PendingPods kind{.view = view, .count = 1};
      if (gang != nullptr) {
        kind.gang = GangConstraint{.topology_key = gang->topology_key,
                                   .topology_value = gang->topology_value};
      }
      stranded.push_back(std::move(kind));
    }
  }
  return stranded;
}

// Karpenter's disruption simulates the pending pods too: a node that a waiting gang's pods
// fit is one they need (they wait for the rest of the gang's nodes), not one to remove.
std::vector<uint8_t> Engine::NodesWaitingGangsNeed() const {
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

}  // namespace migsim
