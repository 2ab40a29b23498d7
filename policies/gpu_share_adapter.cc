#include "policies/gpu_share_adapter.h"

#include <algorithm>

#include "policies/gpu_share_scorers.h"

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

// The node's units per share GPU (0 without share GPUs).
int32_t NodeShareUnits(const NodeInfo& node) {
  int32_t units = 0;
  for (const DeviceShares& s : node.device_shares) units = s.units > 0 ? s.units : units;
  return units;
}

// The value of label `key` (labels sorted by key), or "" when the node has none.
std::string_view LabelValue(const Labels& labels, const std::string& key) {
  const auto it = std::lower_bound(labels.begin(), labels.end(), key,
                                   [](const auto& label, const std::string& k) { return label.first < k; });
  return it != labels.end() && it->first == key ? std::string_view(it->second) : std::string_view();
}

std::string JoinModels(const std::vector<std::string>& values) {
  std::string joined;
  for (const std::string& v : values) joined += (joined.empty() ? "" : "|") + v;
  return joined;
}

// The pod's GPUs on `node` as device choices: share GPU i is the node's i-th fractional
// device; a share takes the request's units, a whole GPU all of the device's.
std::vector<DeviceChoice> ToChoices(const NodeInfo& node, const PodView& pod,
                                    const std::vector<int>& gpus) {
  std::vector<uint32_t> fractional;
  for (uint32_t d = 0; d < node.devices.size(); ++d) {
    if (node.devices[d].fractional) fractional.push_back(d);
  }
  int32_t request = 0;
  for (const ResourceRequest& r : pod.requests->extended) {
    if (r.resource.value() < node.device_shares.size() &&
        node.device_shares[r.resource.value()].units > 0) {
      request = r.count;
    }
  }
  std::vector<DeviceChoice> choices;
  for (int gpu : gpus) {
    if (gpu < 0 || static_cast<size_t>(gpu) >= fractional.size()) continue;  // engine refuses
    const uint32_t device = fractional[static_cast<size_t>(gpu)];
    choices.push_back({device, std::min(request, node.devices[device].capacity)});
  }
  return choices;
}

}  // namespace

GpuShareAdapter::GpuShareAdapter(const std::string& name, uint64_t seed) : name_(name), rng_(seed) {
  policy_ = MakeGpuShareScorer(name, GpuShareContext{&rng_, typical_});
}

PodShape GpuShareAdapter::ShapeOf(const ClusterView& view, const PodView& pod) {
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
  if (pod.node_affinity == nullptr || pod.node_affinity->empty()) return shape;
  if (model_key_.empty()) model_key_ = pod.node_affinity->front().key;
  for (const LabelIn& term : *pod.node_affinity) {
    if (term.key == model_key_) shape.gpu_type = JoinModels(term.values);
  }
  return shape;
}

// Brings the policy's copy of the node up to date, bumping its version on any change.
const GpuShareAdapter::SeenNode& GpuShareAdapter::Refresh(const NodeInfo& node) {
  if (nodes_.size() <= node.id.value()) nodes_.resize(node.id.value() + 1);
  SeenNode& seen = nodes_[node.id.value()];
  const int64_t cpu_left = node.cpu_milli_allocatable - node.cpu_milli_requested;
  const std::string_view model = model_key_.empty() ? "" : LabelValue(node.labels, model_key_);
  const int32_t units = NodeShareUnits(node);
  auto milli = [units](int32_t free) {
    return static_cast<int32_t>(int64_t{free} * kMilliPerGpu / units);
  };
  bool same = seen.version != 0 && seen.node.cpu_left_milli == cpu_left &&
              seen.node.model == model && seen.node.gpu_free_milli.size() == node.share_free.size();
  for (size_t i = 0; same && i < node.share_free.size(); ++i) {
    same = seen.node.gpu_free_milli[i] == milli(node.share_free[i]);
  }
  if (same) return seen;
  seen.node.cpu_left_milli = cpu_left;
  seen.node.model = model;
  seen.node.gpu_free_milli.clear();
  for (int32_t free : node.share_free) seen.node.gpu_free_milli.push_back(milli(free));
  ++seen.version;
  return seen;
}

int64_t GpuShareAdapter::Score(const SeenNode& seen, NodeId node, uint32_t shape) {
  std::vector<CachedScore>& row = scores_[shape];
  if (row.size() <= node.value()) row.resize(nodes_.size());
  CachedScore& cached = row[node.value()];
  if (cached.version != seen.version) {
    cached = {seen.version, policy_->Score(seen.node, shapes_[shape])};
  }
  return cached.score;
}

uint32_t GpuShareAdapter::ShapeId(const PodShape& shape) {
  const auto [it, added] = shape_ids_.emplace(shape, static_cast<uint32_t>(shapes_.size()));
  if (added) {
    shapes_.push_back(shape);
    scores_.emplace_back();
  }
  return it->second;
}

// FGD's typical pods come from the pods seen so far, each counted once however often it
// is offered; recomputing only when their number has doubled keeps this O(n log n) over a
// run. New typical pods change FGD's scores, so the cache starts again.
void GpuShareAdapter::Learn(PodId pod, const PodShape& shape) {
  if (learned_.size() <= pod.value()) learned_.resize(pod.value() + 1);
  if (learned_[pod.value()]) return;
  learned_[pod.value()] = true;
  seen_.push_back(shape);
  if (seen_.size() < 2 * typical_from_) return;
  typical_ = TypicalPods(seen_);
  typical_from_ = seen_.size();
  policy_ = MakeGpuShareScorer(name_, GpuShareContext{&rng_, typical_});
  for (std::vector<CachedScore>& row : scores_) row.clear();
}

std::optional<Placement> GpuShareAdapter::Place(const ClusterView& view, const PodView& pod) {
  const PodShape shape = Prepare(view, pod);
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
      const uint32_t shape_id = ShapeId(shape);
      int64_t best = -1;
      for (const NodeInfo* node : feasible) {  // ties keep the lowest node id
        const int64_t score = Score(Refresh(*node), node->id, shape_id);
        if (score > best) best = score, chosen = node;
      }
    }
  }
  Placement placement{chosen->id};
  if (shape.num_gpu > 0 && !chosen->share_free.empty()) {
    placement.devices =
        ToChoices(*chosen, pod, policy_->SelectGpus(Refresh(*chosen).node, shape));
  }
  return placement;
}

const PodShape& GpuShareAdapter::Prepare(const ClusterView& view, const PodView& pod) {
  if (prepared_ != pod.id || !prepared_.valid()) {
    prepared_ = pod.id;
    prepared_shape_ = ShapeOf(view, pod);
    Learn(pod.id, prepared_shape_);
  }
  return prepared_shape_;
}

std::optional<double> GpuShareAdapter::Score(const ClusterView& view, const PodView& pod,
                                             const NodeInfo& node) {
  const PodShape& shape = Prepare(view, pod);
  if (name_ == "random") return std::nullopt;
  return static_cast<double>(Score(Refresh(node), node.id, ShapeId(shape)));
}

std::vector<DeviceChoice> GpuShareAdapter::ChooseDevices(const ClusterView& view,
                                                         const PodView& pod,
                                                         const NodeInfo& node) {
  const PodShape& shape = Prepare(view, pod);
  if (shape.num_gpu == 0 || node.share_free.empty()) return {};
  return ToChoices(node, pod, policy_->SelectGpus(Refresh(node).node, shape));
}

}  // namespace migsim
