#pragma once
// What the scheduler left pending, as the autoscalers read it (ClusterApi::
// UnschedulablePods) and simulate placing it on nodes that do not exist yet.

#include <cstdint>
#include <optional>

#include "sim/policy/cluster_view.h"

namespace migsim {

// Pods alike (one scheduling class) waiting for a node: how the scheduler sees one of
// them, and how many there are. For the pods of a gang, `gang` is where the gang lets
// them go on new nodes: its topology domain, and no two on one node when it asks for one
// per node (each packing starts from an empty `taken`).
struct PendingPods {
  PodView view;
  uint32_t count = 0;
  std::optional<GangConstraint> gang{};
};

}  // namespace migsim
