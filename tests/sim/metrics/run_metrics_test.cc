#include "sim/metrics/run_metrics.h"

#include <catch2/catch.hpp>
#include <vector>

#include "policies/first_fit.h"
#include "sim/metrics/allocation_recorder.h"
#include "sim/study/run.h"
#include "tests/support/pod_ledger.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::Sec;

TEST_CASE("NearestRank takes the value at rank ceil(p * n)", "[metrics]") {
  const std::vector<double> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  CHECK(NearestRank(ten, 0.50) == 5);
  CHECK(NearestRank(ten, 0.90) == 9);
  CHECK(NearestRank(ten, 0.95) == 10);
  CHECK(NearestRank(ten, 0.99) == 10);
  CHECK(NearestRank(ten, 1.00) == 10);
  CHECK(NearestRank(ten, 0.01) == 1);
  CHECK(NearestRank(ten, 0.11) == 2);
  // The textbook example: no interpolation, always a value of the data.
  const std::vector<double> five = {15, 20, 35, 40, 50};
  CHECK(NearestRank(five, 0.05) == 15);
  CHECK(NearestRank(five, 0.30) == 20);
  CHECK(NearestRank(five, 0.40) == 20);
  CHECK(NearestRank(five, 0.50) == 35);
  CHECK(NearestRank(five, 1.00) == 50);
  const std::vector<double> one = {7};
  CHECK(NearestRank(one, 0.5) == 7);
}

TEST_CASE("latency statistics sort their input and use nearest-rank percentiles", "[metrics]") {
  LatencyStats s = ComputeLatency({30, 10, 0, 20});
  CHECK(s.count == 4);
  CHECK(s.mean_s == 15);
  CHECK(s.p50_s == 10);
  CHECK(s.p95_s == 30);
  CHECK(s.p99_s == 30);
  CHECK(s.max_s == 30);

  LatencyStats none = ComputeLatency({});
  CHECK(none.count == 0);
  CHECK(none.mean_s == 0);
  CHECK(none.max_s == 0);
}

TEST_CASE("the allocation recorder integrates a step function over a window", "[metrics]") {
  AllocationRecorder r;
  r.OnGpuAllocation(Sec(0), 0, 28);
  r.OnGpuAllocation(Sec(10), 28, 28);
  r.OnGpuAllocation(Sec(10), 14, 28);  // several changes in one instant: the last counts
  r.OnGpuAllocation(Sec(20), 14, 28);  // no change
  r.OnGpuAllocation(Sec(30), 0, 28);
  CHECK(r.MeanRatio(Sec(0), Sec(40)) == Approx(0.25));
  CHECK(r.MeanRatio(Sec(10), Sec(30)) == Approx(0.5));
  CHECK(r.MeanRatio(Sec(15), Sec(35)) == Approx(0.375));
  CHECK(r.MeanRatio(Sec(5), Sec(5)) == 0);
  CHECK(r.MeanRatio(Sec(40), Sec(30)) == 0);

  AllocationRecorder no_gpus;
  no_gpus.OnGpuAllocation(Sec(0), 0, 0);
  CHECK(no_gpus.MeanRatio(Sec(0), Sec(10)) == 0);

  // A node removed at 10 s (a spot interruption): 8 of 16 GPUs allocated throughout is
  // half of the GPU time before and all of it after.
  AllocationRecorder shrinking;
  shrinking.OnGpuAllocation(Sec(0), 8, 16);
  shrinking.OnGpuAllocation(Sec(10), 8, 8);
  CHECK(shrinking.MeanRatio(Sec(0), Sec(10)) == Approx(0.5));
  CHECK(shrinking.MeanRatio(Sec(10), Sec(20)) == Approx(1.0));
  CHECK(shrinking.MeanRatio(Sec(0), Sec(20)) == Approx(160.0 / 240));
}

TEST_CASE("makespan runs from the first submission to the last completion", "[metrics]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  TemplateId fails_late =
      AddTemplate(s, {.cpu_milli = 100, .job_class = AddJobClass(s, "bad", Sec(0), Sec(100), 1.0)});
  TemplateId ok =
      AddTemplate(s, {.cpu_milli = 100, .job_class = AddJobClass(s, "ok", Sec(0), Sec(30))});
  FirstFitPolicy policy;

  SECTION("failures count for the start but not for the end") {
    AddPods(s, "failing", Sec(2), fails_late);
    AddPods(s, "good", Sec(5), ok);
    RunMetrics m = RunVariant("m", s, policy).metrics;
    REQUIRE(m.makespan_s.has_value());
    CHECK(*m.makespan_s == 33.0);
    CHECK(m.end_s == 102.0);
    CHECK(m.pods.failed == 1);
  }
  SECTION("time waiting in the queue is part of it") {
    s.cluster.nodes.push_back(test::P4d("p4d", "all-balanced"));
    test::AddRelabel(s, 1, Sec(0), "all-1g.5gb", Sec(30));  // no MIG device until 30 s
    AddPods(s, "mig", Sec(5),
            AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}},
                            .job_class = AddJobClass(s, "m", Sec(0), Sec(10))}));
    RunMetrics m = RunVariant("m", s, policy).metrics;
    REQUIRE(m.makespan_s.has_value());
    CHECK(*m.makespan_s == 35.0);
    CHECK(m.queueing.max_s == 25.0);
  }
  SECTION("no completion, no makespan") {
    AddPods(s, "failing", Sec(2), fails_late);
    RunMetrics m = RunVariant("m", s, policy).metrics;
    CHECK_FALSE(m.makespan_s.has_value());
    CHECK(m.end_s == 102.0);
  }
}

TEST_CASE("queueing latency is bind time minus creation time over bound pods", "[metrics]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  JobClassId jc = AddJobClass(s, "r", Sec(0), Sec(10));
  AddPods(s, "gpu", Sec(0), AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = jc}),
          3);
  AddPods(s, "never", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 2}}, .job_class = jc}));
  FirstFitPolicy policy;
  RunMetrics m = RunVariant("q", s, policy).metrics;
  CHECK(m.queueing.count == 3);
  CHECK(m.queueing.mean_s == 10.0);
  CHECK(m.queueing.p50_s == 10.0);
  CHECK(m.queueing.p95_s == 20.0);
  CHECK(m.queueing.max_s == 20.0);
  CHECK(m.pods.pending == 1);
}

TEST_CASE("the GPU allocation ratio is time-weighted over the makespan window", "[metrics]") {
  Scenario s;
  FirstFitPolicy policy;
  SECTION("one GPU of a one-GPU node busy half the window") {
    s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
    AddPods(s, "gpu", Sec(0),
            AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}},
                            .job_class = AddJobClass(s, "g", Sec(0), Sec(10))}));
    AddPods(s, "cpu", Sec(0),
            AddTemplate(s, {.cpu_milli = 100, .job_class = AddJobClass(s, "c", Sec(0), Sec(20))}));
    CHECK(RunVariant("a", s, policy).metrics.gpu_allocation_ratio == 0.5);
  }
  SECTION("a 1g.10gb device on a one-GPU H100 node counts 1/7") {
    s.cluster.nodes.push_back(test::GpuNode("p5", "p5.4xlarge", "all-1g.10gb"));
    AddPods(s, "mig", Sec(0),
            AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.10gb", 1}},
                            .job_class = AddJobClass(s, "m", Sec(0), Sec(10))}));
    CHECK(RunVariant("a", s, policy).metrics.gpu_allocation_ratio == Approx(1.0 / 7));
  }
  SECTION("a 1g.5gb device on a p4d counts 1/7 of one of its 8 GPUs") {
    s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
    AddPods(s, "mig", Sec(0),
            AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}},
                            .job_class = AddJobClass(s, "m", Sec(0), Sec(10))}));
    CHECK(RunVariant("a", s, policy).metrics.gpu_allocation_ratio == Approx(1.0 / 56));
  }
  SECTION("a time-sliced GPU counts once however many tenants it has") {
    s.cluster.nodes.push_back(test::TimeSliced(test::GpuNode("p3", "p3.2xlarge"), 4));
    // Each tenant keeps the GPU a quarter busy: together they fit, none is slowed.
    JobClassId quarter = AddJobClass(s, "t", Sec(0), Sec(10));
    s.job_classes[quarter.value()].duty_cycle = 0.25;
    AddPods(s, "ts", Sec(0),
            AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = quarter}), 4);
    AddPods(s, "cpu", Sec(0),
            AddTemplate(s, {.cpu_milli = 100, .job_class = AddJobClass(s, "c", Sec(0), Sec(40))}));
    CHECK(RunVariant("a", s, policy).metrics.gpu_allocation_ratio == 0.25);
  }
  SECTION("without a completion the window runs to the end of the run") {
    s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
    s.horizon = Sec(40);
    AddPods(s, "gpu", Sec(0),
            AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .runs_forever = true}));
    AddPods(s, "late", Sec(20), AddTemplate(s, {.cpu_milli = 100, .runs_forever = true}));
    RunMetrics m = RunVariant("a", s, policy).metrics;
    CHECK_FALSE(m.makespan_s.has_value());
    CHECK(m.gpu_allocation_ratio == 1.0);
  }
}

TEST_CASE("every submitted pod is counted in exactly one end state", "[metrics]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  s.horizon = Sec(100);
  AddPods(s, "completes", Sec(0),
          AddTemplate(s, {.cpu_milli = 100, .job_class = AddJobClass(s, "ok", Sec(0), Sec(10))}));
  AddPods(s, "no-run-time", Sec(0),
          AddTemplate(s, {.cpu_milli = 100,
                          .job_class = AddJobClass(s, "gpu-only", Sec(0), {{"gpu", Sec(5)}})}));
  AddPods(s, "too-big", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 5}}, .runs_forever = true}));
  s.workloads.push_back(
      DeploymentSpec{.name = "web",
                     .at = Sec(0),
                     .replicas = 2,
                     .scale = {{Sec(50), 1}},
                     .tmpl = AddTemplate(s, {.cpu_milli = 1000, .runs_forever = true})});
  FirstFitPolicy policy;
  test::PodLedger ledger;
  VariantResult r = RunVariant("all", s, policy, {.collect_pods = true, .observers = {&ledger}});
  const PodCounts& c = r.metrics.pods;
  CHECK(c.submitted == 5);
  CHECK(c.completed == 1);
  CHECK(c.failed == 1);
  CHECK(c.running == 1);
  CHECK(c.pending == 1);
  CHECK(c.deleted == 1);
  // The same counts kept from the engine's notifications, apart from the pods' states.
  CHECK(ledger.Differences(c) == std::vector<std::string>{});
  CHECK(ledger.errors() == std::vector<std::string>{});
  REQUIRE(r.pods.size() == 5);
  CHECK(r.pods[4].name == "web-1");
  CHECK(r.pods[4].state == "deleted");
  CHECK(r.pods[4].reason == "Deleted");
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("compute utilization counts a process's duty cycle and excludes start-up",
          "[metrics]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  JobClassId half = test::AddJobClass(s, "h", test::Sec(10), test::Sec(30));
  s.job_classes[half.value()].duty_cycle = 0.5;
  test::AddPods(s, "p", test::Sec(0),
                test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = half}));
  FirstFitPolicy policy;
  const RunMetrics m = RunVariant("a", s, policy).metrics;
  CHECK(m.gpu_allocation_ratio == 1.0);                     // bound the whole 40 s
  CHECK(m.gpu_compute_utilization == Approx(0.5 * 30 / 40));  // busy half of the 30 s run
}

}  // namespace
}  // namespace migsim
