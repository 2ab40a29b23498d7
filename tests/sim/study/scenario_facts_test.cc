// What a scenario would simulate, said without running it (`migsim validate`, migsim.validate).
#include "sim/study/scenario_facts.h"

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

ScenarioFile Parse(const std::string& text) {
  Result<ScenarioFile> file = ParseScenarioText(text, "s.json");
  if (!file.ok()) FAIL(file.status().ToString());
  return std::move(file).value();
}

}  // namespace

TEST_CASE("alike nodes are counted once and a pod no node holds is a warning", "[study]") {
  const ScenarioFile file = Parse(R"({"name": "s", "description": "d", "horizon_s": 600,
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge", "count": 2},
                          "b": {"type": "p4d.24xlarge", "mig": {"config": "all-1g.5gb"}}}},
    "job_classes": {"j": {"run_s": 10}},
    "workloads": {
      "w": {"kind": "Job", "completions": 4, "parallelism": 2,
            "template": {"job_class": "j", "resources": {"nvidia.com/gpu": 1}}},
      "big": {"kind": "Pod", "template": {"job_class": "j", "resources": {"nvidia.com/gpu": 9}}}}
  })");
  const auto& [name, scenario] = file.variants.front();
  const VariantFacts facts = DescribeVariant(name, scenario);
  CHECK(facts.name == "base");
  REQUIRE(facts.horizon_s.has_value());
  CHECK(*facts.horizon_s == 600);
  REQUIRE(facts.nodes.size() == 2);
  CHECK(facts.nodes[0].count == 2);
  CHECK(facts.nodes[0].mig_config == "all-disabled");  // a MIG GPU's default
  CHECK(facts.nodes[0].advertised == "nvidia.com/gpu: 8");
  CHECK(facts.nodes[1].count == 1);
  CHECK(facts.nodes[1].mig_config == "all-1g.5gb");
  CHECK(facts.provisioner.empty());
  CHECK(facts.workloads ==
        std::vector<std::string>{"Job w: 4 completion(s), parallelism 2", "Pod big: 1 pod(s)"});
  REQUIRE(facts.warnings.size() == 1);
  CHECK_THAT(facts.warnings[0], Catch::Contains("fit no node"));
  const std::string text = FormatVariantFacts(facts);
  CHECK_THAT(text,
             Catch::StartsWith("variant base (policy ") &&
                 Catch::Contains(", horizon 600 s)\n  nodes:\n    2 x p4d.24xlarge [all-disabled]: "
                                 "nvidia.com/gpu: 8\n    1 x p4d.24xlarge [all-1g.5gb]: ") &&
                 Catch::Contains("\n  workloads:\n    Job w: 4 completion(s), parallelism "
                                 "2\n    Pod big: 1 pod(s)\n  warning: "));
}

}  // namespace migsim
