// What a run may create, bounded as it runs (sim/engine/run_budget.h): a run past its
// budget stops cleanly with the item that grew, and observers see simulated time move
// even while no pod ends (the progress line's OnProgress).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/io/scenario_json.h"
#include "sim/study/run.h"
#include "tests/support/scoped_limit.h"

namespace migsim {
namespace {

using test::ScopedLimit;

Scenario Load(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "s.json");
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  return loaded.value().variants.front().second;
}

// 100 one-GPU pods of 10 s on one p4d.24xlarge: 13 waves.
const std::string kHundredPods = R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "count": 100,
                        "template": {"job_class": "train", "resources": {"nvidia.com/gpu": 1}}}}})";

// One Deployment replica that runs all along on pool `a`, and a failure process of pool
// `b`'s 80 GPUs (one an hour each, a minute's repair) over 10^6 s: about 22,000 faults and
// as many repairs, no pod ending.
const std::string kFaultsOnly = R"({"name": "t", "description": "d", "horizon_s": 1000000,
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge", "labels": {"role": "web"}},
                          "b": {"type": "p4d.24xlarge", "count": 10}}},
    "workloads": {"web": {"kind": "Deployment", "replicas": 1,
                          "template": {"resources": {"cpu": 1}, "node_selector": {"role": "web"}}}},
    "fault_processes": [{"kind": "gpu-unhealthy", "pool": "b", "mtbf_h": 1, "repair_s": 60}]})";

// Counts what a run tells its observers.
class Watcher final : public EngineObserver {
 public:
  std::vector<SimTime> progress;
  SimTime horizon = SimTime::Zero();
  int64_t ended = 0;
  void OnProgress(SimTime now, SimTime h) override {
    progress.push_back(now);
    horizon = h;
  }
  void OnPodEnded(SimTime, const Pod&) override { ++ended; }
};

}  // namespace

TEST_CASE("a run that creates more pods than its budget stops at once, naming what grew",
          "[study][limits]") {
  const Scenario s = Load(kHundredPods);  // loaded under the defaults: the estimate passes
  REQUIRE_FALSE(RunVariant("v", s).overrun.has_value());
  ScopedLimit tiny("run-pods=50");
  const VariantResult stopped = RunVariant("v", s);
  REQUIRE(stopped.overrun.has_value());
  CHECK(stopped.overrun->item == BudgetItem::kPods);
  CHECK(stopped.overrun->limit == 50);
  CHECK(OverrunMessage(*stopped.overrun) ==
        "the run stopped at simulated time 0 s: more than 50 pods created (pods replaced or "
        "retried, or a Deployment scaled up and down, over and over) (raise it with --limit "
        "run-pods=N)");
}

TEST_CASE("a run whose faults pass the fault-events budget stops cleanly", "[study][limits]") {
  const Scenario s = Load(kFaultsOnly);
  ScopedLimit tiny("fault-events=100");
  const VariantResult stopped = RunVariant("v", s);
  REQUIRE(stopped.overrun.has_value());
  CHECK(stopped.overrun->item == BudgetItem::kFaultHits);
  CHECK(stopped.overrun->at < SimTime::Seconds(1000000));
  REQUIRE(stopped.faults.has_value());
  CHECK(stopped.faults->faults == 101);  // stopped after the instant that went past
  CHECK_THAT(OverrunMessage(*stopped.overrun),
             Catch::Contains("more than 100 faults that hit") &&
                 Catch::EndsWith("(raise it with --limit fault-events=N)"));
}

TEST_CASE("observers see simulated time move though no pod ends", "[study][progress]") {
  const Scenario s = Load(kFaultsOnly);
  Watcher watcher;
  const VariantResult result = RunVariant("v", s, {.observers = {&watcher}});
  REQUIRE_FALSE(result.overrun.has_value());
  CHECK(watcher.ended == 0);
  REQUIRE(watcher.progress.size() >= 5);
  CHECK(watcher.horizon == SimTime::Seconds(1000000));
  for (size_t i = 1; i < watcher.progress.size(); ++i) {
    CHECK(watcher.progress[i - 1] < watcher.progress[i]);
  }
  CHECK(watcher.progress.back() <= SimTime::Seconds(1000000));
}

}  // namespace migsim
