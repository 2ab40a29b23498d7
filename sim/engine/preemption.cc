#include "sim/engine/preemption.h"

#include <algorithm>
#include <tuple>

namespace migsim {

NodeWithout::NodeWithout(const NodeInfo& node) {
  info_.cpu_milli_allocatable = node.cpu_milli_allocatable;
  info_.cpu_milli_requested = node.cpu_milli_requested;
  info_.memory_mib_allocatable = node.memory_mib_allocatable;
  info_.memory_mib_requested = node.memory_mib_requested;
  info_.allocatable = node.allocatable;
  info_.requested = node.requested;
  info_.device_shares = node.device_shares;
  info_.devices = node.devices;
}

void NodeWithout::Shift(const PotentialVictim& pod, int sign) {
  const PodRequests& r = *pod.requests;
  info_.cpu_milli_requested += sign * r.cpu_milli;
  info_.memory_mib_requested += sign * r.memory_mib;
  for (const ResourceRequest& e : r.extended) info_.requested[e.resource.value()] += sign * e.count;
  bool fractional = false;
  for (const NodeRuntime::Held& held : pod.devices) {
    DeviceInfo& device = info_.devices[held.device];
    device.used += sign * held.count;
    fractional = fractional || device.fractional;
  }
  if (fractional) RefreshShares();
}

// As NodeRuntime::RefreshShares does from its own devices.
void NodeWithout::RefreshShares() {
  for (DeviceShares& s : info_.device_shares) s.largest_free = s.whole_free = 0;
  for (const DeviceInfo& d : info_.devices) {
    if (!d.fractional || d.resource.value() >= info_.device_shares.size()) continue;
    DeviceShares& s = info_.device_shares[d.resource.value()];
    s.largest_free = std::max(s.largest_free, d.free());
    if (d.used == 0) ++s.whole_free;
  }
}

bool MoreImportant(const PotentialVictim& a, const PotentialVictim& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  return a.started < b.started;
}

namespace {

// filterPodsWithPDBViolation: in importance order, each pod takes one disruption from
// every budget that selects it; a pod that takes one its budget does not have violates.
std::vector<bool> BudgetViolations(std::span<const PotentialVictim> pods,
                                   std::vector<int32_t>& allowed) {
  std::vector<bool> violates(pods.size(), false);
  for (size_t i = 0; i < pods.size(); ++i) {
    for (uint32_t b : pods[i].budgets) {
      if (--allowed[b] < 0) violates[i] = true;
    }
  }
  return violates;
}

void AddVictim(NodeVictims& out, const PotentialVictim& pod, bool violates) {
  if (out.victims.empty() || pod.priority > out.highest_priority) {
    out.highest_priority = pod.priority;
    out.earliest_top_start = pod.started;
  } else if (pod.priority == out.highest_priority) {
    out.earliest_top_start = std::min(out.earliest_top_start, pod.started);
  }
  out.victims.push_back(pod.pod);
  out.priority_sum += int64_t{pod.priority} + kVictimPriorityOffset;
  if (violates) ++out.pdb_violations;
}

}  // namespace

std::optional<NodeVictims> SelectVictims(NodeId node, const NodeInfo& info,
                                         std::vector<PotentialVictim> lower,
                                         std::vector<int32_t> allowed,
                                         const PodRequests& requests) {
  NodeWithout what_if(info);
  for (const PotentialVictim& pod : lower) what_if.Remove(pod);
  if (lower.empty() || !what_if.Fits(requests)) return std::nullopt;
  std::stable_sort(lower.begin(), lower.end(), MoreImportant);
  const std::vector<bool> violates = BudgetViolations(lower, allowed);
  NodeVictims out{.node = node};
  // Reprieve the budget-breaking pods first, then the others, most important first.
  for (const bool group : {true, false}) {
    for (size_t i = 0; i < lower.size(); ++i) {
      if (violates[i] != group) continue;
      what_if.Restore(lower[i]);
      if (what_if.Fits(requests)) continue;
      what_if.Remove(lower[i]);
      AddVictim(out, lower[i], group);
    }
  }
  // A node where the preemptor fits without evicting anyone is no candidate (kube-scheduler
  // treats it as an error of the dry run): the placement policy chose not to use it.
  if (out.victims.empty()) return std::nullopt;
  return out;
}

// Smaller keys are better; the start is compared the other way round.
bool PreemptRather(const NodeVictims& a, const NodeVictims& b) {
  auto key = [](const NodeVictims& n) {
    return std::make_tuple(n.pdb_violations, n.highest_priority, n.priority_sum, n.victims.size());
  };
  return key(a) < key(b) || (key(a) == key(b) && a.earliest_top_start > b.earliest_top_start);
}

const NodeVictims& PickPreemptionNode(std::span<const NodeVictims> candidates) {
  const NodeVictims* best = &candidates.front();
  for (const NodeVictims& c : candidates.subspan(1)) {
    if (PreemptRather(c, *best)) best = &c;
  }
  return *best;
}

size_t PreemptionCandidateLimit(size_t nodes) {
  return std::min(nodes, std::max<size_t>(nodes / 10, 100));
}

}  // namespace migsim
