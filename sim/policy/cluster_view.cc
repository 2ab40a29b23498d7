#include "sim/policy/cluster_view.h"

namespace migsim {

bool NodeInfo::CanTakeFromDevices(ResourceId r, int32_t count) const {
  if (r.value() >= device_shares.size() || device_shares[r.value()].units == 0) return true;
  const DeviceShares& s = device_shares[r.value()];
  if (count <= s.units) return s.largest_free >= count;
  return count % s.units == 0 && int64_t{s.whole_free} * s.units >= count;
}

bool ClusterView::Fits(const PodView& pod, const NodeInfo& node) const {
  const PodRequests& req = *pod.requests;
  // Extended resources first: on a busy GPU cluster they rule out the most nodes.
  for (const ResourceRequest& r : req.extended) {
    if (!node.CanTake(r.resource, r.count)) return false;
  }
  if (!node.schedulable) return false;
  if (node.cpu_milli_requested + req.cpu_milli > node.cpu_milli_allocatable) return false;
  if (node.memory_mib_requested + req.memory_mib > node.memory_mib_allocatable) return false;
  if (pod.node_selector != nullptr && !pod.node_selector->empty() &&
      !MatchesSelector(node.labels, *pod.node_selector)) {
    return false;
  }
  if (pod.node_affinity != nullptr && !pod.node_affinity->empty() &&
      !MatchesAffinity(node.labels, *pod.node_affinity)) {
    return false;
  }
  return pod.gang == nullptr || pod.gang->Allows(node.id, node.labels);
}

}  // namespace migsim
