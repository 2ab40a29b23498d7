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

#include "sim/cluster/gpu_model.h"
#include "sim/core/sim_time.h"
#include "sim/perf/mig_curve.h"

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

  // A run saves its progress every this long while it runs (wall-clock); a pod evicted
  // by preemption hands the last checkpoint to its replacement, which resumes from it.
  // None: no checkpoints, an evicted run starts again from zero.
  std::optional<SimTime> checkpoint_interval;

  // How speed scales over MIG profiles without a run time of their own (see
  // RunTimeOnDevice); none: such profiles fall back to the default.
  std::optional<MigCurve> mig_curve;

  // The run time given for `kind` on GPU model `model` ("" for none): "<model>/<kind>",
  // then "<kind>"; nullopt when neither is given.
  std::optional<SimTime> GivenRunTime(std::string_view model, std::string_view kind) const;
  // GivenRunTime, else the default.
  std::optional<SimTime> RunTimeOn(std::string_view model, std::string_view kind) const {
    std::optional<SimTime> given = GivenRunTime(model, kind);
    return given ? given : default_run_time;
  }
};

// The run time alone on device `kind` of `model` (nullptr when the pod has no GPU):
//  1. the one given for the kind (JobClass::GivenRunTime);
//  2. for a MIG profile not given, derived from the whole GPU's: the full-size instance
//     runs at the whole GPU's speed scaled by its SMs (MIG mode takes 10 of an A100's
//     108 SMs: 98/108), and smaller profiles at that times the class's mig_curve;
//  3. the default; nullopt when none applies.
std::optional<SimTime> RunTimeOnDevice(const JobClass& job_class, const GpuModel* model,
                                       std::string_view kind);

}  // namespace migsim
