// Shared ResourceClaims as the scheduler sees them (sim/policy/shared_claims.h): where the
// allocated ones pin a pod, and what binding it still has to allocate.

#include "sim/policy/shared_claims.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace migsim {
namespace {

dra::ResourceClaim Named(const std::string& name) {
  dra::ResourceClaim claim;
  claim.name = name;
  return claim;
}

}  // namespace

TEST_CASE("allocated shared claims pin a pod to their node, or to none when they disagree",
          "[policy][dra]") {
  const dra::ResourceClaim a = Named("a"), b = Named("b"), c = Named("c");
  std::vector<SharedClaimState> states = {{&a, NodeId()}, {&b, NodeId(3)}, {&c, NodeId(3)}};
  const std::vector<dra::SharedClaimId> all = {dra::SharedClaimId(0), dra::SharedClaimId(1),
                                               dra::SharedClaimId(2)};
  CHECK(SharedClaimsNode(all, states) == NodeId(3));
  CHECK_FALSE(AllAllocated(all, states));
  const std::vector<dra::SharedClaimId> first = {dra::SharedClaimId(0)};
  CHECK(SharedClaimsNode(first, states) == NodeId());  // unallocated: no pin
  states[2].node = NodeId(4);
  CHECK(SharedClaimsNode(all, states) == std::nullopt);
}

TEST_CASE("binding allocates the pod's own claims, then its shared claims not allocated yet",
          "[policy][dra]") {
  const dra::ResourceClaim a = Named("a"), b = Named("b"), own = Named("own");
  const std::vector<SharedClaimState> states = {{&a, NodeId(1)}, {&b, NodeId()}};
  const std::vector<dra::SharedClaimId> ids = {dra::SharedClaimId(1), dra::SharedClaimId(0)};
  const std::vector<dra::ResourceClaim> claims =
      ClaimsToAllocate(std::vector<dra::ResourceClaim>{own}, ids, states);
  REQUIRE(claims.size() == 2);
  CHECK(claims[0].name == "own");
  CHECK(claims[1].name == "b");
}

}  // namespace migsim
