#include "sim/engine/node_runtime.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/observer.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

// The device of every replica held, in order.
std::vector<uint32_t> Devices(const std::vector<NodeRuntime::Held>& held) {
  std::vector<uint32_t> out;
  for (const NodeRuntime::Held& h : held) out.insert(out.end(), h.count, h.device);
  return out;
}

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

PodRequests Ask(ResourceTable& resources, const std::string& name, int32_t count) {
  PodRequests req;
  req.extended.push_back({resources.Intern(name), count});
  return req;
}

std::vector<std::string> DeviceNames(const Engine& engine) {
  std::vector<std::string> names;
  for (const Pod& pod : engine.pods()) names.push_back(engine.DeviceName(pod));
  return names;
}

TEST_CASE("a node's info carries its type's resources, advertised devices and labels",
          "[engine][node_runtime]") {
  NodeSpec spec = test::P4d("gpu-a", "all-1g.5gb");
  spec.extra_labels = {{"team", "vision"}};
  ResourceTable resources;
  NodeInfo info;
  NodeRuntime runtime(spec, NodeId(3), resources, info);

  CHECK(info.id == NodeId(3));
  CHECK(info.name == "gpu-a");
  CHECK(info.cpu_milli_allocatable == 96000);
  CHECK(info.memory_mib_allocatable == 1152 * 1024);
  CHECK(info.Allocatable(resources.Find("nvidia.com/mig-1g.5gb")) == 56);
  // Advertised with zero devices, as kubelet shows it.
  CHECK(resources.Find("nvidia.com/gpu").valid());
  CHECK(info.Allocatable(resources.Find("nvidia.com/gpu")) == 0);
  CHECK(std::is_sorted(info.labels.begin(), info.labels.end()));
  CHECK(Label(info, "kubernetes.io/hostname") == "gpu-a");
  CHECK(Label(info, "node.kubernetes.io/instance-type") == "p4d.24xlarge");
  CHECK(Label(info, "nvidia.com/mig.config") == "all-1g.5gb");
  CHECK(Label(info, "nvidia.com/mig.config.state") == "success");
  CHECK(Label(info, "nvidia.com/mig.strategy") == "mixed");
  CHECK(Label(info, "team") == "vision");
  REQUIRE(runtime.devices().size() == 56);
  CHECK(runtime.devices()[0].kind == "1g.5gb");
  CHECK(runtime.devices()[0].weight == kGpuWeight / 7);
  CHECK(runtime.capacity_weight() == 8 * kGpuWeight);
  CHECK(runtime.allocated_weight() == 0);
  CHECK_FALSE(runtime.reconfiguring());
}

TEST_CASE("a node given custom per-GPU layouts has no mig.config labels",
          "[engine][node_runtime]") {
  ResourceTable resources;
  NodeInfo info;
  NodeSpec spec =
      test::P4dPerGpu("p4d", {"all-1g.5gb", "all-balanced", "all-disabled", "all-disabled",
                              "all-disabled", "all-disabled", "all-disabled", "all-7g.40gb"});
  NodeRuntime runtime(spec, NodeId(0), resources, info);
  CHECK(Label(info, "nvidia.com/mig.config") == "<absent>");
  CHECK(Label(info, "nvidia.com/mig.config.state") == "<absent>");
  CHECK(info.Allocatable(resources.Find("nvidia.com/gpu")) == 5);
  CHECK(info.Allocatable(resources.Find("nvidia.com/mig-1g.5gb")) == 9);
  CHECK(info.Allocatable(resources.Find("nvidia.com/mig-7g.40gb")) == 1);
  REQUIRE(runtime.devices().size() == 7 + 4 + 5 + 1);
  // Devices are ordered by GPU: MIG-off GPUs are whole GPUs of kind "gpu".
  CHECK(runtime.devices()[11].kind == "gpu");
  CHECK(runtime.devices()[11].plugin.gpu == 2);
  CHECK(runtime.devices()[11].weight == kGpuWeight);
  CHECK(runtime.devices()[16].kind == "7g.40gb");
  CHECK(runtime.devices()[16].weight == kGpuWeight);
}

TEST_CASE("exclusive devices are allocated first free and counted once", "[engine][node_runtime]") {
  ResourceTable resources;
  NodeInfo info;
  NodeSpec spec = test::P3_8x("p3");
  NodeRuntime runtime(spec, NodeId(0), resources, info);
  PodRequests two = Ask(resources, "nvidia.com/gpu", 2);
  two.cpu_milli = 1500;
  PodRequests one = Ask(resources, "nvidia.com/gpu", 1);

  std::vector<NodeRuntime::Held> pool;
  CHECK(runtime.Allocate(two, pool, info) == 2 * kGpuWeight);
  CHECK(runtime.Allocate(one, pool, info) == kGpuWeight);
  CHECK(Devices(pool) == std::vector<uint32_t>{0, 1, 2});
  CHECK(info.cpu_milli_requested == 1500);
  CHECK(info.Requested(resources.Find("nvidia.com/gpu")) == 3);
  CHECK(runtime.allocated_weight() == 3 * kGpuWeight);

  CHECK(runtime.Release(two, std::span<const NodeRuntime::Held>(pool.data(), 2), info) ==
        -2 * kGpuWeight);
  CHECK(info.cpu_milli_requested == 0);
  CHECK(info.Requested(resources.Find("nvidia.com/gpu")) == 1);
  std::vector<NodeRuntime::Held> again;
  runtime.Allocate(one, again, info);
  CHECK(Devices(again) == std::vector<uint32_t>{0});
}

TEST_CASE("time-sliced devices go to the GPU with the fewest tenants", "[engine][node_runtime]") {
  ResourceTable resources;
  NodeInfo info;
  NodeSpec spec = test::P3_8x("p3", 10);
  NodeRuntime runtime(spec, NodeId(0), resources, info);
  CHECK(info.Allocatable(resources.Find("nvidia.com/gpu")) == 40);
  PodRequests one = Ask(resources, "nvidia.com/gpu", 1);
  std::vector<NodeRuntime::Held> pool;
  int64_t weight = 0;
  for (int i = 0; i < 6; ++i) weight += runtime.Allocate(one, pool, info);
  CHECK(Devices(pool) == std::vector<uint32_t>{0, 1, 2, 3, 0, 1});
  // A time-sliced GPU counts once, however many tenants it has.
  CHECK(weight == 4 * kGpuWeight);
  CHECK(runtime.devices()[0].used == 2);
  CHECK(runtime.devices()[3].used == 1);

  SECTION("a pod asking for two replicas gets two GPUs") {
    std::vector<NodeRuntime::Held> two;
    runtime.Allocate(Ask(resources, "nvidia.com/gpu", 2), two, info);
    CHECK(Devices(two) == std::vector<uint32_t>{2, 3});
  }
}

TEST_CASE(
    "kubelet admission rejects more than one shared device only with "
    "failRequestsGreaterThanOne",
    "[engine][node_runtime]") {
  ResourceTable resources;
  NodeInfo info;
  PodRequests one = Ask(resources, "nvidia.com/gpu", 1);
  PodRequests two = Ask(resources, "nvidia.com/gpu", 2);
  SECTION("shared with the flag") {
    NodeSpec spec = test::P3_8x("p3", 4, false, true);
    NodeRuntime runtime(spec, NodeId(0), resources, info);
    CHECK(runtime.AdmissionRejects(two));
    CHECK_FALSE(runtime.AdmissionRejects(one));
  }
  SECTION("shared without the flag") {
    NodeSpec spec = test::P3_8x("p3", 4);
    NodeRuntime runtime(spec, NodeId(0), resources, info);
    CHECK_FALSE(runtime.AdmissionRejects(two));
  }
  SECTION("the flag without sharing") {
    NodeSpec spec = test::P3_8x("p3", 0, false, true);
    NodeRuntime runtime(spec, NodeId(0), resources, info);
    CHECK_FALSE(runtime.AdmissionRejects(two));
  }
}

TEST_CASE("a MIG change keeps the tenants of unchanged GPUs on their devices",
          "[engine][node_runtime]") {
  ResourceTable resources;
  NodeInfo info;
  NodeSpec spec = test::P4d("p4d", "all-1g.5gb");
  NodeRuntime runtime(spec, NodeId(0), resources, info);
  PodRequests one = Ask(resources, "nvidia.com/mig-1g.5gb", 1);
  std::vector<NodeRuntime::Held> pool;
  for (int i = 0; i < 15; ++i) runtime.Allocate(one, pool, info);
  CHECK(pool.back().device == 14);  // gpu2, first GI

  std::vector<GpuMigSetting> target = spec.gpus;
  target[1] = test::Resolve("p4d.24xlarge", "all-balanced");
  CHECK(runtime.ChangingGpus(target) == std::vector<int>{1});
  CHECK(runtime.ChangingGpus(spec.gpus).empty());

  // The engine fails the tenants of GPU 1 first; here they are released by hand.
  runtime.Release(one, std::span<const NodeRuntime::Held>(pool.data() + 7, 7), info);
  runtime.Withdraw("custom", info);
  CHECK(runtime.reconfiguring());
  CHECK(Label(info, "nvidia.com/mig.config.state") == "pending");
  CHECK(Label(info, "nvidia.com/mig.config") == "custom");
  CHECK(info.Allocatable(resources.Find("nvidia.com/mig-1g.5gb")) == 0);

  std::vector<int> remap = runtime.Apply(target, "custom", resources, info);
  CHECK_FALSE(runtime.reconfiguring());
  CHECK(Label(info, "nvidia.com/mig.config.state") == "success");
  CHECK(info.Allocatable(resources.Find("nvidia.com/mig-1g.5gb")) == 51);
  CHECK(info.Allocatable(resources.Find("nvidia.com/mig-2g.10gb")) == 1);
  CHECK(info.Allocatable(resources.Find("nvidia.com/mig-3g.20gb")) == 1);
  REQUIRE(remap.size() == 56);
  for (int d = 0; d < 7; ++d) CHECK(remap[d] == d);
  CHECK(remap[7] == -1);
  CHECK(remap[14] == 11);  // gpu1 now has 4 devices, so gpu2's first is index 11
  CHECK(runtime.devices()[11].plugin.gpu == 2);
  CHECK(runtime.devices()[11].used == 1);
  CHECK(runtime.allocated_weight() == 8 * (kGpuWeight / 7));
}

// Device allocation as the engine does it, end to end.

TEST_CASE("the engine hands out exclusive GPUs first free", "[engine][node_runtime]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("p3"));
  JobClassId long_run = AddJobClass(s, "long", Sec(0), Sec(100));
  JobClassId short_run = AddJobClass(s, "short", Sec(0), Sec(10));
  TemplateId gpu_long =
      AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = long_run});
  TemplateId gpu_short =
      AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = short_run});
  AddPods(s, "a", Sec(0), gpu_long);
  AddPods(s, "b", Sec(0), gpu_short);
  AddPods(s, "c", Sec(0), gpu_long);
  AddPods(s, "d", Sec(20), gpu_long);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(DeviceNames(*engine) == std::vector<std::string>{"gpu0", "gpu1", "gpu2", "gpu1"});
}

TEST_CASE("the engine hands out MIG devices first free, GPU by GPU", "[engine][node_runtime]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  AddPods(s, "p", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}}, .runs_forever = true}), 8);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(DeviceNames(*engine) == std::vector<std::string>{"gpu0/1g.5gb@0", "gpu0/1g.5gb@1",
                                                         "gpu0/1g.5gb@2", "gpu0/1g.5gb@3",
                                                         "gpu0/1g.5gb@4", "gpu0/1g.5gb@5",
                                                         "gpu0/1g.5gb@6", "gpu1/1g.5gb@0"});
}

TEST_CASE("20 pods on 4 V100s time-sliced 10 ways get 5 per GPU", "[engine][node_runtime]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("p3", 10));
  AddPods(s, "p", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .runs_forever = true}), 20);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);

  std::vector<std::string> names = DeviceNames(*engine);
  for (size_t i = 0; i < names.size(); ++i) {
    CHECK(names[i] == "gpu" + std::to_string(i % 4) + "/shared");
  }
  const NodeRuntime& runtime = engine->node_runtime(NodeId(0));
  REQUIRE(runtime.devices().size() == 4);
  for (const NodeRuntime::Device& d : runtime.devices()) CHECK(d.used == 5);
  const ResourceId gpu = engine->resources().Find("nvidia.com/gpu");
  CHECK(engine->nodes()[0].Requested(gpu) == 20);
  CHECK(engine->nodes()[0].Allocatable(gpu) == 40);
}

TEST_CASE("with renameByDefault time-sliced GPUs are asked for as nvidia.com/gpu.shared",
          "[engine][node_runtime]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("p3", 2, true));
  AddPods(s, "plain", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .runs_forever = true}));
  AddPods(s, "shared", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu.shared", 1}}, .runs_forever = true}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].phase == PodPhase::kPending);
  CHECK(engine->pods()[1].phase == PodPhase::kRunning);
  CHECK(engine->DeviceName(engine->pods()[1]) == "gpu0/shared");
}

TEST_CASE("with failRequestsGreaterThanOne a pod asking two shared GPUs fails admission",
          "[engine][node_runtime]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("p3", 10, false, true));
  JobClassId jc = AddJobClass(s, "r", Sec(5), Sec(10));
  AddPods(s, "two", Sec(3), AddTemplate(s, {.extended = {{"nvidia.com/gpu", 2}}, .job_class = jc}));
  AddPods(s, "one", Sec(3), AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = jc}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);

  const Pod& two = engine->pods()[0];
  CHECK(two.phase == PodPhase::kFailed);
  CHECK(two.reason == EndReason::kAdmissionError);
  CHECK(two.bound == Sec(3));
  CHECK(two.ended == Sec(3));
  CHECK_FALSE(two.has_started);
  const Pod& one = engine->pods()[1];
  CHECK(one.phase == PodPhase::kSucceeded);
  CHECK(one.ended == Sec(18));
  CHECK(engine->nodes()[0].Requested(engine->resources().Find("nvidia.com/gpu")) == 0);
  for (const NodeRuntime::Device& d : engine->node_runtime(NodeId(0)).devices()) CHECK(d.used == 0);
}

TEST_CASE("a pod runs for its job class's run time on the kind of device it got",
          "[engine][node_runtime]") {
  Scenario s;
  s.cluster.nodes.push_back(
      test::P4dPerGpu("p4d", {"all-1g.5gb", "all-disabled", "all-disabled", "all-disabled",
                              "all-disabled", "all-disabled", "all-disabled", "all-disabled"}));
  JobClassId jc =
      AddJobClass(s, "infer", Sec(2), {{"1g.5gb", Sec(30)}, {"gpu", Sec(7)}, {"cpu", Sec(100)}});
  AddPods(s, "mig", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}}, .job_class = jc}));
  AddPods(s, "whole", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = jc}));
  AddPods(s, "cpu", Sec(0), AddTemplate(s, {.cpu_milli = 100, .job_class = jc}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].ended == Sec(32));
  CHECK(engine->pods()[1].ended == Sec(9));
  CHECK(engine->pods()[2].ended == Sec(102));
  for (const Pod& pod : engine->pods()) CHECK(pod.reason == EndReason::kCompleted);
}

TEST_CASE("a job class without a run time for the device kind fails the pod with NoRunTime",
          "[engine][node_runtime]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  JobClassId mig_only = AddJobClass(s, "mig-only", Sec(5), {{"1g.5gb", Sec(10)}});
  SECTION("on a whole GPU") {
    AddPods(s, "p", Sec(1),
            AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = mig_only}));
  }
  SECTION("without a GPU") {
    AddPods(s, "p", Sec(1), AddTemplate(s, {.cpu_milli = 100, .job_class = mig_only}));
  }
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  const Pod& pod = engine->pods()[0];
  CHECK(pod.phase == PodPhase::kFailed);
  CHECK(pod.reason == EndReason::kNoRunTime);
  CHECK(pod.has_started);
  CHECK(pod.started == Sec(6));
  CHECK(pod.ended == Sec(6));
}

TEST_CASE("a default run time covers the device kinds a job class does not list",
          "[engine][node_runtime]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  JobClassId jc = AddJobClass(s, "default", Sec(5), {{"1g.5gb", Sec(10)}}, Sec(30));
  AddPods(s, "p", Sec(1), AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = jc}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].reason == EndReason::kCompleted);
  CHECK(engine->pods()[0].ended == Sec(36));
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

NodeSpec FractionalP4d() {
  NodeSpec spec = test::P4d("p4d", "all-disabled", MigStrategy::kNone);
  spec.plugin.sharing = SharingMode::kFractional;
  spec.plugin.shared = {{.name = "alibabacloud.com/gpu-milli", .replicas = 1000}};
  return spec;
}

TEST_CASE("a fractional share comes from one GPU, whole multiples from free GPUs",
          "[engine][node_runtime][fractional]") {
  ResourceTable resources;
  NodeInfo info;
  NodeSpec spec = FractionalP4d();
  NodeRuntime runtime(spec, NodeId(0), resources, info);
  const ResourceId milli = resources.Find("alibabacloud.com/gpu-milli");
  CHECK(info.Allocatable(milli) == 8000);
  std::vector<NodeRuntime::Held> held;
  runtime.Allocate(Ask(resources, "alibabacloud.com/gpu-milli", 300), held, info);
  runtime.Allocate(Ask(resources, "alibabacloud.com/gpu-milli", 800), held, info);
  runtime.Allocate(Ask(resources, "alibabacloud.com/gpu-milli", 2000), held, info);
  REQUIRE(held.size() == 4);
  CHECK(held[0].device == 0);  // 300 on GPU 0
  CHECK(held[1].device == 1);  // 800 does not fit the 700 left on GPU 0
  CHECK(held[2].device == 2);  // 2000 = two whole free GPUs
  CHECK(held[3].device == 3);
  CHECK(held[3].count == 1000);
  const DeviceShares& shares = info.device_shares.at(milli.value());
  CHECK(shares.largest_free == 1000);
  CHECK(shares.whole_free == 4);
  // Allocation counts the share in use: 3,100 of 8,000 milli.
  CHECK(runtime.allocated_weight() == 3100 * kGpuWeight / 1000);
}

TEST_CASE("a node can take a share only if one GPU has room for it",
          "[engine][node_runtime][fractional]") {
  NodeInfo node;
  const ResourceId milli(0);
  node.allocatable = {2000};
  node.requested = {1000};
  node.device_shares = {{.units = 1000, .largest_free = 500, .whole_free = 0}};
  CHECK(node.CanTake(milli, 500));
  CHECK_FALSE(node.CanTake(milli, 600));   // 1000 free in all, at most 500 on one GPU
  CHECK_FALSE(node.CanTake(milli, 1000));  // a whole GPU needs one entirely free
  node.device_shares[0].whole_free = 1;
  node.device_shares[0].largest_free = 1000;
  CHECK(node.CanTake(milli, 1000));
  CHECK_FALSE(node.CanTake(milli, 1500));  // more than a GPU: whole multiples only
}

}  // namespace
}  // namespace migsim
