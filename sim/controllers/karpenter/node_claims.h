#pragma once
// Karpenter's provisioning simulation (README "Autoscaling", Karpenter): pending pods packed
// onto new NodeClaims. A claim keeps every offering (node group: instance type, capacity
// type, price) that could still hold all the pods put on it, and is launched as the
// cheapest of them. Pure: it packs onto scratch nodes built from the offerings' NodeSpecs
// and never touches the engine's nodes.

#include <cstdint>
#include <span>
#include <vector>

#include "sim/dra/device_class.h"
#include "sim/engine/cluster_spec.h"
#include "sim/controllers/node_groups/scale_up_estimate.h"

namespace migsim {

// A claim to launch: the offering chosen and the pending pods it was sized for.
struct NodeClaimPlan {
  uint32_t group = 0;
  uint32_t pods = 0;
  double price_per_hour = 0;
};

// Packs `pending` onto at most `max_claims` new claims: kinds with the larger CPU, then
// memory, request first (Karpenter's order), each pod onto the first open claim that some
// offering can still hold it on, or onto a new claim. Each claim is then launched as its
// cheapest offering with room left (ties: the earlier offering); a claim no offering has
// room for is dropped. Pods that no offering can hold stay out of every claim.
std::vector<NodeClaimPlan> PlanNodeClaims(std::span<const Offering> offerings,
                                          std::span<const PendingPods> pending,
                                          uint32_t max_claims, ResourceTable& resources,
                                          std::span<const dra::DeviceClass> classes);

}  // namespace migsim
