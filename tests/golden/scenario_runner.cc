#include "tests/golden/scenario_runner.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "sim/io/scenario_json.h"
#include "tests/support/run_migsim.h"

namespace migsim::testing {

void RunScenarioFile(const std::string& name, ScenarioRun& run) {
  Result<ScenarioFile> loaded =
      LoadScenarioFile(std::string(MIGSIM_SOURCE_DIR) + "/scenarios/" + name + ".json");
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  run.file = std::move(loaded).value();
  run.file.path = "scenarios/" + name + ".json";  // stable across checkouts
  run.report.file = &run.file;
  for (const auto& [variant, scenario] : run.file.variants) {
    test::PodLedger* ledger =
        run.ledgers.emplace_back(std::make_unique<test::PodLedger>()).get();
    run.report.variants.push_back(
        RunVariant(variant, scenario, {.collect_pods = true, .observers = {ledger}}));
  }
}

const VariantResult& Variant(const ScenarioRun& run, const std::string& name) {
  for (const VariantResult& v : run.report.variants) {
    if (v.name == name) return v;
  }
  FAIL("no variant " + name);
  throw std::logic_error("unreachable");
}

int Allocatable(const VariantResult& v, const std::string& resource) {
  for (const auto& [name, count] : v.nodes.at(0).allocatable) {
    if (name == resource) return count;
  }
  return 0;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string CliVariantResults(const std::string& name) {
  const test::Outcome run = test::RunMigsim("run -q --json '" + std::string(MIGSIM_SOURCE_DIR) +
                                            "/scenarios/" + name + ".json'");
  REQUIRE(run.exit_code == 0);
  const size_t variants = run.output.find("\"variants\"");
  REQUIRE(variants != std::string::npos);
  return run.output.substr(variants);
}

}  // namespace migsim::testing
