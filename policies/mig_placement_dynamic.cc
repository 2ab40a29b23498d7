// MigPlacementPolicy's post-filter: dynamic partitioning through the MIG manager.
#include <algorithm>
#include <functional>

#include "policies/mig_node_state.h"
#include "policies/mig_placement.h"

namespace migsim {
namespace {

constexpr uint32_t kMostNewInstances = 64;  // per post-filter call: bounds its cost

// A planned new instance: node index, GPU, and the GPU with it.
struct NewInstance {
  size_t node = 0;
  int gpu = -1;
  MigGpu after;
  double score = 0;
};

// Where a new instance of `profile` goes best on one GPU (`at`: its node and index),
// given the GPU as planned so far; replaces `best` when it scores higher (ties keep the
// earlier: lowest node, GPU, start). New instances go next to the existing ones; where none
// fits, idle instances (no pod on them) are destroyed to make room.
void BestOnGpu(const GpuModel& model, const MigGpu& planned, std::pair<size_t, int> at, int profile,
               const std::function<double(const MigGpu&, const MigGpu&)>& score,
               std::optional<NewInstance>& best) {
  MigGpu before = planned;
  std::vector<MigCandidate> candidates;
  MigCandidates(model, before, at.second, profile, true, candidates);
  if (candidates.empty()) {
    std::erase_if(before.gis, [](const MigGi& gi) { return !gi.occupied; });
    MigCandidates(model, before, at.second, profile, true, candidates);
  }
  for (const MigCandidate& c : candidates) {
    if (!c.create) continue;
    MigGpu after = WithGi(before, c, profile);
    const double s = score(before, after);
    if (!best || s > best->score) best = NewInstance{at.first, at.second, std::move(after), s};
  }
}

// The planned GPUs that differ from the nodes', as one repartition per node.
std::vector<MigReconfiguration> Changes(std::span<const NodeInfo> nodes,
                                        const std::vector<std::vector<MigGpu>>& planned) {
  std::vector<MigReconfiguration> changes;
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (planned[n].empty()) continue;
    MigReconfiguration change{nodes[n].id, {}};
    for (size_t g = 0; g < planned[n].size(); ++g) {
      MigLayout layout;
      for (const MigGi& gi : planned[n][g].gis) layout.push_back(gi.placement);
      std::sort(layout.begin(), layout.end(),
                [](const MigPlacement& a, const MigPlacement& b) { return a.start < b.start; });
      if (layout != nodes[n].gpus[g].layout) {
        change.gpus.push_back({static_cast<int>(g), std::move(layout)});
      }
    }
    if (!change.gpus.empty()) changes.push_back(std::move(change));
  }
  return changes;
}

}  // namespace

std::vector<MigReconfiguration> MigPlacementPolicy::PostFilter(const ClusterView& view,
                                                               const PodView& pod) {
  if (!dynamic_) return {};
  Learn(view, pod);
  const ResourceRequest* mig = nullptr;
  for (const ResourceRequest& r : pod.requests->extended) {
    if (view.resources().name(r.resource).rfind(kMigResourcePrefix, 0) == 0) mig = &r;
  }
  if (mig == nullptr) return {};
  const std::string& resource = view.resources().name(mig->resource);
  const uint32_t want =
      std::min(pod.pending_alike * static_cast<uint32_t>(mig->count), kMostNewInstances);
  const std::span<const NodeInfo> nodes = view.nodes();
  std::vector<std::vector<MigGpu>> planned(nodes.size());  // empty: as the node is
  for (uint32_t i = 0; i < want; ++i) {
    std::optional<NewInstance> best;
    for (size_t n = 0; n < nodes.size(); ++n) {
      const NodeInfo& node = nodes[n];
      if (!FitsBesidesDevices(pod, node)) continue;
      const int profile = ProfileOfResource(*node.gpu_model, resource);
      if (profile < 0) continue;
      if (planned[n].empty()) {
        for (size_t g = 0; g < node.gpus.size(); ++g) {
          planned[n].push_back(GpuState(node, static_cast<int>(g)));
        }
      }
      Scorer& scorer = ScorerFor(*node.gpu_model);
      const auto score = [&](const MigGpu& before, const MigGpu& after) {
        return Normalized(scorer, before, after);
      };
      for (size_t g = 0; g < node.gpus.size(); ++g) {
        if (!node.gpus[g].mig_enabled) continue;
        BestOnGpu(*node.gpu_model, planned[n][g], {n, static_cast<int>(g)}, profile, score, best);
      }
    }
    if (!best) break;
    planned[best->node][static_cast<size_t>(best->gpu)] = std::move(best->after);
  }
  return Changes(nodes, planned);
}

}  // namespace migsim
