// The queue order extension point (QueueOrder, given as EngineInputs::queue_order; the
// scenario's scheduler.queue_order names one): which pending pod the engine offers the
// policy first.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "sim/engine/engine.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;

// Places as the default Place does and records which pod each call was for.
class RecordingPolicy final : public Policy {
 public:
  std::string_view name() const override { return "recording"; }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override {
    offered_.push_back(pod.id.value());
    return Policy::Place(view, pod);
  }
  const std::vector<PodId::Rep>& offered() const { return offered_; }

 private:
  std::vector<PodId::Rep> offered_;  // pod ids, in call order
};

// The reverse of creation order; counts its calls in `*less_calls`. With
// `within_class`, it also orders the pods of one scheduling class.
class NewestFirst final : public QueueOrder {
 public:
  NewestFirst(int* less_calls, bool within_class)
      : less_calls_(less_calls), within_class_(within_class) {}
  std::string_view name() const override { return "newest-first"; }
  bool Less(const PodView& a, const PodView& b) const override {
    ++*less_calls_;
    return a.id > b.id;
  }
  bool OrdersWithinClass() const override { return within_class_; }

 private:
  int* less_calls_;
  bool within_class_;
};

// Runs `s` under `policy` with the newest-first queue order.
std::unique_ptr<Engine> RunNewestFirst(const Scenario& s, Policy& policy, int* less_calls,
                                       bool within_class = false) {
  EngineInputs in = test::MakeInputs(s);
  in.queue_order = std::make_unique<NewestFirst>(less_calls, within_class);
  return RunEngine(std::move(in), s, policy);
}

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

TEST_CASE("without a queue order pods of one priority are offered in creation order",
          "[engine][queue]") {
  Scenario s = ThreeClasses();
  RecordingPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(policy.offered() == Ids({0, 1, 2, 3}));
  for (const Pod& pod : engine->pods()) CHECK(pod.phase == PodPhase::kRunning);
}

TEST_CASE("a queue order is offered the class heads in its order, alike pods in creation order",
          "[engine][queue]") {
  Scenario s = ThreeClasses();
  RecordingPolicy policy;
  int less_calls = 0;
  auto engine = RunNewestFirst(s, policy, &less_calls);
  // Heads c, b, a (newest first); pod 1 waits behind pod 0, alike to it, in creation order.
  CHECK(policy.offered() == Ids({3, 2, 0, 1}));
  CHECK(less_calls > 0);
  std::vector<SimTime> bound;
  for (const Pod& pod : engine->pods()) bound.push_back(pod.bound);
  CHECK(bound == std::vector<SimTime>(4, Sec(0)));
}

TEST_CASE("a queue order that orders within a class orders alike pods too", "[engine][queue]") {
  Scenario s = ThreeClasses();
  RecordingPolicy policy;
  int less_calls = 0;
  auto engine = RunNewestFirst(s, policy, &less_calls, /*within_class=*/true);
  CHECK(policy.offered() == Ids({3, 2, 1, 0}));
}

TEST_CASE("the queue order decides which pod takes the last free GPU", "[engine][queue]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));  // one V100
  AddPods(s, "old", Sec(0),
          AddTemplate(s, {.cpu_milli = 100, .extended = {{"nvidia.com/gpu", 1}},
                          .runs_forever = true}));
  AddPods(s, "new", Sec(0),
          AddTemplate(s, {.cpu_milli = 200, .extended = {{"nvidia.com/gpu", 1}},
                          .runs_forever = true}));
  const bool newest_first = GENERATE(false, true);
  INFO("newest first: " << newest_first);
  RecordingPolicy policy;
  int less_calls = 0;
  auto engine = newest_first ? RunNewestFirst(s, policy, &less_calls) : RunEngine(s, policy);
  const Pod& winner = engine->pods()[newest_first ? 1 : 0];
  const Pod& loser = engine->pods()[newest_first ? 0 : 1];
  CHECK(winner.phase == PodPhase::kRunning);
  CHECK(loser.phase == PodPhase::kPending);
}

}  // namespace
}  // namespace migsim
