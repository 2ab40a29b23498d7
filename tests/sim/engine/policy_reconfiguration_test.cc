// MIG repartitions a policy asks for (Policy::PostFilter -> MigReconfiguration): the node
// is withdrawn for its reconfiguration window, then serves the new layout; a bad request
// is rejected without touching the node.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/engine.h"
#include "tests/support/catalog_model.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;
using Changes = std::vector<MigReconfiguration>;

// Places as the default Place does (the first node that fits, the plugin's devices); when
// a pod fits nowhere, answers the post-filter with the scripted changes in order, then none.
class RepartitioningPolicy final : public Policy {
 public:
  explicit RepartitioningPolicy(std::vector<Changes> script) : script_(std::move(script)) {}
  std::string_view name() const override { return "repartitioning"; }
  Changes PostFilter(const ClusterView& view, const PodView& pod) override {
    (void)view, (void)pod;
    return calls_ < script_.size() ? script_[calls_++] : Changes{};
  }

 private:
  std::vector<Changes> script_;
  size_t calls_ = 0;
};

MigPlacement At(const char* profile, int start) {
  const int index = test::Model("A100-SXM4-40GB").FindProfile(profile);
  REQUIRE(index >= 0);
  return MigPlacement{index, start};
}

// One change of node 0: GPU `gpu` gets `layout`.
Changes Change(int gpu, MigLayout layout, uint32_t node = 0) {
  return {MigReconfiguration{NodeId(node), {{gpu, std::move(layout)}}}};
}

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
  return AddTemplate(s, {.cpu_milli = 100,
                         .extended = {{"nvidia.com/mig-" + profile, 1}},
                         .job_class = jc,
                         .runs_forever = !jc.valid()});
}

// A p4d whose 8 A100s have MIG on and no GPU instance (mig-parted's "all-enabled").
Scenario AllEnabled() {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-enabled", MigStrategy::kMixed));
  return s;
}

TEST_CASE("a policy's new layout withdraws the node for its window, then the pod binds on it",
          "[engine][mig]") {
  Scenario s = AllEnabled();
  AddPods(s, "p", Sec(0), MigPod(s, "3g.20gb"));
  RepartitioningPolicy policy({Change(0, {At("3g.20gb", 4)})});

  SECTION("during the default 60 s window the node is pending with nothing allocatable") {
    s.horizon = Sec(59);
    auto engine = RunEngine(s, policy);
    const NodeInfo& node = engine->nodes()[0];
    CHECK(Label(node, "nvidia.com/mig.config.state") == "pending");
    CHECK(Label(node, "nvidia.com/mig.config") == "custom");
    CHECK(node.mig_pending);
    CHECK(engine->node_runtime(NodeId(0)).reconfiguring());
    for (int32_t count : node.allocatable) CHECK(count == 0);
    CHECK(engine->pods()[0].phase == PodPhase::kPending);
    CHECK(engine->rejected_decisions() == 0);
  }
  SECTION("after it the pod runs on the new GPU instance") {
    auto engine = RunEngine(s, policy);
    const NodeInfo& node = engine->nodes()[0];
    CHECK(engine->pods()[0].bound == Sec(60));
    CHECK(engine->DeviceName(engine->pods()[0]) == "gpu0/3g.20gb@4");
    CHECK(Label(node, "nvidia.com/mig.config.state") == "success");
    CHECK(Label(node, "nvidia.com/mig.config") == "custom");
    CHECK_FALSE(node.mig_pending);
    CHECK(node.gpus[0].layout == MigLayout{At("3g.20gb", 4)});
    CHECK(node.gpus[1].layout.empty());
    CHECK(Allocatable(*engine, "nvidia.com/mig-3g.20gb") == 1);
    CHECK(engine->rejected_decisions() == 0);
  }
  SECTION("the window is the node's own") {
    s.cluster.nodes[0].mig_reconfiguration = Sec(20);
    auto engine = RunEngine(s, policy);
    CHECK(engine->pods()[0].bound == Sec(20));
  }
}

// The node is as it started: not pending, no layout changed, the pod still waiting.
void CheckUntouched(const Engine& engine, const std::string& config) {
  const NodeInfo& node = engine.nodes()[0];
  CHECK(engine.rejected_decisions() == 1);
  CHECK(Label(node, "nvidia.com/mig.config") == config);
  CHECK(Label(node, "nvidia.com/mig.config.state") != "pending");
  CHECK_FALSE(node.mig_pending);
  CHECK_FALSE(engine.node_runtime(NodeId(0)).reconfiguring());
  for (size_t g = 0; g < node.gpus.size(); ++g) {
    INFO("gpu " << g);
    CHECK(node.gpus[g] == engine.node_runtime(NodeId(0)).spec().gpus[g]);
  }
  CHECK(engine.pods()[0].phase == PodPhase::kPending);
}

TEST_CASE("a MIG reconfiguration naming no node or GPU of it, or breaking placement rules, is "
          "rejected",
          "[engine][mig]") {
  Scenario s = AllEnabled();
  AddPods(s, "p", Sec(0), MigPod(s, "3g.20gb"));
  Changes change;
  SECTION("an unknown node") { change = Change(0, {At("3g.20gb", 4)}, 3); }
  SECTION("a GPU past the node's last") { change = Change(8, {At("3g.20gb", 4)}); }
  SECTION("a negative GPU") { change = Change(-1, {At("3g.20gb", 4)}); }
  SECTION("a start the profile does not allow") { change = Change(0, {At("3g.20gb", 2)}); }
  SECTION("overlapping instances") { change = Change(0, {At("3g.20gb", 0), At("2g.10gb", 2)}); }
  SECTION("the same GPU twice in one change") {
    change = {MigReconfiguration{NodeId(0), {{0, {At("3g.20gb", 4)}}, {0, {At("3g.20gb", 0)}}}}};
  }
  SECTION("two media-extension instances") {
    change = Change(0, {At("1g.5gb+me", 0), At("1g.5gb+me", 1)});
  }
  RepartitioningPolicy policy({change});
  auto engine = RunEngine(s, policy);
  CheckUntouched(*engine, "all-enabled");
}

TEST_CASE("a MIG reconfiguration of a GPU with MIG off is rejected", "[engine][mig]") {
  std::vector<std::string> per_gpu(8, "all-enabled");
  per_gpu[0] = "all-disabled";
  Scenario s;
  s.cluster.nodes.push_back(test::P4dPerGpu("p4d", per_gpu));
  AddPods(s, "p", Sec(0), MigPod(s, "3g.20gb"));
  RepartitioningPolicy policy({Change(0, {At("3g.20gb", 4)})});
  auto engine = RunEngine(s, policy);
  CheckUntouched(*engine, "<absent>");
  CHECK(Allocatable(*engine, "nvidia.com/gpu") == 1);
}

TEST_CASE("a MIG reconfiguration the device plugin would refuse is rejected", "[engine][mig]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb", MigStrategy::kSingle));
  // 57 GPUs: more than the 56 1g.5gb instances the single strategy serves as nvidia.com/gpu.
  AddPods(s, "p", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 57}}, .runs_forever = true}));
  // A 7g.40gb beside the other GPUs' 1g.5gb: mixed profiles, which the single strategy refuses.
  RepartitioningPolicy policy({Change(0, {At("7g.40gb", 0)})});
  auto engine = RunEngine(s, policy);
  CheckUntouched(*engine, "all-1g.5gb");
  CHECK(Allocatable(*engine, "nvidia.com/gpu") == 56);
}

TEST_CASE("a MIG reconfiguration that drops a GPU instance holding a pod is rejected",
          "[engine][mig]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  AddPods(s, "small", Sec(0), MigPod(s, "1g.5gb"));
  AddPods(s, "large", Sec(1), MigPod(s, "3g.20gb"));
  // The small pod holds gpu0's 1g.5gb@0; the layout asked for leaves it out.
  RepartitioningPolicy policy({Change(0, {At("3g.20gb", 4)})});
  auto engine = RunEngine(s, policy);

  CHECK(engine->rejected_decisions() == 1);
  CHECK(engine->pods()[0].phase == PodPhase::kRunning);
  CHECK(engine->DeviceName(engine->pods()[0]) == "gpu0/1g.5gb@0");
  CHECK(engine->pods()[1].phase == PodPhase::kPending);
  CHECK_FALSE(engine->nodes()[0].mig_pending);
  CHECK(engine->nodes()[0].gpus[0] == test::Resolve("p4d.24xlarge", "all-1g.5gb"));
  CHECK(Allocatable(*engine, "nvidia.com/mig-1g.5gb") == 56);
}

TEST_CASE("a second MIG reconfiguration of a node that is still pending is rejected",
          "[engine][mig]") {
  Scenario s = AllEnabled();
  AddPods(s, "three", Sec(0), MigPod(s, "3g.20gb"));
  std::vector<Changes> script;
  SECTION("in the same answer") {
    Changes both = Change(0, {At("3g.20gb", 4)});
    both.push_back(Change(1, {At("2g.10gb", 0)})[0]);
    script = {both};
  }
  SECTION("from another pod in the same cycle") {
    AddPods(s, "two", Sec(0), MigPod(s, "2g.10gb"));
    script = {Change(0, {At("3g.20gb", 4)}), Change(1, {At("2g.10gb", 0)})};
  }
  SECTION("from another pod during the window") {
    AddPods(s, "two", Sec(30), MigPod(s, "2g.10gb"));
    script = {Change(0, {At("3g.20gb", 4)}), Change(1, {At("2g.10gb", 0)})};
  }
  RepartitioningPolicy policy(script);
  auto engine = RunEngine(s, policy);

  CHECK(engine->rejected_decisions() == 1);
  CHECK(engine->pods()[0].bound == Sec(60));
  CHECK(engine->DeviceName(engine->pods()[0]) == "gpu0/3g.20gb@4");
  CHECK(engine->nodes()[0].gpus[1].layout.empty());
  CHECK(Allocatable(*engine, "nvidia.com/mig-2g.10gb") == 0);
}

TEST_CASE("a pod on a GPU instance the new layout keeps runs on through the change",
          "[engine][mig]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  AddPods(s, "small", Sec(0), MigPod(s, "1g.5gb", AddJobClass(s, "r", Sec(0), Sec(200))));
  AddPods(s, "large", Sec(1), MigPod(s, "3g.20gb"));
  // gpu0: the small pod's 1g.5gb@0 stays, the idle 1g instances make way for a 3g.20gb@4.
  RepartitioningPolicy policy({Change(0, {At("1g.5gb", 0), At("3g.20gb", 4)})});

  SECTION("during the window") {
    s.horizon = Sec(30);
    auto engine = RunEngine(s, policy);
    CHECK(engine->nodes()[0].mig_pending);
    CHECK(engine->pods()[0].phase == PodPhase::kRunning);
    CHECK(engine->pods()[1].phase == PodPhase::kPending);
  }
  SECTION("to the end") {
    auto engine = RunEngine(s, policy);
    const Pod& small = engine->pods()[0];
    CHECK(engine->rejected_decisions() == 0);
    CHECK(small.phase == PodPhase::kSucceeded);
    CHECK(small.ended == Sec(200));
    CHECK(engine->DeviceName(small) == "gpu0/1g.5gb@0");
    CHECK(engine->pods()[1].bound == Sec(61));
    CHECK(engine->DeviceName(engine->pods()[1]) == "gpu0/3g.20gb@4");
    CHECK(engine->nodes()[0].gpus[0].layout == MigLayout{At("1g.5gb", 0), At("3g.20gb", 4)});
    CHECK(Allocatable(*engine, "nvidia.com/mig-1g.5gb") == 50);
    CHECK(Label(engine->nodes()[0], "nvidia.com/mig.config") == "custom");
  }
}

// True when `body`, run in a child process, returns within `seconds` (a hung engine fails
// the test instead of hanging the suite).
bool FinishesWithin(int seconds, const std::function<void()>& body) {
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {  // the child never returns into Catch
    try {
      body();
    } catch (...) {
      std::_Exit(1);
    }
    std::_Exit(0);
  }
  for (int tenths = 0; tenths < seconds * 10; ++tenths) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    usleep(100'000);
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return false;
}

TEST_CASE("scripted relabels that a policy's change holds back run one after the other",
          "[engine][mig]") {
  Scenario s = AllEnabled();
  AddPods(s, "p", Sec(0), MigPod(s, "3g.20gb"));
  // The policy's change holds the node from 0 s to 60 s; the relabels, 10-40 s and 40-70 s
  // as scripted, wait for it: all-1g.5gb from 60 s to 90 s, then all-balanced to 120 s.
  test::AddRelabel(s, 0, Sec(10), "all-1g.5gb", Sec(30));
  test::AddRelabel(s, 0, Sec(40), "all-balanced", Sec(30));
  const Changes change = Change(0, {At("3g.20gb", 4)});
  REQUIRE(FinishesWithin(20, [&] {
    RepartitioningPolicy policy({change});
    RunEngine(s, policy);
  }));
  RepartitioningPolicy policy({change});
  auto engine = RunEngine(s, policy);
  CHECK(Label(engine->nodes()[0], "nvidia.com/mig.config") == "all-balanced");
  CHECK(Label(engine->nodes()[0], "nvidia.com/mig.config.state") == "success");
  CHECK(engine->pods()[0].bound == Sec(120));
  CHECK(engine->DeviceName(engine->pods()[0]) == "gpu0/3g.20gb@4");
}

}  // namespace
}  // namespace migsim
