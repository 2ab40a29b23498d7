#pragma once
// What the faults under way do to one node (sim/engine/engine_faults.cc): counters, since
// faults overlap (a node lost twice is Ready again only after both repairs).

#include <string>
#include <vector>

#include "sim/cluster/mig_config.h"

namespace migsim {

struct NodeFaults {
  int lost = 0;     // node-lost faults not repaired yet: NotReady while > 0
  int cordons = 0;  // drains and spot notices under way
  // Spot notices under way on a node group's instance (their cordons are among `cordons`):
  // lifted when the instance goes, whichever way it goes first (Engine::TerminateNode).
  int spot_notices = 0;
  bool removed = false;
  bool absent = false;  // a node group's node not running (never launched or scaled down)
  std::vector<int> gpu_faults;  // by GPU: unhealthy while > 0
  bool mig_failed = false;
  std::vector<GpuMigSetting> mig_before;  // the layout a failed apply replaced
  std::string config_before;
};

}  // namespace migsim
