#pragma once
// A job class: what a pod's container does, in the terms the engine needs — how long it
// takes to start, how long it runs alone on the device it was given, how much work that
// run is, and how busy it keeps a device (which decides how it fares when time-sliced).
//
// Run times are per device kind, optionally per GPU model: "T4/gpu" is tried before
// "gpu". A scenario gives them as seconds (run_s) or as a speed in work units per
// second (speed), which the loader turns into seconds.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/sim_time.h"

namespace migsim {

struct JobClass {
  std::string name;
  SimTime startup;  // bind -> container running (image pull, container start)
  // Key -> run time alone on that device. Keys: "cpu" (no GPU device), "gpu" (a whole
  // GPU), a MIG profile such as "1g.5gb", each optionally prefixed by a GPU model's
  // catalog name and '/', e.g. "T4/gpu".
  std::vector<std::pair<std::string, SimTime>> run_time;
  std::optional<SimTime> default_run_time;  // for kinds not listed
  // Probability that a run ends in failure (non-zero exit) at its end.
  double failure_probability = 0;
  // The work one run does, in `work_unit`s (e.g. 177,250 sequences): for throughput.
  double work = 1;
  std::string work_unit = "runs";
  // Fraction of a device's time one process keeps busy when it runs alone, in (0, 1].
  double duty_cycle = 1;
  // GPU memory one process holds. A process that does not fit in what its device has
  // left (time-sliced neighbours share one framebuffer) dies out of memory.
  int64_t gpu_memory_mib = 0;

  // The run time alone on `kind` of GPU model `model` ("" for none), or nullopt when
  // neither "<model>/<kind>", "<kind>" nor a default is given.
  std::optional<SimTime> RunTimeOn(std::string_view model, std::string_view kind) const {
    if (!model.empty()) {
      for (const auto& [k, t] : run_time) {
        if (k.size() == model.size() + 1 + kind.size() && k.starts_with(model) &&
            k[model.size()] == '/' && k.ends_with(kind)) {
          return t;
        }
      }
    }
    for (const auto& [k, t] : run_time) {
      if (k == kind) return t;
    }
    return default_run_time;
  }
};

}  // namespace migsim
