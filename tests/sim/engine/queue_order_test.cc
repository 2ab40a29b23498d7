// The queue order extension point (Policy::OrdersQueue, Policy::Less): which pending pod the
// engine offers the policy first.
#include <catch2/catch.hpp>
#include <vector>

#include "sim/engine/engine.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;

// Places as the default Place does and records which pod each call was for. With
// `orders`, its queue order is the reverse of creation order.
class OrderingPolicy final : public Policy {
 public:
  explicit OrderingPolicy(bool orders) : orders_(orders) {}
  std::string_view name() const override { return "ordering"; }
  bool OrdersQueue() const override { return orders_; }
  bool Less(const PodView& a, const PodView& b) const override {
    ++less_calls_;
    return a.id > b.id;
  }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override {
    offered_.push_back(pod.id.value());
    return Policy::Place(view, pod);
  }
  const std::vector<PodId::Rep>& offered() const { return offered_; }
  int less_calls() const { return less_calls_; }

 private:
  bool orders_;
  mutable int less_calls_ = 0;
  std::vector<PodId::Rep> offered_;  // pod ids, in call order
};

// Pods of three scheduling classes (different CPU requests), all created at 0 s on one
// roomy node: "a" twice (pods 0 and 1), then "b" (pod 2) and "c" (pod 3).
Scenario ThreeClasses() {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("node"));
  AddPods(s, "a", Sec(0), AddTemplate(s, {.cpu_milli = 100, .runs_forever = true}), 2);
  AddPods(s, "b", Sec(0), AddTemplate(s, {.cpu_milli = 200, .runs_forever = true}));
  AddPods(s, "c", Sec(0), AddTemplate(s, {.cpu_milli = 300, .runs_forever = true}));
  return s;
}

using Ids = std::vector<PodId::Rep>;

TEST_CASE("without a queue order of its own a policy is offered pods in creation order",
          "[engine][queue]") {
  Scenario s = ThreeClasses();
  OrderingPolicy policy(false);
  auto engine = RunEngine(s, policy);
  CHECK(policy.offered() == Ids({0, 1, 2, 3}));
  CHECK(policy.less_calls() == 0);
  for (const Pod& pod : engine->pods()) CHECK(pod.phase == PodPhase::kRunning);
}

TEST_CASE("a policy that orders the queue is offered the class heads in its order",
          "[engine][queue]") {
  Scenario s = ThreeClasses();
  OrderingPolicy policy(true);
  auto engine = RunEngine(s, policy);
  // Heads c, b, a (newest first); pod 1 waits behind pod 0, alike to it, in creation order.
  CHECK(policy.offered() == Ids({3, 2, 0, 1}));
  CHECK(policy.less_calls() > 0);
  std::vector<SimTime> bound;
  for (const Pod& pod : engine->pods()) bound.push_back(pod.bound);
  CHECK(bound == std::vector<SimTime>(4, Sec(0)));
}

TEST_CASE("the policy's queue order decides which pod takes the last free GPU",
          "[engine][queue]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));  // one V100
  AddPods(s, "old", Sec(0),
          AddTemplate(s, {.cpu_milli = 100, .extended = {{"nvidia.com/gpu", 1}},
                          .runs_forever = true}));
  AddPods(s, "new", Sec(0),
          AddTemplate(s, {.cpu_milli = 200, .extended = {{"nvidia.com/gpu", 1}},
                          .runs_forever = true}));
  const bool orders = GENERATE(false, true);
  INFO("orders the queue: " << orders);
  OrderingPolicy policy(orders);
  auto engine = RunEngine(s, policy);
  const Pod& winner = engine->pods()[orders ? 1 : 0];
  const Pod& loser = engine->pods()[orders ? 0 : 1];
  CHECK(winner.phase == PodPhase::kRunning);
  CHECK(loser.phase == PodPhase::kPending);
}

}  // namespace
}  // namespace migsim
