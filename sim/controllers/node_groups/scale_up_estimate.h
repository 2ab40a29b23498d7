#pragma once
// The Cluster Autoscaler's scale-up simulation for one node group (its binpacking
// estimator): how many new nodes of the group the pending pods need, and how many of them
// those nodes would hold. Pure: it builds scratch nodes from the group's NodeSpec and packs
// the pods there; it never touches the engine's nodes.

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "sim/dra/device_class.h"
#include "sim/engine/cluster_spec.h"
#include "sim/engine/node_runtime.h"
#include "sim/engine/pending_pods.h"
#include "sim/policy/cluster_view.h"

namespace migsim {

// A node group a node may be launched in now (an offering, in Karpenter's words: an
// instance type and capacity type at a price).
struct Offering {
  uint32_t group = 0;         // index into ClusterSpec::node_groups
  const NodeSpec* spec = nullptr;
  double price_per_hour = 0;  // per node
  uint32_t room = 0;          // nodes it may still launch
};

// What growing one node group would do for the pending pods.
struct ScaleUpOption {
  uint32_t group = 0;  // index into ClusterSpec::node_groups
  uint32_t nodes = 0;  // new nodes the pods need (at most the group's room)
  uint32_t pods = 0;   // pending pods those nodes would hold
  // least-waste's measure: over the new nodes, the mean of the unused fractions of CPU,
  // memory and (on GPU nodes) GPU capacity once the pods are on them.
  double waste = 0;
  double price_per_hour = 0;  // of `nodes` nodes
};

// Empty nodes built from one NodeSpec that pods are packed onto, first fit in the order the
// nodes were opened. Nodes keep their addresses (a deque): NodeInfo::dra points into them.
class ScratchNodes {
 public:
  ScratchNodes(const NodeSpec& spec, ResourceTable& resources,
               std::span<const dra::DeviceClass> classes)
      : spec_(&spec), resources_(&resources), classes_(classes) {}

  // Puts one pod on the first node that fits it, opening a node when none does and fewer
  // than `limit` are open. The node's index in opening order, or nullopt when it fits
  // nowhere.
  std::optional<uint32_t> Place(const PodView& pod, uint32_t limit);
  uint32_t opened() const { return static_cast<uint32_t>(nodes_.size()); }
  // The mean unused fraction of CPU, memory and GPU capacity over the open nodes.
  double Waste() const;

 private:
  struct Node {
    NodeInfo info;
    std::unique_ptr<NodeRuntime> runtime;
  };
  bool TryOn(Node& node, const PodView& pod);

  const NodeSpec* spec_;
  ResourceTable* resources_;
  std::span<const dra::DeviceClass> classes_;
  std::deque<Node> nodes_;
  std::vector<NodeRuntime::Held> held_;  // allocations (discarded)
};

// Packs `pending` in order onto `nodes`, opening up to `limit` nodes; a kind is packed until
// one of its pods fits nowhere. Returns the pods placed; with `consume`, takes them off
// their kinds' counts (the pods that nodes already launching will hold).
uint32_t PackPending(ScratchNodes& nodes, uint32_t limit, std::span<PendingPods> pending,
                     bool consume);

// Packs `pending` onto up to `room` new nodes of `spec`. REQUIRES: room > 0.
ScaleUpOption EstimateScaleUp(uint32_t group, const NodeSpec& spec, double price_per_hour,
                              uint32_t room, std::span<PendingPods> pending,
                              ResourceTable& resources,
                              std::span<const dra::DeviceClass> classes);

}  // namespace migsim
