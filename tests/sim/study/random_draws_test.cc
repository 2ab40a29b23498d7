// What a scenario draws at random, read from its structure, and the notice for a seed that
// changes nothing; and that two seeds give two runs where the model is random.
#include "sim/study/random_draws.h"

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"
#include "sim/study/run.h"

namespace migsim {
namespace {

ScenarioFile Load(const std::string& name, std::optional<uint64_t> seed = std::nullopt) {
  Result<ScenarioFile> file =
      LoadScenarioFile(std::string(MIGSIM_SOURCE_DIR) + "/scenarios/" + name + ".json",
                       {.seed = seed});
  if (!file.ok()) FAIL(file.status().ToString());
  return std::move(file).value();
}

Scenario Parse(const std::string& members, const std::string& job_class = R"({"run_s": 10})") {
  Result<ScenarioFile> file = ParseScenarioText(
      R"({"name": "s", "description": "d", "cluster": {"nodes": {"a": {"type": "p4d.24xlarge",
          "count": 2}}}, "job_classes": {"j": )" + job_class + "}, " + members + "}",
      "s.json");
  if (!file.ok()) FAIL(file.status().ToString());
  return file.value().variants.front().second;
}

constexpr const char* kOnePod =
    R"("workloads": {"w": {"kind": "Pod", "template": {"job_class": "j",
                     "resources": {"nvidia.com/gpu": 1}}}})";

}  // namespace

TEST_CASE("two seeds give two runs of a scenario whose arrivals are random", "[study][seed]") {
  const ScenarioFile one = Load("arrivals-example", 1);
  const ScenarioFile seven = Load("arrivals-example", 7);
  const RunMetrics a = RunVariant("base", one.variants.front().second).metrics;
  const RunMetrics b = RunVariant("base", seven.variants.front().second).metrics;
  CHECK(a.pods.submitted == 300);
  CHECK(b.pods.submitted == 300);
  CHECK(a.makespan_s != b.makespan_s);
  CHECK(a.queueing.mean_s != b.queueing.mean_s);
}

TEST_CASE("the random sources of a scenario are read from its structure", "[study][seed]") {
  CHECK(RandomSources(Load("arrivals-example").variants.front().second) ==
        std::vector<std::string>{"Arrivals workload 'requests'"});
  CHECK(RandomSources(Load("56-superres").variants.front().second).empty());
  CHECK(RandomSources(Parse(kOnePod)).empty());
  CHECK(RandomSources(Parse(std::string(kOnePod) + R"(, "policy": {"name": "random"})")) ==
        std::vector<std::string>{"policy 'random'"});
  // A policy given its own seed keeps its stream whatever the run's seed.
  CHECK(RandomSources(Parse(std::string(kOnePod) +
                            R"(, "policy": {"name": "random", "params": {"seed": 9}})"))
            .empty());
  CHECK(RandomSources(Parse(std::string(kOnePod) + R"(, "horizon_s": 100,
          "fault_processes": [{"name": "xid",
          "kind": "gpu-unhealthy", "pool": "a", "mtbf_h": 1000, "repair_s": 60}])")) ==
        std::vector<std::string>{"fault process 'xid'"});
  const std::vector<std::string> failing =
      RandomSources(Parse(kOnePod, R"({"run_s": 10, "failure_probability": 0.1})"));
  CHECK(failing == std::vector<std::string>{"job class 'j' (failure_probability)"});
}

TEST_CASE("a seed given to a scenario that draws nothing at random is said to change nothing",
          "[study][seed]") {
  CHECK(SeedChangesNothing(Load("56-superres"), "seed 7") ==
        "seed 7 changes nothing: scenario '56-superres' draws nothing at random (no Arrivals "
        "workload, failing job class, fault drawn or fault process, random policy, tie among "
        "node groups or preemption among nodes)");
  CHECK(SeedChangesNothing(Load("arrivals-example"), "seed 7").empty());
  CHECK(SeedChangesNothing(Load("arrivals-example"), "seed 7", {"busier"}).empty());
}

}  // namespace migsim
