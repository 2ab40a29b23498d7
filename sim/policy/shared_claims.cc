#include "sim/policy/shared_claims.h"

namespace migsim {

std::optional<NodeId> SharedClaimsNode(std::span<const dra::SharedClaimId> ids,
                                       std::span<const SharedClaimState> states) {
  NodeId pinned;
  for (dra::SharedClaimId id : ids) {
    const NodeId node = states[id.value()].node;
    if (!node.valid()) continue;
    if (pinned.valid() && pinned != node) return std::nullopt;
    pinned = node;
  }
  return pinned;
}

bool AllAllocated(std::span<const dra::SharedClaimId> ids,
                  std::span<const SharedClaimState> states) {
  for (dra::SharedClaimId id : ids) {
    if (!states[id.value()].node.valid()) return false;
  }
  return true;
}

std::vector<dra::ResourceClaim> ClaimsToAllocate(std::span<const dra::ResourceClaim> own,
                                                 std::span<const dra::SharedClaimId> ids,
                                                 std::span<const SharedClaimState> states) {
  std::vector<dra::ResourceClaim> claims(own.begin(), own.end());
  for (dra::SharedClaimId id : ids) {
    if (!states[id.value()].node.valid()) claims.push_back(*states[id.value()].claim);
  }
  return claims;
}

}  // namespace migsim
