#pragma once
// Presenting a plan's result: the ranking, the table and the CSV files. Columns are
// documented in README.md ("Capacity planning").

#include <cstddef>
#include <string>
#include <vector>

#include "sim/report/seed_interval.h"
#include "sim/study/plan/plan_run.h"

namespace migsim {

// The configurations that met the objectives, cheapest first (at equal cost the shorter
// makespan first, then plan order), then the others in plan order: indices into
// result.configurations.
std::vector<size_t> RankConfigurations(const PlanResult& result);

// The table, one row per configuration as ranked, notes for configurations that found no
// size or were not monotone, and "recommendation: <config> with N × <type> in `<pool>`
// (varied) + M × <type> in `<other pool>` (fixed, $Y/h) at $X/h ($Z a month)": every pool
// whose cost the total includes.
std::string FormatPlanTable(const PlanResult& result);

// One line per seed run of each configuration's answer (its chosen size) that deleted pods
// without ever binding them, or left demand the objectives cannot judge (UnjudgedDemand):
// "g5-fixed at 6 nodes: 28 pods were deleted without ever binding (longest wait 10.1 h);
// ...: add max_wait_s or max_unserved". The table's notes end with them.
std::vector<std::string> UnservedNotes(const PlanResult& result);

// Over the seeds of a configuration that met the objectives, at its chosen size: the mean
// and 95 % interval of the table's figures (the seeds table under the table of a plan of
// several seeds, and plan --json's seed_intervals). makespan's n counts the runs that had one.
struct PlanSeedSpread {
  size_t configuration = 0;  // index into result.configurations
  size_t seeds = 0;          // runs at the chosen size
  SeedInterval p95_queueing_latency_s, longest_wait_s, makespan_s, gpu_allocation_ratio,
      gpu_compute_utilization;
};
// One per configuration that met the objectives, in `ranked` order (RankConfigurations).
std::vector<PlanSeedSpread> PlanSeedSpreads(const PlanResult& result,
                                            const std::vector<size_t>& ranked);

// plan.csv: the table's rows, a note, and the pools the cost includes.
std::string FormatPlanCsv(const PlanResult& result);

// evidence.csv: one row per simulation (configuration, nodes, seed), in evaluation order.
std::string FormatEvidenceCsv(const PlanResult& result);

// The table's last lines, "recommendation: ..." and "its energy: ..." (or "recommendation:
// none: ..."), as FormatPlanTable ends, for a caller that shows the answer alone.
std::string FormatPlanRecommendation(const PlanResult& result);

}  // namespace migsim
