#include "sim/controllers/node_groups/scale_up_estimate.h"

namespace migsim {

bool ScratchNodes::TryOn(Node& node, const PodView& pod) {
  const ClusterView view({}, *resources_, SimTime::Zero());
  if (!view.Fits(pod, node.info)) return false;
  node.runtime->Allocate(*pod.requests, held_, node.info);
  if (pod.has_claims()) node.runtime->AllocateClaims(*pod.claims, classes_, held_, node.info);
  held_.clear();
  return true;
}

std::optional<uint32_t> ScratchNodes::Place(const PodView& pod, uint32_t limit) {
  for (uint32_t i = 0; i < opened(); ++i) {
    if (TryOn(nodes_[i], pod)) return i;
  }
  if (opened() >= limit) return std::nullopt;
  Node& fresh = nodes_.emplace_back();
  fresh.runtime = std::make_unique<NodeRuntime>(*spec_, NodeId(opened() - 1), *resources_,
                                                fresh.info);
  if (TryOn(fresh, pod)) return opened() - 1;
  nodes_.pop_back();  // it fits no node of this group, even an empty one
  return std::nullopt;
}

namespace {

double Unused(double requested, double allocatable) {
  return allocatable > 0 ? 1 - requested / allocatable : 0;
}

}  // namespace

double ScratchNodes::Waste() const {
  if (nodes_.empty()) return 0;
  double sum = 0;
  for (const Node& node : nodes_) {
    const NodeInfo& info = node.info;
    double waste = Unused(static_cast<double>(info.cpu_milli_requested),
                          static_cast<double>(info.cpu_milli_allocatable)) +
                   Unused(static_cast<double>(info.memory_mib_requested),
                          static_cast<double>(info.memory_mib_allocatable));
    int parts = 2;
    if (const int64_t capacity = node.runtime->capacity_weight(); capacity > 0) {
      waste += Unused(static_cast<double>(node.runtime->allocated_weight()),
                      static_cast<double>(capacity));
      ++parts;
    }
    sum += waste / parts;
  }
  return sum / static_cast<double>(nodes_.size());
}

uint32_t PackPending(ScratchNodes& nodes, uint32_t limit, std::span<PendingPods> pending,
                     bool consume) {
  uint32_t placed = 0;
  for (PendingPods& kind : pending) {
    // A gang's constraint, fresh for this packing: the scratch nodes' ids are their indices.
    std::optional<GangConstraint> gang = kind.gang;
    PodView view = kind.view;
    if (gang) view.gang = &*gang;
    uint32_t of_kind = 0;
    for (; of_kind < kind.count; ++of_kind) {
      const std::optional<uint32_t> node = nodes.Place(view, limit);
      if (!node) break;
      if (gang) gang->Take(NodeId(*node));
    }
    placed += of_kind;
    if (consume) kind.count -= of_kind;
  }
  return placed;
}

ScaleUpOption EstimateScaleUp(uint32_t group, const NodeSpec& spec, double price_per_hour,
                              uint32_t room, std::span<PendingPods> pending,
                              ResourceTable& resources,
                              std::span<const dra::DeviceClass> classes) {
  ScratchNodes nodes(spec, resources, classes);
  const uint32_t pods = PackPending(nodes, room, pending, false);
  return {.group = group,
          .nodes = nodes.opened(),
          .pods = pods,
          .waste = nodes.Waste(),
          .price_per_hour = price_per_hour * nodes.opened()};
}

}  // namespace migsim
