#include "tests/golden/scenario_runner.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "sim/io/scenario_json.h"

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

}  // namespace migsim::testing
