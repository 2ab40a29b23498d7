// FaultRecorder (issue 13): kills per cause, time to recover, pools' availability, goodput.
#include "sim/metrics/fault_metrics.h"

#include <catch2/catch.hpp>

#include "policies/first_fit.h"
#include "tests/support/tiny_world.h"

namespace migsim {

TEST_CASE("fault metrics count kills per cause, time to recover and the pool's availability",
          "[metrics][faults]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("a", "p3.8xlarge"));  // 4 GPUs each
  s.cluster.nodes.push_back(test::GpuNode("b", "p3.8xlarge"));
  const JobClassId run = test::AddJobClass(s, "run", test::Sec(60), test::Sec(1000));
  const TemplateId gpu =
      test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = run});
  s.workloads.push_back(
      JobSpec{.name = "j", .completions = 2, .parallelism = 2, .backoff_limit = 5, .tmpl = gpu});
  Fault lost;
  lost.at = test::Sec(100);
  lost.kind = FaultKind::kNodeLost;
  lost.target.nodes = {0};
  lost.repair = test::Sec(900);
  s.cluster.faults.push_back(lost);
  FirstFitPolicy policy;
  FaultRecorder recorder;
  auto engine = test::RunEngine(s, policy, {&recorder});
  const FaultMetrics m = recorder.Finish(*engine, 10);
  CHECK(m.faults == 1);
  REQUIRE(m.killed.size() == 1);
  CHECK(m.killed[0].cause == "NodeLost");
  CHECK(m.killed[0].pods == 2);
  CHECK(m.killed[0].workloads == 1);
  // Killed at 100 s, evicted at 400 s, replaced on b after the Job's 10 s back-off... both
  // running again after their 60 s start-up.
  REQUIRE(m.time_to_recover.count == 1);
  CHECK(m.time_to_recover.mean_s > 300 + 60);
  CHECK(m.unrecovered == 0);
  REQUIRE(m.availability.size() == 1);
  CHECK(m.availability[0].pool == "cluster");
  CHECK(m.availability[0].gpus == 8);
  // Half the GPUs out from 100 s to 1000 s.
  CHECK(m.availability[0].min == 0.5);
  const double end = engine->end_time().seconds();
  CHECK(m.availability[0].mean == Approx((end - 900 * 0.5) / end));
  CHECK(m.goodput == Approx(1 - m.gpu_hours_lost / 10));
  REQUIRE(m.events.size() == 2);
  CHECK(m.events[1].repaired);
  CHECK(m.events[1].at.seconds() == 1000);
}

}  // namespace migsim
