#include "policies/gpu_share_adapter.h"

#include "policies/gpu_share_policies.h"

namespace migsim {
namespace {

// The units per GPU of the fractional resource `r` on any node, or 0.
int32_t ShareUnits(const ClusterView& view, ResourceId r) {
  for (const NodeInfo& n : view.nodes()) {
    if (r.value() < n.device_shares.size() && n.device_shares[r.value()].units > 0) {
      return n.device_shares[r.value()].units;
    }
  }
  return 0;
}

}  // namespace

GpuShareAdapter::GpuShareAdapter(const std::string& name) : name_(name) {
  policy_ = MakeGpuSharePolicy(name, GpuShareContext{&rng_, typical_});
}

PodShape GpuShareAdapter::ShapeOf(const ClusterView& view, const PodView& pod) const {
  PodShape shape;
  shape.cpu_milli = pod.requests->cpu_milli;
  for (const ResourceRequest& r : pod.requests->extended) {
    const int32_t units = ShareUnits(view, r.resource);
    if (units == 0) continue;
    shape.num_gpu = r.count <= units ? 1 : r.count / units;
    shape.gpu_milli = r.count <= units
                          ? static_cast<int32_t>(int64_t{r.count} * kMilliPerGpu / units)
                          : kMilliPerGpu;
  }
  return shape;
}

GpuShareNode GpuShareAdapter::NodeOf(const NodeInfo& node) const {
  GpuShareNode n;
  n.cpu_left_milli = node.cpu_milli_allocatable - node.cpu_milli_requested;
  int32_t units = 0;
  for (const DeviceShares& s : node.device_shares) units = s.units > 0 ? s.units : units;
  for (int32_t free : node.share_free) {
    n.gpu_free_milli.push_back(static_cast<int32_t>(int64_t{free} * kMilliPerGpu / units));
  }
  return n;
}

// FGD's typical pods come from the pods seen so far; recomputing only when their number
// has doubled keeps this O(n log n) over a run.
void GpuShareAdapter::Learn(const PodShape& shape) {
  seen_.push_back(shape);
  if (seen_.size() < 2 * typical_from_) return;
  typical_ = TypicalPods(seen_);
  typical_from_ = seen_.size();
  policy_ = MakeGpuSharePolicy(name_, GpuShareContext{&rng_, typical_});
}

std::optional<Placement> GpuShareAdapter::Place(const ClusterView& view, const PodView& pod) {
  const PodShape shape = ShapeOf(view, pod);
  Learn(shape);
  std::vector<const NodeInfo*> feasible;
  for (const NodeInfo& node : view.nodes()) {
    if (view.Fits(pod, node)) feasible.push_back(&node);
  }
  if (feasible.empty()) return std::nullopt;
  const NodeInfo* chosen = feasible[0];
  if (feasible.size() > 1) {
    if (std::optional<size_t> pick = policy_->PickNode(feasible.size())) {
      chosen = feasible[*pick];
    } else {
      int64_t best = -1;
      for (const NodeInfo* node : feasible) {  // ties keep the lowest node id
        const int64_t score = policy_->Score(NodeOf(*node), shape);
        if (score > best) best = score, chosen = node;
      }
    }
  }
  Placement placement{chosen->id};
  if (shape.num_gpu > 0 && !chosen->share_free.empty()) {
    for (int gpu : policy_->SelectGpus(NodeOf(*chosen), shape)) {
      placement.shares.push_back(static_cast<uint32_t>(gpu));
    }
  }
  return placement;
}

}  // namespace migsim
