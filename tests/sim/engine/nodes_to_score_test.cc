// kube-scheduler's percentageOfNodesToScore (SchedulerConfig, Policy::Place): how many
// feasible nodes a cycle scores, and where the next cycle starts looking.
#include <catch2/catch.hpp>
#include <string>

#include "policies/best_fit.h"
#include "sim/engine/engine.h"
#include "tests/support/scenario_text.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

// 150 p3.8xlarge (4 GPUs) then 50 p3.2xlarge (1 GPU, the tightest fit for a one-GPU pod),
// two one-GPU pods 10 s apart, best fit; `scheduler` the scheduler section.
std::unique_ptr<Engine> Run(const std::string& scheduler, Scenario& s) {
  s = test::LoadFirstVariant(R"({"name": "t", "description": "d", "scheduler": )" + scheduler +
                             R"(, "cluster": {"nodes": {
        "big": {"type": "p3.8xlarge", "count": 150},
        "small": {"type": "p3.2xlarge", "count": 50}}},
      "job_classes": {"run": {"run_s": 100}},
      "workloads": {
        "a": {"kind": "Pod", "template": {"job_class": "run", "resources": {"nvidia.com/gpu": 1}}},
        "b": {"kind": "Pod", "at_s": 10,
              "template": {"job_class": "run", "resources": {"nvidia.com/gpu": 1}}}}})");
  static BestFitPolicy policy;
  return test::RunEngine(s, policy);
}

}  // namespace

TEST_CASE("the scheduler config reads percentageOfNodesToScore and computes kube-scheduler's "
          "number of feasible nodes to find",
          "[engine][scheduler]") {
  SchedulerConfig c;
  CHECK(c.FeasibleNodesToFind(5000) == 0);  // migsim's default: every node
  c.percentage_of_nodes_to_score = 0;       // adaptive: 50 % - n / 125, at least 5 %
  CHECK(c.FeasibleNodesToFind(99) == 0);
  CHECK(c.FeasibleNodesToFind(1000) == 420);   // 42 %
  CHECK(c.FeasibleNodesToFind(5000) == 500);   // 10 %
  CHECK(c.FeasibleNodesToFind(10000) == 500);  // 5 %
  c.percentage_of_nodes_to_score = 10;
  CHECK(c.FeasibleNodesToFind(500) == 100);  // at least 100
}

TEST_CASE("with a sample of half the nodes a cycle scores the first 100 feasible nodes and the "
          "next cycle starts after them",
          "[engine][scheduler]") {
  Scenario all_s, half_s;
  const auto all = Run("{}", all_s);
  CHECK(all->pods()[0].node.value() == 150);  // the tightest node of all
  CHECK(all->pods()[1].node.value() == 151);
  const auto half = Run(R"({"percentage_of_nodes_to_score": 50})", half_s);
  CHECK(half->pods()[0].node.value() == 0);    // the best of nodes 0-99: all alike
  CHECK(half->pods()[1].node.value() == 150);  // the best of nodes 100-199
}

}  // namespace migsim
