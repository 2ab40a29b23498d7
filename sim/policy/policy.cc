#include "sim/policy/policy.h"

namespace migsim {

std::optional<Placement> Policy::Place(const ClusterView& view, const PodView& pod) {
  if (view.feasible_nodes_to_find() > 0) return PlaceSampled(view, pod);
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

// kube-scheduler's findNodesThatFitPod with percentageOfNodesToScore: from the view's
// start, wrapping, until feasible_nodes_to_find nodes pass the filter; the best score
// among them wins (ties: the first found). The nodes gone through, infeasible ones
// included, are noted for the next cycle's start.
std::optional<Placement> Policy::PlaceSampled(const ClusterView& view, const PodView& pod) {
  const std::span<const NodeInfo> nodes = view.nodes();
  const auto n = static_cast<uint32_t>(nodes.size());
  const uint32_t start = view.sample_start() % n;
  const CandidateNodes candidates = view.CandidatesFor(pod);
  const NodeInfo* best = nullptr;
  double best_score = 0;
  uint32_t found = 0;
  uint32_t examined = n;
  for (uint32_t pass = 0; pass < 2 && found < view.feasible_nodes_to_find(); ++pass) {
    const uint32_t end = pass == 0 ? n : start;
    for (uint32_t i = candidates.Next(pass == 0 ? start : 0); i < end;
         i = candidates.Next(i + 1)) {
      const NodeInfo& node = nodes[i];
      if (!view.Fits(pod, node) || !Filter(view, pod, node)) continue;
      const std::optional<double> score = Score(view, pod, node);
      if (best == nullptr || (score && *score > best_score)) {
        best = &node;
        best_score = score.value_or(0);
      }
      if (!score || ++found == view.feasible_nodes_to_find()) {
        examined = (i + n - start) % n + 1;
        found = view.feasible_nodes_to_find();
        break;
      }
    }
  }
  view.NoteExamined(examined);
  if (best == nullptr) return std::nullopt;
  return Placement{best->id, ChooseDevices(view, pod, *best)};
}

}  // namespace migsim
