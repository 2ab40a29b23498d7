#pragma once
// The HTML report of a capacity plan (`migsim plan --report`, `migsim report DIR`), drawn
// from the text of the CSVs `migsim plan --out` writes: per objective, each
// configuration's metric against its node count (the mean over the plan's seeds with its
// 95 % confidence interval), the objective's threshold as a dashed line and the
// recommendation ringed; the same for the cost; the plan table.

#include <string>
#include <utility>
#include <vector>

#include "sim/core/status.h"
#include "sim/metrics/slo.h"

namespace migsim {

// objectives.csv: objective,threshold — a row per objective the plan sets, named as in the
// plan file (p95_queueing_latency_s, max_pending, makespan_s, min_completed_fraction,
// max_wait_s, max_unserved, max_pending_peak).
std::string FormatObjectivesCsv(const PlanSlo& slo);

// From (file name, text) pairs named as `migsim plan --out` names its files (plan.csv,
// evidence.csv, objectives.csv), the paths in errors being `dir`/name (the name alone when
// `dir` is empty). InvalidArgument naming a missing or malformed file and its line.
Result<std::string> PlanReportFromFiles(
    const std::vector<std::pair<std::string, std::string>>& files, const std::string& dir);

}  // namespace migsim
