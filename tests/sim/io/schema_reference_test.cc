// "$schema" at the top of a scenario, sweep or plan file: a reference for editors that
// changes nothing the file means.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/plan_json.h"
#include "sim/io/scenario_json.h"
#include "sim/io/sweep_json.h"
#include "tests/support/plan_files.h"
#include "tests/support/sweep_files.h"

namespace migsim {
namespace {

const char* const kScenario = R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "template": {"job_class": "train"}}}})";

// kScenario with `member` as its first member.
std::string WithFirst(const std::string& member, const std::string& doc = kScenario) {
  return "{" + member + ", " + doc.substr(1);
}

}  // namespace

TEST_CASE("a scenario's $schema is accepted and changes nothing it loads", "[io][schema]") {
  Result<ScenarioFile> plain = ParseScenarioText(kScenario, "t.json");
  Result<ScenarioFile> referenced =
      ParseScenarioText(WithFirst(R"("$schema": "../schema/scenario.schema.json")"), "t.json");
  REQUIRE(plain.ok());
  REQUIRE(referenced.ok());
  CHECK(referenced.value().name == plain.value().name);
  REQUIRE(referenced.value().variants.size() == 1);
  CHECK(referenced.value().variants[0].second.workloads.size() ==
        plain.value().variants[0].second.workloads.size());
}

TEST_CASE("a $schema that is not a string is an error at /$schema", "[io][schema]") {
  Result<ScenarioFile> loaded = ParseScenarioText(WithFirst(R"("$schema": 7)"), "t.json");
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().ToString() == "t.json:/$schema: expected a string, got a number");
}

TEST_CASE("$schema is a top-level member only: inside the cluster it is an unknown field",
          "[io][schema]") {
  Result<ScenarioFile> loaded = ParseScenarioText(
      R"({"name": "t", "description": "d",
          "cluster": {"$schema": "x", "nodes": {"a": {"type": "p4d.24xlarge"}}},
          "workloads": {}})",
      "t.json");
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().location().json_pointer == "/cluster/$schema");
}

TEST_CASE("a sweep's $schema, and its inline scenario's, are accepted", "[io][schema][sweep]") {
  const std::string scenario =
      WithFirst(R"("$schema": "scenario.schema.json")", test::kSweepScenario);
  const std::string sweep = R"({"$schema": "sweep.schema.json", "name": "s", "scenario": )" +
                            scenario + R"(, "axes": {"/seed": [1, 2]}})";
  Result<SweepFile> loaded = ParseSweepText(sweep, "s.json");
  REQUIRE(loaded.ok());
  CHECK(loaded.value().points.size() == 2);
  Result<SweepFile> bad = ParseSweepText(
      WithFirst(R"("$schema": [])", test::SweepText(R"("axes": {"/seed": [1]})")), "s.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().ToString() == "s.json:/$schema: expected a string, got an array");
}

TEST_CASE("a plan's $schema, and its scenario's, are accepted", "[io][schema][plan]") {
  Result<PlanFile> plan =
      test::LoadPlan(WithFirst(R"("$schema": "../schema/plan.schema.json")", test::PlanText()),
                     WithFirst(R"("$schema": "schema/scenario.schema.json")", test::kPlanScenario));
  REQUIRE(plan.ok());
  CHECK(plan.value().configurations.size() == 2);
}

}  // namespace migsim
