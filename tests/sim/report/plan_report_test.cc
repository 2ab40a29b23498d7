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
                             ",,,,,,,,,,,,,,,,,,\n"));
}

}  // namespace migsim
