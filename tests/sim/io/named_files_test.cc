// NamedFiles::kRefused: loading text that names files (CSV traces, arrival lists,
// mig-parted YAML, plugin libraries, a sweep's scenario) touches nothing outside the text.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/plan_json.h"
#include "sim/io/scenario_json.h"
#include "sim/io/sweep_json.h"
#include "tests/support/plan_files.h"
#include "tests/support/sweep_files.h"

namespace migsim {
namespace {

// A scenario on one p4d pool `a`; `pool` and `workload` are the members of the pool and of
// workload `w`, `extra` further top-level members.
std::string Doc(const std::string& pool, const std::string& workload,
                const std::string& extra = "") {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {)" +
         pool + R"(}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": {"w": {)" +
         workload + "}}" + extra + "}";
}

const std::string kPool = R"("type": "p4d.24xlarge")";
const std::string kPod = R"("kind": "Pod", "template": {"job_class": "train"})";

std::string RefusedError(const std::string& text) {
  const Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json", NamedFiles::kRefused);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

}  // namespace

TEST_CASE("with named files refused, each field naming a file is an error at that field",
          "[io][named-files]") {
  const std::string refused = ": named files are not read here";
  SECTION("an openb node pool") {
    CHECK(RefusedError(Doc(R"("openb_nodes": "/etc/passwd")", kPod)) ==
          "t.json:/cluster/nodes/a/openb_nodes" + refused);
  }
  SECTION("a mig-parted file") {
    CHECK(RefusedError(Doc(kPool + R"(, "mig": {"config": "c", "mig_parted": "m.yaml"})", kPod)) ==
          "t.json:/cluster/nodes/a/mig/mig_parted" + refused);
  }
  SECTION("an openb pod trace") {
    CHECK(RefusedError(Doc(kPool, R"("kind": "Trace", "openb_pods": "pods.csv")")) ==
          "t.json:/workloads/w/openb_pods" + refused);
  }
  SECTION("a pod list") {
    CHECK(RefusedError(Doc(kPool, R"("kind": "Trace", "pods": "list.csv",
                                     "templates": {"small": {}})")) ==
          "t.json:/workloads/w/pods" + refused);
  }
  SECTION("an empirical run-time CSV") {
    CHECK(RefusedError(Doc(kPool, R"("kind": "Arrivals", "count": 1, "rate_per_s": 1,
                                     "template": {"resources": {"nvidia.com/gpu": 1}},
                                     "run_time": {"distribution": "empirical", "csv": "r.csv"})")) ==
          "t.json:/workloads/w/run_time/csv" + refused);
  }
  SECTION("a policy library") {
    CHECK(RefusedError(Doc(kPool, kPod, R"(, "policy": {"library": "/usr/lib/libx.so"})")) ==
          "t.json:/policy/library" + refused);
  }
}

TEST_CASE("with named files refused, a scenario that names no file loads as it does otherwise",
          "[io][named-files]") {
  const std::string text = Doc(kPool, kPod, R"(, "variants": {"x": {"seed": 3}})");
  const Result<ScenarioFile> refused = ParseScenarioText(text, "t.json", NamedFiles::kRefused);
  const Result<ScenarioFile> read = ParseScenarioText(text, "t.json");
  REQUIRE(refused.ok());
  REQUIRE(read.ok());
  REQUIRE(refused.value().variants.size() == 1);
  CHECK(refused.value().variants[0].second.seed == 3);
  CHECK(refused.value().variants[0].second.cluster.nodes.size() ==
        read.value().variants[0].second.cluster.nodes.size());
}

TEST_CASE("with named files refused, a sweep needs its scenario inline and refuses its files",
          "[io][named-files]") {
  const Result<SweepFile> by_path =
      ParseSweepText(R"({"name": "s", "scenario": "s.json", "axes": {"/seed": [1]}})", "s.json",
                     NamedFiles::kRefused);
  REQUIRE_FALSE(by_path.ok());
  CHECK(by_path.status().ToString() == "s.json:/scenario: named files are not read here");

  const Result<SweepFile> inline_scenario = ParseSweepText(
      test::SweepText(R"("axes": {"/seed": [1, 2]})"), "s.json", NamedFiles::kRefused);
  REQUIRE(inline_scenario.ok());
  CHECK(inline_scenario.value().points.size() == 2);

  const Result<SweepFile> point_names_file =
      ParseSweepText(test::SweepText(R"("axes": {"/cluster/nodes/a": [{"openb_nodes": "n.csv"}]})"),
                     "s.json", NamedFiles::kRefused);
  REQUIRE_FALSE(point_names_file.ok());
  CHECK(point_names_file.status().ToString() ==
        "s.json: point 0 (/cluster/nodes/a={\"openb_nodes\":\"n.csv\"}): s.json:/scenario/"
        "cluster/nodes/a/openb_nodes: named files are not read here");
}

TEST_CASE("with named files refused, a plan's configurations cannot name files",
          "[io][named-files]") {
  const ReadTextFile read = test::FilesFromMap({{"s.json", test::kPlanScenario}});
  const Result<PlanFile> plain =
      ParsePlanText(test::PlanText(), "plans/p.json", read, NamedFiles::kRefused);
  REQUIRE(plain.ok());
  CHECK(plain.value().named_files == NamedFiles::kRefused);
  CHECK(PlanScenario(plain.value(), plain.value().configurations[0], 2, 1).ok());

  const std::string patched = R"({"name": "p", "description": "d", "scenario": "../s.json",
    "pool": "gpu", "configurations": {"o": {"mig": {"config": "c", "mig_parted": "m.yaml"}}},
    "slo": {"max_pending": 0}, "max_nodes": 2})";
  const Result<PlanFile> refused =
      ParsePlanText(patched, "plans/p.json", read, NamedFiles::kRefused);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().ToString(),
             Catch::EndsWith("/cluster/nodes/gpu/mig/mig_parted: named files are not read here"));
}

}  // namespace migsim
