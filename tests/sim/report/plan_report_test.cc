// A plan's table and evidence CSV for results made by hand: notes for answers that are not
// monotone and for sizes that did not load.
#include <catch2/catch.hpp>

#include "sim/report/plan_report.h"

namespace migsim {

TEST_CASE("the table notes answers that are not monotone and sizes that did not load",
          "[plan]") {
  PlanFile plan{.path = "p.json", .name = "p", .description = "", .scenario_path = "s.json",
                .pool = "gpu", .configurations = {}, .slo = {.max_pending = 0}, .max_nodes = 1,
                .seeds = {1}};
  plan.configurations = {{.name = "bumpy", .node_type = "g4dn.xlarge", .price_per_hour = 1,
                          .document = ""},
                         {.name = "broken", .node_type = "g4dn.xlarge", .price_per_hour = 1,
                          .document = ""}};
  PlanEvaluation met;
  met.meets = true;
  met.cost_per_hour = 1;
  PlanEvaluation unloadable;
  unloadable.why_not = "does not load: s.json:/x: bad";
  unloadable.cost_per_hour = 0;
  PlanResult result{.plan = &plan, .configurations = {}};
  result.configurations.push_back(
      {&plan.configurations[0],
       PlanAnswer{.nodes = 1, .evidence = {{1, met}}, .warning = "not monotone: 1 nodes meet"}});
  result.configurations.push_back(
      {&plan.configurations[1], PlanAnswer{.nodes = std::nullopt, .evidence = {{1, unloadable}},
                                           .warning = ""}});
  CHECK_THAT(FormatPlanTable(result),
             Catch::Contains("\nbumpy: not monotone: 1 nodes meet\n"
                             "broken: 1 node misses: does not load: s.json:/x: bad\n"));
  CHECK_THAT(FormatEvidenceCsv(result),
             Catch::EndsWith("\nbroken,1,,false,does not load: s.json:/x: bad,0.0000"
                             ",,,,,,,,,,,,,,,,,,,,,\n"));
}

TEST_CASE("a plan ranked by energy puts the configuration that uses less first", "[plan][energy]") {
  PlanFile plan{.path = "p.json", .name = "p", .description = "", .scenario_path = "s.json",
                .pool = "gpu", .configurations = {}, .slo = {.max_pending = 0}, .max_nodes = 1,
                .seeds = {1}};
  plan.configurations = {{.name = "cheap", .node_type = "g4dn.xlarge", .price_per_hour = 1,
                          .document = ""},
                         {.name = "frugal", .node_type = "g5.xlarge", .price_per_hour = 2,
                          .document = ""}};
  PlanEvaluation cheap;
  cheap.meets = true;
  cheap.cost_per_hour = 1;
  cheap.energy_kwh = 30;
  cheap.energy_cost = 4.38;
  PlanEvaluation frugal = cheap;
  frugal.cost_per_hour = 2;
  frugal.energy_kwh = 10;
  frugal.energy_cost = 1.46;
  PlanResult result{.plan = &plan, .configurations = {}};
  result.configurations.push_back(
      {&plan.configurations[0], PlanAnswer{.nodes = 1, .evidence = {{1, cheap}}, .warning = ""}});
  result.configurations.push_back(
      {&plan.configurations[1], PlanAnswer{.nodes = 1, .evidence = {{1, frugal}}, .warning = ""}});
  CHECK(RankConfigurations(result) == std::vector<size_t>{0, 1});
  CHECK_THAT(FormatPlanTable(result), Catch::Contains("recommendation: cheap") &&
                                          Catch::EndsWith("\nits energy: 30.00 kWh per run ($4.38, 0.00 kg CO2)\n"));
  plan.rank_by = PlanRankBy::kEnergy;
  CHECK(RankConfigurations(result) == std::vector<size_t>{1, 0});
  const std::string table = FormatPlanTable(result);
  CHECK_THAT(table, Catch::Contains(", ranked by energy\n") &&
                        Catch::Contains("recommendation: frugal"));
  CHECK_THAT(FormatPlanCsv(result),
             Catch::StartsWith("configuration,nodes,node_type,cost_per_hour,cost_per_month,"
                               "p95_queueing_latency_s,longest_wait_s,pods_never_bound,makespan_s,"
                               "gpu_allocation_ratio,gpu_compute_utilization,evaluations,note,pools,"
                               "energy_kwh,energy_cost\nfrugal,") &&
                 Catch::Contains(",10.000000,1.460000\n"));
}

}  // namespace migsim
