#pragma once
// Running a sweep: every (point, variant) of a shard on a pool of worker threads.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "sim/io/sweep_json.h"
#include "sim/study/parallel_for.h"
#include "sim/study/sweep/sweep_results.h"
#include "sim/study/sweep/sweep_shard.h"

namespace migsim {

struct SweepRunOptions {
  int threads = 1;             // worker threads, >= 1 (more than the runs is pointless)
  std::optional<Shard> shard;  // run only the points of this shard; every point when unset
  ProgressFn on_run_done;      // after each run; optional
  // Asked by every run between event times (RunOptions::should_stop), from the worker
  // threads at once: true stops the sweep, its runs then stopped early (their rows describe
  // nothing and the caller discards them). Optional.
  std::function<bool()> should_stop{};
};

// Simulates every selected variant of every point in the shard. The rows are in point
// order, then in the scenario's variant order, whatever the threads did: the same sweep
// gives the same results on any number of threads.
SweepResults RunSweep(const SweepFile& sweep, const SweepRunOptions& options);

// The notice for a /seed axis over a scenario that draws nothing at random (its rows are
// then identical: SeedChangesNothing), or "" when the sweep has no /seed axis or a point
// draws at random. Said once by every caller, rather than let the rows pass for a study
// of the seed.
std::string SeedAxisChangesNothing(const SweepFile& sweep);

}  // namespace migsim
