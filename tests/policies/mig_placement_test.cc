// mig-first-fit, mig-best-fit and mig-fgd as scenario policies (policies/mig_placement.h):
// which GPU instance a MIG pod takes, and with "dynamic" which instances they create.
#include "policies/mig_placement.h"

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "policies/registry.h"
#include "sim/engine/engine.h"
#include "tests/support/catalog_model.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::Sec;

MigPlacement At(const char* profile, int start) {
  const int index = test::Model("A100-SXM4-40GB").FindProfile(profile);
  REQUIRE(index >= 0);
  return MigPlacement{index, start};
}

// NodeInfos of A100 nodes built by hand, as the engine publishes them under the mixed
// strategy: one device per GPU instance, ordered by GPU then start.
struct MigWorld {
  ResourceTable resources;
  std::vector<NodeInfo> nodes;

  ResourceId Resource(int profile) {
    const GpuModel& model = test::Model("A100-SXM4-40GB");
    return resources.Intern("nvidia.com/mig-" + model.profiles[profile].ResourceSuffix());
  }
  // A node whose GPU g has layout `layouts[g]` (MIG on); `busy` holds (gpu, start) of the
  // instances a pod holds.
  void AddNode(std::vector<MigLayout> layouts, std::vector<std::pair<int, int>> busy = {}) {
    NodeInfo node = test::SchedulerNode(static_cast<uint32_t>(nodes.size()));
    node.gpu_model = &test::Model("A100-SXM4-40GB");
    std::map<ResourceId, std::pair<int32_t, int32_t>> counts;  // allocatable, requested
    for (size_t g = 0; g < layouts.size(); ++g) {
      node.gpus.push_back({.mig_enabled = true, .layout = layouts[g]});
      for (const MigPlacement& p : layouts[g]) {
        DeviceInfo d{.gpu = static_cast<int>(g), .mig = p, .resource = Resource(p.profile)};
        for (const auto& [gpu, start] : busy) {
          if (gpu == d.gpu && start == p.start) d.used = 1;
        }
        counts[d.resource].first += 1;
        counts[d.resource].second += d.used;
        node.devices.push_back(d);
      }
    }
    for (const auto& [r, c] : counts) test::SetExtended(node, r, c.first, c.second);
    nodes.push_back(std::move(node));
  }
  PodRequests Ask(const char* profile) {
    PodRequests req;
    req.extended.push_back({Resource(At(profile, 0).profile), 1});
    return req;
  }
  ClusterView View() const { return ClusterView(nodes, resources, SimTime::Zero()); }
};

PodView ViewOf(const PodRequests& req, PodId::Rep id = 0) {
  return PodView{.id = PodId(id), .requests = &req, .created = SimTime::Zero()};
}

MigLayout AllOneG() {
  MigLayout layout;
  for (int start = 0; start < 7; ++start) layout.push_back(At("1g.5gb", start));
  return layout;
}

std::unique_ptr<Policy> Make(const std::string& name, bool dynamic) {
  PolicySpec spec = WithDefaults(PolicySpec{.name = name});
  spec.params["dynamic"] = dynamic;
  std::unique_ptr<Policy> policy = MakePolicy(spec);
  REQUIRE(policy != nullptr);
  return policy;
}

TEST_CASE("on static layouts every free instance keeps the layout open, so mig-best-fit packs",
          "[policies][mig]") {
  MigWorld w;
  w.AddNode({AllOneG(), AllOneG()}, {{1, 0}, {1, 1}});  // gpu1 has two busy instances
  const PodRequests req = w.Ask("1g.5gb");
  const PodView pod = ViewOf(req);
  auto best_fit = Make("mig-best-fit", false);
  std::optional<Placement> p = best_fit->Place(w.View(), pod);
  REQUIRE(p);
  // gpu1's first free instance (device 9): 100 % of the layouts kept, 3 slices used.
  CHECK(p->devices == std::vector<DeviceChoice>{{9, 1}});
  CHECK(best_fit->Score(w.View(), pod, w.nodes[0]) == Approx(100.03));
  auto first_fit = Make("mig-first-fit", false);
  p = first_fit->Place(w.View(), pod);
  REQUIRE(p);
  CHECK(p->devices == std::vector<DeviceChoice>{{0, 1}});
}

TEST_CASE("dynamic mig-best-fit creates the instance that keeps the most maximal layouts open",
          "[policies][mig]") {
  MigWorld w;
  w.AddNode({{}});  // one "all-enabled" GPU: MIG on, no instance
  struct Expectation {
    const char* profile;
    int best_fit_start;  // in the most of the 19 maximal layouts: 1g@6 in 12, 3g@4 in 6
    int first_fit_start;
  };
  for (const Expectation& e : {Expectation{"1g.5gb", 6, 0}, Expectation{"3g.20gb", 4, 0}}) {
    INFO(e.profile);
    const PodRequests req = w.Ask(e.profile);
    const PodView pod = ViewOf(req);
    auto best_fit = Make("mig-best-fit", true);
    CHECK_FALSE(best_fit->Place(w.View(), pod));
    std::vector<MigReconfiguration> changes = best_fit->PostFilter(w.View(), pod);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].node == NodeId(0));
    REQUIRE(changes[0].gpus.size() == 1);
    CHECK(changes[0].gpus[0].gpu == 0);
    CHECK(changes[0].gpus[0].layout == MigLayout{At(e.profile, e.best_fit_start)});
    changes = Make("mig-first-fit", true)->PostFilter(w.View(), pod);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].gpus.at(0).layout == MigLayout{At(e.profile, e.first_fit_start)});
    CHECK(Make("mig-best-fit", false)->PostFilter(w.View(), pod).empty());
  }
}

TEST_CASE("dynamic partitioning drops idle instances for a new one and keeps the busy ones",
          "[policies][mig]") {
  MigWorld w;
  w.AddNode({AllOneG()}, {{0, 0}});  // 1g.5gb@0 busy, 1g.5gb@1..6 idle
  const PodRequests req = w.Ask("3g.20gb");
  const PodView pod = ViewOf(req);
  std::vector<MigReconfiguration> changes = Make("mig-best-fit", true)->PostFilter(w.View(), pod);
  REQUIRE(changes.size() == 1);
  REQUIRE(changes[0].gpus.size() == 1);
  CHECK(changes[0].gpus[0].layout == MigLayout{At("1g.5gb", 0), At("3g.20gb", 4)});
}

TEST_CASE("mig-fgd learns the typical profiles from the MIG pods it is offered",
          "[policies][mig]") {
  MigWorld w;
  // gpu0: its only free 1g.5gb beside a busy 3g.20gb; gpu1: two 1g.5gb and a 3g.20gb, free.
  // Taking gpu0's 1g fragments it for 1g pods and frees it of the 3g pods' fragmentation.
  w.AddNode({{At("1g.5gb", 0), At("3g.20gb", 4)},
             {At("1g.5gb", 0), At("1g.5gb", 1), At("3g.20gb", 4)}},
            {{0, 4}});
  auto fgd = Make("mig-fgd", false);
  const PodRequests one = w.Ask("1g.5gb");
  const PodRequests three = w.Ask("3g.20gb");
  PodId::Rep next = 0;
  auto place_one = [&] {
    std::optional<Placement> p = fgd->Place(w.View(), ViewOf(one, next++));
    REQUIRE(p);
    REQUIRE(p->devices.size() == 1);
    return p->devices[0].device;
  };
  // Only 1g pods seen: keep gpu0's 1g for later (gpu1's first 1g is device 2).
  CHECK(place_one() == 2u);
  // Nine 3g pods later, 3g is typical: gpu0's 1g (device 0) is the one to take.
  for (int i = 0; i < 9; ++i) fgd->Place(w.View(), ViewOf(three, next++));
  CHECK(place_one() == 0u);
}

// One p4d whose GPUs have MIG on and no instance; 1g.5gb and 3g.20gb pods, more than
// fit at once (30 + 36 slices of 56 at 0 s), and a second wave of 1g.5gb pods later.
Scenario MixedMigPods() {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-enabled", MigStrategy::kMixed));
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(100));
  auto mig = [&](const std::string& profile) {
    return AddTemplate(s, {.cpu_milli = 100,
                           .extended = {{"nvidia.com/mig-" + profile, 1}},
                           .job_class = run});
  };
  AddPods(s, "one", Sec(0), mig("1g.5gb"), 30);
  AddPods(s, "three", Sec(0), mig("3g.20gb"), 12);
  AddPods(s, "later", Sec(150), mig("1g.5gb"), 20);
  return s;
}

std::string Label(const NodeInfo& node, const std::string& key) {
  for (const auto& [k, v] : node.labels) {
    if (k == key) return v;
  }
  return "<absent>";
}

TEST_CASE("with dynamic partitioning every MIG pod on all-enabled GPUs completes",
          "[policies][mig]") {
  const std::string name = GENERATE("mig-first-fit", "mig-best-fit", "mig-fgd");
  INFO(name);
  Scenario s = MixedMigPods();
  auto policy = Make(name, true);
  auto engine = test::RunEngine(s, *policy);
  REQUIRE(engine->pods().size() == 62);
  int succeeded = 0;
  for (const Pod& pod : engine->pods()) succeeded += pod.phase == PodPhase::kSucceeded ? 1 : 0;
  CHECK(succeeded == 62);
  CHECK(engine->rejected_decisions() == 0);
  const NodeInfo& node = engine->nodes()[0];
  CHECK(Label(node, "nvidia.com/mig.config") == "custom");
  CHECK(Label(node, "nvidia.com/mig.config.state") == "success");
  CHECK(engine->DeviceName(engine->pods()[0]).find("/1g.5gb@") != std::string::npos);
  CHECK(engine->DeviceName(engine->pods()[30]).find("/3g.20gb@") != std::string::npos);
}

TEST_CASE("without dynamic partitioning MIG pods on all-enabled GPUs stay pending",
          "[policies][mig]") {
  const std::string name = GENERATE("mig-first-fit", "mig-best-fit", "mig-fgd");
  INFO(name);
  Scenario s = MixedMigPods();
  auto policy = Make(name, false);
  auto engine = test::RunEngine(s, *policy);
  for (const Pod& pod : engine->pods()) CHECK(pod.phase == PodPhase::kPending);
  CHECK(engine->rejected_decisions() == 0);
  const NodeInfo& node = engine->nodes()[0];
  CHECK(Label(node, "nvidia.com/mig.config") == "all-enabled");
  for (const GpuMigSetting& gpu : node.gpus) CHECK(gpu.layout.empty());
}

}  // namespace
}  // namespace migsim
