#pragma once
// A sweep's runs that differ only in their seed (its "/seed" axis): grouped, so that tables
// and charts show a metric's mean over the seeds and its 95 % interval (seed_interval.h).

#include <optional>
#include <string>
#include <vector>

#include "sim/report/seed_interval.h"
#include "sim/report/sweep_metrics.h"
#include "sim/study/sweep/sweep_results.h"

namespace migsim {

// The index of the "/seed" column, or nullopt when the sweep has no seed axis.
std::optional<size_t> SeedColumn(const SweepResults& results);

struct SweepSeedGroup {
  std::vector<std::string> values;  // per column, the seed column's left ""
  std::string variant;
  std::vector<const SweepRow*> rows;  // one per seed, in row order
};

// One group per value of the other columns and variant, in the order of their first rows;
// without a seed axis, one group per row.
std::vector<SweepSeedGroup> GroupBySeed(const SweepResults& results);

// Whether some group holds more than one run: a "/seed" axis with more than one seed, so
// that the table shows its interval table (and the JSON its seed_intervals).
bool HasSeedIntervals(const SweepResults& results);

// The metric's interval over the group's rows that have it (an optional left empty is left
// out); n = 0 when none has it.
SeedInterval GroupInterval(const SweepSeedGroup& group, const SweepMetric& metric);

}  // namespace migsim
