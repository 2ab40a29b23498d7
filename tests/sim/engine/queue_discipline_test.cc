// Queue disciplines whose order follows the cluster's state: fair share (DRF) across
// namespaces; least attained service and shortest remaining time, both preemptive.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "policies/first_fit.h"
#include "policies/queue/las_order.h"
#include "sim/engine/engine.h"
#include "sim/io/scenario_json.h"
#include "tests/support/tiny_world.h"

// In migsim::test, beside the tiny-world helpers.
namespace migsim::test {
namespace {

// A one-GPU pod of `job` in namespace `ns` (added to s.namespaces when new).
TemplateId TenantTemplate(Scenario& s, JobClassId job, const std::string& ns) {
  const TemplateId t = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = job});
  auto it = std::find(s.namespaces.begin(), s.namespaces.end(), ns);
  if (it == s.namespaces.end()) it = s.namespaces.insert(s.namespaces.end(), ns);
  s.templates[t.value()].namespace_index = static_cast<int32_t>(it - s.namespaces.begin());
  return t;
}

// One p3.8xlarge (4 V100s); tenant "a" submits `per_tenant` one-GPU pods of `run_s`, then
// tenant "b" as many, all at 0 s: a's pods are the older ones.
Scenario TwoTenants(const std::string& order, int per_tenant, double run_s = 100) {
  Scenario s;
  s.queue_order = order;
  s.cluster.nodes.push_back(P3_8x("p3"));
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(run_s));
  AddPods(s, "a", Sec(0), TenantTemplate(s, run, "a"), per_tenant);
  AddPods(s, "b", Sec(0), TenantTemplate(s, run, "b"), per_tenant);
  return s;
}

// How many of each namespace's pods were bound at `at` seconds (bound at or before, ended after).
std::vector<int> RunningAt(const Engine& e, double at) {
  std::vector<int> running(3, 0);
  for (const Pod& pod : e.pods()) {
    if (pod.phase == PodPhase::kPending || pod.bound.seconds() > at) continue;
    if (pod.ended.seconds() <= at) continue;
    ++running[static_cast<size_t>(e.pod_template(pod.tmpl).namespace_index)];
  }
  return running;
}

std::vector<double> BoundTimes(const Engine& e) {
  std::vector<double> t;
  for (const Pod& pod : e.pods()) t.push_back(pod.bound.seconds());
  return t;
}

TEST_CASE("fair share splits the GPUs evenly between two tenants where fifo serves the older",
          "[engine][queue_discipline]") {
  FirstFitPolicy policy;
  SECTION("fifo: tenant a's four older pods take the four GPUs") {
    auto engine = RunEngine(TwoTenants("fifo", 8), policy);
    CHECK(RunningAt(*engine, 0) == std::vector<int>{0, 4, 0});
  }
  SECTION("fair-share: two GPUs each, at every wave") {
    auto engine = RunEngine(TwoTenants("fair-share", 8), policy);
    CHECK(RunningAt(*engine, 0) == std::vector<int>{0, 2, 2});
    CHECK(RunningAt(*engine, 100) == std::vector<int>{0, 2, 2});
    CHECK(RunningAt(*engine, 300) == std::vector<int>{0, 2, 2});
    CHECK(engine->end_time() == Sec(400));
  }
}

TEST_CASE("fair share weights divide the shares: weight 3 against 1 gets three GPUs of four",
          "[engine][queue_discipline]") {
  Scenario s = TwoTenants("fair-share", 8);
  s.queue_params.fair_share_weights = {{1, 3.0}};
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(RunningAt(*engine, 0) == std::vector<int>{0, 3, 1});
}

TEST_CASE("fair share lets a tenant arriving later catch up as GPUs free",
          "[engine][queue_discipline]") {
  // a holds all four GPUs (pods of 100 s, 50 s, ...) when b arrives at 10 s: every GPU
  // that frees goes to b until b holds two.
  Scenario s;
  s.queue_order = "fair-share";
  s.cluster.nodes.push_back(P3_8x("p3"));
  for (int i = 0; i < 4; ++i) {
    const JobClassId run = AddJobClass(s, "a" + std::to_string(i), Sec(0), Sec(20 * (i + 1)));
    AddPods(s, "a" + std::to_string(i), Sec(0), TenantTemplate(s, run, "a"));
  }
  const JobClassId more = AddJobClass(s, "more", Sec(0), Sec(1000));
  AddPods(s, "a-more", Sec(0), TenantTemplate(s, more, "a"), 4);
  AddPods(s, "b", Sec(10), TenantTemplate(s, more, "b"), 4);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(RunningAt(*engine, 20) == std::vector<int>{0, 3, 1});
  CHECK(RunningAt(*engine, 40) == std::vector<int>{0, 2, 2});
  CHECK(RunningAt(*engine, 60) == std::vector<int>{0, 2, 2});  // a, now below b, gets it
}

TEST_CASE("a fair-share run is the same twice and accounts for every pod",
          "[engine][queue_discipline]") {
  FirstFitPolicy policy;
  auto first = RunEngine(TwoTenants("fair-share", 7, 30), policy);
  auto second = RunEngine(TwoTenants("fair-share", 7, 30), policy);
  CHECK(BoundTimes(*first) == BoundTimes(*second));
  for (const Pod& pod : first->pods()) CHECK(pod.phase == PodPhase::kSucceeded);
}

// One V100 (p3.2xlarge); a bare one-GPU pod "long" of `long_s` at 0 s and "short" of
// `short_s` at `short_at` s, both evicted without a grace period.
Scenario LongThenShort(const std::string& order, double long_s, double short_s, double short_at) {
  Scenario s;
  s.queue_order = order;
  s.cluster.nodes.push_back(GpuNode("p3", "p3.2xlarge"));
  for (const auto& [name, run_s, at] :
       {std::tuple{"long", long_s, 0.0}, std::tuple{"short", short_s, short_at}}) {
    const TemplateId t = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}},
                                         .job_class = AddJobClass(s, name, Sec(0), Sec(run_s))});
    s.templates[t.value()].termination_grace = SimTime::Zero();
    AddPods(s, name, Sec(at), t);
  }
  return s;
}

TEST_CASE("srtf evicts a running pod with more time left for a pending one with less",
          "[engine][queue_discipline]") {
  FirstFitPolicy policy;
  SECTION("srtf: short evicts long at once") {
    auto engine = RunEngine(LongThenShort("srtf", 1000, 10, 100), policy);
    CHECK(engine->pods()[0].reason == EndReason::kPreempted);
    CHECK(engine->pods()[0].ended == Sec(100));
    // The preemptor binds after the back-off of its failed cycle (1 s), as kube-scheduler's.
    CHECK(engine->pods()[1].bound.seconds() == 101);
    CHECK(engine->counters().preemptions == 1);
  }
  SECTION("srtf: a pod with more time left than the running one's remainder waits") {
    auto engine = RunEngine(LongThenShort("srtf", 1000, 950, 100), policy);
    CHECK(engine->counters().preemptions == 0);
    CHECK(engine->pods()[1].bound == Sec(1000));
  }
  SECTION("sjf is not preemptive: short waits for long") {
    auto engine = RunEngine(LongThenShort("sjf", 1000, 10, 100), policy);
    CHECK(engine->counters().preemptions == 0);
    CHECK(engine->pods()[1].bound == Sec(1000));
  }
}

TEST_CASE(
    "las demotes a running pod when its service crosses the threshold, and a pod of "
    "the higher queue then evicts it",
    "[engine][queue_discipline]") {
  FirstFitPolicy policy;
  Scenario s = LongThenShort("las", 1000, 50, 10);
  s.queue_params.las_thresholds_gpu_s = {100};
  SECTION(
      "below the threshold both are in the first queue: short waits; at 100 GPU-s long "
      "is demoted and evicted") {
    auto engine = RunEngine(s, policy);
    CHECK(engine->pods()[0].reason == EndReason::kPreempted);
    CHECK(engine->pods()[0].ended == Sec(100));
    // Its second failed cycle (the first at 10 s): a back-off of 2 s.
    CHECK(engine->pods()[1].bound.seconds() == 102);
  }
  SECTION("with a threshold beyond long's run nobody is demoted") {
    s.queue_params.las_thresholds_gpu_s = {5000};
    auto engine = RunEngine(s, policy);
    CHECK(engine->counters().preemptions == 0);
    CHECK(engine->pods()[1].bound == Sec(1000));
  }
}

TEST_CASE("las orders pending pods by queue, then by entry into it with promotion",
          "[engine][queue_discipline]") {
  LasOrder las({100}, std::nullopt);
  PodView fresh{.id = PodId(2), .created = Sec(50)};
  PodView served{.id = PodId(1), .created = Sec(0), .attained_gpu_s = 200};
  CHECK(las.Less(fresh, served));
  CHECK(las.Rank(served, Sec(60)) == -1);
  LasOrder promoting({100}, Sec(30));
  // served enters the first queue at 0 + 30 s, before fresh was created.
  CHECK(promoting.Less(served, fresh));
  CHECK(promoting.Rank(served, Sec(29)) == -1);
  CHECK(promoting.Rank(served, Sec(30)) == 0);
  CHECK(promoting.NextRankChange(served, Sec(10)) == Sec(30));
  PodView running{.id = PodId(3), .gpus = 2, .attained_gpu_s = 40};
  CHECK(promoting.NextRankChange(running, Sec(10)) == Sec(40));  // 60 GPU-s to go at 2 GPUs
}

TEST_CASE("las hands a preempted Job pod's attained service to its replacement",
          "[engine][queue_discipline]") {
  // One A100; a Job pod of 1000 s, replaced at once when preempted; a 50 s pod at 10 s
  // evicts it once it has run 100 GPU-seconds.
  Result<ScenarioFile> loaded = ParseScenarioText(R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge", "mig": {"config": "all-disabled"}}}},
    "scheduler": {"queue_order": "las", "las": {"thresholds_gpu_s": [100]}},
    "job_classes": {"long": {"run_s": 1000}, "short": {"run_s": 50}},
    "workloads": {
      "long": {"kind": "Job", "completions": 1, "parallelism": 1,
               "podFailurePolicy": {"rules": [{"action": "Ignore",
                                               "onPodConditions": [{"type": "DisruptionTarget"}]}]},
               "template": {"job_class": "long", "terminationGracePeriodSeconds": 0,
                            "resources": {"nvidia.com/gpu": 8}}},
      "short": {"kind": "Pod", "at_s": 10,
                "template": {"job_class": "short", "resources": {"nvidia.com/gpu": 8}}}}})",
                                                  "t.json");
  REQUIRE(loaded.ok());
  FirstFitPolicy policy;
  auto engine = RunEngine(loaded.value().variants.front().second, policy);
  REQUIRE(engine->pods().size() == 3);
  CHECK(engine->pods()[0].reason == EndReason::kPreempted);
  CHECK(engine->pods()[0].ended.seconds() == Approx(12.5));  // 8 GPUs: 100 GPU-s in 12.5 s
  CHECK(engine->pods()[2].attained_gpu_s == Approx(100));    // the replacement
  CHECK(engine->pods()[2].phase == PodPhase::kSucceeded);
}

TEST_CASE("las hands nothing on from a preempted pod its controller does not replace",
          "[engine][queue_discipline]") {
  // One V100. A trace submits a 1000 s pod at 0 s and a 10 s one at 500 s; a 50 s pod of
  // another owner at 10 s evicts the first once it has 100 GPU-seconds. The trace does not
  // replace evicted pods, so its next pod starts with no service of its own predecessor's.
  Scenario s = LongThenShort("las", 1000, 50, 10);
  s.queue_params.las_thresholds_gpu_s = {100};
  const TemplateId late = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}},
                                          .job_class = AddJobClass(s, "late", Sec(0), Sec(10))});
  const TemplateId first(0);
  s.workloads.front() = WorkloadSpec{TraceSpec{
      .name = "trace", .entries = {{.at = Sec(0), .tmpl = first}, {.at = Sec(500), .tmpl = late}}}};
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 3);
  CHECK(engine->pods()[0].reason == EndReason::kPreempted);
  CHECK(engine->pods()[0].attained_gpu_s == Approx(100));  // what it had to hand on
  const Pod& next = engine->pods()[2];
  CHECK(next.tmpl == late);
  CHECK(next.attained_gpu_s == 0);
  CHECK(next.bound == Sec(500));
}

TEST_CASE("preemptive disciplines' runs are the same twice", "[engine][queue_discipline]") {
  for (const std::string order : {"las", "srtf"}) {
    FirstFitPolicy policy;
    auto first = RunEngine(LongThenShort(order, 1000, 50, 10), policy);
    auto second = RunEngine(LongThenShort(order, 1000, 50, 10), policy);
    CHECK(BoundTimes(*first) == BoundTimes(*second));
  }
}

}  // namespace
}  // namespace migsim::test
