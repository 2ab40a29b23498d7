#pragma once
// Running a sweep: every (point, variant) of a shard on a pool of worker threads.

#include <cstddef>
#include <optional>

#include "sim/io/sweep_json.h"
#include "sim/study/parallel_for.h"
#include "sim/study/sweep/sweep_results.h"
#include "sim/study/sweep/sweep_shard.h"

namespace migsim {

struct SweepRunOptions {
  int threads = 1;             // worker threads, >= 1 (more than the runs is pointless)
  std::optional<Shard> shard;  // run only the points of this shard; every point when unset
  ProgressFn on_run_done;      // after each run; optional
};

// Simulates every selected variant of every point in the shard. The rows are in point
// order, then in the scenario's variant order, whatever the threads did: the same sweep
// gives the same results on any number of threads.
SweepResults RunSweep(const SweepFile& sweep, const SweepRunOptions& options);

}  // namespace migsim
