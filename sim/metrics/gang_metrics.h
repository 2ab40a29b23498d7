#pragma once
// What a run reports of its gangs (README "Output"): how many were bound whole, how long
// they waited for it, how often held reservations timed out, and which never ran.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/gang.h"
#include "sim/engine/pod.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

struct GangMetrics {
  int64_t gangs = 0;            // gangs the run declared (a DistributedJob's, once created)
  int64_t never_scheduled = 0;  // gangs never bound whole
  int64_t waiting = 0;          // gangs with pods at the end, none of them bound
  int64_t timeouts = 0;         // held reservations released on timeout, over all gangs
  // Per bind (a Permit that bound a gang whole): bind time - when the gang's pods were
  // created (the latest creation; a restart creates new pods).
  LatencyStats wait;
  // The controllers of the gangs never bound ("DistributedJob/x"), in declaration order.
  std::vector<std::string> never_scheduled_owners;
};

// `gangs` as the engine keeps them (Engine::gangs) and the run's pods; `owner_name` names
// a controller. O(pods log pods).
GangMetrics ComputeGangMetrics(std::span<const Gang> gangs, std::span<const Pod> pods,
                               const std::function<std::string(OwnerId)>& owner_name);

}  // namespace migsim
