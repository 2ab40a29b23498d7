#pragma once
// A job class: what a pod's container does, in the terms the engine needs — how long it
// takes to start, and how long it runs on the device it was given.
//
// This is the foundation's performance model: a run time per device kind, measured or
// calibrated by the scenario author. Contention between time-sliced tenants is not
// modelled here (a time-sliced pod runs at the speed of its underlying device).

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/sim_time.h"

namespace migsim {

struct JobClass {
  std::string name;
  SimTime startup;  // bind -> container running (image pull, container start)
  // Device kind -> run time. Kinds: "cpu" (no GPU device), "gpu" (a whole GPU), or a
  // MIG profile name such as "1g.5gb".
  std::vector<std::pair<std::string, SimTime>> run_time;
  std::optional<SimTime> default_run_time;  // for kinds not listed
  // Probability that a run ends in failure (non-zero exit) at its end.
  double failure_probability = 0;

  // The run time on `kind`, or nullopt when neither the kind nor a default is given.
  std::optional<SimTime> RunTimeOn(std::string_view kind) const {
    for (const auto& [k, t] : run_time) {
      if (k == kind) return t;
    }
    return default_run_time;
  }
};

}  // namespace migsim
