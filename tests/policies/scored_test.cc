// "scored": score plugins composed with weights (policies/scored.h).
#include "policies/scored.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "policies/best_fit.h"
#include "policies/registry.h"
#include "policies/spread.h"
#include "tests/support/policy_world.h"

namespace migsim {
namespace {

WeightedPlugin Plugin(const char* name, double weight) {
  return WeightedPlugin{WithDefaults(PolicySpec{.name = name}), weight};
}

std::unique_ptr<Policy> Scored(std::vector<WeightedPlugin> plugins) {
  PolicySpec spec{.name = "scored"};
  spec.params["plugins"] = std::move(plugins);
  std::unique_ptr<Policy> policy = MakePolicy(spec);
  REQUIRE(policy != nullptr);
  CHECK(policy->name() == "scored");
  return policy;
}

PodView ViewOf(const PodRequests& req, PodId::Rep id = 0) {
  return PodView{.id = PodId(id), .requests = &req, .created = SimTime::Zero()};
}

// A filter-only plugin: every node but `excluded` passes; it does not score.
class Excluding final : public Policy {
 public:
  explicit Excluding(uint32_t excluded) : excluded_(excluded) {}
  std::string_view name() const override { return "excluding"; }
  bool Filter(const ClusterView& view, const PodView& pod, const NodeInfo& node) override {
    return node.id != NodeId(excluded_) && view.Fits(pod, node);
  }

 private:
  uint32_t excluded_;
};

// Nodes of 4, 4, 8 and 16 GPUs with 3, 1, 1 and 0 in use; the last one cordoned.
test::PolicyWorld SpreadWorld() {
  test::PolicyWorld w;
  w.AddNode(4, 3);
  w.AddNode(4, 1);
  w.AddNode(8, 1);
  w.AddNode(16, 0).schedulable = false;
  return w;
}

TEST_CASE("scored with least-allocated alone places pods as spread does", "[policies][scored]") {
  const test::PolicyWorld w = SpreadWorld();
  SpreadPolicy spread;
  const double weight = GENERATE(1.0, 2.5);
  auto scored = Scored({Plugin("least-allocated", weight)});
  for (int32_t gpus = 1; gpus <= 8; ++gpus) {
    INFO(gpus << " GPUs");
    CHECK(w.Place(*scored, gpus) == w.Place(spread, gpus));
  }
  CHECK(w.Place(*scored, 1) == 2u);
  CHECK(w.Place(*scored, 8) == std::nullopt);
  CHECK(w.PlaceCpu(*scored, 1000, 1024) == w.PlaceCpu(spread, 1000, 1024));
}

TEST_CASE("scored with most-allocated alone places pods as best-fit does", "[policies][scored]") {
  test::PolicyWorld w;
  w.AddNode(4, 0);
  w.AddNode(4, 3);
  w.AddNode(8, 6);
  w.AddNode(2, 2);
  BestFitPolicy best_fit;
  auto scored = Scored({Plugin("most-allocated", 1)});
  for (int32_t gpus = 1; gpus <= 4; ++gpus) {
    INFO(gpus << " GPUs");
    CHECK(w.Place(*scored, gpus) == w.Place(best_fit, gpus));
  }
  CHECK(w.Place(*scored, 1) == 1u);
  CHECK(w.Place(*scored, 2) == 2u);
}

TEST_CASE("the plugins' weights pick the winner when two plugins disagree", "[policies][scored]") {
  test::PolicyWorld w;
  w.AddNode(4, 0);  // with the pod: spread 75, best-fit 25
  w.AddNode(4, 2);  // with the pod: spread 25, best-fit 75
  PodRequests req;
  req.extended.push_back({w.gpu, 1});
  const PodView pod = ViewOf(req);
  const ClusterView view(w.nodes, w.resources, SimTime::Zero());

  auto packing = Scored({Plugin("least-allocated", 1), Plugin("most-allocated", 3)});
  CHECK(w.Place(*packing, 1) == 1u);
  CHECK(packing->Score(view, pod, w.nodes[0]) == Approx(150));
  CHECK(packing->Score(view, pod, w.nodes[1]) == Approx(250));

  auto spreading = Scored({Plugin("least-allocated", 3), Plugin("most-allocated", 1)});
  CHECK(w.Place(*spreading, 1) == 0u);

  // Equal weights tie every node: the lowest node id wins.
  auto even = Scored({Plugin("most-allocated", 2), Plugin("least-allocated", 2)});
  CHECK(w.Place(*even, 1) == 0u);
}

TEST_CASE("a node must pass every plugin's filter", "[policies][scored]") {
  const test::PolicyWorld w = SpreadWorld();
  std::vector<ScoredPolicy::Plugin> plugins;
  plugins.push_back({std::make_unique<SpreadPolicy>(), 1});
  plugins.push_back({std::make_unique<Excluding>(2), 1});
  ScoredPolicy scored(std::move(plugins));

  // Spread alone takes node 2; the second plugin filters it out, so node 1 is next.
  CHECK(w.Place(scored, 1) == 1u);
  PodRequests req;
  req.extended.push_back({w.gpu, 1});
  const PodView pod = ViewOf(req);
  const ClusterView view(w.nodes, w.resources, SimTime::Zero());
  CHECK_FALSE(scored.Filter(view, pod, w.nodes[2]));
  CHECK(scored.Filter(view, pod, w.nodes[1]));
  // The plugin without a score adds nothing to the sum.
  SpreadPolicy spread;
  CHECK(scored.Score(view, pod, w.nodes[1]) == Approx(*spread.Score(view, pod, w.nodes[1])));
}

}  // namespace
}  // namespace migsim
