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
  const PlanFile* plan = nullptr;                   // must outlive the result
  std::vector<ConfigurationAnswer> configurations;  // in the plan's order
};

struct PlanRunOptions {
  int jobs = 0;  // configurations evaluated at once; 0: one per core
  // Called after every evaluation, from the thread that made it; calls never overlap.
  std::function<void(const PlanConfiguration&, int nodes, const PlanEvaluation&)> on_evaluation;
  // Asked by every run between event times (RunOptions::should_stop), from the worker
  // threads at once, and before each evaluation: true stops the plan, whose result then
  // describes nothing (the caller discards it). Optional.
  std::function<bool()> should_stop{};
};

// `nodes` nodes of `configuration`: one simulation per seed of the plan, in order,
// stopping at the first seed that misses an objective (the others cannot change the
// verdict). A size whose scenario does not load misses, with the load error as why_not.
// REQUIRES: `configuration` belongs to `plan`; nodes >= 1.
// `should_stop` as PlanRunOptions's: a stopped evaluation misses, saying so.
PlanEvaluation EvaluatePlan(const PlanFile& plan, const PlanConfiguration& configuration, int nodes,
                            const std::function<bool()>& should_stop = {});

// Every configuration's answer. Deterministic: the result does not depend on `jobs`.
PlanResult RunPlan(const PlanFile& plan, const PlanRunOptions& options = {});

// The notice for a plan of several seeds over a scenario that draws nothing at random at
// the largest size (where most can happen): its runs are then identical
// (SeedChangesNothing). "" when the plan has one seed or some configuration draws.
std::string PlanSeedsChangeNothing(const PlanFile& plan);

}  // namespace migsim
