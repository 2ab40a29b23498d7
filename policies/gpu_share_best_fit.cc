// BestFit (openb-protocol.md §4.5): the node with the least CPU and GPU left after the
// pod, equally weighted. (Its NormalizeScore is monotone and does not change the argmax
// or the ties, so it is left out.)
#include "policies/gpu_share_scorers.h"

namespace migsim {
namespace {

class BestFitSharePolicy final : public GpuShareScorer {
 public:
  std::string_view name() const override { return "best-fit-share"; }
  int64_t Score(const GpuShareNode& node, const PodShape& pod) override {
    const double cpu = static_cast<double>(node.cpu_left_milli - pod.cpu_milli) / 128000;
    const double gpu =
        static_cast<double>(GpuLeftMilli(node) - int64_t{pod.gpu_milli} * pod.num_gpu) / 8000;
    return static_cast<int64_t>(100 * (1 - (0.5 * cpu + 0.5 * gpu)));
  }
  std::vector<int> SelectGpus(const GpuShareNode& node, const PodShape& pod) override {
    return BestFitGpus(node, pod);
  }
};

}  // namespace

std::unique_ptr<GpuShareScorer> MakeBestFitSharePolicy() {
  return std::make_unique<BestFitSharePolicy>();
}

}  // namespace migsim
