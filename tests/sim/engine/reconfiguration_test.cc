// MIG relabelling during a run (Reconfiguration in sim/engine/cluster_spec.h).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/engine.h"
#include "tests/support/recording_observer.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;

std::string Label(const NodeInfo& info, const std::string& key) {
  for (const auto& [k, v] : info.labels) {
    if (k == key) return v;
  }
  return "<absent>";
}

int32_t Allocatable(const Engine& engine, const std::string& resource) {
  return engine.nodes()[0].Allocatable(engine.resources().Find(resource));
}

TemplateId MigPod(Scenario& s, const std::string& profile, JobClassId jc = {}) {
  return AddTemplate(s, {.extended = {{"nvidia.com/mig-" + profile, 1}},
                         .job_class = jc,
                         .runs_forever = !jc.valid()});
}

// One p4d with all-1g.5gb, relabelled to all-balanced at 10 s; the MIG manager takes 30 s.
Scenario RelabelledP4d() {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  test::AddRelabel(s, 0, Sec(10), "all-balanced", Sec(30));
  return s;
}

TEST_CASE("a relabelled node is pending with no GPU resources while the MIG manager works",
          "[engine][reconfiguration]") {
  Scenario s = RelabelledP4d();
  s.horizon = Sec(20);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  const NodeInfo& node = engine->nodes()[0];
  CHECK(Label(node, "nvidia.com/mig.config") == "all-balanced");
  CHECK(Label(node, "nvidia.com/mig.config.state") == "pending");
  CHECK(Allocatable(*engine, "nvidia.com/mig-1g.5gb") == 0);
  CHECK(Allocatable(*engine, "nvidia.com/gpu") == 0);
  CHECK(engine->node_runtime(NodeId(0)).reconfiguring());
}

TEST_CASE("after the MIG change the node advertises the new layout and reports success",
          "[engine][reconfiguration]") {
  Scenario s = RelabelledP4d();
  AddPods(s, "early-2g", Sec(0), MigPod(s, "2g.10gb"));   // does not fit the old layout
  AddPods(s, "during-1g", Sec(15), MigPod(s, "1g.5gb"));  // arrives while pending
  AddPods(s, "cpu", Sec(15), AddTemplate(s, {.cpu_milli = 100, .runs_forever = true}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);

  const NodeInfo& node = engine->nodes()[0];
  CHECK(Label(node, "nvidia.com/mig.config") == "all-balanced");
  CHECK(Label(node, "nvidia.com/mig.config.state") == "success");
  CHECK(Allocatable(*engine, "nvidia.com/mig-1g.5gb") == 16);
  CHECK(Allocatable(*engine, "nvidia.com/mig-2g.10gb") == 8);
  CHECK(Allocatable(*engine, "nvidia.com/mig-3g.20gb") == 8);
  CHECK(Allocatable(*engine, "nvidia.com/gpu") == 0);
  CHECK(engine->pods()[0].bound == Sec(40));
  CHECK(engine->pods()[1].bound == Sec(40));
  CHECK(engine->pods()[2].bound == Sec(15));  // CPU is not withdrawn
  // all-balanced on an A100 is 2g@0 + 1g@2 + 1g@3 + 3g@4.
  CHECK(engine->DeviceName(engine->pods()[0]) == "gpu0/2g.10gb@0");
  CHECK_FALSE(engine->node_runtime(NodeId(0)).reconfiguring());
  CHECK(engine->end_time() == Sec(40));
}

TEST_CASE("pods on GPUs whose layout changes fail with DeviceLost", "[engine][reconfiguration]") {
  Scenario s = RelabelledP4d();
  AddPods(s, "p", Sec(0), MigPod(s, "1g.5gb"), 2);
  FirstFitPolicy policy;
  test::RecordingObserver observer;
  auto engine = RunEngine(s, policy, {&observer});

  for (const Pod& pod : engine->pods()) {
    CHECK(pod.phase == PodPhase::kFailed);
    CHECK(pod.reason == EndReason::kDeviceLost);
    CHECK(pod.ended == Sec(10));
  }
  // The device names stay those the pods had, though the GPU was rebuilt.
  CHECK(engine->DeviceName(engine->pods()[1]) == "gpu0/1g.5gb@1");
  // GPU allocation: 2 devices of 4 units from 0 s, none from 10 s.
  REQUIRE_FALSE(observer.allocations.empty());
  CHECK(observer.allocations.back().allocated == 0);
  CHECK(observer.allocations.back().capacity == 8 * kGpuWeight);
}

TEST_CASE("pods on GPUs whose layout is kept run on with their devices",
          "[engine][reconfiguration]") {
  const std::vector<std::string> all_1g(8, "all-1g.5gb");
  Scenario s;
  s.cluster.nodes.push_back(test::P4dPerGpu("p4d", all_1g));
  Reconfiguration r{.at = Sec(10),
                    .node = 0,
                    .mig_config = "gpu1-balanced",
                    .gpus = s.cluster.nodes[0].gpus,
                    .duration = Sec(30)};
  r.gpus[1] = test::Resolve("p4d.24xlarge", "all-balanced");
  s.cluster.reconfigurations.push_back(r);
  JobClassId jc = AddJobClass(s, "r", Sec(0), Sec(100));
  AddPods(s, "p", Sec(0), MigPod(s, "1g.5gb", jc), 15);  // gpu0 x 7, gpu1 x 7, gpu2 x 1
  AddPods(s, "after", Sec(45), MigPod(s, "2g.10gb", jc));
  FirstFitPolicy policy;

  SECTION("during the run") {
    s.horizon = Sec(50);
    auto engine = RunEngine(s, policy);
    const auto& pods = engine->pods();
    for (int i = 0; i < 15; ++i) {
      INFO("pod " << i);
      const bool on_gpu1 = i >= 7 && i < 14;
      CHECK(pods[i].phase == (on_gpu1 ? PodPhase::kFailed : PodPhase::kRunning));
      CHECK(pods[i].reason == (on_gpu1 ? EndReason::kDeviceLost : EndReason::kNone));
    }
    CHECK(engine->DeviceName(pods[3]) == "gpu0/1g.5gb@3");
    CHECK(engine->DeviceName(pods[14]) == "gpu2/1g.5gb@0");
    CHECK(engine->DeviceName(pods[15]) == "gpu1/2g.10gb@0");
    CHECK(Label(engine->nodes()[0], "nvidia.com/mig.config") == "gpu1-balanced");
    CHECK(Allocatable(*engine, "nvidia.com/mig-1g.5gb") == 51);
    CHECK(engine->nodes()[0].Requested(engine->resources().Find("nvidia.com/mig-1g.5gb")) == 8);
    int used = 0;
    for (const NodeRuntime::Device& d : engine->node_runtime(NodeId(0)).devices()) used += d.used;
    CHECK(used == 9);
  }
  SECTION("at the end every device is free again") {
    auto engine = RunEngine(s, policy);
    const auto& pods = engine->pods();
    CHECK(pods[0].phase == PodPhase::kSucceeded);
    CHECK(pods[0].ended == Sec(100));
    CHECK(pods[14].ended == Sec(100));
    CHECK(pods[15].ended == Sec(145));
    for (const NodeRuntime::Device& d : engine->node_runtime(NodeId(0)).devices())
      CHECK(d.used == 0);
    CHECK(engine->nodes()[0].Requested(engine->resources().Find("nvidia.com/mig-1g.5gb")) == 0);
    CHECK(engine->node_runtime(NodeId(0)).allocated_weight() == 0);
  }
}

TEST_CASE("relabelling a node to the config already applied disrupts nothing",
          "[engine][reconfiguration]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  test::AddRelabel(s, 0, Sec(10), "all-1g.5gb", Sec(30));
  s.horizon = Sec(20);
  AddPods(s, "p", Sec(0), MigPod(s, "1g.5gb"), 3);
  AddPods(s, "q", Sec(15), MigPod(s, "1g.5gb"));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);

  for (const Pod& pod : engine->pods()) CHECK(pod.phase == PodPhase::kRunning);
  CHECK(engine->pods()[3].bound == Sec(15));
  CHECK(engine->DeviceName(engine->pods()[3]) == "gpu0/1g.5gb@3");
  CHECK(Label(engine->nodes()[0], "nvidia.com/mig.config.state") == "success");
  CHECK(Allocatable(*engine, "nvidia.com/mig-1g.5gb") == 56);
  CHECK_FALSE(engine->node_runtime(NodeId(0)).reconfiguring());
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

// Regression (review of issue 2): when one relabel's window ends at the instant the
// next begins, the next must run against the new layout and keep the node pending.
TEST_CASE("a relabel starting as the previous one ends waits for it and keeps the node pending",
          "[engine][reconfiguration]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  test::AddRelabel(s, 0, Sec(0), "all-3g.20gb", Sec(30));
  test::AddRelabel(s, 0, Sec(30), "all-7g.40gb", Sec(30));
  JobClassId run = AddJobClass(s, "j", Sec(0), Sec(100));
  AddPods(s, "three", Sec(0), MigPod(s, "3g.20gb", run), 4);
  AddPods(s, "seven", Sec(0), MigPod(s, "7g.40gb", run), 4);
  FirstFitPolicy policy;

  SECTION("during the second window") {
    s.horizon = Sec(45);
    auto engine = RunEngine(s, policy);
    CHECK(Label(engine->nodes()[0], "nvidia.com/mig.config") == "all-7g.40gb");
    CHECK(Label(engine->nodes()[0], "nvidia.com/mig.config.state") == "pending");
    CHECK(Allocatable(*engine, "nvidia.com/mig-3g.20gb") == 0);
  }
  SECTION("after it") {
    s.horizon = Sec(200);
    auto engine = RunEngine(s, policy);
    CHECK(Allocatable(*engine, "nvidia.com/mig-7g.40gb") == 8);
    // The 3g layout only existed inside a pending window: the 3g pods never ran, the
    // 7g pods ran on the final layout.
    for (const Pod& pod : engine->pods()) {
      INFO(engine->PodName(pod));
      if (engine->PodName(pod).starts_with("three")) {
        CHECK(pod.phase == PodPhase::kPending);
      } else {
        CHECK(pod.phase == PodPhase::kSucceeded);
        CHECK(pod.bound == Sec(60));
      }
    }
  }
}

}  // namespace
}  // namespace migsim
