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
  CHECK(v->priority_sum == 1 + kVictimPriorityOffset);
  CHECK(v->pdb_violations == 0);
  SECTION("three GPUs need the two most important to go as well, but not both") {
    v = SelectVictims(NodeId(0), node, lower, {}, Gpus(3));
    REQUIRE(v);
    CHECK(v->victims == Ids({3, 1}));  // 10 reprieved; 5 and 1 evicted, most important first
    CHECK(v->highest_priority == 5);
    CHECK(v->priority_sum == 6 + 2 * kVictimPriorityOffset);
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

namespace {

// The world of kube-scheduler's TestPickOneNodeForPreemption (default_preemption_test.go):
// nodes of 5 units (500 millicores and 1000 MiB: five times DefaultMilliCPURequest and
// DefaultMemoryRequest), pods of 1, 2 or 3 units (small, medium, large) and a preemptor of
// 5, so every pod on the node is a victim. Priorities: neg -100, low 0, mid 100, high 1000.
constexpr int32_t kNeg = -100, kLow = 0, kMid = 100, kHigh = 1000;

struct UpstreamPod {
  int units;
  int32_t priority;
  double started_s = 0;
};

PodRequests Units(int n) {
  return PodRequests{.cpu_milli = 100 * n, .memory_mib = 200 * n, .extended = {}};
}

// The node SelectVictims would pick among `nodes` (each a list of its bound pods) for
// the preemptor of 5 units; nodes are numbered from 1 as upstream's machine1, machine2...
uint32_t UpstreamPick(const std::vector<std::vector<UpstreamPod>>& nodes) {
  std::vector<NodeVictims> candidates;
  std::vector<std::vector<PodRequests>> requests(nodes.size());
  uint32_t pod_id = 0;
  for (uint32_t n = 0; n < nodes.size(); ++n) {
    NodeInfo info = test::SchedulerNode(n + 1, 500, 1000);
    std::vector<PotentialVictim> lower;
    requests[n].reserve(nodes[n].size());
    for (const UpstreamPod& pod : nodes[n]) {
      requests[n].push_back(Units(pod.units));
      info.cpu_milli_requested += requests[n].back().cpu_milli;
      info.memory_mib_requested += requests[n].back().memory_mib;
      lower.push_back({.pod = PodId(pod_id++),
                       .priority = pod.priority,
                       .started = SimTime::Seconds(pod.started_s),
                       .requests = &requests[n].back()});
    }
    if (auto v = SelectVictims(NodeId(n + 1), info, lower, {}, Units(5))) candidates.push_back(*v);
  }
  REQUIRE(!candidates.empty());
  return PickPreemptionNode(candidates).node.value();
}

}  // namespace

TEST_CASE("the node to preempt on follows kube-scheduler's pickOneNodeForPreemption cases",
          "[engine][preemption]") {
  // "machine with min highest priority pod is picked"
  CHECK(UpstreamPick({{{2, kMid}, {3, kMid}}, {{2, kMid}, {2, kLow}}, {{2, kLow}, {2, kLow}}}) ==
        3);
  // "when highest priorities are the same, minimum sum of priorities is picked"
  CHECK(UpstreamPick({{{2, kMid}, {3, kMid}}, {{3, kMid}, {2, kLow}}, {{2, kMid}, {2, kMid}}}) ==
        2);
  // "when highest priority and sum are the same, minimum number of pods is picked"
  CHECK(UpstreamPick({{{1, kMid}, {1, kNeg}, {1, kMid}, {1, kNeg}},
                      {{3, kMid}, {2, kNeg}},
                      {{2, kMid}, {1, kNeg}, {1, kLow}}}) == 2);
  // "sum of adjusted priorities is considered": machine1's raw sum (100 - 100 - 100) is the
  // smallest, but each victim counts its priority plus 2^31, so its three victims weigh
  // more than machine2's two (100 + 2^31 and -100 + 2^31).
  CHECK(UpstreamPick({{{1, kMid}, {1, kNeg}, {1, kNeg}},
                      {{3, kMid}, {2, kNeg}},
                      {{2, kMid}, {1, kNeg}, {1, kLow}}}) == 2);
  // "non-overlapping lowest high priority, sum priorities, and number of pods" (the
  // preemptor is of priority 10000)
  CHECK(UpstreamPick({{{1, kMid}, {1, kLow}, {1, kLow}},
                      {{3, kHigh}},
                      {{2, kMid}, {1, kLow}, {1, kLow}, {1, kLow}},
                      {{2, kMid}, {1, kMid}, {1, kMid}, {1, kNeg}}}) == 1);
  // "same priority, same number of victims, different start time for each machine's pod"
  // (days since 2019-01-01)
  const double day = 86400;
  CHECK(UpstreamPick({{{2, kMid, 2 * day}, {2, kMid, 2 * day}},
                      {{2, kMid, 3 * day}, {2, kMid, 3 * day}},
                      {{2, kMid, 1 * day}, {2, kMid, 1 * day}}}) == 2);
  // "same priority, same number of victims, different start time for all pods"
  CHECK(UpstreamPick({{{2, kMid, 4 * day}, {2, kMid, 2 * day}},
                      {{2, kMid, 5 * day}, {2, kMid, 1 * day}},
                      {{2, kMid, 3 * day}, {2, kMid, 6 * day}}}) == 3);
  // "different priority, same number of victims, different start time for all pods"
  CHECK(UpstreamPick({{{2, kLow, 4 * day}, {2, kMid, 2 * day}},
                      {{2, kMid, 6 * day}, {2, kLow, 1 * day}},
                      {{2, kLow, 3 * day}, {2, kMid, 5 * day}}}) == 2);
}

TEST_CASE("with equal highest priorities, two victims are preferred to three of lower priority",
          "[engine][preemption]") {
  // Node 1 must lose two pods of priority 10, node 2 one of 10 and two of 1. Raw sums (20
  // against 12) would evict three pods on node 2; kube-scheduler's sums (20 + 2 * 2^31
  // against 12 + 3 * 2^31) evict two on node 1.
  CHECK(UpstreamPick({{{2, 10}, {3, 10}}, {{3, 10}, {1, 1}, {1, 1}}}) == 1);
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
