// The queue disciplines' parameters in `scheduler`: fair_share.

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

// A valid document whose workload is in namespace "team-a", with `scheduler` (JSON).
std::string WithScheduler(const std::string& scheduler) {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10}},
    "scheduler": )" +
         scheduler + R"(,
    "workloads": {"w": {"kind": "Pod", "namespace": "team-a",
                        "template": {"job_class": "train"}}}})";
}

Result<ScenarioFile> Load(const std::string& scheduler) {
  return ParseScenarioText(WithScheduler(scheduler), "t.json");
}

std::string ErrorOf(const std::string& scheduler) {
  Result<ScenarioFile> loaded = Load(scheduler);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

TEST_CASE("fair_share weights are read by namespace", "[io][queue_discipline]") {
  Result<ScenarioFile> loaded =
      Load(R"({"queue_order": "fair-share", "fair_share": {"weights": {"team-a": 2, "b": 0.5}}})");
  REQUIRE(loaded.ok());
  const Scenario& s = loaded.value().variants.front().second;
  CHECK(s.queue_order == "fair-share");
  CHECK(s.namespaces == std::vector<std::string>{"default", "team-a", "b"});
  CHECK(s.queue_params.fair_share_weights ==
        std::vector<std::pair<int32_t, double>>{{1, 2.0}, {2, 0.5}});
  CHECK(s.templates.front().namespace_index == 1);
}

TEST_CASE("bad fair_share settings are errors at their pointer", "[io][queue_discipline]") {
  CHECK(ErrorOf(R"({"fair_share": {"weights": {"team-a": 2}}})") ==
        "t.json:/scheduler/fair_share: needs scheduler.queue_order 'fair-share'");
  CHECK(ErrorOf(R"({"queue_order": "fair-share", "fair_share": {"weights": {"team-a": 0}}})") ==
        "t.json:/scheduler/fair_share/weights/team-a: must be > 0");
  CHECK(ErrorOf(R"({"queue_order": "fair-share", "fair_share": {"weights": {"Team": 1}}})") ==
        "t.json:/scheduler/fair_share/weights/Team: namespace 'Team' must be 1 to 63 lowercase "
        "letters, digits and '-', starting and ending with a letter or digit");
  CHECK(ErrorOf(R"({"queue_order": "fair-share", "fair_share": {"weights": [1]}})") ==
        "t.json:/scheduler/fair_share/weights: expected an object, got an array");
  CHECK(ErrorOf(R"({"queue_order": "fair-share", "fair_share": {"weight": {}}})") ==
        "t.json:/scheduler/fair_share/weight: unknown field 'weight' (expected one of: weights)");
}

TEST_CASE("las thresholds and promotion are read", "[io][queue_discipline]") {
  Result<ScenarioFile> loaded = Load(
      R"({"queue_order": "las", "las": {"thresholds_gpu_s": [100, 3600], "promote_after_s": 60}})");
  REQUIRE(loaded.ok());
  const QueueOrderParams& p = loaded.value().variants.front().second.queue_params;
  CHECK(p.las_thresholds_gpu_s == std::vector<double>{100, 3600});
  CHECK(p.las_promote_after == SimTime::Seconds(60));
  Result<ScenarioFile> defaults = Load(R"({"queue_order": "las"})");
  REQUIRE(defaults.ok());
  CHECK(defaults.value().variants.front().second.queue_params.las_thresholds_gpu_s ==
        std::vector<double>{3600});
}

TEST_CASE("bad las settings are errors at their pointer", "[io][queue_discipline]") {
  CHECK(ErrorOf(R"({"queue_order": "srtf", "las": {}})") ==
        "t.json:/scheduler/las: needs scheduler.queue_order 'las'");
  CHECK(ErrorOf(R"({"queue_order": "las", "las": {"thresholds_gpu_s": []}})") ==
        "t.json:/scheduler/las/thresholds_gpu_s: needs at least one threshold");
  CHECK(ErrorOf(R"({"queue_order": "las", "las": {"thresholds_gpu_s": [100, 100]}})") ==
        "t.json:/scheduler/las/thresholds_gpu_s/1: must be > 100 (thresholds ascend from 0)");
  CHECK(ErrorOf(R"({"queue_order": "las", "las": {"promote_after_s": 0}})") ==
        "t.json:/scheduler/las/promote_after_s: must be > 0");
}

}  // namespace
}  // namespace migsim
