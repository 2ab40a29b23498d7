#include "policies/gpu_share_adapter.h"

#include <catch2/catch.hpp>

#include "policies/registry.h"
#include "sim/engine/engine.h"
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

}  // namespace
}  // namespace migsim
