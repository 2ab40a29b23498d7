#pragma once
// What each tenant (namespace) holds of the cluster, for Dominant Resource Fairness
// (Ghodsi et al., NSDI'11): the requests of its bound pods over the cluster's allocatable
// capacity, per resource (cpu, memory, each extended resource: GPUs, MIG devices, ...);
// its dominant share is the largest of these fractions.

#include <cstdint>
#include <span>
#include <vector>

#include "sim/policy/cluster_view.h"
#include "sim/policy/resources.h"

namespace migsim {

class DominantShares {
 public:
  DominantShares() = default;
  // The capacity is the nodes' allocatable resources now (a later MIG repartition that
  // changes how many devices of a profile the cluster has is not followed; a resource
  // without capacity counts for nothing). `namespaces`: how many tenants there are.
  DominantShares(std::span<const NodeInfo> nodes, size_t resource_count, size_t namespaces);

  // A pod of namespace `ns` with `requests` was bound (sign +1) or released (-1). O(resources
  // it requests + 2) to book, O(resources) to refresh the share.
  void Add(int32_t ns, const PodRequests& requests, int sign);
  // max over resources of held / capacity, in [0, 1] while capacity does not shrink.
  double DominantShare(int32_t ns) const { return share_[static_cast<size_t>(ns)]; }

 private:
  // Resource index: 0 cpu, 1 memory, 2 + ResourceId for an extended resource.
  std::vector<double> capacity_;
  std::vector<std::vector<int64_t>> held_;  // by namespace, by resource index
  std::vector<double> share_;               // by namespace
};

}  // namespace migsim
