#pragma once
// Capacity planning: the fewest nodes of a configuration that meet service-level
// objectives. Pure logic over an evaluation callback (what one cluster size achieves), so
// the search is tested with fake evaluators; `migsim plan` evaluates by simulating.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/metrics/energy_metrics.h"
#include "sim/metrics/run_metrics.h"
#include "sim/metrics/slo.h"

namespace migsim {

// One seed's run at a cluster size.
struct SeedRun {
  uint64_t seed = 0;
  bool meets = false;
  std::string why_not;  // SloMisses, or why the run did not happen
  RunMetrics metrics;
  EnergyMetrics energy{};
};

// One node pool of an evaluated cluster and what it costs.
struct PoolCost {
  std::string pool;
  std::string node_type;
  int64_t nodes = 0;        // a fixed pool's count; an autoscaled pool's max
  bool varied = false;      // the plan's pool, whose size the plan searches
  bool autoscaled = false;  // a node group: it costs what the runs billed
  int64_t peak_nodes = 0;   // autoscaled: the most nodes billed at once, over the seeds run
  double cost_per_hour = 0;  // USD; autoscaled: billed per hour of run, mean over the seeds run
};

// What one cluster size achieves.
struct PlanEvaluation {
  bool meets = false;
  // The run that speaks for this size: the first seed that missed, or when all met the
  // one with the longest p95 queueing latency.
  RunMetrics metrics;
  double cost_per_hour = 0;  // USD, every node of the cluster
  std::vector<PoolCost> pools;  // what cost_per_hour is made of, in pool order
  // Energy (EnergyMetrics) of the seeds run, mean over them: at the facility (kWh), its
  // cost (USD) and CO2 (kg), and the mean power (W).
  double energy_kwh = 0, energy_cost = 0, co2_kg = 0, mean_watts = 0;
  std::string why_not;       // empty when `meets`
  std::vector<SeedRun> runs;  // every seed run, in order; may be empty for fakes
};

// Evaluates a cluster of `nodes` nodes. REQUIRES (of the callback): deterministic.
using Evaluate = std::function<PlanEvaluation(int nodes)>;

struct PlanAnswer {
  std::optional<int> nodes;  // the fewest that meet; nullopt when max_nodes do not
  // Every evaluation, in the order it was made; each size at most once.
  std::vector<std::pair<int, PlanEvaluation>> evidence;
  // Empty, or "not monotone: ..." when the evaluations contradict the assumption that a
  // larger cluster meets the objectives whenever a smaller one does. `nodes` is then
  // still a size that met them, but a smaller one might too.
  std::string warning;
  // The evaluation of `nodes`, or when there is none of `max_nodes`.
  // REQUIRES: evidence is not empty.
  const PlanEvaluation& chosen() const;
};

// The fewest nodes n in [1, max_nodes] for which `evaluate(n).meets`.
//
// Assumes meeting the objectives is monotone in n (more nodes never hurt). It probes
// 1, 2, 4, ... (then max_nodes) until a size meets, then bisects between the last size
// that missed and the first that met; so n - 1 has always been evaluated and missed
// when n > 1. It then evaluates n + 1 (when n < max_nodes): if that misses, or any
// evaluated size misses while a smaller one met, `warning` says so.
// At most 2 * ceil(log2(max_nodes)) + 3 evaluations.
// REQUIRES: max_nodes >= 1.
PlanAnswer FindFewestNodes(const Evaluate& evaluate, int max_nodes);

}  // namespace migsim
