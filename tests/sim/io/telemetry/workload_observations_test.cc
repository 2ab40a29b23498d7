#include "sim/io/telemetry/workload_observations.h"

#include <catch2/catch.hpp>

#include "tests/sim/io/telemetry/example_export.h"

namespace migsim::telemetry {
namespace {

TEST_CASE("the example export's pods group into its two Jobs and its Deployment",
          "[io][telemetry]") {
  const PodObservations all = LoadExampleExport();
  const std::vector<WorkloadObservations> groups = GroupByWorkload(all);
  REQUIRE(groups.size() == 3);
  CHECK(groups[0].key == WorkloadKey{"ml", "Deployment", "llm-serve"});
  CHECK(groups[0].pods.size() == 3);
  CHECK(groups[0].without_run_time == 3);  // still running
  CHECK(groups[0].without_duty_cycle == 0);
  CHECK(groups[1].key == WorkloadKey{"ml", "Job", "bert-eval"});
  CHECK(groups[1].pods == std::vector<size_t>{0, 1, 2, 3});
  CHECK(groups[1].without_run_time == 0);
  CHECK(groups[1].without_duty_cycle == 1);  // the pod without GPU series
  CHECK(groups[1].without_memory == 1);
  CHECK(groups[2].key == WorkloadKey{"ml", "Job", "resnet50-train"});
  REQUIRE(groups[2].pods.size() == 5);
  CHECK(all.pods[groups[2].pods[0]].key.pod == "resnet50-train-4xk2p");
  CHECK(groups[2].without_run_time + groups[2].without_duty_cycle + groups[2].without_memory == 0);
}

TEST_CASE("a pod without a known owner is a workload of its own", "[io][telemetry]") {
  PodObservations all;
  PodObservation lone, unresolved;
  lone.key = {"a", "lone"};
  lone.ownerless = true;
  unresolved.key = {"a", "web-5f9c"};
  unresolved.workload = PodOwner{"ReplicaSet", "web-5f"};
  all.pods = {lone, unresolved};
  const std::vector<WorkloadObservations> groups = GroupByWorkload(all);
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].key == WorkloadKey{"a", "Pod", "lone"});
  CHECK(groups[0].without_run_time == 1);
  CHECK(groups[1].key == WorkloadKey{"a", "ReplicaSet", "web-5f"});
}

}  // namespace
}  // namespace migsim::telemetry
