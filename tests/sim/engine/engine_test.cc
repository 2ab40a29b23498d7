#include "sim/engine/engine.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/study/run.h"
#include "tests/support/recording_observer.h"
#include "tests/support/scripted_controller.h"
#include "tests/support/scripted_policy.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;
using Call = test::ScriptedPolicy::Call;

// One p3.2xlarge (8 vCPU, 1 x V100), the smallest GPU node.
Scenario OneGpuWorld() {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  return s;
}

TemplateId GpuPod(Scenario& s, JobClassId jc, int64_t cpu_milli = 0) {
  return AddTemplate(
      s, {.cpu_milli = cpu_milli, .extended = {{"nvidia.com/gpu", 1}}, .job_class = jc});
}

TEST_CASE("events at the same instant run in the order they were scheduled", "[engine]") {
  Scenario s = OneGpuWorld();
  JobClassId jc = AddJobClass(s, "short", Sec(2), Sec(10));
  TemplateId cpu = AddTemplate(s, {.cpu_milli = 1000, .job_class = jc});
  AddPods(s, "a", Sec(5), cpu);
  AddPods(s, "b", Sec(5), cpu);
  AddPods(s, "c", Sec(3), cpu);  // listed last, created first
  FirstFitPolicy policy;
  test::RecordingObserver observer;
  auto engine = RunEngine(s, policy, {&observer});

  // At 5 s the two timers (scheduled at the start) run before pod0's start (scheduled at
  // 3 s), and the scheduling cycle runs after every event of the instant.
  CHECK(observer.log == std::vector<std::string>{
                            "3s submitted pod0",
                            "3s bound pod0",
                            "5s submitted pod1",
                            "5s submitted pod2",
                            "5s started pod0",
                            "5s bound pod1",
                            "5s bound pod2",
                            "7s started pod1",
                            "7s started pod2",
                            "15s ended pod0 completed Completed",
                            "17s ended pod1 completed Completed",
                            "17s ended pod2 completed Completed",
                        });
  CHECK(test::PodNames(*engine) == std::vector<std::string>{"c", "a", "b"});
  CHECK(engine->end_time() == Sec(17));
}

TEST_CASE("a pod with no run time on a time-sliced GPU ends as it starts", "[engine]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("ts", 4));
  JobClassId instant = AddJobClass(s, "instant", Sec(2), Sec(0));
  AddPods(s, "a", Sec(1), GpuPod(s, instant), 2);
  FirstFitPolicy policy;
  test::RecordingObserver observer;
  auto engine = RunEngine(s, policy, {&observer});
  CHECK(observer.log == std::vector<std::string>{
                            "1s submitted pod0",
                            "1s submitted pod1",
                            "1s bound pod0",
                            "1s bound pod1",
                            "3s started pod0",
                            "3s started pod1",
                            "3s ended pod0 completed Completed",
                            "3s ended pod1 completed Completed",
                        });
  CHECK(engine->end_time() == Sec(3));
}

// A world with every source of variety: MIG and time-sliced nodes, random failures, Job
// back-offs, Workflow retries, a Deployment and a relabelling that kills pods.
Scenario BusyWorld(uint64_t seed) {
  Scenario s;
  s.seed = seed;
  s.cluster.nodes.push_back(test::P4d("mig", "all-balanced"));
  s.cluster.nodes.push_back(test::P3_8x("ts", 4));
  test::AddRelabel(s, 0, Sec(30), "all-1g.5gb", Sec(20));
  JobClassId flaky = AddJobClass(
      s, "flaky", Sec(1),
      {{"1g.5gb", Sec(20)}, {"2g.10gb", Sec(12)}, {"3g.20gb", Sec(8)}, {"gpu", Sec(10)}},
      std::nullopt, 0.3);
  TemplateId mig1 = AddTemplate(
      s, {.cpu_milli = 500, .extended = {{"nvidia.com/mig-1g.5gb", 1}}, .job_class = flaky});
  TemplateId mig2 = AddTemplate(
      s, {.cpu_milli = 500, .extended = {{"nvidia.com/mig-2g.10gb", 1}}, .job_class = flaky});
  TemplateId gpu = GpuPod(s, flaky, 500);
  TemplateId serve =
      AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}}, .runs_forever = true});
  s.workloads.push_back(JobSpec{.name = "train",
                                .at = Sec(0),
                                .completions = 12,
                                .parallelism = 5,
                                .backoff_limit = 30,
                                .tmpl = mig1});
  s.workloads.push_back(JobSpec{.name = "ts",
                                .at = Sec(2),
                                .completions = 20,
                                .parallelism = 10,
                                .backoff_limit = 30,
                                .tmpl = gpu});
  WorkflowSpec wf = test::MakeWorkflow("wf", Sec(1), 4, Sec(1));
  wf.steps.push_back(
      test::MakeStep("fan", mig2, {}, {"a", "b", "c", "d", "e", "f"}, {3, RetryPolicy::kAlways}));
  wf.steps.push_back(test::MakeStep("merge", gpu, {0}, {}, {3, RetryPolicy::kAlways}));
  s.workloads.push_back(wf);
  s.workloads.push_back(DeploymentSpec{
      .name = "serve", .at = Sec(0), .replicas = 3, .scale = {{Sec(100), 0}}, .tmpl = serve});
  return s;
}

std::vector<std::string> Describe(const VariantResult& r) {
  auto t = [](std::optional<SimTime> x) { return x ? std::to_string(x->micros()) : "-"; };
  std::vector<std::string> lines;
  for (const PodRecord& p : r.pods) {
    lines.push_back(p.name + "|" + p.owner + "|" + p.node + "|" + p.device + "|" +
                    std::to_string(p.created.micros()) + "|" + t(p.bound) + "|" + t(p.started) +
                    "|" + t(p.ended) + "|" + p.state + "|" + p.reason);
  }
  return lines;
}

TEST_CASE("the same scenario and seed give identical pod records", "[engine][determinism]") {
  FirstFitPolicy policy;
  const Scenario s = BusyWorld(7);
  VariantResult first = RunVariant("a", s, policy, {.collect_pods = true});
  VariantResult second = RunVariant("a", s, policy, {.collect_pods = true});
  REQUIRE(first.pods.size() > 40);
  CHECK(Describe(first) == Describe(second));
  CHECK(first.metrics.makespan_s == second.metrics.makespan_s);
  CHECK(first.metrics.gpu_allocation_ratio == second.metrics.gpu_allocation_ratio);
  CHECK(first.metrics.queueing.mean_s == second.metrics.queueing.mean_s);
  // The world really exercises failures, so the comparison above is not vacuous.
  CHECK(first.metrics.pods.failed > 0);
  CHECK(first.metrics.pods.deleted == 3);

  SECTION("another seed gives another run") {
    VariantResult other = RunVariant("a", BusyWorld(8), policy, {.collect_pods = true});
    CHECK(Describe(other) != Describe(first));
  }
}

TEST_CASE("pending pods are bound oldest first when capacity frees", "[engine]") {
  Scenario s = OneGpuWorld();
  JobClassId long_run = AddJobClass(s, "long", Sec(0), Sec(100));
  JobClassId short_run = AddJobClass(s, "short", Sec(0), Sec(10));
  TemplateId gpu_long = GpuPod(s, long_run);
  TemplateId gpu_and_cpu = GpuPod(s, short_run, 1000);  // another scheduling class
  TemplateId gpu_short = GpuPod(s, short_run);          // the blocker's class
  AddPods(s, "blocker", Sec(0), gpu_long);
  AddPods(s, "older", Sec(1), gpu_and_cpu);
  AddPods(s, "newer", Sec(2), gpu_short);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);

  const auto& pods = engine->pods();
  CHECK(pods[0].bound == Sec(0));
  CHECK(pods[1].bound == Sec(100));
  CHECK(pods[2].bound == Sec(110));
  CHECK(pods[2].ended == Sec(120));
  CHECK(pods[2].phase == PodPhase::kSucceeded);
}

TEST_CASE("a class whose oldest pod does not fit is not offered again until capacity frees",
          "[engine]") {
  Scenario s = OneGpuWorld();
  TemplateId gpu = GpuPod(s, AddJobClass(s, "run", Sec(0), Sec(100)));
  AddPods(s, "first", Sec(0), gpu, 2);
  AddPods(s, "later", Sec(10), gpu);
  AddPods(s, "latest", Sec(20), gpu);
  FirstFitPolicy first_fit;
  test::ScriptedPolicy recorder({}, &first_fit);
  auto engine = RunEngine(s, recorder);

  // Pods 2 and 3 arrive while their class is blocked: nobody asks the policy about them
  // until pod 0 ends at 100 s.
  CHECK(recorder.calls() == std::vector<Call>{{Sec(0), PodId(0)},
                                              {Sec(0), PodId(1)},
                                              {Sec(100), PodId(1)},
                                              {Sec(100), PodId(2)},
                                              {Sec(200), PodId(2)},
                                              {Sec(200), PodId(3)},
                                              {Sec(300), PodId(3)}});
  CHECK(engine->pods()[3].ended == Sec(400));
}

TEST_CASE("a pod of another class behind a blocked one is still bound", "[engine]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("p3"));
  JobClassId jc = AddJobClass(s, "run", Sec(0), Sec(10));
  TemplateId five_gpus = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 5}}, .job_class = jc});
  AddPods(s, "huge", Sec(0), five_gpus);
  AddPods(s, "small", Sec(0), GpuPod(s, jc));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);

  CHECK(engine->pods()[0].phase == PodPhase::kPending);
  CHECK(engine->pods()[1].bound == Sec(0));
  CHECK(engine->pods()[1].phase == PodPhase::kSucceeded);
  CHECK(engine->end_time() == Sec(10));
}

TEST_CASE("deleting a bound pod frees its capacity for a pending pod", "[engine]") {
  Scenario s = OneGpuWorld();
  TemplateId forever = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .runs_forever = true});
  using C = test::ScriptedController;
  auto controller = std::make_unique<C>(std::vector<C::Action>{
      C::SubmitAt(Sec(0), forever), C::SubmitAt(Sec(0), forever), C::DeleteAt(Sec(30), 0)});
  C* fake = controller.get();
  std::vector<std::unique_ptr<Controller>> extra;
  extra.push_back(std::move(controller));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy, {}, std::move(extra));

  const Pod& deleted = engine->pods()[0];
  CHECK(deleted.phase == PodPhase::kDeleted);
  CHECK(deleted.reason == EndReason::kDeleted);
  CHECK(deleted.ended == Sec(30));
  CHECK(engine->pods()[1].bound == Sec(30));
  CHECK(engine->pods()[1].phase == PodPhase::kRunning);
  CHECK(fake->ended.empty());  // Delete does not call back: the caller knows
}

TEST_CASE("a deleted pending pod is never bound", "[engine]") {
  Scenario s = OneGpuWorld();
  TemplateId forever = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .runs_forever = true});
  using C = test::ScriptedController;
  auto controller = std::make_unique<C>(std::vector<C::Action>{
      C::SubmitAt(Sec(0), forever), C::SubmitAt(Sec(0), forever), C::SubmitAt(Sec(0), forever),
      C::DeleteAt(Sec(10), 1), C::DeleteAt(Sec(20), 0)});
  std::vector<std::unique_ptr<Controller>> extra;
  extra.push_back(std::move(controller));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy, {}, std::move(extra));

  const Pod& pending_deleted = engine->pods()[1];
  CHECK(pending_deleted.phase == PodPhase::kDeleted);
  CHECK(pending_deleted.ended == Sec(10));
  CHECK_FALSE(pending_deleted.node.valid());
  // The GPU freed at 20 s goes to the next live pod.
  CHECK(engine->pods()[2].bound == Sec(20));
  CHECK(engine->nodes()[0].Requested(engine->resources().Find("nvidia.com/gpu")) == 1);
}

TEST_CASE("a policy answer naming no existing node is rejected and the pod stays pending",
          "[engine]") {
  Scenario s = OneGpuWorld();
  AddPods(s, "p", Sec(0),
          AddTemplate(s, {.cpu_milli = 100, .job_class = AddJobClass(s, "r", Sec(0), Sec(5))}));
  NodeId answer;
  SECTION("an id past the last node") { answer = NodeId(3); }
  SECTION("the invalid id") { answer = NodeId::Invalid(); }
  test::ScriptedPolicy policy({Placement{answer}});
  auto engine = RunEngine(s, policy);

  CHECK(engine->rejected_decisions() == 1);
  CHECK(engine->pods()[0].phase == PodPhase::kPending);
  CHECK_FALSE(engine->pods()[0].node.valid());
  CHECK(engine->nodes()[0].cpu_milli_requested == 0);
}

TEST_CASE("a rejected pod is offered again when capacity frees", "[engine]") {
  Scenario s = OneGpuWorld();
  JobClassId jc = AddJobClass(s, "r", Sec(0), Sec(10));
  AddPods(s, "gpu", Sec(0), GpuPod(s, jc));
  AddPods(s, "cpu", Sec(0), AddTemplate(s, {.cpu_milli = 100, .job_class = jc}));
  FirstFitPolicy first_fit;
  test::ScriptedPolicy policy({Placement{NodeId(0)}, Placement{NodeId(9)}}, &first_fit);
  auto engine = RunEngine(s, policy);

  CHECK(engine->rejected_decisions() == 1);
  CHECK(engine->pods()[1].bound == Sec(10));
  CHECK(policy.calls() ==
        std::vector<Call>{{Sec(0), PodId(0)}, {Sec(0), PodId(1)}, {Sec(10), PodId(1)}});
}

TEST_CASE("a policy answer naming a node the pod does not fit is rejected", "[engine]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("a", "p3.2xlarge"));
  s.cluster.nodes.push_back(test::GpuNode("b", "p3.2xlarge"));
  s.cluster.nodes[1].extra_labels = {{"pool", "b"}};
  JobClassId jc = AddJobClass(s, "r", Sec(0), Sec(10));

  SECTION("the node has no free GPU") {
    s.horizon = Sec(5);
    AddPods(s, "p", Sec(0), GpuPod(s, jc), 2);
    test::ScriptedPolicy policy({Placement{NodeId(0)}, Placement{NodeId(0)}});
    auto engine = RunEngine(s, policy);
    CHECK(engine->rejected_decisions() == 1);
    CHECK(engine->pods()[0].node == NodeId(0));
    CHECK(engine->pods()[1].phase == PodPhase::kPending);
    // The GPU was not booked twice.
    CHECK(engine->nodes()[0].Requested(engine->resources().Find("nvidia.com/gpu")) == 1);
  }
  SECTION("the node does not match the pod's node selector") {
    AddPods(s, "p", Sec(0),
            AddTemplate(s, {.cpu_milli = 100, .node_selector = {{"pool", "b"}}, .job_class = jc}));
    test::ScriptedPolicy policy({Placement{NodeId(0)}});
    auto engine = RunEngine(s, policy);
    CHECK(engine->rejected_decisions() == 1);
    CHECK(engine->pods()[0].phase == PodPhase::kPending);
    CHECK(engine->nodes()[0].cpu_milli_requested == 0);
  }
}

TEST_CASE("at the horizon pods are reported as they stand and the run ends at the horizon",
          "[engine]") {
  Scenario s = OneGpuWorld();
  s.horizon = Sec(50);
  TemplateId quick =
      AddTemplate(s, {.cpu_milli = 1000, .job_class = AddJobClass(s, "quick", Sec(0), Sec(10))});
  TemplateId exact =
      AddTemplate(s, {.cpu_milli = 1000, .job_class = AddJobClass(s, "exact", Sec(0), Sec(50))});
  TemplateId slow_start =
      AddTemplate(s, {.cpu_milli = 1000, .job_class = AddJobClass(s, "slow", Sec(60), Sec(1))});
  TemplateId gpu = GpuPod(s, AddJobClass(s, "long", Sec(0), Sec(100)));
  AddPods(s, "quick", Sec(0), quick);
  AddPods(s, "exact", Sec(0), exact);
  AddPods(s, "slow", Sec(0), slow_start);
  AddPods(s, "gpu", Sec(0), gpu, 2);
  AddPods(s, "too-late", Sec(51), quick);
  FirstFitPolicy policy;

  SECTION("the engine's pods") {
    auto engine = RunEngine(s, policy);
    CHECK(engine->end_time() == Sec(50));
    const auto& pods = engine->pods();
    REQUIRE(pods.size() == 5);  // the pod due at 51 s is never created
    CHECK(pods[0].phase == PodPhase::kSucceeded);
    CHECK(pods[1].phase == PodPhase::kSucceeded);  // events at the horizon still run
    CHECK(pods[1].ended == Sec(50));
    CHECK(pods[2].phase == PodPhase::kStarting);
    CHECK(pods[3].phase == PodPhase::kRunning);
    CHECK(pods[4].phase == PodPhase::kPending);
  }
  SECTION("the records and counts") {
    VariantResult r = RunVariant("h", s, policy, {.collect_pods = true});
    CHECK(r.metrics.end_s == 50.0);
    REQUIRE(r.pods.size() == 5);
    CHECK(r.pods[2].state == "starting");
    CHECK(r.pods[3].state == "running");
    CHECK(r.pods[3].started == Sec(0));
    CHECK_FALSE(r.pods[3].ended.has_value());
    CHECK(r.pods[3].reason.empty());
    CHECK(r.pods[4].state == "pending");
    CHECK_FALSE(r.pods[4].bound.has_value());
    CHECK(r.pods[4].node.empty());
    CHECK(r.metrics.pods.running == 2);
    CHECK(r.metrics.pods.pending == 1);
    CHECK(r.metrics.pods.completed == 2);
  }
}

TEST_CASE("without a horizon the run ends at its last event", "[engine]") {
  Scenario s = OneGpuWorld();
  AddPods(s, "p", Sec(3),
          AddTemplate(s, {.cpu_milli = 1000, .job_class = AddJobClass(s, "r", Sec(1), Sec(10))}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->end_time() == Sec(14));
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

// Regression (review of issue 2): a pod may hold more than 65,535 time-slice replicas;
// all of them must be released when it ends.
TEST_CASE("a pod holding tens of thousands of replicas releases every one of them",
          "[engine]") {
  Scenario s;
  s.cluster.nodes.push_back(test::TimeSliced(test::P4d("p4d", "all-disabled"), 10000));
  JobClassId run = AddJobClass(s, "j", Sec(0), Sec(10));
  AddPods(s, "big", Sec(0), AddTemplate(s, {.extended = {{"nvidia.com/gpu", 70000}},
                                            .job_class = run}));
  AddPods(s, "all", Sec(20), AddTemplate(s, {.extended = {{"nvidia.com/gpu", 80000}},
                                             .job_class = run}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 2);
  CHECK(engine->pods()[0].phase == PodPhase::kSucceeded);
  CHECK(engine->pods()[1].phase == PodPhase::kSucceeded);
  CHECK(engine->pods()[1].device_count == 8);  // 10,000 replicas on each of the 8 GPUs
  for (const NodeRuntime::Device& d : engine->node_runtime(NodeId(0)).devices()) {
    CHECK(d.used == 0);
  }
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("a lost MIG device is the container's failure, an admission error the system's",
          "[engine]") {
  CHECK_FALSE(IsSystemError(EndReason::kDeviceLost));  // retried by OnFailure, not OnError
  CHECK_FALSE(IsSystemError(EndReason::kError));
  CHECK(IsSystemError(EndReason::kAdmissionError));
  CHECK(IsSystemError(EndReason::kNoRunTime));
}

}  // namespace
}  // namespace migsim
