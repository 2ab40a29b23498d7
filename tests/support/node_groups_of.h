#pragma once
// The node groups' controller of a finished run (its billing and counters), for tests.

#include "sim/controllers/node_groups/node_groups.h"
#include "sim/engine/engine.h"

namespace migsim::test {

// REQUIRES: the run's controllers came from MakeClusterControllers (it always has one).
inline const NodeGroups& NodeGroupsOf(const Engine& engine) {
  return *FindController<NodeGroups>(engine.cluster_controllers());
}

}  // namespace migsim::test
