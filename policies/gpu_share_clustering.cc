// GpuClustering (openb-protocol.md §4.3): keep pods of one kind together — a node whose
// GPU pods all share the pod's affinity tag scores highest.
#include "policies/gpu_share_scorers.h"

namespace migsim {
namespace {

class GpuClusteringPolicy final : public GpuShareScorer {
 public:
  std::string_view name() const override { return "gpu-clustering"; }
  int64_t Score(const GpuShareNode& node, const PodShape& pod) override {
    const uint32_t tag = AffinityTag(pod);
    if (tag == 0) return 0;  // CPU-only: pure tie-break
    const int64_t base = 25 * (8000 - GpuLeftMilli(node)) / 8000;
    if (node.pod_tags == tag) return base + 75;
    if ((node.pod_tags & tag) != 0) return base + 50;
    if (node.pod_tags == 0) return base + 25;
    return base;
  }
  std::vector<int> SelectGpus(const GpuShareNode& node, const PodShape& pod) override {
    return BestFitGpus(node, pod);
  }
};

}  // namespace

std::unique_ptr<GpuShareScorer> MakeGpuClusteringPolicy() {
  return std::make_unique<GpuClusteringPolicy>();
}

}  // namespace migsim
