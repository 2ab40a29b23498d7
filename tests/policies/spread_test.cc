#include "policies/spread.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/study/run.h"
#include "tests/support/policy_world.h"

namespace migsim {
namespace {

TEST_CASE("spread picks the node that would be the least allocated", "[policies][spread]") {
  test::PolicyWorld w;
  w.AddNode(4, 3);  // 4/4 with the pod
  w.AddNode(4, 1);  // 2/4
  w.AddNode(8, 1);  // 2/8
  w.AddNode(16, 0).schedulable = false;
  SpreadPolicy policy;
  CHECK(policy.name() == "spread");
  CHECK(w.Place(policy, 1) == 2u);
  CHECK(w.Place(policy, 8) == std::nullopt);
}

TEST_CASE("spread breaks ties towards the lowest node id", "[policies][spread]") {
  test::PolicyWorld w;
  w.AddNode(4, 3);  // 4/4 with the pod
  w.AddNode(4, 1);  // 2/4
  w.AddNode(8, 1);  // 2/8
  w.AddNode(8, 1);  // 2/8 too
  SpreadPolicy policy;
  CHECK(w.Place(policy, 1) == 2u);
}

TEST_CASE("spread honours node selectors", "[policies][spread]") {
  test::PolicyWorld w;
  w.AddNode(4, 0, {{"pool", "a"}});
  w.AddNode(4, 3, {{"pool", "b"}});
  w.AddNode(4, 2, {{"pool", "b"}});
  SpreadPolicy policy;
  CHECK(w.Place(policy, 1, {{"pool", "b"}}) == 2u);
}

TEST_CASE("in a run spread alternates GPU pods between equal nodes", "[policies][spread]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("a"));
  s.cluster.nodes.push_back(test::P3_8x("b"));
  test::AddPods(s, "p", test::Sec(0),
                test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .runs_forever = true}),
                5);
  SpreadPolicy policy;
  VariantResult r = RunVariant("s", s, policy, {.collect_pods = true});
  std::vector<std::string> nodes;
  for (const PodRecord& p : r.pods) nodes.push_back(p.node);
  CHECK(nodes == std::vector<std::string>{"a", "b", "a", "b", "a"});
}

}  // namespace
}  // namespace migsim
