// FaultRecorder (issue 13): kills per cause, time to recover, pools' availability, goodput.
#include "sim/metrics/fault_metrics.h"

#include <catch2/catch.hpp>

#include "policies/first_fit.h"
#include "sim/io/scenario_json.h"
#include "sim/study/run.h"
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

TEST_CASE("an autoscaled pool's slots nobody provisioned are not unavailable GPUs",
          "[metrics][faults]") {
  Result<ScenarioFile> file =
      LoadScenarioFile(std::string(MIGSIM_SOURCE_DIR) + "/scenarios/autoscaling-training.json");
  REQUIRE(file.ok());
  Scenario spot;
  for (const auto& [name, scenario] : file.value().variants) {
    if (name == "karpenter-spot") spot = scenario;
  }
  REQUIRE(spot.cluster.fault_processes.size() == 1);
  // Interruptions so rare that none comes: the group grows and shrinks, nothing fails.
  spot.cluster.fault_processes[0].scale = SimTime::Seconds(1e15);
  const VariantResult v = RunVariant("karpenter-spot", spot, {});
  REQUIRE(v.faults.has_value());
  CHECK(v.faults->faults == 0);
  CHECK(v.faults->events.empty());
  REQUIRE(v.faults->availability.size() == 1);
  const PoolAvailability& p4d = v.faults->availability[0];
  CHECK(p4d.pool == "p4d");
  CHECK(p4d.mean == 1);
  CHECK(p4d.min == 1);
  CHECK(p4d.gpus > 0);  // the most provisioned at once: 8 per Ready node
  CHECK(p4d.gpus <= 8 * v.autoscaling->groups.at(0).peak_nodes);
}

}  // namespace migsim
