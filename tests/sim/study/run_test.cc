// RunVariant: the policy it makes from the scenario, what it collects, and that a run does
// not depend on the runs before it.
#include "sim/study/run.h"

#include <catch2/catch.hpp>

#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::Sec;

// Two one-GPU nodes at $0.526/h each and three 10 s one-GPU pods at 0.
Scenario ThreePods(const std::string& policy) {
  Scenario s;
  s.policy.name = policy;
  s.cluster.nodes = {test::GpuNode("a", "g4dn.xlarge"), test::GpuNode("b", "g4dn.xlarge")};
  const JobClassId job = test::AddJobClass(s, "job", Sec(0), Sec(10));
  const TemplateId tmpl = test::AddTemplate(
      s, {.cpu_milli = 1000, .memory_mib = 1024, .extended = {{"nvidia.com/gpu", 1}},
          .job_class = job});
  test::AddPods(s, "p", Sec(0), tmpl, 3);
  return s;
}

}  // namespace

TEST_CASE("RunVariant runs the policy the scenario names, fresh for every run", "[study]") {
  const Scenario s = ThreePods("spread");
  const VariantResult first = RunVariant("v", s, {.collect_pods = true});
  CHECK(first.name == "v");
  CHECK(first.policy == "spread");
  REQUIRE(first.pods.size() == 3);
  CHECK(first.pods[0].node != first.pods[1].node);  // spread, not first-fit
  CHECK(first.metrics.makespan_s == 20.0);
  CHECK(first.timeline.empty());  // not asked for
  const VariantResult again = RunVariant("v", s, {.collect_pods = true});
  for (size_t i = 0; i < first.pods.size(); ++i) CHECK(again.pods[i].node == first.pods[i].node);
  CHECK(RunVariant("v", ThreePods("first-fit")).policy == "first-fit");
}

TEST_CASE("a cluster costs the sum of its nodes' prices per hour", "[study]") {
  CHECK(ClusterCostPerHour(ThreePods("spread").cluster) ==
        Approx(2 * FindNodeType("g4dn.xlarge")->price_per_hour));
  CHECK(ClusterCostPerHour(ClusterSpec{}) == 0);
}

}  // namespace migsim
