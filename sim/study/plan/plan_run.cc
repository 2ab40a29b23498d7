#include "sim/study/plan/plan_run.h"

#include <algorithm>
#include <mutex>
#include <utility>

#include "sim/core/check.h"
#include "sim/study/parallel_for.h"
#include "sim/study/run.h"

namespace migsim {
namespace {

// The run that speaks for a size: the one that missed (it ends the list), or when all
// met the one with the longest p95 queueing latency, the first on ties.
const RunMetrics& Speaker(const std::vector<SeedRun>& runs) {
  if (!runs.back().meets) return runs.back().metrics;
  const SeedRun* worst = &runs.front();
  for (const SeedRun& run : runs) {
    if (run.metrics.queueing.p95_s > worst->metrics.queueing.p95_s) worst = &run;
  }
  return worst->metrics;
}

}  // namespace

PlanEvaluation EvaluatePlan(const PlanFile& plan, const PlanConfiguration& configuration,
                            int nodes) {
  MIGSIM_CHECK(!plan.seeds.empty(), "a plan without seeds");
  PlanEvaluation e;
  Result<Scenario> loaded = PlanScenario(plan, configuration, nodes);
  if (!loaded.ok()) {
    e.why_not = "does not load: " + loaded.status().ToString();
    return e;
  }
  Scenario scenario = std::move(loaded).value();
  // A fixed pool costs its nodes' prices; an autoscaled one what its runs billed, per hour
  // of run, averaged over the seeds run.
  const bool autoscaled = !scenario.cluster.node_groups.empty();
  e.cost_per_hour = autoscaled ? 0 : ClusterCostPerHour(scenario.cluster);
  for (uint64_t seed : plan.seeds) {
    scenario.seed = seed;
    VariantResult result = RunVariant(configuration.name, scenario);
    if (autoscaled && result.autoscaling && result.autoscaling->run_hours > 0) {
      e.cost_per_hour += result.autoscaling->cost / result.autoscaling->run_hours;
    }
    SeedRun run{.seed = seed, .meets = false, .why_not = "", .metrics = std::move(result.metrics)};
    run.why_not = SloMisses(plan.slo, run.metrics);
    run.meets = run.why_not.empty();
    e.runs.push_back(std::move(run));
    if (!e.runs.back().meets) break;
  }
  if (autoscaled) e.cost_per_hour /= static_cast<double>(e.runs.size());
  e.meets = e.runs.back().meets;
  e.metrics = Speaker(e.runs);
  if (!e.meets) {
    const SeedRun& missed = e.runs.back();
    e.why_not = plan.seeds.size() > 1
                    ? "seed " + std::to_string(missed.seed) + ": " + missed.why_not
                    : missed.why_not;
  }
  return e;
}

// One thread per configuration, up to `jobs`: a configuration's search is sequential
// (each probe depends on the last), so configurations are the unit of parallelism.
PlanResult RunPlan(const PlanFile& plan, const PlanRunOptions& options) {
  PlanResult result{.plan = &plan, .configurations = {}};
  const size_t n = plan.configurations.size();
  result.configurations.resize(n);
  std::mutex report;
  ParallelFor(n, WorkerCount(options.jobs, n), [&](size_t i) {
    const PlanConfiguration& c = plan.configurations[i];
    auto evaluate = [&](int nodes) {
      PlanEvaluation e = EvaluatePlan(plan, c, nodes);
      if (options.on_evaluation) {
        std::lock_guard<std::mutex> lock(report);
        options.on_evaluation(c, nodes, e);
      }
      return e;
    };
    result.configurations[i] = {&c, FindFewestNodes(evaluate, plan.max_nodes)};
  });
  return result;
}

}  // namespace migsim
