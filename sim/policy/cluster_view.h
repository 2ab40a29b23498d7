#pragma once
// The read-only view of the cluster that a policy sees: what the Kubernetes scheduler
// knows of each node (labels, allocatable and requested resources), nothing more.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/sim_time.h"
#include "sim/policy/resources.h"

namespace migsim {

struct NodeInfo {
  NodeId id;
  std::string name;
  Labels labels;             // sorted by key
  bool schedulable = true;   // false while cordoned
  int64_t cpu_milli_allocatable = 0;
  int64_t cpu_milli_requested = 0;
  int64_t memory_mib_allocatable = 0;
  int64_t memory_mib_requested = 0;
  std::vector<int32_t> allocatable;  // by ResourceId; shorter vectors mean 0
  std::vector<int32_t> requested;    // by ResourceId, same length as allocatable

  int32_t Allocatable(ResourceId r) const {
    return r.value() < allocatable.size() ? allocatable[r.value()] : 0;
  }
  int32_t Requested(ResourceId r) const {
    return r.value() < requested.size() ? requested[r.value()] : 0;
  }
  int32_t Free(ResourceId r) const { return Allocatable(r) - Requested(r); }
};

// A pod waiting to be placed, as the scheduler sees it.
struct PodView {
  PodId id;
  const PodRequests* requests = nullptr;
  const Labels* node_selector = nullptr;
};

class ClusterView {
 public:
  ClusterView(std::span<const NodeInfo> nodes, const ResourceTable& resources, SimTime now)
      : nodes_(nodes), resources_(&resources), now_(now) {}

  std::span<const NodeInfo> nodes() const { return nodes_; }
  const ResourceTable& resources() const { return *resources_; }
  SimTime now() const { return now_; }

  // The scheduler's filter: the node is schedulable, matches the pod's node selector,
  // and has room for every requested resource.
  bool Fits(const PodView& pod, const NodeInfo& node) const;

 private:
  std::span<const NodeInfo> nodes_;
  const ResourceTable* resources_;
  SimTime now_;
};

}  // namespace migsim
