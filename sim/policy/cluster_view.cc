#include "sim/policy/cluster_view.h"

namespace migsim {

bool ClusterView::Fits(const PodView& pod, const NodeInfo& node) const {
  if (!node.schedulable) return false;
  const PodRequests& req = *pod.requests;
  if (node.cpu_milli_requested + req.cpu_milli > node.cpu_milli_allocatable) return false;
  if (node.memory_mib_requested + req.memory_mib > node.memory_mib_allocatable) return false;
  for (const ResourceRequest& r : req.extended) {
    if (node.Free(r.resource) < r.count) return false;
  }
  return pod.node_selector->empty() || MatchesSelector(node.labels, *pod.node_selector);
}

}  // namespace migsim
