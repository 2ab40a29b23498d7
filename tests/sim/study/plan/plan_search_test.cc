// The capacity search on fake evaluators: known answers, the number of evaluations, no
// answer, and evaluations that contradict the monotonicity it assumes.
#include "sim/study/plan/plan_search.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <set>
#include <vector>

namespace migsim {
namespace {

// An evaluator that meets exactly when `meets(n)` and counts its calls.
struct FakeEvaluator {
  std::function<bool(int)> meets;
  std::vector<int> calls;
  Evaluate AsEvaluate() {
    return [this](int nodes) {
      calls.push_back(nodes);
      PlanEvaluation e;
      e.meets = meets(nodes);
      e.cost_per_hour = 2.5 * nodes;
      if (!e.meets) e.why_not = "too small";
      return e;
    };
  }
};

FakeEvaluator StepAt(int threshold) {
  return FakeEvaluator{[threshold](int n) { return n >= threshold; }, {}};
}

int Log2Ceil(int n) { return static_cast<int>(std::ceil(std::log2(n))); }

RunMetrics Metrics(double p95_s, std::optional<double> makespan_s, PodCounts pods) {
  RunMetrics m;
  m.queueing.p95_s = p95_s;
  m.makespan_s = makespan_s;
  m.pods = pods;
  return m;
}

}  // namespace

TEST_CASE("the search finds the first size of a step function", "[plan]") {
  for (int max_nodes : {1, 2, 3, 7, 8, 32, 100, 1000}) {
    for (int threshold = 1; threshold <= max_nodes; ++threshold) {
      FakeEvaluator fake = StepAt(threshold);
      const PlanAnswer answer = FindFewestNodes(fake.AsEvaluate(), max_nodes);
      INFO("max_nodes " << max_nodes << ", threshold " << threshold);
      REQUIRE(answer.nodes == threshold);
      CHECK(answer.warning.empty());
      CHECK(answer.chosen().cost_per_hour == 2.5 * threshold);
    }
  }
}

TEST_CASE("the search uses O(log max_nodes) evaluations, each size at most once", "[plan]") {
  for (int max_nodes : {2, 5, 32, 100, 1000, 100000}) {
    int most = 0;
    for (int threshold : {1, 2, 3, max_nodes / 3 + 1, max_nodes / 2 + 1, max_nodes - 1, max_nodes}) {
      if (threshold < 1) continue;
      FakeEvaluator fake = StepAt(threshold);
      const PlanAnswer answer = FindFewestNodes(fake.AsEvaluate(), max_nodes);
      CHECK(answer.evidence.size() == fake.calls.size());
      CHECK(std::set<int>(fake.calls.begin(), fake.calls.end()).size() == fake.calls.size());
      most = std::max(most, static_cast<int>(fake.calls.size()));
    }
    INFO("max_nodes " << max_nodes);
    CHECK(most <= 2 * Log2Ceil(max_nodes) + 3);
  }
  SECTION("100000 nodes with the answer at 70001 take 34 evaluations, not 70001") {
    FakeEvaluator fake = StepAt(70001);
    CHECK(FindFewestNodes(fake.AsEvaluate(), 100000).nodes == 70001);
    CHECK(fake.calls.size() <= 2 * 17 + 3);
  }
}

TEST_CASE("the search probes doubling sizes, bisects, then checks one more node", "[plan]") {
  FakeEvaluator fake = StepAt(6);
  const PlanAnswer answer = FindFewestNodes(fake.AsEvaluate(), 32);
  CHECK(answer.nodes == 6);
  CHECK(fake.calls == std::vector<int>{1, 2, 4, 8, 6, 5, 7});
  SECTION("the last probe is capped at max_nodes") {
    FakeEvaluator capped = StepAt(9);
    CHECK(FindFewestNodes(capped.AsEvaluate(), 10).nodes == 9);
    CHECK(capped.calls == std::vector<int>{1, 2, 4, 8, 10, 9});
  }
}

TEST_CASE("the search answers nothing when max_nodes is not enough", "[plan]") {
  FakeEvaluator fake = StepAt(50);
  const PlanAnswer answer = FindFewestNodes(fake.AsEvaluate(), 40);
  CHECK_FALSE(answer.nodes.has_value());
  CHECK(fake.calls == std::vector<int>{1, 2, 4, 8, 16, 32, 40});
  CHECK(answer.chosen().cost_per_hour == 2.5 * 40);  // the largest size tried
  CHECK(answer.chosen().why_not == "too small");
  CHECK(answer.warning.empty());
}

TEST_CASE("an evaluation that contradicts monotonicity is reported", "[plan]") {
  SECTION("one node more misses where one node fewer met") {
    FakeEvaluator fake{[](int n) { return n == 4 || n >= 10; }, {}};
    const PlanAnswer answer = FindFewestNodes(fake.AsEvaluate(), 32);
    CHECK(answer.nodes == 4);  // it met; a smaller size might too
    CHECK(fake.calls == std::vector<int>{1, 2, 4, 3, 5});
    CHECK(answer.warning == "not monotone: 4 nodes meet the objectives, 5 do not");
  }
  SECTION("a bump below the answer that no evaluation sees goes unnoticed") {
    FakeEvaluator fake{[](int n) { return n == 5 || n >= 8; }, {}};
    const PlanAnswer answer = FindFewestNodes(fake.AsEvaluate(), 32);
    CHECK(answer.nodes == 8);
    CHECK(answer.warning.empty());
  }
}

TEST_CASE("SLO misses name every objective a run missed", "[plan]") {
  const PodCounts all_done{.submitted = 10, .completed = 10};
  const PodCounts some_pending{.submitted = 10, .completed = 6, .pending = 3, .deleted = 1};
  PlanSlo slo{.p95_queueing_latency_s = 60,
              .max_pending = 0,
              .makespan_s = 3600,
              .min_completed_fraction = 1.0};
  CHECK(SloMisses(slo, Metrics(60, 3600, all_done)).empty());
  CHECK(SloMisses(slo, Metrics(312.5, 4000, some_pending)) ==
        "p95 queueing latency 312.5 s > 60 s; 3 pods pending > 0; makespan 4000 s > 3600 s; "
        "completed 6 of 9 pods (0.666667 < 1)");
  CHECK(SloMisses(slo, Metrics(0, std::nullopt, all_done)) == "no pod completed (no makespan)");
  CHECK(SloMisses(slo, Metrics(0, 10, PodCounts{.submitted = 1, .pending = 1})) ==
        "1 pod pending > 0; completed 0 of 1 pods (0 < 1)");
  SECTION("unset objectives are not checked") {
    CHECK(SloMisses(PlanSlo{}, Metrics(1e6, std::nullopt, some_pending)).empty());
  }
  SECTION("the completed fraction leaves deleted pods out and holds when nothing counts") {
    const PlanSlo fraction{.min_completed_fraction = 0.6};
    CHECK(SloMisses(fraction, Metrics(0, 1, some_pending)).empty());  // 6 of 9
    CHECK(SloMisses(fraction, Metrics(0, 1, PodCounts{.submitted = 2, .deleted = 2})).empty());
  }
}

TEST_CASE("serving objectives count pods that never bound, which batch ones cannot judge",
          "[plan]") {
  // 28 replicas waited 10.1 h through a peak and were deleted unbound; the pods that bound
  // did so at once and nothing is pending at the end.
  RunMetrics m =
      Metrics(0, std::nullopt, PodCounts{.submitted = 100, .running = 48, .deleted = 52});
  m.unserved.deleted_unbound = 28;
  m.unserved.never_bound = 28;
  m.unserved.deleted_unbound_wait.max_s = 36360;
  m.unserved.longest_wait_s = 36360;
  m.unserved.pending.peak = 32;
  const PlanSlo batch{.p95_queueing_latency_s = 420, .max_pending = 0};
  CHECK(SloMisses(batch, m).empty());
  CHECK(UnjudgedDemand(batch, m) ==
        "28 pods were deleted without ever binding (longest wait 10.1 h); the objectives "
        "(p95_queueing_latency_s, max_pending) count only pods that bound or pods pending at "
        "the end: add max_wait_s or max_unserved");
  const PlanSlo serving{.max_wait_s = 420, .max_unserved = 0, .max_pending_peak = 0};
  CHECK(SloMisses(serving, m) ==
        "longest wait 36360 s > 420 s; 28 pods never bound (28 deleted unbound, 0 pending at the "
        "end) > 0; pending peak 32 > 0");
  CHECK(UnjudgedDemand(serving, m).empty());
  SECTION("pods pending at the end are judged by max_pending, not by p95 alone") {
    RunMetrics left =
        Metrics(0, std::nullopt, PodCounts{.submitted = 5, .running = 3, .pending = 2});
    left.unserved.never_bound = 2;
    left.unserved.longest_wait_s = 7200;
    CHECK(UnjudgedDemand(batch, left).empty());
    CHECK(UnjudgedDemand(PlanSlo{.p95_queueing_latency_s = 60}, left) ==
          "2 pods still pending at the end (longest wait 2.0 h); the objectives "
          "(p95_queueing_latency_s) count only pods that bound: add max_wait_s or max_unserved");
  }
  SECTION("a run that served everything needs no note") {
    CHECK(UnjudgedDemand(batch, Metrics(0, 10, PodCounts{.submitted = 1, .completed = 1})).empty());
  }
}

}  // namespace migsim
