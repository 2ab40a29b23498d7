// Gangs (sim/engine/gang.h): coscheduling PodGroups in the engine, driven by DistributedJob
// workloads in tiny worlds.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/engine.h"
#include "tests/support/recording_observer.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

// `count` p3.2xlarge nodes (1 x V100 each), named n0, n1, ...
Scenario OneGpuNodes(int count) {
  Scenario s;
  for (int i = 0; i < count; ++i) {
    s.cluster.nodes.push_back(test::GpuNode("n" + std::to_string(i), "p3.2xlarge"));
  }
  return s;
}

TemplateId GpuTemplate(Scenario& s, JobClassId jc, int32_t gpus = 1, bool gang = false) {
  const TemplateId t =
      test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", gpus}}, .job_class = jc});
  s.templates[t.value()].gang = gang;
  return t;
}

// A DistributedJob of `workers` pods that run `run` each.
void AddGang(Scenario& s, const std::string& name, SimTime at, int workers, SimTime run,
             int32_t gpus = 1, bool one_per_node = true, std::string topology_key = "") {
  const JobClassId jc = test::AddJobClass(s, name + "-class", test::Sec(0), run);
  s.workloads.emplace_back(DistributedJobSpec{.name = name,
                                              .at = at,
                                              .workers = workers,
                                              .tmpl = GpuTemplate(s, jc, gpus, true),
                                              .one_per_node = one_per_node,
                                              .topology_key = std::move(topology_key)});
}

// A bare pod taking one GPU for `run`.
void AddGpuPod(Scenario& s, const std::string& name, SimTime at, SimTime run) {
  test::AddPods(s, name, at, GpuTemplate(s, test::AddJobClass(s, name, test::Sec(0), run)));
}

// 10 one-GPU nodes, the first busy until 1000 s, and a gang of 10 created at 1 s: it finds
// 9 nodes, 10 % short, so Permit keeps its reservations waiting.
Scenario OneShortOfTen() {
  Scenario s = OneGpuNodes(10);
  AddGpuPod(s, "long", test::Sec(0), test::Sec(1000));
  AddGang(s, "train", test::Sec(1), 10, test::Sec(50));
  return s;
}

// The times (s) at which the pods whose names start with `prefix` were bound; -1: never.
std::vector<double> BoundAt(const Engine& engine, const std::string& prefix) {
  std::vector<double> times;
  for (const Pod& pod : engine.pods()) {
    if (engine.PodName(pod).rfind(prefix, 0) != 0) continue;
    times.push_back(pod.phase != PodPhase::kPending && pod.node.valid() ? pod.bound.seconds() : -1);
  }
  return times;
}

std::vector<std::string> NodesOf(const Engine& engine, const std::string& prefix) {
  std::vector<std::string> nodes;
  for (const Pod& pod : engine.pods()) {
    if (engine.PodName(pod).rfind(prefix, 0) != 0) continue;
    nodes.push_back(pod.node.valid() ? engine.nodes()[pod.node.value()].name : "-");
  }
  return nodes;
}

TEST_CASE("a gang of 2 with room for 1 waits whole and binds whole once there is room",
          "[engine][gang]") {
  Scenario s = OneGpuNodes(2);
  AddGpuPod(s, "long", test::Sec(0), test::Sec(100));
  AddGang(s, "train", test::Sec(1), 2, test::Sec(50));
  FirstFitPolicy policy;
  test::RecordingObserver observer;
  auto engine = test::RunEngine(s, policy, {&observer});
  // Not one worker took the free GPU meanwhile: both bound when the long pod left.
  CHECK(BoundAt(*engine, "train") == std::vector<double>{100, 100});
  CHECK(engine->end_time() == test::Sec(150));
  REQUIRE(engine->gangs().size() == 1);
  CHECK(engine->gangs()[0].permits.size() == 1);
  CHECK(engine->gangs()[0].timeouts == 0);  // a gap of 50 %: released at once, never held
}

TEST_CASE("a gang that can never fit leaves the run to end and stays pending, unbound",
          "[engine][gang]") {
  Scenario s = OneGpuNodes(1);
  AddGang(s, "big", test::Sec(0), 2, test::Sec(50));
  AddGpuPod(s, "small", test::Sec(5), test::Sec(10));
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  CHECK(BoundAt(*engine, "big") == std::vector<double>{-1, -1});
  CHECK(BoundAt(*engine, "small") == std::vector<double>{5});
  CHECK(engine->end_time() == test::Sec(15));
}

TEST_CASE("two gangs compete for two nodes: one runs whole, the other after it", "[engine][gang]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("a"));
  s.cluster.nodes.push_back(test::P3_8x("b"));
  AddGang(s, "first", test::Sec(0), 2, test::Sec(100), 3);
  AddGang(s, "second", test::Sec(0), 2, test::Sec(100), 3);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  CHECK(BoundAt(*engine, "first") == std::vector<double>{0, 0});
  CHECK(BoundAt(*engine, "second") == std::vector<double>{100, 100});
  CHECK(NodesOf(*engine, "second") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("a gang one worker short holds its reservations until the timeout releases them",
          "[engine][gang]") {
  // The gang holds 9 nodes for 60 s; the pod that came meanwhile gets one at 61 s.
  Scenario s = OneShortOfTen();
  AddGpuPod(s, "late", test::Sec(2), test::Sec(100));
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  CHECK(BoundAt(*engine, "late") == std::vector<double>{61});
  // When "late" ends at 161 s the gang holds 9 again (timeout at 221 s); it binds whole
  // when the long pod ends.
  CHECK(BoundAt(*engine, "train") == std::vector<double>(10, 1000));
  CHECK(engine->gangs()[0].timeouts == 2);
  CHECK(engine->end_time() == test::Sec(1050));
}

TEST_CASE("held reservations are pending pods holding their nodes when the horizon ends the run",
          "[engine][gang]") {
  Scenario s = OneShortOfTen();
  s.horizon = test::Sec(30);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);  // its accounting checks pass, or it aborts
  int reserved = 0;
  for (const Pod& pod : engine->pods()) {
    if (!pod.reserved) continue;
    ++reserved;
    CHECK(pod.phase == PodPhase::kPending);
    CHECK(pod.node.valid());
  }
  CHECK(reserved == 9);
  int64_t gpus_requested = 0;
  for (const NodeInfo& node : engine->nodes()) gpus_requested += node.requested.at(0);
  CHECK(gpus_requested == 10);  // the long pod's and the 9 reservations
}

TEST_CASE("two gangs that can never fit take turns holding reservations a bounded number of times",
          "[engine][gang]") {
  Scenario s = OneGpuNodes(10);
  AddGang(s, "a", test::Sec(0), 11, test::Sec(50), 1, false);
  AddGang(s, "b", test::Sec(0), 11, test::Sec(50), 1, false);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  CHECK(BoundAt(*engine, "a") == std::vector<double>(11, -1));
  CHECK(BoundAt(*engine, "b") == std::vector<double>(11, -1));
  CHECK(engine->gangs()[0].timeouts == 1);
  CHECK(engine->gangs()[1].timeouts == 1);
}

TEST_CASE("one worker per node spreads a gang, without it first-fit packs one node",
          "[engine][gang]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("a"));
  s.cluster.nodes.push_back(test::P3_8x("b"));
  AddGang(s, "spread", test::Sec(0), 2, test::Sec(10), 1, true);
  AddGang(s, "packed", test::Sec(20), 2, test::Sec(10), 1, false);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  CHECK(NodesOf(*engine, "spread") == std::vector<std::string>{"a", "b"});
  CHECK(NodesOf(*engine, "packed") == std::vector<std::string>{"a", "a"});
}

TEST_CASE("a topology key places the whole gang in one domain, the first that holds it",
          "[engine][gang]") {
  Scenario s;
  const std::vector<std::pair<std::string, std::string>> pools = {
      {"a0", "a"}, {"b0", "b"}, {"b1", "b"}, {"c0", "c"}};
  for (const auto& [name, group] : pools) {
    NodeSpec node = test::GpuNode(name, "p3.2xlarge");
    node.extra_labels = {{"example.com/placement-group", group}};
    s.cluster.nodes.push_back(node);
  }
  AddGang(s, "train", test::Sec(0), 2, test::Sec(10), 1, true, "example.com/placement-group");
  AddGang(s, "free", test::Sec(20), 2, test::Sec(10), 1, true);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  CHECK(NodesOf(*engine, "train") == std::vector<std::string>{"b0", "b1"});
  CHECK(NodesOf(*engine, "free") == std::vector<std::string>{"a0", "b0"});
}

TEST_CASE("a gang's reservations go when a MIG relabel takes their node", "[engine][gang]") {
  // The gang of 10 holds 9 nodes; relabelling n1 at 10 s releases them all before the
  // MIG manager starts, so no device of a reserved pod is destroyed.
  Scenario s;
  for (int i = 0; i < 10; ++i) {
    s.cluster.nodes.push_back(test::P4d("n" + std::to_string(i), "all-disabled"));
  }
  test::AddPods(s, "long", test::Sec(0),
                GpuTemplate(s, test::AddJobClass(s, "long", test::Sec(0), test::Sec(1000)), 8));
  AddGang(s, "train", test::Sec(1), 10, test::Sec(50), 8);
  test::AddRelabel(s, 1, test::Sec(10), "all-balanced", test::Sec(30));
  s.horizon = test::Sec(20);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  CHECK(engine->gangs()[0].timeouts == 0);
  for (const Pod& pod : engine->pods()) {
    CHECK_FALSE(pod.reserved);
    CHECK(pod.phase != PodPhase::kFailed);
  }
}

}  // namespace
}  // namespace migsim
