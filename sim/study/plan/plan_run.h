#pragma once
// Running a plan: for every configuration, the fewest nodes that meet the objectives on
// every seed (FindFewestNodes over simulations), configurations in parallel.

#include <functional>
#include <string>
#include <vector>

#include "sim/io/plan_json.h"
#include "sim/study/plan/plan_search.h"

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

}  // namespace migsim
