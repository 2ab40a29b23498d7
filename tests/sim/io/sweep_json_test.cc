// Sweep files: expanding a sweep into points, and its exact error messages.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/io/sweep_json.h"
#include "tests/support/sweep_files.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

using test::kSweepScenario;
using test::LoadSweep;
using test::SweepTempDir;
using test::SweepText;

std::string ErrorOf(const std::string& text, const std::string& label = "s.json") {
  Result<SweepFile> sweep = ParseSweepText(text, label);
  REQUIRE_FALSE(sweep.ok());
  return sweep.status().ToString();
}

std::vector<std::string> PointLabels(const SweepFile& sweep) {
  std::vector<std::string> labels;
  for (const SweepPoint& p : sweep.points) labels.push_back(PointLabel(sweep, p));
  return labels;
}

}  // namespace

TEST_CASE("a sweep's axes make a cartesian product in file order, the last axis fastest",
          "[sweep]") {
  const SweepFile sweep =
      LoadSweep(R"("axes": {"/cluster/nodes/a/count": [1, 2], "/policy/name": ["first-fit", "spread"],
                       "/seed": [7, 8]})");
  CHECK(sweep.columns ==
        std::vector<std::string>{"/cluster/nodes/a/count", "/policy/name", "/seed"});
  REQUIRE(sweep.points.size() == 8);
  CHECK(sweep.points[0].values == std::vector<std::string>{"1", "\"first-fit\"", "7"});
  CHECK(sweep.points[1].values == std::vector<std::string>{"1", "\"first-fit\"", "8"});
  CHECK(sweep.points[2].values == std::vector<std::string>{"1", "\"spread\"", "7"});
  CHECK(sweep.points[7].values == std::vector<std::string>{"2", "\"spread\"", "8"});
  CHECK(PointLabel(sweep, sweep.points[5]) ==
        "/cluster/nodes/a/count=2, /policy/name=\"first-fit\", /seed=8");
  const Scenario& s = sweep.points[5].scenario.variants[0].second;
  CHECK(s.cluster.nodes.size() == 2);
  CHECK(s.seed == 8);
  CHECK(s.policy.name == "first-fit");
  CHECK(sweep.run_count() == 16);
}

TEST_CASE("listed points follow the product and add the pointers they set as columns", "[sweep]") {
  const SweepFile sweep = LoadSweep(R"("axes": {"/seed": [1, 2]},
      "points": [{"/cluster/nodes/a/count": 3}, {"/seed": 9, "/horizon_s": 100}, {}])");
  CHECK(sweep.columns == std::vector<std::string>{"/seed", "/cluster/nodes/a/count", "/horizon_s"});
  CHECK(PointLabels(sweep) == std::vector<std::string>{"/seed=1", "/seed=2",
                                                       "/cluster/nodes/a/count=3",
                                                       "/seed=9, /horizon_s=100", ""});
  CHECK(sweep.points[2].values == std::vector<std::string>{"", "3", ""});
  CHECK(sweep.points[3].scenario.variants[0].second.horizon == SimTime::Seconds(100));
  CHECK(sweep.points[4].index == 4);
  SECTION("a sweep may list points only") {
    const SweepFile listed = LoadSweep(R"("points": [{"/seed": 3}])");
    CHECK(listed.points.size() == 1);
    CHECK(listed.columns == std::vector<std::string>{"/seed"});
  }
}

TEST_CASE("a point patches the base document and each variant's patch applies on top", "[sweep]") {
  const SweepFile sweep = LoadSweep(R"("axes": {"/policy/name": ["best-fit"]})");
  const auto& variants = sweep.points[0].scenario.variants;
  REQUIRE(variants.size() == 2);
  CHECK(variants[0].first == "one");
  CHECK(variants[0].second.policy.name == "best-fit");
  CHECK(variants[1].second.policy.name == "spread");
  SECTION("a sweep runs only the variants it selects") {
    const SweepFile one = LoadSweep(R"("variants": ["spread"], "axes": {"/seed": [1, 2]})");
    CHECK(one.points[0].scenario.variants.size() == 1);
    CHECK(one.points[0].scenario.variants[0].first == "spread");
    CHECK(one.run_count() == 2);
  }
  SECTION("a pointer may point into a variant's patch") {
    const SweepFile patched = LoadSweep(R"("axes": {"/variants/spread/policy/name": ["best-fit"]})");
    CHECK(patched.points[0].scenario.variants[1].second.policy.name == "best-fit");
  }
}

TEST_CASE("pointer tokens are unescaped: ~1 is a slash and ~0 a tilde", "[sweep]") {
  const SweepFile sweep = LoadSweep(R"("axes": {"/workloads/w/template/resources/nvidia.com~1gpu": [1],
                       "/cluster/nodes/a/labels/x~0y": ["v"]})");
  const Scenario& s = sweep.points[0].scenario.variants[0].second;
  CHECK(s.cluster.nodes[0].extra_labels == Labels{{"x~y", "v"}});
  CHECK(PointLabel(sweep, sweep.points[0]) ==
        "/workloads/w/template/resources/nvidia.com~1gpu=1, /cluster/nodes/a/labels/x~0y=\"v\"");
}

TEST_CASE("sweep errors name the sweep file and what is wrong", "[sweep]") {
  SECTION("a missing parent of a pointer") {
    CHECK(ErrorOf(SweepText(R"("axes": {"/cluster/nodez/a/count": [1]})")) ==
          "s.json: point 0 (/cluster/nodez/a/count=1): cannot set /cluster/nodez/a/count: the "
          "scenario has no /cluster/nodez (only the last member of a pointer may be new)");
    CHECK(ErrorOf(SweepText(R"("points": [{"/seed/x": 1}])")) ==
          "s.json: point 0 (/seed/x=1): cannot set /seed/x: the scenario has no /seed (only "
          "the last member of a pointer may be new)");
    CHECK(ErrorOf(SweepText(R"("points": [{"/description": [1], "/description/3": 2}])")) ==
          "s.json: point 0 (/description=[1], /description/3=2): cannot set /description/3: '3' "
          "is not an index of the array /description (size 1)");
    CHECK(ErrorOf(SweepText(R"("axes": {"/name/x": [1]})")) ==
          "s.json: point 0 (/name/x=1): cannot set /name/x: /name is a string, not an object or "
          "an array");
  }
  SECTION("a point whose scenario is invalid") {
    CHECK(ErrorOf(SweepText(R"("axes": {"/cluster/nodes/a/count": [1, 2, 3, 0]})")) ==
          "s.json: point 3 (/cluster/nodes/a/count=0): s.json:/scenario/cluster/nodes/a/count: "
          "must be >= 1");
    CHECK(ErrorOf(SweepText(R"("axes": {"/cluster/nodes/a/cuont": [1]})")) ==
          "s.json: point 0 (/cluster/nodes/a/cuont=1): s.json:/scenario/cluster/nodes/a/cuont: "
          "unknown field 'cuont' (expected one of: type, count, labels, mig, device_plugin, openb_nodes, taints, dra, autoscaling)");
  }
  SECTION("malformed JSON") {
    CHECK_THAT(ErrorOf("{\"name\": \"s\",\n \"axes\" {}}"),
               Catch::StartsWith("s.json:line 2, column 9: malformed JSON: syntax error"));
  }
  SECTION("the sweep's own fields") {
    CHECK(ErrorOf(SweepText(R"("axes": {"seed": [1]})")) ==
          "s.json:/axes/seed: 'seed' is not a JSON pointer (it must start with '/')");
    CHECK(ErrorOf(SweepText(R"("axes": {"/a~2": [1]})")) ==
          "s.json:/axes/~1a~02: '/a~2' is not a JSON pointer ('~' must be followed by 0 or 1)");
    CHECK(ErrorOf(SweepText(R"("axes": {"/seed": []})")) ==
          "s.json:/axes/~1seed: must not be empty (give at least one value)");
    CHECK(ErrorOf(SweepText(R"("axes": {"/seed": 1})")) ==
          "s.json:/axes/~1seed: expected an array, got a number");
    CHECK(ErrorOf(SweepText(R"("axes": {"/seed": [1], "/seed": [2]})")) ==
          "s.json:/axes/~1seed: duplicate key (JSON keeps only one of the values)");
    CHECK(ErrorOf(SweepText(R"("axes": {}, "points": [])")) ==
          "s.json: a sweep needs points: give 'axes', 'points' or both");
    CHECK(ErrorOf(SweepText(R"("variants": ["one", "two"], "points": [{}])")) ==
          "s.json:/variants/1: no variant 'two' in s.json (variants: one, spread)");
    CHECK(ErrorOf(SweepText(R"("pionts": [])")) ==
          "s.json:/pionts: unknown field 'pionts' (expected one of: name, description, "
          "scenario, variants, axes, points)");
    CHECK(ErrorOf(R"({"name": "s", "scenario": 3, "points": [{}]})") ==
          "s.json:/scenario: expected a scenario file path or a scenario object, got a number");
  }
}

TEST_CASE("a sweep reads its scenario file relative to itself", "[sweep]") {
  const fs::path dir = SweepTempDir("relative");
  fs::create_directories(dir / "sweeps");
  std::ofstream(dir / "t.json") << kSweepScenario;
  const std::string sweep_path = (dir / "sweeps" / "s.json").string();
  std::ofstream(sweep_path) << R"({"name": "s", "scenario": "../t.json",
                                   "axes": {"/cluster/nodes/a/count": [2, 0]}})";
  const std::string scenario = (dir / "t.json").string();
  CHECK(LoadSweepFile(sweep_path).status().ToString() ==
        sweep_path + ": point 1 (/cluster/nodes/a/count=0): " + scenario +
            ":/cluster/nodes/a/count: must be >= 1");
  std::ofstream(sweep_path) << R"({"name": "s", "scenario": "../nope.json", "points": [{}]})";
  CHECK(LoadSweepFile(sweep_path).status().ToString() ==
        sweep_path + ":/scenario: " + (dir / "nope.json").string() +
            ": cannot read file: No such file or directory");
  std::ofstream(sweep_path) << R"({"name": "s", "scenario": "../t.json", "points": [{}]})";
  Result<SweepFile> ok = LoadSweepFile(sweep_path);
  REQUIRE(ok.ok());
  CHECK(ok.value().scenario_path == scenario);
  fs::remove_all(dir);
}

}  // namespace migsim

namespace migsim {

TEST_CASE("a sweep's /seed replaces every variant's own seed, as migsim run --seed does",
          "[sweep][seed]") {
  Result<SweepFile> sweep = ParseSweepText(
      R"({"name": "s", "scenario": {"name": "x", "description": "d", "seed": 3,
          "cluster": {"nodes": {"a": {"type": "g4dn.xlarge"}}}, "workloads": {},
          "variants": {"own": {"seed": 5}, "inherits": {}}},
          "axes": {"/seed": [1, 2]}})",
      "s.json");
  REQUIRE(sweep.ok());
  REQUIRE(sweep.value().points.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    for (const auto& [name, scenario] : sweep.value().points[i].scenario.variants) {
      INFO(name);
      CHECK(scenario.seed == i + 1);
    }
  }
}

}  // namespace migsim
