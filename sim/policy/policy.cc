#include "sim/policy/policy.h"

namespace migsim {

std::optional<Placement> Policy::Place(const ClusterView& view, const PodView& pod) {
  const NodeInfo* best = nullptr;
  double best_score = 0;
  // Only the nodes that may fit: the same nodes pass as in a scan of them all.
  const std::span<const NodeInfo> nodes = view.nodes();
  const CandidateNodes candidates = view.CandidatesFor(pod);
  for (uint32_t i = candidates.Next(0); i < nodes.size(); i = candidates.Next(i + 1)) {
    const NodeInfo& node = nodes[i];
    if (!view.Fits(pod, node) || !Filter(view, pod, node)) continue;
    const std::optional<double> score = Score(view, pod, node);
    if (!score) {  // an unscored policy: the first feasible node
      best = &node;
      break;
    }
    if (best == nullptr || *score > best_score) {  // strict: ties keep the lower node id
      best = &node;
      best_score = *score;
    }
  }
  if (best == nullptr) return std::nullopt;
  return Placement{best->id, ChooseDevices(view, pod, *best)};
}

}  // namespace migsim
