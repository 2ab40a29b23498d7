#include "policies/best_fit.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/study/run.h"
#include "tests/support/policy_world.h"

namespace migsim {
namespace {

TEST_CASE("best-fit picks the node that would be the most allocated", "[policies][best_fit]") {
  test::PolicyWorld w;
  w.AddNode(4, 0);  // 1/4 with the pod
  w.AddNode(4, 3);  // 4/4
  w.AddNode(8, 6);  // 7/8
  w.AddNode(2, 2);  // full
  BestFitPolicy policy;
  CHECK(policy.name() == "best-fit");
  CHECK(w.Place(policy, 1) == 1u);
  CHECK(w.Place(policy, 2) == 2u);  // node 1 no longer fits
}

TEST_CASE("best-fit breaks ties towards the lowest node id", "[policies][best_fit]") {
  test::PolicyWorld w;
  w.AddNode(4, 4);
  w.AddNode(4, 1);
  w.AddNode(4, 1);
  w.AddNode(8, 2);  // 3/8 < 2/4: not a tie
  BestFitPolicy policy;
  CHECK(w.Place(policy, 1) == 1u);
}

TEST_CASE("best-fit scores CPU-only pods by cpu and memory", "[policies][best_fit]") {
  test::PolicyWorld w;
  w.AddNode(4, 0).cpu_milli_requested = 2000;
  w.AddNode(4, 0).cpu_milli_requested = 6000;
  w.AddNode(4, 0).memory_mib_requested = 16384;
  BestFitPolicy policy;
  CHECK(w.PlaceCpu(policy, 1000, 1024) == 1u);
}

TEST_CASE("best-fit honours node selectors", "[policies][best_fit]") {
  test::PolicyWorld w;
  w.AddNode(4, 0, {{"pool", "a"}});
  w.AddNode(4, 3, {{"pool", "b"}});
  w.AddNode(4, 1, {{"pool", "a"}});
  BestFitPolicy policy;
  CHECK(w.Place(policy, 1, {{"pool", "a"}}) == 2u);
}

TEST_CASE("in a run best-fit packs GPU pods onto one node", "[policies][best_fit]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("a"));
  s.cluster.nodes.push_back(test::P3_8x("b"));
  test::AddPods(s, "p", test::Sec(0),
                test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .runs_forever = true}),
                5);
  BestFitPolicy policy;
  VariantResult r = RunVariant("b", s, policy, {.collect_pods = true});
  std::vector<std::string> nodes;
  for (const PodRecord& p : r.pods) nodes.push_back(p.node);
  CHECK(nodes == std::vector<std::string>{"a", "a", "a", "a", "b"});
  CHECK(r.policy == "best-fit");
}

}  // namespace
}  // namespace migsim
