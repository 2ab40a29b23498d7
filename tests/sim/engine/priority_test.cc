// Priorities and kube-scheduler's queue: PrioritySort, back-off, the unschedulable timeout
// and queue disciplines (SchedulerConfig, QueueOrder).
#include <catch2/catch.hpp>
#include <vector>

#include "sim/engine/engine.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;

// A policy that places as the default does and records when it was asked.
class TimingPolicy final : public Policy {
 public:
  std::string_view name() const override { return "timing"; }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override {
    asked_at_.push_back(view.now().seconds());
    return Policy::Place(view, pod);
  }
  const std::vector<double>& asked_at() const { return asked_at_; }

 private:
  std::vector<double> asked_at_;
};

// One V100 (p3.2xlarge) busy for `busy_s` from 0 s with a pod of the "hold" template.
Scenario OneGpuBusyFor(double busy_s) {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  const JobClassId hold = AddJobClass(s, "hold", Sec(0), Sec(busy_s));
  AddPods(s, "hold", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = hold}));
  return s;
}

// preemptionPolicy Never: these tests are about the queue's order, not eviction
// (preemption_test.cc).
TemplateId GpuTemplate(Scenario& s, JobClassId job, int32_t priority = 0) {
  return AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}},
                         .job_class = job,
                         .priority = priority,
                         .preempts = false});
}

double BoundSeconds(const Engine& e, size_t pod) { return e.pods()[pod].bound.seconds(); }

TEST_CASE("a later pod of higher priority takes the freed GPU before older lower-priority ones",
          "[engine][priority]") {
  Scenario s = OneGpuBusyFor(100);
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(10));
  AddPods(s, "low", Sec(1), GpuTemplate(s, run, 0));      // pod 1
  AddPods(s, "high", Sec(2), GpuTemplate(s, run, 1000));  // pod 2
  TimingPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(BoundSeconds(*engine, 2) == 100);
  CHECK(BoundSeconds(*engine, 1) == 110);
}

TEST_CASE("with the fifo queue order priorities do not reorder the queue", "[engine][priority]") {
  Scenario s = OneGpuBusyFor(100);
  s.queue_order = "fifo";
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(10));
  AddPods(s, "low", Sec(1), GpuTemplate(s, run, 0));
  AddPods(s, "high", Sec(2), GpuTemplate(s, run, 1000));
  TimingPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(BoundSeconds(*engine, 1) == 100);
  CHECK(BoundSeconds(*engine, 2) == 110);
}

TEST_CASE("sjf offers the shortest run-time estimate first, also among alike pods",
          "[engine][priority]") {
  Scenario s = OneGpuBusyFor(10);
  s.queue_order = "sjf";
  // Same requests and priority: one scheduling class, ordered within by the estimate.
  AddPods(s, "long", Sec(1), GpuTemplate(s, AddJobClass(s, "long", Sec(0), Sec(100))));
  AddPods(s, "short", Sec(2), GpuTemplate(s, AddJobClass(s, "short", Sec(0), Sec(5))));
  AddPods(s, "mid", Sec(3), GpuTemplate(s, AddJobClass(s, "mid", Sec(0), Sec(50))));
  TimingPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(BoundSeconds(*engine, 2) == 10);  // short
  CHECK(BoundSeconds(*engine, 3) == 15);  // mid
  CHECK(BoundSeconds(*engine, 1) == 65);  // long
}

TEST_CASE("a pod that failed a cycle waits out its back-off before it is tried again",
          "[engine][priority]") {
  Scenario s = OneGpuBusyFor(0.25);
  AddPods(s, "next", Sec(0), GpuTemplate(s, AddJobClass(s, "run", Sec(0), Sec(1))));
  SECTION("kube-scheduler's default: 1 s after the failed attempt") {
    TimingPolicy policy;
    CHECK(BoundSeconds(*RunEngine(s, policy), 1) == 1);
  }
  SECTION("without back-off: as soon as the GPU is free") {
    s.scheduler.pod_initial_backoff = SimTime::Zero();
    s.scheduler.pod_max_backoff = SimTime::Zero();
    TimingPolicy policy;
    CHECK(BoundSeconds(*RunEngine(s, policy), 1) == 0.25);
  }
}

TEST_CASE("the back-off doubles with each failed attempt up to its maximum", "[engine][priority]") {
  const SchedulerConfig config;
  std::vector<double> seconds;
  for (int attempt = 1; attempt <= 6; ++attempt) {
    seconds.push_back(config.Backoff(attempt).seconds());
  }
  CHECK(seconds == std::vector<double>{1, 2, 4, 8, 10, 10});
}

TEST_CASE("an unschedulable pod is retried every 5 minutes while the run goes on",
          "[engine][priority]") {
  Scenario s = OneGpuBusyFor(1000);
  // Two GPUs on a one-GPU node: never fits.
  AddPods(s, "big", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 2}},
                          .job_class = AddJobClass(s, "run", Sec(0), Sec(1))}));
  TimingPolicy policy;
  auto engine = RunEngine(s, policy);
  // hold at 0; big at 0, 300, 600, 900 (timeouts) and 1000 (the GPU freed).
  CHECK(policy.asked_at() == std::vector<double>{0, 0, 300, 600, 900, 1000});
  // Then only timeouts are left: the run ends instead of retrying forever.
  CHECK(engine->end_time() == Sec(1000));
  CHECK(engine->pods()[1].phase == PodPhase::kPending);
}

}  // namespace
}  // namespace migsim
