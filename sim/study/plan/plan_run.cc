#include "sim/study/plan/plan_run.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <utility>

#include "sim/core/check.h"
#include "sim/study/parallel_for.h"
#include "sim/study/random_draws.h"
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

// Adds one run's pools to `pools` (empty before the first run): a fixed pool's nodes at
// their prices; a node group's bill per hour of run (summed over the runs: the caller
// divides by their number) and the most nodes it billed at once.
void AddPoolCosts(const std::string& varied, const ClusterSpec& cluster,
                  const std::optional<AutoscalingMetrics>& billed, std::vector<PoolCost>* pools) {
  const std::vector<NodePoolRange> ranges =
      cluster.pools.empty()
          ? std::vector<NodePoolRange>{{"cluster", 0, static_cast<uint32_t>(cluster.nodes.size())}}
          : cluster.pools;
  const bool first_run = pools->empty();
  for (size_t i = 0; i < ranges.size(); ++i) {
    const NodePoolRange& range = ranges[i];
    if (first_run) {
      PoolCost& p = pools->emplace_back();
      p.pool = range.name;
      p.node_type = range.count > 0 ? cluster.nodes[range.first].type->name : "";
      p.nodes = range.count;
      p.varied = range.name == varied;
    }
    PoolCost& p = (*pools)[i];
    const NodeGroupMetrics* group = nullptr;
    if (billed) {
      for (const NodeGroupMetrics& g : billed->groups) {
        if (g.pool == range.name) group = &g;
      }
    }
    if (group == nullptr) {
      double cost = 0;
      for (uint32_t n = range.first; n < range.first + range.count; ++n) {
        cost += cluster.nodes[n].type->price_per_hour;
      }
      p.cost_per_hour = cost;
      continue;
    }
    p.autoscaled = true;
    p.peak_nodes = std::max(p.peak_nodes, group->peak_nodes);
    if (billed->run_hours > 0) p.cost_per_hour += group->cost / billed->run_hours;
  }
}

// An evaluation that measured nothing: it misses, with `why`.
PlanEvaluation Misses(std::string why, PlanEvaluation* e) {
  e->why_not = std::move(why);
  e->runs.clear();
  e->pools.clear();
  e->cost_per_hour = 0;
  e->energy_kwh = e->energy_cost = e->co2_kg = e->mean_watts = 0;
  return std::move(*e);
}

}  // namespace

PlanEvaluation EvaluatePlan(const PlanFile& plan, const PlanConfiguration& configuration, int nodes,
                            const std::function<bool()>& should_stop) {
  MIGSIM_CHECK(!plan.seeds.empty(), "a plan without seeds");
  PlanEvaluation e;
  bool autoscaled = false;
  // Loaded once per seed: what the scenario draws while loading (arrivals) is the seed's.
  for (uint64_t seed : plan.seeds) {
    if (should_stop && should_stop()) return Misses("stopped", &e);
    Result<Scenario> loaded = PlanScenario(plan, configuration, nodes, seed);
    if (!loaded.ok()) return Misses("does not load: " + loaded.status().ToString(), &e);
    const Scenario& scenario = loaded.value();
    // A fixed pool costs its nodes' prices; an autoscaled one what its runs billed, per
    // hour of run, averaged over the seeds run.
    autoscaled = !scenario.cluster.node_groups.empty();
    VariantResult result = RunVariant(configuration.name, scenario, {.should_stop = should_stop});
    if (result.stopped) return Misses("stopped", &e);
    // A run stopped past its budget (run.h) measured nothing: the size misses, saying why.
    if (result.overrun) return Misses(OverrunMessage(*result.overrun), &e);
    if (!autoscaled) {
      e.cost_per_hour = ClusterCostPerHour(scenario.cluster);
    } else if (result.autoscaling && result.autoscaling->run_hours > 0) {
      e.cost_per_hour += result.autoscaling->cost / result.autoscaling->run_hours;
    }
    AddPoolCosts(plan.pool, scenario.cluster, result.autoscaling, &e.pools);
    e.energy_kwh += result.energy.kwh;
    e.energy_cost += result.energy.cost;
    e.co2_kg += result.energy.co2_kg;
    e.mean_watts += result.energy.mean_watts;
    SeedRun run{.seed = seed,
                .meets = false,
                .why_not = "",
                .metrics = std::move(result.metrics),
                .energy = std::move(result.energy)};
    run.why_not = SloMisses(plan.slo, run.metrics);
    run.meets = run.why_not.empty();
    e.runs.push_back(std::move(run));
    if (!e.runs.back().meets) break;
  }
  const double runs = static_cast<double>(e.runs.size());
  if (autoscaled) e.cost_per_hour /= runs;
  for (double* mean : {&e.energy_kwh, &e.energy_cost, &e.co2_kg, &e.mean_watts}) *mean /= runs;
  for (PoolCost& pool : e.pools) {
    if (pool.autoscaled) pool.cost_per_hour /= runs;
  }
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
      PlanEvaluation e = EvaluatePlan(plan, c, nodes, options.should_stop);
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

std::string PlanSeedsChangeNothing(const PlanFile& plan) {
  if (plan.seeds.size() < 2) return "";
  std::string seeds;
  for (uint64_t s : plan.seeds) seeds += (seeds.empty() ? "" : ", ") + std::to_string(s);
  ScenarioFile file{.path = plan.scenario_path,
                    .name = std::filesystem::path(plan.scenario_path).filename().string(),
                    .description = "",
                    .variants = {}};
  for (const PlanConfiguration& c : plan.configurations) {
    Result<Scenario> s = PlanScenario(plan, c, plan.max_nodes, plan.seeds.front());
    if (s.ok()) file.variants.emplace_back(c.name, std::move(s).value());
  }
  if (file.variants.empty()) return "";
  return SeedChangesNothing(file, "seeds " + seeds);
}

}  // namespace migsim
