// A plugin library's queue order (ABI version 2's migsim_policy_queue_less): the order in
// which pending pods are offered when the scenario says "scheduler": {"queue_order":
// "policy"}; version-1 libraries still load and run as before; a scenario asking the order
// of a policy that has none is refused at scheduler.queue_order.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "policies/plugin/plugin_policy.h"
#include "sim/io/scenario_json.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

std::string Fixture(const std::string& name) {
  return std::string(MIGSIM_PLUGIN_FIXTURE_DIR) + "/libplugin_" + name + ".so";
}

std::unique_ptr<Policy> Load(const std::string& name) {
  Result<std::unique_ptr<Policy>> r = LoadPluginPolicy(Fixture(name), "{}");
  INFO(name);
  REQUIRE(r.ok());
  return std::move(r).value();
}

// smallest_first.c's order written by hand: GPU in sevenths (whole GPUs only here), then
// the older pod.
class SmallestFirstByHand final : public QueueOrder {
 public:
  explicit SmallestFirstByHand(const ResourceTable& resources)
      : gpu_(resources.Find("nvidia.com/gpu")) {}
  std::string_view name() const override { return "by-hand"; }
  bool Less(const PodView& a, const PodView& b) const override {
    if (Gpus(a) != Gpus(b)) return Gpus(a) < Gpus(b);
    if (a.created != b.created) return a.created < b.created;
    return a.id < b.id;
  }
  bool OrdersWithinClass() const override { return true; }

 private:
  int32_t Gpus(const PodView& pod) const {
    for (const ResourceRequest& r : pod.requests->extended) {
      if (r.resource == gpu_) return r.count;
    }
    return 0;
  }
  ResourceId gpu_;
};

// One p3.8xlarge (4 GPUs) held by a 4-GPU pod for 10 s; meanwhile a 4-GPU pod "big"
// (created at 1 s) and three 1-GPU pods "small" (at 2 s) queue. Every pod runs 10 s.
Scenario BigBeforeSmall() {
  Scenario s;
  s.cluster.nodes = {test::P3_8x("p3")};
  const JobClassId job = test::AddJobClass(s, "job", test::Sec(0), test::Sec(10));
  const TemplateId four =
      test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 4}}, .job_class = job});
  const TemplateId one =
      test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = job});
  test::AddPods(s, "blocker", test::Sec(0), four);
  test::AddPods(s, "big", test::Sec(1), four);
  test::AddPods(s, "small", test::Sec(2), one, 3);
  return s;
}

// Each pod's bind time in seconds, in creation order.
std::vector<double> BoundSeconds(const Engine& engine) {
  std::vector<double> out;
  for (const Pod& pod : engine.pods()) out.push_back(pod.bound.seconds());
  return out;
}

TEST_CASE(
    "a plugin's queue order is the order pods are offered: small pods before an older big one",
    "[policies][plugin][queue]") {
  const Scenario s = BigBeforeSmall();
  std::unique_ptr<Policy> plugin = Load("smallest_first");
  CHECK(plugin->name() == "smallest-first");
  auto by_plugin = test::RunEngine(MakeEngineInputs(s, plugin.get()), s, *plugin);
  EngineInputs hand = MakeEngineInputs(s);
  hand.queue_order = std::make_unique<SmallestFirstByHand>(s.resources);
  auto by_hand = test::RunEngine(std::move(hand), s, *plugin);
  auto by_default = test::RunEngine(s, *plugin);  // PrioritySort: the older pod first
  // blocker, big, small x3.
  CHECK(BoundSeconds(*by_plugin) == std::vector<double>{0, 20, 10, 10, 10});
  CHECK(BoundSeconds(*by_plugin) == BoundSeconds(*by_hand));
  CHECK(BoundSeconds(*by_default) == std::vector<double>{0, 10, 20, 20, 20});
}

TEST_CASE("a plugin's queue order reads the pods' labels and namespaces",
          "[policies][plugin][queue]") {
  Scenario s;
  s.cluster.nodes = {test::GpuNode("a", "g4dn.xlarge")};  // one GPU: one pod at a time
  s.namespaces = {"default", "zeta", "alpha"};
  const JobClassId job = test::AddJobClass(s, "job", test::Sec(0), test::Sec(10));
  // blocker, then rank c, b, a (created in that order), then two of rank x: zeta's, alpha's.
  const std::vector<std::pair<std::string, int32_t>> pods = {{"", 0},  {"c", 0}, {"b", 0},
                                                             {"a", 0}, {"x", 1}, {"x", 2}};
  for (size_t i = 0; i < pods.size(); ++i) {
    const TemplateId t =
        test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = job});
    if (!pods[i].first.empty()) s.templates[t.value()].labels = {{"rank", pods[i].first}};
    s.templates[t.value()].namespace_index = pods[i].second;
    test::AddPods(s, "p" + std::to_string(i), test::Sec(static_cast<double>(i)), t);
  }
  std::unique_ptr<Policy> plugin = Load("by_label");
  auto engine = test::RunEngine(MakeEngineInputs(s, plugin.get()), s, *plugin);
  // a at 10 s, b at 20, c at 30, then alpha's x at 40 before zeta's at 50.
  CHECK(BoundSeconds(*engine) == std::vector<double>{0, 30, 20, 10, 50, 40});
}

TEST_CASE(
    "a version-1 plugin still loads, supplies no queue order and places as its version-2 build",
    "[policies][plugin]") {
  std::unique_ptr<Policy> v1 = Load("most_free_gpu_v1");
  std::unique_ptr<Policy> v2 = Load("most_free_gpu");
  const ResourceTable none;
  CHECK(v1->SuppliedQueueOrder({.resources = &none}) == nullptr);
  CHECK(v2->SuppliedQueueOrder({.resources = &none}) == nullptr);
  Scenario s;
  s.cluster.nodes = {test::P4d("a", "all-balanced"), test::P4d("b", "all-balanced")};
  const JobClassId job = test::AddJobClass(s, "job", test::Sec(0), test::Sec(10));
  test::AddPods(
      s, "p", test::Sec(0),
      test::AddTemplate(s, {.extended = {{"nvidia.com/mig-3g.20gb", 1}}, .job_class = job}), 6);
  auto one = test::RunEngine(s, *v1);
  auto two = test::RunEngine(s, *v2);
  CHECK(one->rejected_decisions() == 0);
  for (size_t i = 0; i < one->pods().size(); ++i) {
    INFO(i);
    CHECK(one->pods()[i].phase == PodPhase::kSucceeded);
    CHECK(one->pods()[i].node == two->pods()[i].node);
    CHECK(one->DeviceName(one->pods()[i]) == two->DeviceName(two->pods()[i]));
  }
  // Spread: the six land three on each node.
  CHECK(one->pods()[0].node != one->pods()[1].node);
}

TEST_CASE(
    "a plugin order that is no strict weak order leaves the queue in some order, never unsafe",
    "[policies][plugin][queue]") {
  const Scenario s = BigBeforeSmall();
  std::unique_ptr<Policy> plugin = Load("bad_order");
  auto engine = test::RunEngine(MakeEngineInputs(s, plugin.get()), s, *plugin);
  for (const Pod& pod : engine->pods()) CHECK(pod.phase == PodPhase::kSucceeded);
}

// A scenario whose policy is `policy` and whose scheduler.queue_order is "policy".
Result<ScenarioFile> WithPolicyOrder(const std::string& policy) {
  return ParseScenarioText(R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p3.8xlarge"}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "template": {"job_class": "train"}}},
    "scheduler": {"queue_order": "policy"},
    "policy": )" + policy + "}",
                           "t.json");
}

TEST_CASE(
    "queue order policy without a policy that supplies one is an error at scheduler.queue_order",
    "[policies][plugin][queue]") {
  Result<ScenarioFile> built_in = WithPolicyOrder(R"({"name": "best-fit"})");
  REQUIRE_FALSE(built_in.ok());
  CHECK(built_in.status().ToString() ==
        "t.json:/scheduler/queue_order: 'policy' takes the queue order from the scenario's "
        "policy, but policy 'best-fit' is built in, and no built-in policy supplies one (name a "
        "queue order instead, or use a library of plugin ABI version 2 that exports it)");
  Result<ScenarioFile> v1 =
      WithPolicyOrder(R"({"library": ")" + Fixture("most_free_gpu_v1") + R"("})");
  REQUIRE_FALSE(v1.ok());
  CHECK_THAT(v1.status().ToString(),
             Catch::StartsWith("t.json:/scheduler/queue_order: 'policy' takes the queue order "
                               "from the scenario's policy, but policy library '" +
                               Fixture("most_free_gpu_v1") +
                               "' does not export migsim_policy_queue_less"));
  Result<ScenarioFile> v2 =
      WithPolicyOrder(R"({"library": ")" + Fixture("smallest_first") + R"("})");
  REQUIRE(v2.ok());
  CHECK(v2.value().variants.at(0).second.policy.supplies_queue_order);
}

TEST_CASE("a scenario whose queue order is its plugin policy's loads and runs",
          "[policies][plugin][queue]") {
  Result<ScenarioFile> loaded =
      WithPolicyOrder(R"({"library": ")" + Fixture("smallest_first") + R"("})");
  REQUIRE(loaded.ok());
  const VariantResult r = RunVariant("base", loaded.value().variants.at(0).second);
  CHECK(r.policy == "smallest-first");
  CHECK(r.rejected_decisions == 0);
  CHECK(r.metrics.pods.completed == 1);
}

}  // namespace
}  // namespace migsim
