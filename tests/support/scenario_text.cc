#include "tests/support/scenario_text.h"

#include <catch2/catch.hpp>

#include "sim/io/scenario_json.h"

namespace migsim::test {

std::string LoadError(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().code() == StatusCode::kInvalidArgument);
  return loaded.status().ToString();
}

Scenario LoadFirstVariant(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  INFO((loaded.ok() ? "" : loaded.status().ToString()));
  REQUIRE(loaded.ok());
  return loaded.value().variants[0].second;
}

}  // namespace migsim::test
