// Preemption in the engine: eviction with graceful termination, nomination, controllers'
// replacements, checkpoints, disruption budgets and the preemption metrics.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/engine.h"
#include "tests/support/recording_observer.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;

// One p3.2xlarge: one V100.
Scenario OneGpu() {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  return s;
}

TemplateId Gpu(Scenario& s, JobClassId job, int32_t priority, bool preempts = true,
               int32_t gpus = 1) {
  return AddTemplate(s, {.extended = {{"nvidia.com/gpu", gpus}},
                         .job_class = job,
                         .priority = priority,
                         .preempts = preempts});
}

const Pod& PodAt(const Engine& e, size_t i) { return e.pods()[i]; }
double Bound(const Engine& e, size_t i) { return PodAt(e, i).bound.seconds(); }
double Ended(const Engine& e, size_t i) { return PodAt(e, i).ended.seconds(); }

}  // namespace

TEST_CASE("a higher-priority pod evicts a lower one, which keeps its GPU for its grace period",
          "[engine][preemption]") {
  Scenario s = OneGpu();
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(1000));
  AddPods(s, "low", Sec(0), Gpu(s, run, 0));      // pod 0
  AddPods(s, "high", Sec(100), Gpu(s, run, 10));  // pod 1
  FirstFitPolicy policy;
  test::RecordingObserver observer;
  auto engine = RunEngine(s, policy, {&observer});
  CHECK(PodAt(*engine, 0).phase == PodPhase::kFailed);
  CHECK(PodAt(*engine, 0).reason == EndReason::kPreempted);
  CHECK(Ended(*engine, 0) == 130);  // terminationGracePeriodSeconds: 30 s
  CHECK(Bound(*engine, 1) == 130);
  CHECK(PodAt(*engine, 1).phase == PodPhase::kSucceeded);
  CHECK(std::find(observer.log.begin(), observer.log.end(), "100s preempted pod0") !=
        observer.log.end());
  CHECK(engine->counters().preemptions == 1);
  // The victim held one GPU from 0 s to 130 s, with no checkpoint.
  CHECK(engine->counters().gpu_hours_lost_to_preemption() == Approx(130.0 / 3600));
}

TEST_CASE("between equal victims, the node whose victim was bound last is preempted on",
          "[engine][preemption]") {
  // pickOneNodeForPreemption's last criterion is the latest start time of the victims, as
  // GetPodStartTime reads it: status.startTime, which the kubelet sets when it takes the
  // pod, before pulling images. `slow` bound at 0 s and started at 100 s (a 100 s start-up),
  // `fast` bound at 50 s and started at once: `fast` is the more recent, and goes.
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("a", "p3.2xlarge"));
  s.cluster.nodes.push_back(test::GpuNode("b", "p3.2xlarge"));
  const JobClassId slow_start = AddJobClass(s, "slow-start", Sec(100), Sec(10000));
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(10000));
  AddPods(s, "slow", Sec(0), Gpu(s, slow_start, 0));  // pod 0, on a
  AddPods(s, "fast", Sec(50), Gpu(s, run, 0));        // pod 1, on b
  AddPods(s, "high", Sec(200), Gpu(s, run, 10));      // pod 2
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(PodAt(*engine, 0).started.seconds() == 100);
  CHECK(PodAt(*engine, 0).reason != EndReason::kPreempted);
  CHECK(PodAt(*engine, 1).reason == EndReason::kPreempted);
  CHECK(Bound(*engine, 2) == 230);
  CHECK(engine->counters().preemptions == 1);
}

TEST_CASE("a pod never preempts its equals, and preemptionPolicy Never never preempts",
          "[engine][preemption]") {
  Scenario s = OneGpu();
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(1000));
  SECTION("equal priority") {
    AddPods(s, "first", Sec(0), Gpu(s, run, 5));
    AddPods(s, "second", Sec(100), Gpu(s, run, 5));
  }
  SECTION("higher priority with preemptionPolicy Never") {
    AddPods(s, "first", Sec(0), Gpu(s, run, 0));
    AddPods(s, "second", Sec(100), Gpu(s, run, 10, false));
  }
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(PodAt(*engine, 0).phase == PodPhase::kSucceeded);
  CHECK(Bound(*engine, 1) == 1000);
  CHECK(engine->counters().preemptions == 0);
}

TEST_CASE("resources nominated for a preemptor are held against lower priorities",
          "[engine][preemption]") {
  Scenario s = OneGpu();
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(1000));
  AddPods(s, "victim", Sec(0), Gpu(s, run, 0));       // pod 0
  AddPods(s, "preemptor", Sec(10), Gpu(s, run, 10));  // pod 1, nominated at 10 s
  AddPods(s, "middle", Sec(20), Gpu(s, run, 5));      // pod 2: below the nomination
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(Ended(*engine, 0) == 40);
  CHECK(Bound(*engine, 1) == 40);     // the GPU went to the nominated pod,
  CHECK(Bound(*engine, 2) == 1040);   // not to the middle one, which cannot preempt it
  CHECK(engine->counters().preemptions == 1);  // nor did the preemptor evict again while it waited
}

TEST_CASE("a Deployment replaces a preempted pod at once", "[engine][preemption]") {
  Scenario s = OneGpu();
  s.horizon = Sec(500);
  DeploymentSpec web;
  web.name = "web";
  web.tmpl = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .runs_forever = true});
  s.workloads.push_back(web);
  AddPods(s, "batch", Sec(100), Gpu(s, AddJobClass(s, "run", Sec(0), Sec(60)), 10));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 3);
  CHECK(PodAt(*engine, 0).reason == EndReason::kPreempted);
  CHECK(PodAt(*engine, 2).created.seconds() == 130);  // the replacement, at the victim's end
  CHECK(Bound(*engine, 2) == 190);                    // once the batch pod is done
}

TEST_CASE("a Job counts a preempted pod as failed unless its podFailurePolicy ignores it",
          "[engine][preemption]") {
  Scenario s = OneGpu();
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(100));
  JobSpec job{.name = "train", .completions = 1, .backoff_limit = 0, .tmpl = Gpu(s, run, 0)};
  SECTION("without a policy: the failure exceeds backoffLimit 0 and the Job fails") {
    s.workloads.push_back(job);
    AddPods(s, "urgent", Sec(50), Gpu(s, run, 10));
    FirstFitPolicy policy;
    auto engine = RunEngine(s, policy);
    CHECK(engine->pods().size() == 2);  // no replacement
  }
  SECTION("Ignore on DisruptionTarget: replaced, not counted") {
    job.on_disruption = DisruptionAction::kIgnore;
    s.workloads.push_back(job);
    AddPods(s, "urgent", Sec(50), Gpu(s, run, 10));
    FirstFitPolicy policy;
    auto engine = RunEngine(s, policy);
    REQUIRE(engine->pods().size() == 3);
    CHECK(PodAt(*engine, 2).created.seconds() == 80);
    CHECK(PodAt(*engine, 2).phase == PodPhase::kSucceeded);
    CHECK(Bound(*engine, 2) == 180);  // after the urgent pod's 100 s
    CHECK(Ended(*engine, 2) == 280);  // from zero: no checkpoints
  }
}

TEST_CASE("a preempted pod's replacement resumes from the last checkpoint",
          "[engine][preemption]") {
  Scenario s = OneGpu();
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(100));
  s.job_classes[run.value()].checkpoint_interval = Sec(20);
  JobSpec job{.name = "train", .completions = 1, .tmpl = Gpu(s, run, 0)};
  job.on_disruption = DisruptionAction::kIgnore;
  s.workloads.push_back(job);
  AddPods(s, "urgent", Sec(50), Gpu(s, run, 10));  // preempts at 50 s: checkpoint at 40 s
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 3);
  CHECK(PodAt(*engine, 0).checkpoint == Approx(0.4));
  CHECK(PodAt(*engine, 2).resumed == Approx(0.4));
  CHECK(Bound(*engine, 2) == 180);
  CHECK(Ended(*engine, 2) == Approx(240));  // the remaining 60 s
  // Held 0..80 s, of which the 40 s up to the checkpoint were kept.
  CHECK(engine->counters().gpu_hours_lost_to_preemption() == Approx(40.0 / 3600));
}

TEST_CASE("a gang whose worker is preempted loses every worker's work since the checkpoint",
          "[engine][preemption]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("n0", "p3.2xlarge"));
  s.cluster.nodes.push_back(test::GpuNode("n1", "p3.2xlarge"));
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(100));
  s.job_classes[run.value()].checkpoint_interval = Sec(20);
  const TemplateId worker = Gpu(s, run, 0);
  s.templates[worker.value()].gang = true;
  s.workloads.push_back(DistributedJobSpec{.name = "train", .workers = 2, .tmpl = worker});
  AddPods(s, "urgent", Sec(50), Gpu(s, run, 10));  // evicts one worker at 50 s
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  // The victim ends at 80 s; its controller then deletes the other worker and starts a
  // second attempt, which resumes from the checkpoint at 40 s.
  REQUIRE(engine->pods().size() == 5);
  CHECK(PodAt(*engine, 3).resumed == Approx(0.4));
  CHECK(PodAt(*engine, 4).resumed == Approx(0.4));
  // Each worker held its GPU from 0 s to 80 s and kept the 40 s up to the checkpoint.
  CHECK(engine->counters().gpu_hours_lost_to_preemption() == Approx(2 * 40.0 / 3600));
}

// Two p3.2xlarge nodes (one V100 each), each running a 1000 s pod of priority
// `first_priority` / `second_priority` from 0 s, and a gang of two one-GPU workers of
// priority 10, one per node, created at 10 s.
Scenario GangAgainst(int32_t first_priority, int32_t second_priority) {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("n0", "p3.2xlarge"));
  s.cluster.nodes.push_back(test::GpuNode("n1", "p3.2xlarge"));
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(1000));
  AddPods(s, "first", Sec(0), Gpu(s, run, first_priority));
  AddPods(s, "second", Sec(0), Gpu(s, run, second_priority));
  const TemplateId worker = Gpu(s, AddJobClass(s, "train", Sec(0), Sec(100)), 10);
  s.templates[worker.value()].gang = true;
  s.workloads.push_back(
      DistributedJobSpec{.name = "train", .at = Sec(10), .workers = 2, .tmpl = worker});
  return s;
}

TEST_CASE("a gang preempts lower priorities on as many nodes as it has workers, at once",
          "[engine][preemption][gang]") {
  FirstFitPolicy policy;
  auto engine = RunEngine(GangAgainst(0, 0), policy);
  REQUIRE(engine->pods().size() == 4);
  CHECK(engine->counters().preemptions == 2);
  CHECK(PodAt(*engine, 0).reason == EndReason::kPreempted);
  CHECK(PodAt(*engine, 1).reason == EndReason::kPreempted);
  CHECK(Ended(*engine, 0) == 40);  // evicted at 10 s, 30 s of grace
  // Both workers bind together once both victims are gone.
  CHECK(Bound(*engine, 2) >= 40);
  CHECK(Bound(*engine, 2) == Bound(*engine, 3));
  CHECK(PodAt(*engine, 2).phase == PodPhase::kSucceeded);
}

TEST_CASE("a gang evicts nobody when it cannot free a node for every worker",
          "[engine][preemption][gang]") {
  FirstFitPolicy policy;
  // The second node's pod outranks the gang: one node could be freed, not two.
  auto engine = RunEngine(GangAgainst(0, 20), policy);
  CHECK(engine->counters().preemptions == 0);
  CHECK(PodAt(*engine, 0).phase == PodPhase::kSucceeded);
  CHECK(Bound(*engine, 2) == 1000);  // the gang waits for both pods to end
}

TEST_CASE("preemption prefers a node where no disruption budget breaks", "[engine][preemption]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("a", "p3.2xlarge"));
  s.cluster.nodes.push_back(test::GpuNode("b", "p3.2xlarge"));
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(1000));
  // A web pod of priority 0 that a budget keeps running (no disruption allowed) lands on
  // node a; a batch pod of priority 5 without a budget on node b.
  TemplateId web = Gpu(s, run, 0);
  s.templates[web.value()].labels = {{"app", "web"}};
  AddPods(s, "web", Sec(0), web);               // pod 0, node a
  AddPods(s, "batch", Sec(1), Gpu(s, run, 5));  // pod 1, node b
  PodDisruptionBudget budget{.name = "web", .match_labels = {{"app", "web"}}};
  budget.min_available = BudgetAmount{1, false};
  s.disruption_budgets.push_back(budget);
  // The first urgent pod evicts the batch pod although its priority is higher than the
  // web pod's: fewest budget violations come first. The second has no other way than to
  // break the budget, which DefaultPreemption then does.
  AddPods(s, "urgent", Sec(10), Gpu(s, run, 10));    // pod 2
  AddPods(s, "urgent2", Sec(100), Gpu(s, run, 10));  // pod 3
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(PodAt(*engine, 1).reason == EndReason::kPreempted);
  CHECK(Ended(*engine, 1) == 40);
  CHECK(PodAt(*engine, 2).node == PodAt(*engine, 1).node);
  CHECK(PodAt(*engine, 0).reason == EndReason::kPreempted);
  CHECK(Ended(*engine, 0) == 130);
  CHECK(engine->counters().preemptions == 2);
}

TEST_CASE("preemption ignores a disruption budget with an empty selector", "[engine][preemption]") {
  // policy/v1 reads an empty selector as every pod of the namespace, but kube-scheduler's
  // filterPodsWithPDBViolation says "a PDB with a nil or empty selector matches nothing":
  // the budget of namespace `web` (no disruption allowed) does not keep its pod of priority
  // 0 from being the victim rather than the `batch` pod of priority 5.
  Scenario s;
  s.namespaces.push_back("web");
  s.cluster.nodes.push_back(test::GpuNode("a", "p3.2xlarge"));
  s.cluster.nodes.push_back(test::GpuNode("b", "p3.2xlarge"));
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(1000));
  const TemplateId web = Gpu(s, run, 0);
  s.templates[web.value()].namespace_index = 1;
  AddPods(s, "web", Sec(0), web);               // pod 0, node a
  AddPods(s, "batch", Sec(1), Gpu(s, run, 5));  // pod 1, node b
  PodDisruptionBudget budget{.name = "all-of-web", .namespace_index = 1};
  budget.min_available = BudgetAmount{1, false};
  s.disruption_budgets.push_back(budget);
  AddPods(s, "urgent", Sec(10), Gpu(s, run, 10));  // pod 2
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(PodAt(*engine, 0).reason == EndReason::kPreempted);
  CHECK(PodAt(*engine, 1).phase == PodPhase::kSucceeded);
  CHECK(engine->counters().preemptions == 1);
}

TEST_CASE("pod accounting holds through preemptions, and runs repeat for a seed",
          "[engine][preemption]") {
  auto run_once = [] {
    Scenario s;
    for (int n = 0; n < 4; ++n) s.cluster.nodes.push_back(test::P3_8x("n" + std::to_string(n)));
    const JobClassId run = AddJobClass(s, "run", Sec(5), Sec(300));
    for (int i = 0; i < 20; ++i) {
      AddPods(s, "p" + std::to_string(i), Sec(i * 37 % 200),
              Gpu(s, run, i % 3 * 100, true, 1 + i % 4), 3);
    }
    s.workloads.push_back(
        JobSpec{.name = "job", .completions = 10, .parallelism = 4, .tmpl = Gpu(s, run, 0)});
    FirstFitPolicy policy;
    auto engine = RunEngine(s, policy);  // Engine::Run checks the accounting at its end
    std::vector<std::string> out;
    for (const Pod& p : engine->pods()) {
      out.push_back(std::string(PhaseName(p.phase)) + " " + std::to_string(p.ended.micros()));
    }
    return std::make_pair(engine->counters().preemptions, out);
  };
  const auto first = run_once();
  CHECK(first.first > 0);
  CHECK(run_once() == first);
}

}  // namespace migsim
