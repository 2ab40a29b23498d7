#include "policies/best_fit.h"

#include <catch2/catch.hpp>
#include <random>
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

// The capacity index's walk (ClusterView::ForEachTightest) against the default Place's scan
// of every node: the same node for every pod, on a cluster of mixed sizes, with full,
// unschedulable, selector-excluded and CPU-starved nodes, as pods bind one after another.
TEST_CASE("best-fit with the capacity index places every pod where the full scan does",
          "[policies][best_fit]") {
  std::mt19937 rng(7);
  test::PolicyWorld w;
  const int32_t sizes[] = {4, 7, 8, 8, 16};
  for (int i = 0; i < 300; ++i) {
    const int32_t gpus = sizes[rng() % 5];
    NodeInfo& node = w.AddNode(gpus, static_cast<int32_t>(rng() % (gpus + 1)),
                               {{"pool", rng() % 4 == 0 ? "b" : "a"}});
    node.schedulable = rng() % 10 != 0;
    if (rng() % 8 == 0) node.cpu_milli_requested = node.cpu_milli_allocatable;
  }
  BestFitPolicy policy;
  NodeCapacityIndex index;
  const Labels pool_a = {{"pool", "a"}};
  int placed = 0;
  for (int n = 0; n < 400; ++n) {
    PodRequests req;
    req.cpu_milli = 100;
    req.extended.push_back({w.gpu, static_cast<int32_t>(1 + rng() % 4)});
    const PodView pod{PodId(0), &req, rng() % 3 == 0 ? &pool_a : nullptr};
    const std::optional<Placement> indexed =
        policy.Place(ClusterView(w.nodes, w.resources, SimTime::Zero(), &index), pod);
    const std::optional<Placement> scanned =
        policy.Place(ClusterView(w.nodes, w.resources, SimTime::Zero()), pod);
    REQUIRE(indexed.has_value() == scanned.has_value());
    if (!indexed) continue;
    REQUIRE(indexed->node == scanned->node);
    NodeInfo& node = w.nodes[indexed->node.value()];
    node.requested[w.gpu.value()] += req.extended.front().count;
    node.cpu_milli_requested += req.cpu_milli;
    index.Invalidate(indexed->node.value());
    ++placed;
  }
  CHECK(placed > 200);
  CHECK_FALSE(index.StaleNode(w.nodes).has_value());
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
