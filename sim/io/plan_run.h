#pragma once
// Running a plan: for every configuration, the fewest nodes that meet the objectives on
// every seed (FindFewestNodes over simulations), configurations in parallel.

#include <functional>
#include <string>
#include <vector>

#include "sim/io/plan_json.h"
#include "workloads/plan_search.h"

namespace migsim {

struct ConfigurationAnswer {
  const PlanConfiguration* configuration = nullptr;  // owned by the PlanFile
  PlanAnswer answer;
};

struct PlanResult {
  const PlanFile* plan = nullptr;  // must outlive the result
  std::vector<ConfigurationAnswer> configurations;  // in the plan's order
};

struct PlanRunOptions {
  int jobs = 0;  // configurations evaluated at once; 0: one per core
  // Called after every evaluation, from the thread that made it; calls never overlap.
  std::function<void(const PlanConfiguration&, int nodes, const PlanEvaluation&)> on_evaluation;
};

// `nodes` nodes of `configuration`: one simulation per seed of the plan, in order,
// stopping at the first seed that misses an objective (the others cannot change the
// verdict). A size whose scenario does not load misses, with the load error as why_not.
// REQUIRES: `configuration` belongs to `plan`; nodes >= 1.
PlanEvaluation EvaluatePlan(const PlanFile& plan, const PlanConfiguration& configuration,
                            int nodes);

// Every configuration's answer. Deterministic: the result does not depend on `jobs`.
PlanResult RunPlan(const PlanFile& plan, const PlanRunOptions& options = {});

// Presenting a result (plan_report.cc); columns are documented in README.md.

// The configurations that met the objectives, cheapest first (at equal cost the shorter
// makespan first, then plan order), then the others in plan order: indices into
// result.configurations.
std::vector<size_t> RankConfigurations(const PlanResult& result);

// The table, one row per configuration as ranked, notes for configurations that found no
// size or were not monotone, and "recommendation: <config> with N × <type> at $X/h".
std::string FormatPlanTable(const PlanResult& result);

// plan.csv: the table's rows.
std::string FormatPlanCsv(const PlanResult& result);

// evidence.csv: one row per simulation (configuration, nodes, seed), in evaluation order.
std::string FormatEvidenceCsv(const PlanResult& result);

}  // namespace migsim
