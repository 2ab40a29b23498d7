#pragma once
// `migsim plan --json`: a plan's result as one JSON document (README "JSON of the other
// commands"): the table's rows in its order (RankConfigurations) from the evaluations
// plan.csv is written from, the seeds table's intervals (PlanSeedSpreads), the notes and
// the recommendation.

#include <string>

#include "sim/study/plan/plan_run.h"

namespace migsim {

// {"plan", "pool", "max_nodes", "seeds", "rank_by", "objectives": {...},
// "configurations": [{"configuration", "meets", "nodes" | null, "node_type",
// "cost_usd_per_h", "cost_usd_per_month", "p95_queueing_latency_s", "longest_wait_s",
// "pods_never_bound", "makespan_s", "gpu_allocation_ratio", "gpu_compute_utilization",
// "evaluations", "energy_kwh", "energy_usd", "note", "pools": [...]}], "seed_intervals":
// null | [...], "unserved_notes": [..], "recommendation": null | {...}}. A configuration
// that met nothing has null figures, as plan.csv has empty cells.
std::string FormatPlanJson(const PlanResult& result);

}  // namespace migsim
