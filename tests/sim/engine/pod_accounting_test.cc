#include "sim/engine/pod_accounting.h"

#include <catch2/catch.hpp>
#include <vector>

#include "policies/first_fit.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::Sec;

Pod MakePod(uint32_t owner, PodPhase phase) {
  Pod pod;
  pod.owner = OwnerId(owner);
  pod.phase = phase;
  return pod;
}

// Controller 0 submitted three pods, controller 1 two.
const std::vector<int64_t> kSubmitted = {3, 2};

std::vector<Pod> FivePods() {
  return {MakePod(0, PodPhase::kSucceeded), MakePod(0, PodPhase::kStarting),
          MakePod(1, PodPhase::kPending), MakePod(0, PodPhase::kDeleted),
          MakePod(1, PodPhase::kFailed)};
}

TEST_CASE("a census counts pods by owner and by state, starting and running together",
          "[engine][accounting]") {
  std::vector<Pod> pods = FivePods();
  pods.push_back(MakePod(1, PodPhase::kRunning));
  pods.push_back(MakePod(7, PodPhase::kRunning));  // no such controller
  const PodCensus c = TakeCensus(pods, 2);
  CHECK(c.by_owner == std::vector<int64_t>{3, 3});
  CHECK(c.unowned == 1);
  CHECK(c.pending == 1);
  CHECK(c.running == 3);
  CHECK(c.completed == 1);
  CHECK(c.failed == 1);
  CHECK(c.deleted == 1);
  CHECK(c.in_states() == 7);
}

TEST_CASE("pod accounting passes when every submitted pod is found once, in one state",
          "[engine][accounting]") {
  CHECK(PodAccountingError(kSubmitted, TakeCensus(FivePods(), 2)) == std::nullopt);
  CHECK(PodAccountingError({}, TakeCensus(std::span<const Pod>{}, 0)) == std::nullopt);
}

TEST_CASE("pod accounting names the controller whose pod was dropped", "[engine][accounting]") {
  std::vector<Pod> pods = FivePods();
  pods.erase(pods.begin() + 2);  // controller 1's pending pod
  const auto error = PodAccountingError(kSubmitted, TakeCensus(pods, 2),
                                        [](OwnerId o) { return "Job/j" + std::to_string(o.value()); });
  REQUIRE(error.has_value());
  CHECK(*error == "Job/j1 submitted 2 pods but 1 are in the run (a pod was lost)");
}

TEST_CASE("pod accounting reports a pod stored twice or a controller's pod under another",
          "[engine][accounting]") {
  std::vector<Pod> pods = FivePods();
  pods.push_back(pods[0]);
  CHECK(PodAccountingError(kSubmitted, TakeCensus(pods, 2)) ==
        "controller 0 submitted 3 pods but 4 are in the run (a pod was added or counted twice)");
  pods = FivePods();
  pods[2].owner = OwnerId(0);
  CHECK(PodAccountingError(kSubmitted, TakeCensus(pods, 2)) ==
        "controller 0 submitted 3 pods but 4 are in the run (a pod was added or counted twice)");
  pods[2].owner = OwnerId::Invalid();
  CHECK(PodAccountingError(kSubmitted, TakeCensus(pods, 2)) ==
        "1 pod belong to no controller of the run");
}

TEST_CASE("pod accounting reports a pod counted in two final states, with every state's count",
          "[engine][accounting]") {
  PodCensus census = TakeCensus(FivePods(), 2);
  ++census.completed;  // the pending pod counted as completed too
  CHECK(PodAccountingError(kSubmitted, census) ==
        "5 pods were submitted but the final states hold 6 (pending 1, running 1, completed 2, "
        "failed 1, deleted 1)");
  census = TakeCensus(FivePods(), 2);
  --census.running;  // a starting pod in no state
  CHECK(PodAccountingError(kSubmitted, census) ==
        "5 pods were submitted but the final states hold 4 (pending 1, running 0, completed 1, "
        "failed 1, deleted 1)");
  CHECK(PodAccountingError(std::vector<int64_t>{3}, TakeCensus(FivePods(), 2)) ==
        "the census counts 2 controllers, the run has 1");
}

// A run that leaves pods in every state, with deletions of pending and bound pods, MIG
// devices destroyed under running pods, time-sliced processes, and a horizon that stops
// it with pods starting, running and a node withdrawn for a MIG change: the engine's
// end-of-run checks pass (a failure aborts), and its submission counts are the ones the
// workloads call for.
TEST_CASE("a run's end-of-run checks pass and its submissions per controller are the workloads'",
          "[engine][accounting]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("ts", 2));               // 8 time-sliced GPUs
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  test::AddRelabel(s, 1, Sec(10), "all-balanced", Sec(30));        // back at 40 s
  s.horizon = Sec(25);
  const JobClassId long_run = AddJobClass(s, "long", Sec(2), Sec(100));
  AddPods(s, "shared", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = long_run}), 3);
  AddPods(s, "mig", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}}, .job_class = long_run}), 2);
  // Three replicas lose their devices at 10 s and are replaced by three that wait for the
  // node; scaling to one at 20 s deletes two of those.
  s.workloads.push_back(DeploymentSpec{
      .name = "web", .at = Sec(0), .replicas = 3, .scale = {{Sec(20), 1}},
      .tmpl = AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}}, .runs_forever = true})});
  AddPods(s, "late", Sec(24), AddTemplate(s, {.cpu_milli = 1000, .job_class = long_run}));
  AddPods(s, "too-big", Sec(0), AddTemplate(s, {.cpu_milli = 1'000'000}));
  // Trace pods (SubmitRecorded): one completes at 6 s, one runs past the horizon.
  const TemplateId trace_pod = AddTemplate(s, {.cpu_milli = 1000});
  s.workloads.push_back(TraceSpec{.name = "trace",
                                  .entries = {{Sec(1), trace_pod, Sec(5), "t0"},
                                              {Sec(2), trace_pod, Sec(500), "t1"}}});
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  CHECK(std::vector<int64_t>(engine->submitted_by_owner().begin(),
                             engine->submitted_by_owner().end()) ==
        std::vector<int64_t>{3, 2, 6, 1, 1, 2});
  const PodCensus c = TakeCensus(engine->pods(), 6);
  CHECK(c.running == 5);  // 3 time-sliced processes, 1 starting, 1 trace pod
  CHECK(c.completed == 1);
  CHECK(c.failed == 5);   // 2 + 3 lost their MIG devices
  CHECK(c.deleted == 2);
  CHECK(c.pending == 2);  // the web replica left and the pod too big for any node
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

std::string Named(PodId id) { return "pod" + std::to_string(id.value()); }

// Pod 0 was preempted and ended so; pod 1 was killed by a lost node and is still
// terminating; pod 2 completed.
std::vector<Pod> KilledPods() {
  std::vector<Pod> pods = {MakePod(0, PodPhase::kFailed), MakePod(0, PodPhase::kRunning),
                           MakePod(0, PodPhase::kSucceeded)};
  for (uint32_t i = 0; i < pods.size(); ++i) pods[i].id = PodId(i);
  pods[0].reason = pods[0].ending = EndReason::kPreempted;
  pods[1].ending = EndReason::kNodeLost;
  pods[2].reason = EndReason::kCompleted;
  return pods;
}

std::vector<int64_t> Booked(std::initializer_list<std::pair<EndReason, int64_t>> kills) {
  std::vector<int64_t> booked(kEndReasonCount, 0);
  for (const auto& [reason, n] : kills) booked[static_cast<size_t>(reason)] = n;
  return booked;
}

}  // namespace

TEST_CASE("kills accounting passes when the kills booked by cause are the pods' causes",
          "[engine][accounting][faults]") {
  const PodCensus c = TakeCensus(KilledPods(), 1);
  CHECK(c.killed[static_cast<size_t>(EndReason::kPreempted)] == 1);
  CHECK(c.killed[static_cast<size_t>(EndReason::kNodeLost)] == 1);
  CHECK_FALSE(KillAccountingError(
      Booked({{EndReason::kPreempted, 1}, {EndReason::kNodeLost, 1}}), c, Named));
}

TEST_CASE("kills accounting fires when a kill is not booked", "[engine][accounting][faults]") {
  SECTION("a kill counted where it happened but not found among the pods, or the reverse") {
    const PodCensus c = TakeCensus(KilledPods(), 1);
    CHECK(KillAccountingError(Booked({{EndReason::kPreempted, 1}}), c, Named) ==
          "kills by cause: 0 NodeLost counted where they happened, 1 found among the pods");
    CHECK(KillAccountingError(Booked({{EndReason::kPreempted, 1}, {EndReason::kNodeLost, 1},
                                      {EndReason::kGpuFailed, 2}}),
                              c, Named) ==
          "kills by cause: 2 GpuFailed counted where they happened, 0 found among the pods");
  }
  SECTION("a pod that ended for a kill reason no kill recorded") {
    std::vector<Pod> pods = KilledPods();
    pods[2].phase = PodPhase::kFailed;
    pods[2].reason = EndReason::kGpuFailed;  // ended GpuFailed without going through a kill
    const PodCensus c = TakeCensus(pods, 1);
    CHECK(KillAccountingError(Booked({{EndReason::kPreempted, 1}, {EndReason::kNodeLost, 1}}),
                              c, Named) ==
          "pod2 ended for a kill that was not booked as its cause");
  }
  SECTION("a killed pod that ended for another reason than its kill's") {
    std::vector<Pod> pods = KilledPods();
    pods[0].reason = EndReason::kError;
    CHECK(KillAccountingError(Booked({{EndReason::kPreempted, 1}, {EndReason::kNodeLost, 1}}),
                              TakeCensus(pods, 1), Named) ==
          "pod0 ended for a kill that was not booked as its cause");
  }
}

TEST_CASE("a run with faults books every kill by cause", "[engine][accounting][faults]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("a", "p3.8xlarge"));
  s.cluster.nodes.push_back(test::GpuNode("b", "p3.8xlarge"));
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(1000));
  const TemplateId gpu = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = run});
  s.workloads.push_back(JobSpec{.name = "j", .completions = 6, .parallelism = 6,
                                .backoff_limit = 10, .tmpl = gpu});
  Fault lost;
  lost.at = Sec(100);
  lost.kind = FaultKind::kNodeLost;
  lost.target.nodes = {0};
  s.cluster.faults.push_back(lost);
  Fault xid;
  xid.at = Sec(200);
  xid.kind = FaultKind::kGpuUnhealthy;
  xid.target.nodes = {1};
  xid.target.gpus = {1};
  s.cluster.faults.push_back(xid);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);  // CheckAccounting passed, or this aborted
  const PodCensus c = TakeCensus(engine->pods(), 1);
  CHECK(c.killed[static_cast<size_t>(EndReason::kNodeLost)] == 4);
  CHECK(c.killed[static_cast<size_t>(EndReason::kGpuFailed)] == 1);
  CHECK_FALSE(KillAccountingError(engine->counters().killed, c, Named));
}

}  // namespace migsim
