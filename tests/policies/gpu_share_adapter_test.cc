#include "policies/gpu_share_adapter.h"

#include <catch2/catch.hpp>

#include "policies/registry.h"
#include "sim/engine/engine.h"
#include "sim/policy/cluster_view.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;

NodeSpec FractionalNode(const std::string& name) {
  NodeSpec node = test::GpuNode(name, "g5.12xlarge");  // 4 x A10G
  node.plugin.sharing = SharingMode::kFractional;
  node.plugin.shared = {{.name = "alibabacloud.com/gpu-milli", .replicas = 1000}};
  return node;
}

TemplateId Share(Scenario& s, int milli) {
  return AddTemplate(s, {.cpu_milli = 1000,
                         .extended = {{"alibabacloud.com/gpu-milli", milli}},
                         .job_class = AddJobClass(s, "j" + std::to_string(s.job_classes.size()),
                                                  Sec(0), Sec(100))});
}

TEST_CASE("the openb policies are scenario policies too", "[policies][openb]") {
  for (const char* name :
       {"random", "dot-product", "gpu-clustering", "gpu-packing", "best-fit-share", "fgd"}) {
    INFO(name);
    std::unique_ptr<Policy> policy = MakePolicy(name);
    REQUIRE(policy != nullptr);
    CHECK(policy->name() == name);
  }
}

TEST_CASE("a GPU-sharing policy's GPU choice reaches the engine", "[policies][openb]") {
  Scenario s;
  s.cluster.nodes.push_back(FractionalNode("a"));
  AddPods(s, "first", Sec(0), Share(s, 300));
  AddPods(s, "second", Sec(1), Share(s, 600));
  std::unique_ptr<Policy> packing = MakePolicy("gpu-packing");
  auto engine = RunEngine(s, *packing);
  // GpuPacking's "best" GPU choice puts the 600 next to the 300: the tightest fit.
  CHECK(engine->DeviceName(engine->pods()[0]) == "gpu0/300m");
  CHECK(engine->DeviceName(engine->pods()[1]) == "gpu0/600m");
  CHECK(engine->rejected_decisions() == 0);
}

TEST_CASE("FGD places sharing pods through the engine without rejected decisions",
          "[policies][openb]") {
  Scenario s;
  s.cluster.nodes.push_back(FractionalNode("a"));
  s.cluster.nodes.push_back(FractionalNode("b"));
  AddPods(s, "small", Sec(0), Share(s, 250), 6);
  AddPods(s, "whole", Sec(0), Share(s, 1000), 3);
  AddPods(s, "pair", Sec(0), Share(s, 2000), 1);
  std::unique_ptr<Policy> fgd = MakePolicy("fgd");
  auto engine = RunEngine(s, *fgd);
  for (const Pod& pod : engine->pods()) CHECK(pod.phase == PodPhase::kSucceeded);
  CHECK(engine->rejected_decisions() == 0);
}

// A node with one 1000-milli share GPU of `model` (label "gpu-model"), `free` milli free.
NodeInfo OneShareGpu(uint32_t id, ResourceId milli, const std::string& model, int32_t free) {
  NodeInfo node;
  node.id = NodeId(id);
  node.name = model;
  node.labels = {{"gpu-model", model}};
  node.cpu_milli_allocatable = 8000;
  node.memory_mib_allocatable = 65536;
  node.allocatable.assign(milli.value() + 1, 0);
  node.requested.assign(milli.value() + 1, 0);
  node.device_shares.assign(milli.value() + 1, {});
  node.allocatable[milli.value()] = 1000;
  node.requested[milli.value()] = 1000 - free;
  node.device_shares[milli.value()] = {.units = 1000, .largest_free = free,
                                       .whole_free = free == 1000 ? 1 : 0};
  node.share_free = {free};
  node.devices = {DeviceInfo{.gpu = 0, .resource = milli, .capacity = 1000, .used = 1000 - free,
                             .fractional = true}};
  return node;
}

TEST_CASE("FGD in scenarios counts a model-constrained typical pod as unable to use other "
          "models' GPUs, and rescores a node whose shares changed",
          "[policies][openb]") {
  ResourceTable resources;
  const ResourceId milli = resources.Intern("alibabacloud.com/gpu-milli");
  std::vector<NodeInfo> nodes = {OneShareGpu(0, milli, "V100", 1000),
                                 OneShareGpu(1, milli, "T4", 1000)};
  const PodRequests v100_pod{.cpu_milli = 1000, .extended = {{milli, 600}}};
  const NodeAffinity on_v100 = {{"gpu-model", {"V100"}}};
  const PodRequests probe{.cpu_milli = 1000, .extended = {{milli, 500}}};
  GpuShareAdapter fgd("fgd");
  // Three 600-milli V100-only pods are offered (and not bound): 3/4 of the typical pods.
  for (uint32_t i = 0; i < 3; ++i) {
    const ClusterView view(nodes, resources, SimTime());
    REQUIRE(fgd.Place(view, {.id = PodId(i), .requests = &v100_pod, .node_affinity = &on_v100})
                ->node == NodeId(0));
  }
  // 500 on the V100 leaves 500 that the V100 pods cannot use (F 0 -> 375, score 40); on
  // the T4, whose idle GPU they can never use, it halves that waste (F 750 -> 375, 59).
  const ClusterView view(nodes, resources, SimTime());
  CHECK(fgd.Place(view, {.id = PodId(3), .requests = &probe})->node == NodeId(1));

  // With 500 left on the V100, filling it removes its waste (F 375 -> 0, score 59): a tie
  // with the T4 that the lower id wins. A stale cached score (40) would pick the T4.
  nodes[0] = OneShareGpu(0, milli, "V100", 500);
  const ClusterView changed(nodes, resources, SimTime());
  CHECK(fgd.Place(changed, {.id = PodId(4), .requests = &probe})->node == NodeId(0));
}

}  // namespace
}  // namespace migsim
