// The Cluster Autoscaler's scale-up simulation (scale_up_estimate.h) and its expanders
// (expander.h).
#include <catch2/catch.hpp>
#include <vector>

#include "sim/controllers/cluster_autoscaler/expander.h"
#include "sim/controllers/node_groups/scale_up_estimate.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

// Pending pods of one 1g.5gb MIG device each.
struct MigPods {
  ResourceTable resources;
  PodRequests requests;
  std::vector<PendingPods> pending;

  explicit MigPods(uint32_t count) {
    requests.extended.push_back({resources.Intern("nvidia.com/mig-1g.5gb"), 1});
    PodView view;
    view.requests = &requests;
    pending.push_back({view, count});
  }
};

}  // namespace

TEST_CASE("the scale-up estimate packs pending pods onto as few new nodes as hold them",
          "[engine][autoscaling]") {
  const NodeSpec p4d = test::P4d("p4d", "all-1g.5gb");  // 56 1g.5gb devices
  MigPods pods(60);
  const ScaleUpOption option =
      EstimateScaleUp(3, p4d, 21.9576, 5, pods.pending, pods.resources, {});
  CHECK(option.group == 3);
  CHECK(option.nodes == 2);
  CHECK(option.pods == 60);
  CHECK(option.price_per_hour == Approx(2 * 21.9576));
  // 60 of 112 slices used: GPU waste 52/112; CPU and memory nearly all unused.
  CHECK(option.waste > 0.6);
  CHECK(pods.pending[0].count == 60);  // an estimate consumes nothing
}

TEST_CASE("the scale-up estimate stops at the group's room and skips pods no node could hold",
          "[engine][autoscaling]") {
  const NodeSpec p4d = test::P4d("p4d", "all-1g.5gb");
  MigPods pods(60);
  CHECK(EstimateScaleUp(0, p4d, 1, 1, pods.pending, pods.resources, {}).pods == 56);
  const NodeSpec whole = test::P4d("p4d", "all-disabled");  // no MIG device at all
  const ScaleUpOption none = EstimateScaleUp(0, whole, 1, 4, pods.pending, pods.resources, {});
  CHECK(none.nodes == 0);
  CHECK(none.pods == 0);
}

TEST_CASE("packing onto nodes already launching takes the pods they will hold off the counts",
          "[engine][autoscaling]") {
  const NodeSpec p4d = test::P4d("p4d", "all-1g.5gb");
  MigPods pods(60);
  ScratchNodes upcoming(p4d, pods.resources, {});
  CHECK(PackPending(upcoming, 1, pods.pending, true) == 56);
  CHECK(pods.pending[0].count == 4);
}

TEST_CASE("expanders pick by pods, waste, price per pod or priority, and break ties at random",
          "[engine][autoscaling]") {
  std::vector<NodeGroupSpec> groups(3);
  groups[2].priority = 5;
  const std::vector<ScaleUpOption> options = {
      {.group = 0, .nodes = 1, .pods = 10, .waste = 0.5, .price_per_hour = 10},
      {.group = 1, .nodes = 2, .pods = 30, .waste = 0.2, .price_per_hour = 40},
      {.group = 2, .nodes = 1, .pods = 10, .waste = 0.4, .price_per_hour = 5}};
  Rng rng(1);
  CHECK(ChooseOption(Expander::kMostPods, options, groups, rng) == 1);
  CHECK(ChooseOption(Expander::kLeastWaste, options, groups, rng) == 1);
  CHECK(ChooseOption(Expander::kPrice, options, groups, rng) == 2);  // $0.5 per pod
  CHECK(ChooseOption(Expander::kPriority, options, groups, rng) == 2);
  std::vector<int> seen(3, 0);
  for (int i = 0; i < 300; ++i) ++seen[ChooseOption(Expander::kRandom, options, groups, rng)];
  for (int n : seen) CHECK(n > 50);
}

}  // namespace migsim
