#include "policies/mig_placement.h"

#include <algorithm>

#include "policies/mig_node_state.h"
#include "sim/policy/gpu_fragmentation.h"

namespace migsim {

MigPlacementPolicy::MigPlacementPolicy(std::string name, bool dynamic)
    : name_(std::move(name)), dynamic_(dynamic) {}

MigPlacementPolicy::Scorer& MigPlacementPolicy::ScorerFor(const GpuModel& model) {
  Scorer& s = scorers_[&model];
  if (s.context.model == nullptr) {
    s.context.model = &model;
    s.context.dynamic = dynamic_;
    s.context.layouts = EnumerateMaximalLayouts(model, true);
  }
  if (name_ == "mig-fgd" && seen_.size() >= 2 * s.typical_from && !seen_.empty()) {
    std::map<int, int64_t> counts;
    for (const std::string& r : seen_) {
      if (const int p = ProfileOfResource(model, r); p >= 0) ++counts[p];
    }
    s.context.typical.clear();
    for (const auto& [profile, count] : counts) {
      s.context.typical.push_back(
          {profile, static_cast<double>(count) / static_cast<double>(seen_.size())});
    }
    s.typical_from = seen_.size();
  }
  return s;
}

// See the header: the fill study's measures on a 0-100 scale.
double MigPlacementPolicy::Normalized(const Scorer& s, const MigGpu& before, const MigGpu& after) {
  const GpuModel& model = *s.context.model;
  const double packing = MigComputeUsed(model, after) / 100.0;
  if (name_ == "mig-best-fit") {
    const int was = std::max(1, CompatibleLayouts(before, s.context.layouts));
    return 100.0 * CompatibleLayouts(after, s.context.layouts) / was + packing;
  }
  if (name_ == "mig-fgd") {
    const double removed = MigFragmentation(model, before, dynamic_, s.context.typical) -
                           MigFragmentation(model, after, dynamic_, s.context.typical);
    return 50.0 + 50.0 * removed / model.compute_slices + packing;
  }
  return 0;
}

void MigPlacementPolicy::Learn(const ClusterView& view, const PodView& pod) {
  if (learned_.size() <= pod.id.value()) learned_.resize(pod.id.value() + 1);
  if (learned_[pod.id.value()]) return;
  learned_[pod.id.value()] = true;
  for (const ResourceRequest& r : pod.requests->extended) {
    const std::string& name = view.resources().name(r.resource);
    if (name.rfind(kMigResourcePrefix, 0) == 0) seen_.push_back(name);
  }
}

// The pod's instances on `node`, chosen one at a time; nullopt when a request served by
// MIG devices finds none free. Requests not served by MIG devices leave every choice to
// the device plugin (no devices, score 0).
std::optional<MigPlacementPolicy::Pick> MigPlacementPolicy::Best(const ClusterView& view,
                                                                 const PodView& pod,
                                                                 const NodeInfo& node) {
  Learn(view, pod);
  if (node.gpu_model == nullptr) return Pick{};
  Scorer& scorer = ScorerFor(*node.gpu_model);
  std::vector<MigGpu> states;
  for (size_t g = 0; g < node.gpus.size(); ++g)
    states.push_back(GpuState(node, static_cast<int>(g)));
  Pick pick;
  std::vector<int32_t> taken(node.devices.size(), 0);
  int picks = 0;
  for (const ResourceRequest& r : pod.requests->extended) {
    for (int32_t n = 0; n < r.count; ++n) {
      int best = -1;
      double best_score = 0;
      MigGpu best_after;
      bool served = false;
      for (size_t d = 0; d < node.devices.size(); ++d) {
        const DeviceInfo& dev = node.devices[d];
        if (dev.resource != r.resource) continue;
        if (!dev.mig) return Pick{};  // not a MIG device: the plugin picks
        served = true;
        if (dev.free() - taken[d] <= 0) continue;
        MigGpu after = states[static_cast<size_t>(dev.gpu)];
        for (MigGi& gi : after.gis) gi.occupied = gi.occupied || gi.placement == *dev.mig;
        const double score = Normalized(scorer, states[static_cast<size_t>(dev.gpu)], after);
        if (best < 0 || score > best_score)
          best = static_cast<int>(d), best_score = score, best_after = std::move(after);
      }
      if (!served) return Pick{};
      if (best < 0) return std::nullopt;
      states[static_cast<size_t>(node.devices[best].gpu)] = std::move(best_after);
      if (taken[best]++ == 0) pick.devices.push_back({static_cast<uint32_t>(best), 0});
      pick.score += best_score;
      ++picks;
    }
  }
  for (DeviceChoice& c : pick.devices) c.count = taken[c.device];
  if (picks > 0) pick.score /= picks;
  return pick;
}

std::optional<Placement> MigPlacementPolicy::Place(const ClusterView& view, const PodView& pod) {
  std::optional<Placement> chosen;
  double best = 0;
  for (const NodeInfo& node : view.nodes()) {
    if (!view.Fits(pod, node) || !Filter(view, pod, node)) continue;
    std::optional<Pick> pick = Best(view, pod, node);
    if (!pick) continue;
    if (!chosen || pick->score > best) {  // strict: ties keep the lower node id
      chosen = Placement{node.id, std::move(pick->devices)};
      best = pick->score;
    }
  }
  return chosen;
}

std::optional<double> MigPlacementPolicy::Score(const ClusterView& view, const PodView& pod,
                                                const NodeInfo& node) {
  std::optional<Pick> pick = Best(view, pod, node);
  return pick ? pick->score : 0.0;
}

std::vector<DeviceChoice> MigPlacementPolicy::ChooseDevices(const ClusterView& view,
                                                            const PodView& pod,
                                                            const NodeInfo& node) {
  std::optional<Pick> pick = Best(view, pod, node);
  return pick ? std::move(pick->devices) : std::vector<DeviceChoice>{};
}

}  // namespace migsim
