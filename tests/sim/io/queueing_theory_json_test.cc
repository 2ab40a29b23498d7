// `queueing_theory`: the inputs derived from the scenario, and the scenarios refused.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

// One p3.8xlarge (4 V100s) and an Arrivals workload "jobs" of one-GPU pods at `rate`;
// `theory` is the queueing_theory object, `extra` more top-level members.
std::string Doc(const std::string& theory, const std::string& rate = "0.004",
                const std::string& extra = "", const std::string& pool = "") {
  return R"({"name": "t", "description": "d",
    "scheduler": {"queue_order": "fifo"},
    "cluster": {"nodes": {"p3": {"type": "p3.8xlarge")" +
         pool + R"(}}},
    "workloads": {"jobs": {"kind": "Arrivals", "count": 10, "rate_per_s": )" +
         rate + R"(,
      "run_time": {"distribution": "exponential", "mean_s": 600},
      "template": {"resources": {"nvidia.com/gpu": 1}}}},
    "queueing_theory": )" +
         theory + extra + "}";
}

std::string MessageOf(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

}  // namespace

TEST_CASE("erlang-c takes its servers, rate and moments from the scenario", "[io][queueing]") {
  Result<ScenarioFile> loaded =
      ParseScenarioText(Doc(R"({"model": "erlang-c", "arrivals": "jobs"})"), "t.json");
  REQUIRE(loaded.ok());
  const QueueingTheorySpec& spec = *loaded.value().variants[0].second.queueing_theory;
  CHECK(spec.model == QueueingModel::kErlangC);
  CHECK(spec.servers == 4);
  CHECK(spec.lambdas == std::vector<double>{0.004});
  CHECK(spec.mean_s == 600);
  CHECK(spec.second_moment_s2 == 2 * 600.0 * 600);
}

TEST_CASE("a queueing_theory the scenario does not match is an error at its pointer",
          "[io][queueing]") {
  CHECK(MessageOf(Doc(R"({"model": "m/m/c", "arrivals": "jobs"})")) ==
        "t.json:/queueing_theory/model: unknown model 'm/m/c' (valid: erlang-c, cobham, "
        "pollaczek-khinchine, mg1-sjf)");
  CHECK(MessageOf(Doc(R"({"model": "erlang-c", "arrivals": "other"})")) ==
        "t.json:/queueing_theory/arrivals: no workload 'other' of kind Arrivals");
  CHECK(MessageOf(Doc(R"({"model": "erlang-c", "arrivals": "jobs"})", "0.01")) ==
        "t.json:/queueing_theory: not the model's scenario: the offered load is at or above the "
        "cluster's GPUs (rho >= 1): no steady state");
  CHECK(MessageOf(Doc(R"({"model": "mg1-sjf", "arrivals": "jobs"})")) ==
        "t.json:/queueing_theory: not the model's scenario: M/G/1 needs exactly one GPU in the "
        "cluster (it has 4)");
  CHECK(MessageOf(Doc(R"({"model": "cobham", "arrivals": "jobs"})")) ==
        "t.json:/queueing_theory: not the model's scenario: cobham needs scheduler.queue_order "
        "'priority'");
  CHECK(MessageOf(Doc(R"({"model": "erlang-c", "arrivals": "jobs"})", "0.004", "",
                      R"(, "device_plugin": {"time_slicing": {"replicas": 2}})")) ==
        "t.json:/queueing_theory: not the model's scenario: node p3-0 shares its GPUs: the "
        "model's servers are whole GPUs");
}

}  // namespace migsim
