// The engine is exact: the queueing scenarios' simulated mean waits against the formulas
// (scenarios/queueing/, fixed seeds; README "Queueing theory").
#include "sim/study/queueing_check.h"

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"
#include "sim/study/run.h"

namespace migsim {
namespace {

std::vector<TheoryComparison> RunFile(const std::string& name) {
  Result<ScenarioFile> file =
      LoadScenarioFile(std::string(MIGSIM_SOURCE_DIR) + "/scenarios/queueing/" + name);
  REQUIRE(file.ok());
  std::vector<TheoryComparison> rows;
  for (const auto& [variant, scenario] : file.value().variants) {
    REQUIRE(scenario.queueing_theory.has_value());
    const VariantResult result = RunVariant(variant, scenario);
    CHECK(result.metrics.pods.completed == result.metrics.pods.submitted);
    for (const TheoryComparison& t : result.theory) rows.push_back(t);
  }
  return rows;
}

void CheckWithin3Percent(const std::vector<TheoryComparison>& rows, size_t expected_rows) {
  REQUIRE(rows.size() == expected_rows);
  for (const TheoryComparison& t : rows) {
    INFO(t.model << " " << t.klass << ": simulated " << t.simulated_s << " s, exact " << t.exact_s
                 << " s");
    CHECK(std::abs(t.relative_error()) < 0.03);
  }
}

}  // namespace

TEST_CASE("M/M/8 FIFO's simulated mean wait is within 3 % of Erlang C", "[study][queueing]") {
  const std::vector<TheoryComparison> rows = RunFile("mmc-fifo.json");
  CheckWithin3Percent(rows, 1);
  CHECK(rows[0].exact_s == Approx(171.617).epsilon(1e-5));
}

TEST_CASE("each priority class's simulated mean wait is within 3 % of Cobham's formula",
          "[study][queueing]") {
  const std::vector<TheoryComparison> rows = RunFile("mmc-priority.json");
  CheckWithin3Percent(rows, 2);
  CHECK(rows[0].klass == "high");
  CHECK(rows[0].exact_s == Approx(45.1626).epsilon(1e-5));
  CHECK(rows[1].klass == "low");
}

TEST_CASE(
    "M/G/1 SJF and FIFO simulated mean waits are within 3 % of the SJF integral and "
    "Pollaczek-Khinchine",
    "[study][queueing]") {
  const std::vector<TheoryComparison> rows = RunFile("mg1-sjf.json");
  CheckWithin3Percent(rows, 2);
  CHECK(rows[0].exact_s == Approx(787.318).epsilon(1e-5));
  // The scenario's rate is 0.0011666667 per second, 0.7 / 600 rounded.
  CHECK(rows[1].exact_s == Approx(1400).epsilon(1e-6));
}

}  // namespace migsim
