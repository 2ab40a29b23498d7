// A policy's choice of devices (Placement::devices, Policy::ChooseDevices): the engine
// binds the pod on exactly the devices chosen, and rejects a bad choice untouched.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "tests/support/scripted_policy.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;
using Choices = std::vector<DeviceChoice>;

// A p4d with all-balanced on every GPU: per GPU, devices 2g.10gb@0, 1g.5gb@2, 1g.5gb@3,
// 3g.20gb@4 (indices 4g .. 4g+3), 32 devices in all.
Scenario Balanced() {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("mig", "all-balanced"));
  return s;
}

// A g5.12xlarge (4 x A10G) whose GPUs are shared in 1000 milli each.
Scenario Fractional() {
  Scenario s;
  NodeSpec node = test::GpuNode("frac", "g5.12xlarge");
  node.plugin.sharing = SharingMode::kFractional;
  node.plugin.shared = {{.name = "alibabacloud.com/gpu-milli", .replicas = 1000}};
  s.cluster.nodes.push_back(node);
  return s;
}

// Pods of one template that ask `count` of `resource`, run forever and take 100m CPU.
TemplateId Asking(Scenario& s, const std::string& resource, int32_t count) {
  return AddTemplate(
      s, {.cpu_milli = 100, .extended = {{resource, count}}, .runs_forever = true});
}

Placement On(Choices devices) { return Placement{NodeId(0), std::move(devices)}; }

std::vector<int32_t> Used(const Engine& engine) {
  std::vector<int32_t> used;
  for (const DeviceInfo& d : engine.nodes()[0].devices) used.push_back(d.used);
  return used;
}

int32_t Requested(const Engine& engine, const std::string& resource) {
  return engine.nodes()[0].Requested(engine.resources().Find(resource));
}

// The pod was refused once and is pending, on no node and no device.
void CheckRejectedPending(const Engine& engine, size_t pod) {
  CHECK(engine.rejected_decisions() == 1);
  const Pod& p = engine.pods()[pod];
  CHECK(p.phase == PodPhase::kPending);
  CHECK_FALSE(p.node.valid());
  CHECK(engine.DeviceName(p).empty());
}

TEST_CASE("a policy's choice of whole GPUs binds the pod on exactly those GPUs",
          "[engine][devices]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("v"));
  AddPods(s, "p", Sec(0), Asking(s, "nvidia.com/gpu", 2));
  test::ScriptedPolicy policy({On({{1, 1}, {3, 1}})});  // the plugin would take gpu0, gpu1
  auto engine = RunEngine(s, policy);
  CHECK(engine->DeviceName(engine->pods()[0]) == "gpu1+gpu3");
  CHECK(Used(*engine) == std::vector<int32_t>{0, 1, 0, 1});
  CHECK(Requested(*engine, "nvidia.com/gpu") == 2);
  CHECK(engine->rejected_decisions() == 0);
}

TEST_CASE("a policy's choice of a MIG device binds the pod on that GPU instance",
          "[engine][devices]") {
  Scenario s = Balanced();
  AddPods(s, "p", Sec(0), Asking(s, "nvidia.com/mig-1g.5gb", 1));
  test::ScriptedPolicy policy({On({{6, 1}})});
  auto engine = RunEngine(s, policy);
  CHECK(engine->DeviceName(engine->pods()[0]) == "gpu1/1g.5gb@3");
  std::vector<int32_t> expected(32, 0);
  expected[6] = 1;
  CHECK(Used(*engine) == expected);
  CHECK(engine->rejected_decisions() == 0);
}

TEST_CASE("a policy's choice of fractional shares binds the pod on those GPUs",
          "[engine][devices]") {
  Scenario s = Fractional();
  SECTION("a share of the third GPU") {
    AddPods(s, "p", Sec(0), Asking(s, "alibabacloud.com/gpu-milli", 300));
    test::ScriptedPolicy policy({On({{2, 300}})});
    auto engine = RunEngine(s, policy);
    CHECK(engine->DeviceName(engine->pods()[0]) == "gpu2/300m");
    CHECK(Used(*engine) == std::vector<int32_t>{0, 0, 300, 0});
    CHECK(engine->nodes()[0].share_free == std::vector<int32_t>{1000, 1000, 700, 1000});
  }
  SECTION("two whole GPUs for a request of two GPUs' units") {
    AddPods(s, "p", Sec(0), Asking(s, "alibabacloud.com/gpu-milli", 2000));
    test::ScriptedPolicy policy({On({{1, 1000}, {3, 1000}})});
    auto engine = RunEngine(s, policy);
    CHECK(engine->DeviceName(engine->pods()[0]) == "gpu1/1000m+gpu3/1000m");
    CHECK(Used(*engine) == std::vector<int32_t>{0, 1000, 0, 1000});
  }
}

TEST_CASE("a device choice that does not match the pod's request is rejected and the pod stays "
          "pending",
          "[engine][devices]") {
  Scenario s = Balanced();
  AddPods(s, "p", Sec(0), Asking(s, "nvidia.com/mig-1g.5gb", 2));
  Choices choice;
  SECTION("a device index past the node's last device") { choice = {{1, 1}, {32, 1}}; }
  SECTION("a device of another resource besides the right ones") {
    choice = {{0, 1}, {1, 1}, {2, 1}};  // device 0 is a 2g.10gb
  }
  SECTION("the same device twice") { choice = {{1, 1}, {1, 1}}; }
  SECTION("fewer devices than requested") { choice = {{1, 1}}; }
  SECTION("more devices than requested") { choice = {{1, 1}, {2, 1}, {5, 1}}; }
  SECTION("two of an exclusive device") { choice = {{1, 2}}; }
  SECTION("a count of zero beside the right devices") { choice = {{1, 1}, {2, 1}, {5, 0}}; }
  test::ScriptedPolicy policy({On(choice)});
  auto engine = RunEngine(s, policy);

  CheckRejectedPending(*engine, 0);
  CHECK(Used(*engine) == std::vector<int32_t>(32, 0));
  CHECK(Requested(*engine, "nvidia.com/mig-1g.5gb") == 0);
  CHECK(engine->nodes()[0].cpu_milli_requested == 0);
  CHECK(engine->nodes()[0].pods.empty());
  CHECK(engine->node_runtime(NodeId(0)).allocated_weight() == 0);
}

TEST_CASE("choosing an exclusive device another pod holds is rejected", "[engine][devices]") {
  Scenario s = Balanced();
  AddPods(s, "first", Sec(0), Asking(s, "nvidia.com/mig-1g.5gb", 1));
  AddPods(s, "second", Sec(1), Asking(s, "nvidia.com/mig-1g.5gb", 1));
  // The plugin gives the first pod gpu0's first 1g.5gb (device 1); the second wants it too.
  test::ScriptedPolicy policy({On({}), On({{1, 1}})});
  auto engine = RunEngine(s, policy);

  CHECK(engine->DeviceName(engine->pods()[0]) == "gpu0/1g.5gb@2");
  CheckRejectedPending(*engine, 1);
  std::vector<int32_t> expected(32, 0);
  expected[1] = 1;
  CHECK(Used(*engine) == expected);
  CHECK(Requested(*engine, "nvidia.com/mig-1g.5gb") == 1);
  CHECK(engine->nodes()[0].cpu_milli_requested == 100);
}

TEST_CASE("a fractional share must come whole from one device with room for it",
          "[engine][devices]") {
  Scenario s = Fractional();
  AddPods(s, "first", Sec(0), Asking(s, "alibabacloud.com/gpu-milli", 600));
  AddPods(s, "second", Sec(1), Asking(s, "alibabacloud.com/gpu-milli", 500));
  Choices second;
  SECTION("more than the device has left") { second = {{0, 500}}; }
  SECTION("a part of the share on each of two devices") { second = {{0, 250}, {1, 250}}; }
  SECTION("a whole device for a share of one") { second = {{1, 1000}}; }
  test::ScriptedPolicy policy({On({{0, 600}}), On(second)});
  auto engine = RunEngine(s, policy);

  CHECK(engine->DeviceName(engine->pods()[0]) == "gpu0/600m");
  CheckRejectedPending(*engine, 1);
  CHECK(Used(*engine) == std::vector<int32_t>{600, 0, 0, 0});
  CHECK(engine->nodes()[0].share_free == std::vector<int32_t>{400, 1000, 1000, 1000});
  CHECK(Requested(*engine, "alibabacloud.com/gpu-milli") == 600);
}

TEST_CASE("device choices for a pod that requests no extended resource are rejected",
          "[engine][devices]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("v"));
  AddPods(s, "cpu", Sec(0), AddTemplate(s, {.cpu_milli = 100, .runs_forever = true}));
  test::ScriptedPolicy policy({On({{0, 1}})});
  auto engine = RunEngine(s, policy);

  CheckRejectedPending(*engine, 0);
  CHECK(Used(*engine) == std::vector<int32_t>{0, 0, 0, 0});
  CHECK(engine->nodes()[0].cpu_milli_requested == 0);
}

TEST_CASE("a pod may take two replicas of one time-sliced device", "[engine][devices]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("ts", 4));
  SECTION("two replicas of the third GPU") {
    AddPods(s, "p", Sec(0), Asking(s, "nvidia.com/gpu", 2));
    test::ScriptedPolicy policy({On({{2, 2}})});
    auto engine = RunEngine(s, policy);
    CHECK(engine->DeviceName(engine->pods()[0]) == "gpu2/shared");
    CHECK(Used(*engine) == std::vector<int32_t>{0, 0, 2, 0});
    CHECK(Requested(*engine, "nvidia.com/gpu") == 2);
    CHECK(engine->rejected_decisions() == 0);
  }
  SECTION("but not more replicas than the device has") {
    AddPods(s, "p", Sec(0), Asking(s, "nvidia.com/gpu", 5));
    test::ScriptedPolicy policy({On({{2, 5}})});
    auto engine = RunEngine(s, policy);
    CheckRejectedPending(*engine, 0);
    CHECK(Used(*engine) == std::vector<int32_t>{0, 0, 0, 0});
  }
  SECTION("nor replicas another pod already holds") {
    AddPods(s, "first", Sec(0), Asking(s, "nvidia.com/gpu", 3));
    AddPods(s, "second", Sec(1), Asking(s, "nvidia.com/gpu", 2));
    test::ScriptedPolicy policy({On({{2, 3}}), On({{2, 2}})});
    auto engine = RunEngine(s, policy);
    CHECK(engine->DeviceName(engine->pods()[0]) == "gpu2/shared");
    CheckRejectedPending(*engine, 1);
    CHECK(Used(*engine) == std::vector<int32_t>{0, 0, 3, 0});
  }
}

}  // namespace
}  // namespace migsim
