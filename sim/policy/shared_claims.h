#pragma once
// Shared ResourceClaims (sim/dra/shared_claim.h) as the scheduler's DRA plugin sees them:
// a claim already allocated pins every pod using it to the node its devices are on; a
// claim not allocated yet is allocated, together with the pod's own claims, on the node
// the pod is bound to.

#include <optional>
#include <span>
#include <vector>

#include "sim/core/ids.h"
#include "sim/dra/resource_claim.h"
#include "sim/dra/shared_claim.h"

namespace migsim {

struct SharedClaimState {
  const dra::ResourceClaim* claim = nullptr;  // its spec; owned by the engine
  NodeId node;  // where its devices are allocated; invalid while unallocated
};

// The node the allocated claims among `ids` pin a pod to: invalid when none is allocated,
// nullopt when two are allocated on different nodes (the pod fits no node).
// REQUIRES: every id indexes `states`.
std::optional<NodeId> SharedClaimsNode(std::span<const dra::SharedClaimId> ids,
                                       std::span<const SharedClaimState> states);

// True when every claim of `ids` is allocated. REQUIRES: every id indexes `states`.
bool AllAllocated(std::span<const dra::SharedClaimId> ids,
                  std::span<const SharedClaimState> states);

// What binding the pod allocates: its own claims, then those of `ids` not allocated yet,
// in the order the pod names them. REQUIRES: every id indexes `states`.
std::vector<dra::ResourceClaim> ClaimsToAllocate(std::span<const dra::ResourceClaim> own,
                                                 std::span<const dra::SharedClaimId> ids,
                                                 std::span<const SharedClaimState> states);

}  // namespace migsim
