// Golden outputs: the results JSON and pods CSV of the seed scenarios are pinned in
// tests/golden/expected/. A change in the model's predictions shows up as a diff;
// scripts/update_golden.sh regenerates them after a deliberate change.
#include <catch2/catch.hpp>

#include "tests/golden/scenario_runner.h"

namespace migsim::testing {
namespace {

const char* const kScenarios[] = {"56-superres", "mig-strategies", "timeslice-cifar10",
                                  "bert-a100", "bert-inference", "timeslice-oom",
                                  "fractional-gpu"};

std::string Expected(const std::string& file) {
  return ReadFile(std::string(MIGSIM_SOURCE_DIR) + "/tests/golden/expected/" + file);
}

TEST_CASE("the seed scenarios' results match their golden files", "[golden]") {
  for (const char* name : kScenarios) {
    INFO(name << " (run scripts/update_golden.sh after a deliberate change)");
    ScenarioRun run;
    RunScenarioFile(name, run);
    CHECK(FormatResultsJson(run.report) == Expected(std::string(name) + ".json"));
    for (const VariantResult& v : run.report.variants) {
      CHECK(FormatPodsCsv(v) == Expected(std::string(name) + ".pods-" + v.name + ".csv"));
    }
  }
}

TEST_CASE("two runs of a scenario are byte-identical", "[golden][determinism]") {
  for (const char* name : kScenarios) {
    ScenarioRun first, second;
    RunScenarioFile(name, first);
    RunScenarioFile(name, second);
    CHECK(FormatResultsJson(first.report) == FormatResultsJson(second.report));
    for (size_t i = 0; i < first.report.variants.size(); ++i) {
      CHECK(FormatPodsCsv(first.report.variants[i]) == FormatPodsCsv(second.report.variants[i]));
    }
  }
}

}  // namespace
}  // namespace migsim::testing
