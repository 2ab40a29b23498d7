#include "sim/study/study_facts.h"

#include <cstdio>

namespace migsim {
namespace {

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string Plural(size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

SweepFacts DescribeSweep(const SweepFile& sweep) {
  return {.scenario = sweep.scenario_path,
          .columns = sweep.columns,
          .points = sweep.points.size(),
          .runs = sweep.run_count()};
}

std::string FormatSweepFacts(const SweepFacts& facts) {
  std::string out = "sweep of " + facts.scenario + ": " + Plural(facts.points, "point") + ", " +
                    Plural(facts.runs, "run") + "\n";
  if (!facts.columns.empty()) out += "  sets " + Joined(facts.columns) + "\n";
  return out;
}

PlanFacts DescribePlan(const PlanFile& plan) {
  PlanFacts facts{.scenario = plan.scenario_path,
                  .pool = plan.pool,
                  .max_nodes = plan.max_nodes,
                  .seeds = plan.seeds,
                  .rank_by = plan.rank_by == PlanRankBy::kEnergy ? "energy" : "cost",
                  .configurations = {}};
  for (const PlanConfiguration& c : plan.configurations) {
    facts.configurations.push_back(
        {.name = c.name, .node_type = c.node_type, .price_per_hour = c.price_per_hour});
  }
  return facts;
}

std::string FormatPlanFacts(const PlanFacts& facts) {
  std::vector<std::string> seeds;
  for (uint64_t seed : facts.seeds) seeds.push_back(std::to_string(seed));
  std::string out = "plan over " + facts.scenario + ": pool " + facts.pool + ", 1 to " +
                    Plural(static_cast<size_t>(facts.max_nodes), "node") + ", " +
                    (seeds.size() == 1 ? "seed " : "seeds ") + Joined(seeds) + ", ranked by " +
                    facts.rank_by + "\n";
  for (const PlanConfigurationFacts& c : facts.configurations) {
    char price[64];
    std::snprintf(price, sizeof price, "$%.2f/h", c.price_per_hour);
    out += "  configuration " + c.name + ": " + c.node_type + " nodes at " + price + "\n";
  }
  return out;
}

}  // namespace migsim
