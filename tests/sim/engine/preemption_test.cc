// DefaultPreemption's choices as pure functions (sim/engine/preemption.h): victims by
// reprieve, disruption budgets, and the node picked among candidates.
#include "sim/engine/preemption.h"

#include <catch2/catch.hpp>
#include <vector>

#include "sim/engine/disruption_budget.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

constexpr ResourceId kGpu(0);

// A node with `gpus` whole GPUs, as many devices, `used` of them taken.
NodeInfo GpuNodeInfo(uint32_t id, int32_t gpus, int32_t used) {
  NodeInfo node = test::SchedulerNode(id);
  test::SetExtended(node, kGpu, gpus, used);
  for (int g = 0; g < gpus; ++g) {
    node.devices.push_back(DeviceInfo{.gpu = g, .resource = kGpu, .used = g < used ? 1 : 0});
  }
  return node;
}

PodRequests Gpus(int32_t n) {
  PodRequests r;
  r.extended.push_back({kGpu, n});
  return r;
}

// A pod holding `gpus` whole GPUs, from device `first` on.
struct Held {
  std::vector<NodeRuntime::Held> devices;
  PodRequests requests;
};

Held HeldGpus(uint32_t first, int32_t gpus) {
  Held h{{}, Gpus(gpus)};
  for (int32_t g = 0; g < gpus; ++g) h.devices.push_back({first + g, 1});
  return h;
}

PotentialVictim Victim(uint32_t pod, int32_t priority, double started_s, const Held& held,
                       std::span<const uint32_t> budgets = {}) {
  return {.pod = PodId(pod),
          .priority = priority,
          .started = SimTime::Seconds(started_s),
          .requests = &held.requests,
          .devices = held.devices,
          .budgets = budgets};
}

std::vector<PodId> Ids(std::initializer_list<uint32_t> ids) {
  std::vector<PodId> out;
  for (uint32_t id : ids) out.emplace_back(id);
  return out;
}

}  // namespace

TEST_CASE("victims are the fewest, least important pods whose eviction makes room",
          "[engine][preemption]") {
  const NodeInfo node = GpuNodeInfo(0, 4, 4);
  const Held one_a = HeldGpus(0, 1), one_b = HeldGpus(1, 1), two = HeldGpus(2, 2);
  // Priorities 10, 5 and 1: the preemptor needs 2 GPUs. Reprieve runs from the most
  // important down: the 10 is spared (2 GPUs still free without it), so is the 5, and
  // the 2-GPU pod of priority 1 is the one victim.
  const std::vector<PotentialVictim> lower = {Victim(1, 1, 0, two), Victim(2, 10, 0, one_a),
                                              Victim(3, 5, 0, one_b)};
  std::optional<NodeVictims> v = SelectVictims(NodeId(0), node, lower, {}, Gpus(2));
  REQUIRE(v);
  CHECK(v->victims == Ids({1}));
  CHECK(v->highest_priority == 1);
  CHECK(v->priority_sum == 1);
  CHECK(v->pdb_violations == 0);
  SECTION("three GPUs need the two most important to go as well, but not both") {
    v = SelectVictims(NodeId(0), node, lower, {}, Gpus(3));
    REQUIRE(v);
    CHECK(v->victims == Ids({3, 1}));  // 10 reprieved; 5 and 1 evicted, most important first
    CHECK(v->highest_priority == 5);
    CHECK(v->priority_sum == 6);
  }
}

TEST_CASE("a node is no candidate when evicting every lower pod is not enough, or not needed",
          "[engine][preemption]") {
  const NodeInfo node = GpuNodeInfo(0, 4, 4);
  const Held one = HeldGpus(0, 1);
  CHECK_FALSE(SelectVictims(NodeId(0), node, {Victim(1, 1, 0, one)}, {}, Gpus(2)));
  CHECK_FALSE(SelectVictims(NodeId(0), node, {}, {}, Gpus(1)));
  const NodeInfo half_free = GpuNodeInfo(0, 4, 2);
  CHECK_FALSE(SelectVictims(NodeId(0), half_free, {Victim(1, 1, 0, HeldGpus(0, 2))}, {}, Gpus(2)));
}

TEST_CASE("pods whose eviction would break a disruption budget are reprieved first",
          "[engine][preemption]") {
  const NodeInfo node = GpuNodeInfo(0, 2, 2);
  const Held a = HeldGpus(0, 1), b = HeldGpus(1, 1);
  const std::vector<uint32_t> guarded = {0};
  // Pod 1 is the less important one, but a budget with no disruption left guards it: pod
  // 2 goes instead, and no budget is broken.
  const std::vector<PotentialVictim> lower = {Victim(1, 1, 0, a, guarded), Victim(2, 5, 0, b)};
  std::optional<NodeVictims> v = SelectVictims(NodeId(0), node, lower, {0}, Gpus(1));
  REQUIRE(v);
  CHECK(v->victims == Ids({2}));
  CHECK(v->pdb_violations == 0);
  SECTION("when nothing else frees enough, the budget is broken and counted") {
    v = SelectVictims(NodeId(0), node, lower, {0}, Gpus(2));
    REQUIRE(v);
    CHECK(v->victims.size() == 2);
    CHECK(v->pdb_violations == 1);
  }
  SECTION("a budget with a disruption left lets its pod go as usual") {
    v = SelectVictims(NodeId(0), node, lower, {1}, Gpus(1));
    REQUIRE(v);
    CHECK(v->victims == Ids({1}));
  }
}

TEST_CASE("the node to preempt on is picked in DefaultPreemption's order", "[engine][preemption]") {
  auto node = [](uint32_t id, int violations, int32_t top, int64_t sum, size_t count,
                 double top_start) {
    NodeVictims v{.node = NodeId(id), .pdb_violations = violations, .highest_priority = top};
    v.priority_sum = sum;
    v.victims.assign(count, PodId(0));
    v.earliest_top_start = SimTime::Seconds(top_start);
    return v;
  };
  auto pick = [](std::vector<NodeVictims> c) { return PickPreemptionNode(c).node.value(); };
  CHECK(pick({node(0, 1, 0, 0, 1, 0), node(1, 0, 9, 9, 9, 0)}) == 1);    // fewest violations
  CHECK(pick({node(0, 0, 5, 5, 1, 0), node(1, 0, 3, 9, 3, 0)}) == 1);    // lowest top priority
  CHECK(pick({node(0, 0, 3, 6, 2, 0), node(1, 0, 3, 5, 2, 0)}) == 1);    // smallest sum
  CHECK(pick({node(0, 0, 3, 3, 2, 0), node(1, 0, 3, 3, 1, 0)}) == 1);    // fewest victims
  CHECK(pick({node(0, 0, 3, 3, 1, 10), node(1, 0, 3, 3, 1, 20)}) == 1);  // latest start
  CHECK(pick({node(0, 0, 3, 3, 1, 10), node(1, 0, 3, 3, 1, 10)}) == 0);  // then the first
}

TEST_CASE("the dry run looks for 10 % of the nodes, at least 100, at most all",
          "[engine][preemption]") {
  CHECK(PreemptionCandidateLimit(5) == 5);
  CHECK(PreemptionCandidateLimit(500) == 100);
  CHECK(PreemptionCandidateLimit(5000) == 500);
}

TEST_CASE("a disruption budget allows what its healthy pods exceed of the desired",
          "[engine][preemption]") {
  PodTemplate web;
  web.labels = {{"app", "web"}};
  PodTemplate other;
  other.labels = {{"app", "batch"}};
  const std::vector<PodTemplate> templates = {web, other};
  PodDisruptionBudget min2{.name = "min2", .match_labels = {{"app", "web"}}};
  min2.min_available = BudgetAmount{2, false};
  PodDisruptionBudget half{.name = "half", .match_labels = {{"app", "web"}}};
  half.max_unavailable = BudgetAmount{50, true};
  DisruptionBudgets budgets({min2, half}, templates);
  CHECK(budgets.Of(TemplateId(0)).size() == 2);
  CHECK(budgets.Of(TemplateId(1)).empty());
  budgets.AddExpected(TemplateId(0), 5);
  budgets.AddHealthy(TemplateId(0), 4);
  // min2: 4 healthy - 2 = 2. half: 5 expected, at most ceil(2.5) = 3 unavailable, so 2
  // must stay healthy: 4 - 2 = 2.
  CHECK(budgets.Allowed() == std::vector<int32_t>{2, 2});
  budgets.AddHealthy(TemplateId(0), -3);
  CHECK(budgets.Allowed() == std::vector<int32_t>{0, 0});
}

}  // namespace migsim
