#include "workloads/builtin_job_classes.h"

#include <catch2/catch.hpp>

#include "sim/cluster/gpu_model.h"
#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

TEST_CASE("every built-in job class says where its numbers come from", "[workloads][builtin]") {
  REQUIRE(BuiltinJobClasses().size() >= 10);
  for (const BuiltinJobClass& b : BuiltinJobClasses()) {
    INFO(b.job_class.name);
    CHECK_FALSE(b.source.empty());
    CHECK(FindBuiltinJobClass(b.job_class.name) == &b);
    for (const auto& [kind, run] : b.job_class.run_time) CHECK(run > SimTime::Zero());
  }
  CHECK(FindBuiltinJobClass("nope") == nullptr);
}

TEST_CASE("the built-in BERT fine-tuning reproduces seed 003's speeds", "[workloads][builtin]") {
  const JobClass& bert = FindBuiltinJobClass("bert-base-finetune")->job_class;
  const GpuModel* a100 = FindGpuModel("A100-SXM4-40GB");
  CHECK(RunTimeOnDevice(bert, a100, "1g.5gb")->seconds() == Approx(5539.02).epsilon(0.001));
  CHECK(RunTimeOnDevice(bert, a100, "gpu")->seconds() == Approx(1480).epsilon(0.001));
  CHECK(RunTimeOnDevice(bert, FindGpuModel("T4"), "gpu")->seconds() ==
        Approx(3771).epsilon(0.001));
  CHECK(bert.duty_cycle == Approx(119.78 / 151.2));
}

ScenarioFile LoadWithClass(const std::string& job_class) {
  Result<ScenarioFile> r = ParseScenarioText(
      R"({"name": "t", "description": "d", "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
          "job_classes": {"c": )" + job_class + R"(}, "workloads": {}})",
      "t.json");
  INFO((r.ok() ? "" : r.status().ToString()));
  REQUIRE(r.ok());
  return std::move(r).value();
}

TEST_CASE("a scenario's job class can start from a built-in and override it",
          "[workloads][builtin]") {
  const GpuModel* a100 = FindGpuModel("A100-SXM4-40GB");
  SECTION("as it is") {
    const JobClass jc = LoadWithClass(R"({"builtin": "bert-large-inference"})")
                            .variants[0].second.job_classes[0];
    CHECK(jc.name == "c");
    CHECK(jc.work_unit == "sentences");
    CHECK(RunTimeOnDevice(jc, a100, "gpu")->seconds() == Approx(100000 / 247.36));
  }
  SECTION("half the work takes half the time") {
    const JobClass jc = LoadWithClass(R"({"builtin": "bert-large-inference", "work": 50000})")
                            .variants[0].second.job_classes[0];
    CHECK(RunTimeOnDevice(jc, a100, "gpu")->seconds() == Approx(50000 / 247.36));
  }
  SECTION("given run times replace the built-in's") {
    const JobClass jc = LoadWithClass(R"({"builtin": "super-resolution", "run_s": {"gpu": 5}})")
                            .variants[0].second.job_classes[0];
    CHECK(jc.run_time.size() == 1);
    CHECK(jc.startup == SimTime::Seconds(10));  // kept
  }
}

TEST_CASE("an unknown built-in is an error listing the built-ins", "[workloads][builtin]") {
  Result<ScenarioFile> r = ParseScenarioText(
      R"({"name": "t", "description": "d", "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
          "job_classes": {"c": {"builtin": "gpt-5"}}, "workloads": {}})",
      "t.json");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.status().ToString(),
             Catch::StartsWith("t.json:/job_classes/c/builtin: unknown built-in job class "
                               "'gpt-5' (valid: bert-base-finetune, bert-large-inference"));
}

}  // namespace
}  // namespace migsim
