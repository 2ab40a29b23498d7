// scenarios/custom-gpu.json: a GPU model and node type the scenario defines run as the
// built-ins do (MIG layouts, device-plugin resources, GFD labels, per-model run times).
#include <catch2/catch.hpp>
#include <string>

#include "tests/golden/scenario_runner.h"

namespace migsim::testing {

TEST_CASE("a scenario's own four-slot MIG GPU advertises its profiles and runs every pod on them",
          "[scenarios][catalog]") {
  ScenarioRun run;
  RunScenarioFile("custom-gpu", run);
  const VariantResult& v = Variant(run, "base");
  // all-balanced on a 4-slot GPU: 2 x 1g + 1 x 2g, on each of the node's 4 GPUs.
  CHECK(Allocatable(v, "nvidia.com/mig-1g.8gb") == 8);
  CHECK(Allocatable(v, "nvidia.com/mig-2g.16gb") == 4);
  CHECK(Allocatable(v, "nvidia.com/gpu") == 0);
  std::string product;
  for (const auto& [key, value] : v.nodes.at(0).labels) {
    if (key == "nvidia.com/gpu.product") product = value;
  }
  CHECK(product == "Example-X4");
  CHECK(v.metrics.pods.completed == 32);
  CHECK(v.metrics.pods.pending == 0);
  // 16 1g slices for 24 Jobs of 600 s (two waves, the second after 605 s: 5 s start-up), 8 2g
  // slices for 8 Jobs of 900 s (one wave): the run times keyed "X4/<profile>".
  REQUIRE(v.metrics.makespan_s.has_value());
  CHECK(*v.metrics.makespan_s == Approx(1210));
}

}  // namespace migsim::testing
