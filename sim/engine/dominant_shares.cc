#include "sim/engine/dominant_shares.h"

#include <algorithm>

namespace migsim {

DominantShares::DominantShares(std::span<const NodeInfo> nodes, size_t resource_count,
                               size_t namespaces)
    : capacity_(resource_count + 2, 0.0),
      held_(namespaces, std::vector<int64_t>(resource_count + 2, 0)),
      share_(namespaces, 0.0) {
  for (const NodeInfo& node : nodes) {
    capacity_[0] += static_cast<double>(node.cpu_milli_allocatable);
    capacity_[1] += static_cast<double>(node.memory_mib_allocatable);
    for (size_t r = 0; r < resource_count && r < node.allocatable.size(); ++r) {
      capacity_[r + 2] += node.allocatable[r];
    }
  }
}

// The share is recomputed over every resource rather than kept incrementally: a release
// can lower the dominant resource, and resources are few.
void DominantShares::Add(int32_t ns, const PodRequests& requests, int sign) {
  std::vector<int64_t>& held = held_[static_cast<size_t>(ns)];
  held[0] += sign * requests.cpu_milli;
  held[1] += sign * requests.memory_mib;
  for (const ResourceRequest& r : requests.extended) {
    if (r.resource.value() + 2 < held.size()) held[r.resource.value() + 2] += sign * r.count;
  }
  double share = 0;
  for (size_t r = 0; r < held.size(); ++r) {
    if (capacity_[r] > 0) share = std::max(share, static_cast<double>(held[r]) / capacity_[r]);
  }
  share_[static_cast<size_t>(ns)] = share;
}

}  // namespace migsim
