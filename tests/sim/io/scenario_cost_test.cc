// What a scenario will create, estimated before it runs (sim/io/scenario_cost.h): the
// reproductions of issue 25's "Every input has a bounded cost", each refused at the element
// that multiplies with a way to raise the limit, and validation linear in the variants.

#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <string>

#include "sim/io/input_limits.h"
#include "sim/io/json_reader.h"
#include "sim/io/scenario_cost.h"
#include "sim/io/scenario_json.h"
#include "tests/support/scoped_limit.h"

namespace migsim {
namespace {

using test::ScopedLimit;

// A document of `nodes` p4d.24xlarge; `extra` is spliced in as further top-level members.
std::string Doc(const std::string& workloads, const std::string& extra = "", int nodes = 1) {
  return R"({"name": "t", "description": "d", "horizon_s": 1000000,
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge", "count": )" +
         std::to_string(nodes) + R"(}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": )" +
         workloads + extra + "}";
}

const std::string kOnePod = R"({"w": {"kind": "Pod", "template": {"job_class": "train"}}})";

std::string MessageOf(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "s.json");
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

// 30 scale events of a Deployment of a million replicas, alternating 0 and a million.
std::string ScaleEvents(int events) {
  std::string scale = "[";
  for (int i = 0; i < events; ++i) {
    scale += std::string(i == 0 ? "" : ", ") + R"({"at_s": )" + std::to_string(10 * (i + 1)) +
             R"(, "replicas": )" + (i % 2 == 0 ? "0" : "1000000") + "}";
  }
  return scale + "]";
}

}  // namespace

TEST_CASE("a fault process expected to hit past the limit over the horizon is refused at it",
          "[io][limits]") {
  const std::string faults =
      R"(, "fault_processes": [{"kind": "node-lost", "mtbf_h": 0.001, "repair_s": 1}])";
  const std::string message = MessageOf(Doc(kOnePod, faults, 100));
  CHECK_THAT(message, Catch::StartsWith("s.json:/fault_processes/0: expects about 2.2e+07 fault "
                                        "events over the horizon"));
  CHECK_THAT(message, Catch::Contains("x 100 nodes") &&
                          Catch::EndsWith("the limit is 1000000 (raise it with --limit "
                                          "fault-events=N)"));
  // Raised on purpose, the same scenario loads.
  ScopedLimit raised("fault-events=30000000");
  CHECK(ParseScenarioText(Doc(kOnePod, faults, 100), "s.json").ok());
}

TEST_CASE("a GPU fault process counts each GPU of its nodes", "[io][limits]") {
  ScopedLimit tiny("fault-events=100");
  // 8 GPUs x 2 nodes x 1e6 s / (3600 s + 60 s) = 4,372 expected faults.
  const std::string faults =
      R"(, "fault_processes": [{"kind": "gpu-unhealthy", "mtbf_h": 1, "repair_s": 60}])";
  CHECK_THAT(MessageOf(Doc(kOnePod, faults, 2)),
             Catch::Contains("/fault_processes/0: expects about 4372 fault events") &&
                 Catch::Contains("x 16 GPUs"));
}

TEST_CASE("a Workflow whose retries multiply past the limit is refused at the workflow",
          "[io][limits]") {
  // 1,000 items x (1 + 10^6 retries): 10^9 pods were every retry used.
  const std::string workflow =
      R"({"wf": {"kind": "Workflow", "steps": {"a": {"template": {"job_class": "train"},
          "fan_out": 1000, "retry": {"limit": 1000000}}}}})";
  CHECK(MessageOf(Doc(workflow)) ==
        "s.json:/workloads/wf: the workloads could create 1e+09 pods were every retry used "
        "(this one 1e+09: items x (1 + retryStrategy limit) per step); the limit is 100000000 "
        "(raise it with --limit pods-with-retries=N)");
}

TEST_CASE("a Job's backoffLimit counts towards the pods with retries", "[io][limits]") {
  ScopedLimit tiny("pods-with-retries=100");
  const std::string job = R"({"j": {"kind": "Job", "completions": 90, "backoff_limit": 9,
                                    "template": {"job_class": "train"}}})";
  CHECK(ParseScenarioText(Doc(job), "s.json").ok());  // 90 + 9 + 1 = 100
  const std::string more = R"({"j": {"kind": "Job", "completions": 90, "backoff_limit": 10,
                                     "template": {"job_class": "train"}}})";
  CHECK_THAT(MessageOf(Doc(more)),
             Catch::StartsWith("s.json:/workloads/j: the workloads could create 101 pods") &&
                 Catch::Contains("completions + backoff_limit + 1"));
}

TEST_CASE("every scale-up of a Deployment creates pods: thirty events pass the pod limit",
          "[io][limits]") {
  const std::string deployment = R"({"d": {"kind": "Deployment", "replicas": 1000000,
      "template": {"resources": {"cpu": 1}}, "scale": )" +
                                 ScaleEvents(30) + "}}";
  // 1,000,000 at the start and 15 scale-ups from 0: 16 million pods.
  CHECK(MessageOf(Doc(deployment)) ==
        "s.json:/workloads/d: the workloads create 16000000 pods before retries (this one "
        "16000000, its every scale-up counted); at most 10000000 fit in one run "
        "(raise it with --limit pods=N)");
  CHECK(io::PodsBeforeRetries(WorkloadSpec(DeploymentSpec{
            .replicas = 2, .scale = {{.replicas = 5}, {.replicas = 3}, {.replicas = 4}}})) == 6);
}

TEST_CASE("pools whose nodes x GPUs x MIG slices pass the device limit are refused at the pool",
          "[io][limits]") {
  ScopedLimit tiny("gpu-devices=100");
  // A p4d.24xlarge: 8 A100s of 7 compute slices, 56 devices.
  const std::string two_pools = R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}, "b": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10}}, "workloads": )" +
                                kOnePod + "}";
  CHECK(MessageOf(two_pools) ==
        "s.json:/cluster/nodes/b: the pools so far hold 112 GPU devices (this one 1 nodes, 56 "
        "devices, a MIG-capable GPU counted as its compute slices); the limit is 100 (raise it "
        "with --limit gpu-devices=N)");
}

TEST_CASE("a file with more variants than the limit is refused at its variants", "[io][limits]") {
  ScopedLimit tiny("variants=2");
  const std::string variants = R"(, "variants": {"a": {}, "b": {}, "c": {}})";
  CHECK(MessageOf(Doc(kOnePod, variants)) ==
        "s.json:/variants: 3 variants; the limit is 2 (raise it with --limit variants=N)");
}

TEST_CASE("a limit is set by name, and an unknown name or a bad number is refused",
          "[io][limits]") {
  CHECK(io::SetInputLimit("run-pods=5").ok());
  CHECK(io::CurrentInputLimits().run_pods == 5);
  io::ResetInputLimits();
  CHECK(io::CurrentInputLimits().run_pods == 20'000'000);
  CHECK(io::SetInputLimit("pods=x").message() ==
        "pods=x: give pods=N, N an integer from 1 to 1099511627776");
  CHECK(io::SetInputLimit("pods=0").message() ==
        "pods=0: give pods=N, N an integer from 1 to 1099511627776");
  CHECK_THAT(io::SetInputLimit("memory=5").message(),
             Catch::StartsWith("no limit 'memory' (limits: pods-per-field, "
                               "pods, pods-with-retries,"));
  CHECK(io::CurrentInputLimits().pods_per_scenario == 10'000'000);
}

TEST_CASE("pods-per-field cannot be raised past what a field's int count holds",
          "[io][limits]") {
  // A count past 2^31 - 1 would not fit the int a workload's replicas or count is held in.
  CHECK(io::SetInputLimit("pods-per-field=3000000000").message() ==
        "pods-per-field=3000000000: give pods-per-field=N, N an integer from 1 to 2147483647");
  CHECK(io::SetInputLimit("pods-per-field=2147483647").ok());
  io::ResetInputLimits();
}

namespace {

// An object of `n` members, each an object, as a scenario's variants are.
std::string ManyMembers(int n) {
  std::string text = "{";
  for (int i = 0; i < n; ++i) {
    text += (i == 0 ? "\"v" : ", \"v") + std::to_string(i) + "\": {\"seed\": " +
            std::to_string(i) + "}";
  }
  return text + "}";
}

// Seconds to parse `text`.
double ParseSeconds(const std::string& text) {
  const auto start = std::chrono::steady_clock::now();
  const Result<io::Json> parsed = io::ParseJson(text, "v.json");
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  REQUIRE(parsed.ok());
  return took.count();
}

}  // namespace

TEST_CASE("parsing an object takes time linear in its members", "[io][limits]") {
  // nlohmann's DOM parser searched an ordered_json object's members for each new key, and
  // its parent's for each member object that ended: 100,000 variants took 24 s. Eight times
  // the members take about eight times as long to parse linearly (11 measured quietly, 19 on
  // a busy machine: caches, page faults) and 64 times quadratically; 32 lies between.
  const std::string small = ManyMembers(10'000);
  const std::string large = ManyMembers(80'000);
  // The least of five of each, taken in turns: the least is the one least disturbed by
  // whatever else the machine runs, and taking turns shares out what it runs.
  double small_s = 1e9, large_s = 1e9;
  for (int i = 0; i < 5; ++i) {
    small_s = std::min(small_s, ParseSeconds(small));
    large_s = std::min(large_s, ParseSeconds(large));
  }
  INFO("80,000 members took " << large_s / small_s << " times as long as 10,000");
  CHECK(large_s / small_s < 32);
  // The members are kept, in file order.
  const io::Json parsed = io::ParseJson(small, "v.json").value();
  REQUIRE(parsed.size() == 10'000);
  CHECK(parsed.begin().key() == "v0");
  CHECK(parsed["v9999"]["seed"] == 9'999);
}

TEST_CASE("a key repeated in a large object is still refused", "[io][limits]") {
  const Result<io::Json> parsed = io::ParseJson(R"({"a": {"x": 1, "y": 2, "x": 3}})", "d.json");
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().ToString() ==
        "d.json:/a/x: duplicate key (JSON keeps only one of the values)");
}

}  // namespace migsim
