#include "workloads/deployment.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddTemplate;
using test::CreatedSeconds;
using test::PodNames;
using test::RunEngine;
using test::Sec;
using Names = std::vector<std::string>;
using Times = std::vector<double>;

std::vector<PodPhase> Phases(const Engine& engine) {
  std::vector<PodPhase> phases;
  for (const Pod& pod : engine.pods()) phases.push_back(pod.phase);
  return phases;
}

TEST_CASE("a Deployment creates its replicas at its start time", "[workloads][deployment]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  TemplateId web = AddTemplate(s, {.cpu_milli = 1000, .runs_forever = true});
  s.workloads.push_back(
      DeploymentSpec{.name = "web", .at = Sec(5), .replicas = 3, .scale = {}, .tmpl = web});
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(PodNames(*engine) == Names{"web-0", "web-1", "web-2"});
  CHECK(CreatedSeconds(*engine) == Times{5, 5, 5});
  CHECK(engine->OwnerName(engine->pods()[0]) == "Deployment/web");
  for (const Pod& pod : engine->pods()) CHECK(pod.phase == PodPhase::kRunning);
}

TEST_CASE("scaling a Deployment up adds pods with new ordinals", "[workloads][deployment]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  TemplateId web = AddTemplate(s, {.cpu_milli = 1000, .runs_forever = true});
  s.workloads.push_back(DeploymentSpec{.name = "web",
                                       .at = Sec(0),
                                       .replicas = 2,
                                       .scale = {{Sec(10), 4}, {Sec(20), 1}, {Sec(30), 2}},
                                       .tmpl = web});
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(PodNames(*engine) == Names{"web-0", "web-1", "web-2", "web-3", "web-4"});
  CHECK(CreatedSeconds(*engine) == Times{0, 0, 10, 10, 30});
  CHECK(Phases(*engine) == std::vector<PodPhase>{PodPhase::kRunning, PodPhase::kDeleted,
                                                 PodPhase::kDeleted, PodPhase::kDeleted,
                                                 PodPhase::kRunning});
}

TEST_CASE("scaling a Deployment down deletes pending pods first, newest first",
          "[workloads][deployment]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));  // 8 vCPU: two pods fit
  TemplateId web = AddTemplate(s, {.cpu_milli = 3000, .runs_forever = true});
  s.workloads.push_back(DeploymentSpec{.name = "web",
                                       .at = Sec(0),
                                       .replicas = 4,
                                       .scale = {{Sec(10), 3}, {Sec(20), 1}},
                                       .tmpl = web});
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  const auto& pods = engine->pods();
  REQUIRE(pods.size() == 4);
  CHECK(pods[0].phase == PodPhase::kRunning);
  // At 10 s the newest pending pod goes; at 20 s the other pending one, then the newest
  // bound one.
  CHECK(pods[3].phase == PodPhase::kDeleted);
  CHECK(pods[3].ended == Sec(10));
  CHECK(pods[2].phase == PodPhase::kDeleted);
  CHECK(pods[2].ended == Sec(20));
  CHECK_FALSE(pods[2].node.valid());
  CHECK(pods[1].phase == PodPhase::kDeleted);
  CHECK(pods[1].ended == Sec(20));
  CHECK(pods[1].node.valid());
  CHECK(engine->nodes()[0].cpu_milli_requested == 3000);
}

TEST_CASE("a Deployment replaces a failed pod at once, then after growing back-offs",
          "[workloads][deployment]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("p3", 4, false, true));
  s.horizon = Sec(60);
  // Two shared GPUs with failRequestsGreaterThanOne: every pod fails admission at once.
  TemplateId two = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 2}}, .runs_forever = true});
  s.workloads.push_back(
      DeploymentSpec{.name = "web", .at = Sec(0), .replicas = 1, .scale = {}, .tmpl = two});
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(PodNames(*engine) == Names{"web-0", "web-1", "web-2", "web-3"});
  // Failures 1, 2, 3 are followed by back-offs of 0 s, 10 s and 20 s; the next is due at 70 s.
  CHECK(CreatedSeconds(*engine) == Times{0, 0, 10, 30});
  for (const Pod& pod : engine->pods()) {
    CHECK(pod.phase == PodPhase::kFailed);
    CHECK(pod.reason == EndReason::kAdmissionError);
  }
}

TEST_CASE("a Deployment pod lost to a MIG change is replaced and bound once the node is back",
          "[workloads][deployment]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  test::AddRelabel(s, 0, Sec(10), "all-balanced", Sec(30));
  TemplateId mig =
      AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}}, .runs_forever = true});
  s.workloads.push_back(
      DeploymentSpec{.name = "web", .at = Sec(0), .replicas = 1, .scale = {}, .tmpl = mig});
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  const auto& pods = engine->pods();
  REQUIRE(pods.size() == 2);
  CHECK(pods[0].reason == EndReason::kDeviceLost);
  CHECK(pods[1].created == Sec(10));
  CHECK(pods[1].bound == Sec(40));
  CHECK(pods[1].phase == PodPhase::kRunning);
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("scaling down deletes crash-looping pods before running ones", "[workloads][deployment]") {
  // One V100 (16 GiB) time-sliced 2 ways. A 7 GiB pod holds it until 50 s, so the
  // Deployment's first 10 GiB pod crash-loops; a second, created at 60 s, runs; the
  // first keeps failing beside it. Scaling to 1 must keep the newer pod that runs.
  Scenario s;
  s.cluster.nodes.push_back(test::TimeSliced(test::GpuNode("p3", "p3.2xlarge"), 2));
  auto memory_class = [&](const char* name, double gib, double run_s) {
    JobClassId jc = test::AddJobClass(s, name, test::Sec(0), test::Sec(run_s));
    s.job_classes[jc.value()].gpu_memory_mib = static_cast<int64_t>(gib * 1024);
    return jc;
  };
  test::AddPods(s, "hog", test::Sec(0),
                test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}},
                                      .job_class = memory_class("hog", 7, 50)}));
  TemplateId t = test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}},
                                       .job_class = memory_class("big", 10, 1),
                                       .runs_forever = true});
  s.workloads.push_back(DeploymentSpec{.name = "d", .at = test::Sec(0), .replicas = 1,
                                       .scale = {{test::Sec(60), 2}, {test::Sec(100), 1}},
                                       .tmpl = t});
  s.horizon = test::Sec(200);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 3);
  CHECK(engine->pods()[1].restarts > 0);
  CHECK(engine->pods()[1].phase == PodPhase::kDeleted);  // older, crash-looping
  CHECK(engine->pods()[2].phase == PodPhase::kRunning);  // newer, running
}

}  // namespace
}  // namespace migsim
