#include "policies/first_fit.h"

#include <catch2/catch.hpp>

#include "tests/support/policy_world.h"

namespace migsim {
namespace {

TEST_CASE("first-fit picks the first node, in cluster order, that fits", "[policies][first_fit]") {
  test::PolicyWorld w;
  w.AddNode(4, 4);
  w.AddNode(4, 3);
  w.AddNode(8, 0);
  FirstFitPolicy policy;
  CHECK(policy.name() == "first-fit");
  CHECK(w.Place(policy, 1) == 1u);
  CHECK(w.Place(policy, 2) == 2u);
  CHECK(w.Place(policy, 9) == std::nullopt);
}

TEST_CASE("first-fit honours node selectors", "[policies][first_fit]") {
  test::PolicyWorld w;
  w.AddNode(4, 0, {{"pool", "a"}});
  w.AddNode(4, 0, {{"zone", "x"}, {"pool", "b"}});
  FirstFitPolicy policy;
  CHECK(w.Place(policy, 1, {{"pool", "b"}}) == 1u);
  CHECK(w.Place(policy, 1, {{"zone", "x"}, {"pool", "b"}}) == 1u);
  CHECK(w.Place(policy, 1, {{"pool", "b"}, {"zone", "y"}}) == std::nullopt);
  CHECK(w.Place(policy, 1, {{"pool", "c"}}) == std::nullopt);
  CHECK(w.Place(policy, 1, {{"gpu", "yes"}}) == std::nullopt);
  CHECK(w.Place(policy, 1) == 0u);
}

TEST_CASE("first-fit skips cordoned nodes and nodes short of cpu or memory",
          "[policies][first_fit]") {
  test::PolicyWorld w;
  w.AddNode(4, 0).schedulable = false;
  NodeInfo& busy = w.AddNode(4, 0);
  busy.cpu_milli_requested = 7500;
  w.AddNode(4, 0).memory_mib_allocatable = 1024;
  w.AddNode(4, 0);
  FirstFitPolicy policy;
  CHECK(w.Place(policy, 1) == 1u);
  CHECK(w.PlaceCpu(policy, 1000, 512) == 2u);
  CHECK(w.PlaceCpu(policy, 1000, 2048) == 3u);
  CHECK(w.PlaceCpu(policy, 9000, 0) == std::nullopt);
}

}  // namespace
}  // namespace migsim
