#include "sim/metrics/gang_metrics.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/study/run.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

// One p3.8xlarge (4 x V100): `fits` (2 workers x 2 GPUs) waits 100 s for a bare pod that
// holds 3 GPUs; `big` (3 workers x 2 GPUs) can never fit, as it would not load from a file.
Scenario TwoGangs() {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("n"));
  const JobClassId jc = test::AddJobClass(s, "run", test::Sec(0), test::Sec(100));
  test::AddPods(s, "hog", test::Sec(0),
                test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 3}}, .job_class = jc}));
  for (const auto& [name, workers] : {std::pair<std::string, int>{"fits", 2}, {"big", 3}}) {
    const TemplateId t =
        test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 2}}, .job_class = jc});
    s.templates[t.value()].gang = true;
    s.workloads.emplace_back(DistributedJobSpec{
        .name = name, .at = test::Sec(0), .workers = workers, .tmpl = t, .one_per_node = false});
  }
  return s;
}

TEST_CASE("gang metrics count the gangs, the waits of their binds and those never scheduled",
          "[metrics][gang]") {
  FirstFitPolicy policy;
  const VariantResult r = RunVariant("base", TwoGangs(), policy);
  REQUIRE(r.gangs.has_value());
  const GangMetrics& g = *r.gangs;
  CHECK(g.gangs == 2);
  CHECK(g.never_scheduled == 1);
  CHECK(g.waiting == 1);
  CHECK(g.never_scheduled_owners == std::vector<std::string>{"DistributedJob/big"});
  CHECK(g.wait.count == 1);
  CHECK(g.wait.mean_s == 100);
  CHECK(g.timeouts == 0);
}

TEST_CASE("a run without gangs reports none", "[metrics][gang]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("n"));
  test::AddPods(s, "p", test::Sec(0),
                test::AddTemplate(
                    s, {.job_class = test::AddJobClass(s, "run", test::Sec(0), test::Sec(10))}));
  FirstFitPolicy policy;
  CHECK_FALSE(RunVariant("base", s, policy).gangs.has_value());
}

}  // namespace
}  // namespace migsim
