// Faults in the engine (issue 13): lost nodes, unhealthy GPUs, drains, spot interruptions,
// failed MIG applies and random failure processes, their pods' ends and their controllers'
// recovery.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/engine.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;

Scenario Nodes(int count, const std::string& type = "p3.8xlarge") {
  Scenario s;
  for (int i = 0; i < count; ++i)
    s.cluster.nodes.push_back(test::GpuNode("n" + std::to_string(i), type));
  return s;
}

TemplateId Gpus(Scenario& s, JobClassId job, int32_t gpus = 1, bool forever = false) {
  return AddTemplate(
      s, {.extended = {{"nvidia.com/gpu", gpus}}, .job_class = job, .runs_forever = forever});
}

Fault On(FaultKind kind, double at_s, std::vector<uint32_t> nodes) {
  Fault f;
  f.at = Sec(at_s);
  f.kind = kind;
  f.target.nodes = std::move(nodes);
  return f;
}

void AddDeployment(Scenario& s, const std::string& name, int replicas, TemplateId tmpl) {
  DeploymentSpec d;
  d.name = name;
  d.replicas = replicas;
  d.tmpl = tmpl;
  s.workloads.push_back(d);
}

// One p4d.24xlarge with every GPU as 1g.5gb devices; returns a template for pods of one
// 1g.5gb device that run `run`.
TemplateId MigPodsOnP4d(Scenario& s, SimTime run) {
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  const JobClassId jc = AddJobClass(s, "run", Sec(0), run);
  return AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}}, .job_class = jc});
}

int64_t Killed(const Engine& e, EndReason r) { return e.counters().killed[static_cast<size_t>(r)]; }

}  // namespace

TEST_CASE(
    "pods on a lost node are evicted after the 300 s not-ready toleration and their "
    "Deployment recreates them",
    "[engine][faults]") {
  Scenario s = Nodes(2);
  s.horizon = Sec(2000);
  AddDeployment(s, "web", 4, Gpus(s, JobClassId(), 1, true));  // first-fit: all on n0
  Fault lost = On(FaultKind::kNodeLost, 100, {0});
  lost.repair = Sec(1000);
  s.cluster.faults.push_back(lost);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 8);
  for (size_t i = 0; i < 4; ++i) {
    CHECK(engine->pods()[i].reason == EndReason::kNodeLost);
    CHECK(engine->pods()[i].ended.seconds() == 400);  // 100 s + tolerationSeconds 300
  }
  for (size_t i = 4; i < 8; ++i) {
    CHECK(engine->pods()[i].created.seconds() == 400);  // replaced at once: DisruptionTarget
    CHECK(engine->nodes()[engine->pods()[i].node.value()].name == "n1");
  }
  CHECK(Killed(*engine, EndReason::kNodeLost) == 4);
  CHECK(engine->nodes()[0].schedulable);  // repaired at 1100 s
  CHECK(engine->counters().fault_hits == 1);
  // 4 GPUs held from 0 s to 400 s, without checkpoints.
  CHECK(engine->counters().gpu_hours_lost_to_faults() == Approx(4 * 400.0 / 3600));
}

TEST_CASE("new pods are not scheduled to a NotReady node", "[engine][faults]") {
  Scenario s = Nodes(1);
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(100));
  s.cluster.faults.push_back(On(FaultKind::kNodeLost, 10, {0}));
  s.cluster.faults.back().repair = Sec(500);
  AddPods(s, "late", Sec(50), Gpus(s, run));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].bound.seconds() == 510);
}

TEST_CASE("an unhealthy GPU's MIG devices disappear from the node and its pods fail",
          "[engine][faults]") {
  Scenario s;
  const TemplateId mig = MigPodsOnP4d(s, Sec(1000));
  AddPods(s, "mig", Sec(0), mig, 8);  // GPU 0's seven devices, then GPU 1's first
  Fault xid = On(FaultKind::kGpuUnhealthy, 100, {0});
  xid.target.gpus = {0};
  s.cluster.faults.push_back(xid);
  s.horizon = Sec(200);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  const NodeInfo& node = engine->nodes()[0];
  const ResourceId r = engine->resources().Find("nvidia.com/mig-1g.5gb");
  CHECK(node.Allocatable(r) == 49);  // 56 less GPU 0's 7
  int unhealthy = 0;
  for (const DeviceInfo& d : node.devices) {
    if (d.gpu == 0) {
      CHECK_FALSE(d.healthy);
      CHECK(d.free() <= 0);
      ++unhealthy;
    }
  }
  CHECK(unhealthy == 7);
  for (size_t i = 0; i < 7; ++i) {
    CHECK(engine->pods()[i].reason == EndReason::kGpuFailed);
    CHECK(engine->pods()[i].ended.seconds() == 100);
  }
  CHECK(engine->pods()[7].phase == PodPhase::kRunning);
  CHECK(Killed(*engine, EndReason::kGpuFailed) == 7);
}

TEST_CASE("a repaired GPU returns its device and a Job's failed pod counts toward backoffLimit",
          "[engine][faults]") {
  Scenario s = Nodes(1, "p3.2xlarge");  // one V100
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(100));
  s.workloads.push_back(
      JobSpec{.name = "j", .completions = 1, .backoff_limit = 1, .tmpl = Gpus(s, run)});
  Fault xid = On(FaultKind::kGpuUnhealthy, 50, {0});
  xid.target.gpus = {0};
  xid.repair = Sec(1000);
  s.cluster.faults.push_back(xid);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 2);
  CHECK(engine->pods()[0].reason == EndReason::kGpuFailed);
  CHECK(engine->pods()[1].bound.seconds() == 1050);  // the GPU is back at 1050 s
  CHECK(engine->pods()[1].phase == PodPhase::kSucceeded);
}

TEST_CASE("a drain does not evict below a PodDisruptionBudget's minAvailable", "[engine][faults]") {
  Scenario s = Nodes(2);  // 4 GPUs each
  s.horizon = Sec(3000);
  const TemplateId web = Gpus(s, JobClassId(), 1, true);
  s.templates[web.value()].labels = {{"app", "web"}};
  AddDeployment(s, "web", 4, web);  // all on n0
  PodDisruptionBudget pdb;
  pdb.name = "web";
  pdb.match_labels = {{"app", "web"}};
  pdb.min_available = BudgetAmount{.value = 3};
  s.disruption_budgets.push_back(pdb);
  Fault drain = On(FaultKind::kDrain, 100, {0});
  drain.maintenance = Sec(600);
  s.cluster.faults.push_back(drain);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  // One eviction at a time: each victim keeps its GPU for its 30 s grace period, its
  // replacement runs on n1 from then, and the refused eviction retried 5 s later passes.
  std::vector<double> evicted;
  for (const Pod& pod : engine->pods()) {
    if (pod.reason == EndReason::kEvicted) evicted.push_back(pod.ended.seconds());
  }
  std::sort(evicted.begin(), evicted.end());
  CHECK(evicted == std::vector<double>{130, 165, 200, 235});
  CHECK(Killed(*engine, EndReason::kEvicted) == 4);
  CHECK(engine->nodes()[0].schedulable);  // uncordoned after the maintenance
}

TEST_CASE("spot interruption gives two minutes' notice", "[engine][faults]") {
  Scenario s = Nodes(2);
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(1000));
  s.templates.clear();
  const TemplateId fast = Gpus(s, run);
  const TemplateId slow = Gpus(s, run);
  s.templates[slow.value()].termination_grace = Sec(600);
  AddPods(s, "fast", Sec(0), fast);
  AddPods(s, "slow", Sec(0), slow);
  s.cluster.faults.push_back(On(FaultKind::kSpotInterruption, 100, {0}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].reason == EndReason::kEvicted);
  CHECK(engine->pods()[0].ended.seconds() == 130);  // its 30 s grace, within the notice
  CHECK(engine->pods()[1].reason == EndReason::kEvicted);
  CHECK(engine->pods()[1].ended.seconds() == 220);  // the instance is gone after 120 s
  CHECK_FALSE(engine->nodes()[0].schedulable);
  // Lost: the GPUs as long as each pod held them, not the slow pod's whole grace period.
  CHECK(engine->counters().gpu_hours_lost_to_faults() == Approx((130.0 + 220.0) / 3600));
}

TEST_CASE("a training job resumes from its last checkpoint after a node fault",
          "[engine][faults]") {
  Scenario s = Nodes(2, "p3.2xlarge");
  const JobClassId run = AddJobClass(s, "train", Sec(0), Sec(3600));
  s.job_classes[run.value()].checkpoint_interval = Sec(600);
  s.workloads.push_back(JobSpec{.name = "train", .completions = 1, .tmpl = Gpus(s, run)});
  s.cluster.faults.push_back(On(FaultKind::kNodeLost, 1500, {0}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 2);
  CHECK(engine->pods()[0].checkpoint == Approx(1200.0 / 3600));
  const Pod& next = engine->pods()[1];
  CHECK(next.resumed == Approx(1200.0 / 3600));
  // Replaced at 1800 s (toleration), after the Job's 10 s back-off; 2400 s left to run.
  CHECK(next.ended.seconds() == Approx(next.started.seconds() + 2400));
  // Lost: held from 0 s to 1800 s, of which 1200 s were checkpointed.
  CHECK(engine->counters().gpu_hours_lost_to_faults() == Approx(600.0 / 3600));
}

TEST_CASE("a gang loses the whole attempt", "[engine][faults]") {
  Scenario s = Nodes(3, "p3.2xlarge");
  const JobClassId run = AddJobClass(s, "train", Sec(0), Sec(1000));
  s.job_classes[run.value()].checkpoint_interval = Sec(300);
  const TemplateId worker = Gpus(s, run);
  s.templates[worker.value()].gang = true;
  s.workloads.emplace_back(DistributedJobSpec{.name = "train", .workers = 2, .tmpl = worker});
  Fault xid = On(FaultKind::kGpuUnhealthy, 700, {1});
  xid.target.gpus = {0};
  s.cluster.faults.push_back(xid);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 4);
  CHECK(engine->pods()[1].reason == EndReason::kGpuFailed);
  CHECK(engine->pods()[0].phase == PodPhase::kDeleted);  // its healthy peer goes too
  for (size_t i = 2; i < 4; ++i) {
    CHECK(engine->pods()[i].resumed == Approx(0.6));  // both resume from 600 s
    CHECK(engine->pods()[i].phase == PodPhase::kSucceeded);
  }
}

TEST_CASE("a failed MIG apply leaves the node's GPUs without MIG devices until the repair",
          "[engine][faults]") {
  Scenario s;
  const TemplateId mig = MigPodsOnP4d(s, Sec(100));
  AddPods(s, "early", Sec(0), mig);
  AddPods(s, "late", Sec(100), mig);
  Fault failed = On(FaultKind::kMigReconfigureFailed, 50, {0});
  failed.repair = Sec(1000);
  s.cluster.faults.push_back(failed);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].reason == EndReason::kDeviceLost);
  CHECK(engine->pods()[0].ended.seconds() == 50);
  // Failed at 110 s (the 60 s window), restored by the repair at 1050 s + 60 s.
  CHECK(engine->pods()[1].bound.seconds() == 1110);
  CHECK(Killed(*engine, EndReason::kDeviceLost) == 1);
}

TEST_CASE("random faults are deterministic for a seed", "[engine][faults]") {
  auto run = [](uint64_t seed) {
    Scenario s = Nodes(4);
    s.seed = seed;
    const JobClassId train = AddJobClass(s, "train", Sec(0), Sec(36000));
    s.workloads.push_back(JobSpec{.name = "j",
                                  .completions = 16,
                                  .parallelism = 16,
                                  .backoff_limit = 1000,
                                  .tmpl = Gpus(s, train)});
    FaultProcess gpus{.name = "gpus",
                      .kind = FaultKind::kGpuUnhealthy,
                      .nodes = {0, 1, 2, 3},
                      .scale = Sec(20000),
                      .repair = Sec(3600),
                      .repair_exponential = true};
    s.cluster.fault_processes.push_back(gpus);
    FirstFitPolicy policy;
    auto engine = RunEngine(s, policy);
    std::vector<double> ends;
    for (const Pod& pod : engine->pods()) ends.push_back(pod.ended.seconds());
    return std::make_pair(engine->counters().fault_hits, ends);
  };
  const auto a = run(7), b = run(7), c = run(8);
  CHECK(a.first > 0);
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("a run without a horizon ends when only failure draws are left", "[engine][faults]") {
  Scenario s = Nodes(1);
  AddPods(s, "p", Sec(0), Gpus(s, AddJobClass(s, "run", Sec(0), Sec(100))));
  s.cluster.fault_processes.push_back(FaultProcess{.name = "n",
                                                   .kind = FaultKind::kNodeLost,
                                                   .nodes = {0},
                                                   .scale = Sec(1e7),
                                                   .repair = Sec(60)});
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->end_time().seconds() == 100);
}

}  // namespace migsim

namespace migsim {
namespace {

// Faults of one random process over a long horizon on 4 p3.8xlarge (16 GPUs, no pods).
int64_t HitsOver(SimTime horizon, FaultProcess process) {
  Scenario s = Nodes(4);
  s.horizon = horizon;
  process.nodes = {0, 1, 2, 3};
  s.cluster.fault_processes.push_back(process);
  FirstFitPolicy policy;
  return RunEngine(s, policy)->counters().fault_hits;
}

}  // namespace

TEST_CASE("failure processes fail at the renewal rate of their distribution and repair time",
          "[engine][faults]") {
  // Each GPU (or node) alternates a time to failure and a fixed repair: over T it fails
  // about T / (E[time to failure] + repair) times (renewal theory). Exponential: E = scale;
  // Weibull of shape 2: E = scale x Gamma(1.5) = scale x sqrt(pi) / 2.
  const double horizon_s = 1e8, scale_s = 1e5, repair_s = 1e4;
  const auto expected = [&](double mean_ttf_s, int units) {
    return units * horizon_s / (mean_ttf_s + repair_s);
  };
  FaultProcess gpus{.name = "gpus",
                    .kind = FaultKind::kGpuUnhealthy,
                    .nodes = {},
                    .scale = Sec(scale_s),
                    .repair = Sec(repair_s)};
  const double exponential = expected(scale_s, 16);  // 14,545
  CHECK(std::abs(HitsOver(Sec(horizon_s), gpus) - exponential) < 0.03 * exponential);
  gpus.shape = 2;
  const double weibull = expected(scale_s * std::sqrt(std::acos(-1.0)) / 2, 16);  // 16,223
  CHECK(std::abs(HitsOver(Sec(horizon_s), gpus) - weibull) < 0.03 * weibull);
  FaultProcess nodes{.name = "nodes",
                     .kind = FaultKind::kNodeLost,
                     .nodes = {},
                     .scale = Sec(scale_s),
                     .repair = Sec(repair_s)};
  const double per_node = expected(scale_s, 4);  // 3,636
  CHECK(std::abs(HitsOver(Sec(horizon_s), nodes) - per_node) < 0.05 * per_node);
}

}  // namespace migsim
