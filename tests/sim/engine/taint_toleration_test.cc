// The TaintToleration filter in the engine's scheduling cycle: pods that differ only in
// their tolerations are scheduled apart.

#include <catch2/catch.hpp>

#include "policies/first_fit.h"
#include "sim/engine/engine.h"
#include "tests/support/tiny_world.h"

namespace migsim {

TEST_CASE("a pod that tolerates the GPU taint is not held back by an identical one that does not",
          "[engine][taint]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("gpu-0", "p3.2xlarge"));
  s.cluster.nodes[0].taints = {{"nvidia.com/gpu", "", TaintEffect::kNoSchedule}};
  s.horizon = test::Sec(1000);
  const JobClassId jc = test::AddJobClass(s, "run", test::Sec(0), test::Sec(10));
  const TemplateId plain =
      test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = jc});
  const TemplateId tolerant =
      test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = jc});
  s.templates[tolerant.value()].tolerations = {
      {.key = "nvidia.com/gpu", .op = TolerationOperator::kExists, .value = "", .effect = {}}};
  test::AddPods(s, "plain", test::Sec(0), plain);
  test::AddPods(s, "tolerant", test::Sec(0), tolerant);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 2);
  CHECK(engine->pods()[0].phase == PodPhase::kPending);  // tolerates nothing: never fits
  CHECK(engine->pods()[1].phase == PodPhase::kSucceeded);
  CHECK(engine->pods()[1].bound == test::Sec(0));  // in the same cycle, not after a flush
}

}  // namespace migsim
