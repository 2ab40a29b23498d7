// FGD, fragmentation gradient descent (openb-protocol.md §4.6): place the pod where it
// increases the node's expected fragmentation (§5) the least; a sharing pod also takes
// the GPU that does so.
#include "policies/gpu_share_scorers.h"
#include "sim/policy/gpu_fragmentation.h"

namespace migsim {
namespace {

class FgdPolicy final : public GpuShareScorer {
 public:
  explicit FgdPolicy(std::span<const TypicalPod> typical) : typical_(typical) {}
  std::string_view name() const override { return "fgd"; }

  int64_t Score(const GpuShareNode& node, const PodShape& pod) override {
    return Best(node, pod).score;
  }

  std::vector<int> SelectGpus(const GpuShareNode& node, const PodShape& pod) override {
    if (!IsSharing(pod)) return BestFitGpus(node, pod);  // lowest-index free GPUs
    const int gpu = Best(node, pod).gpu;
    return gpu < 0 ? std::vector<int>{} : std::vector<int>{gpu};
  }

 private:
  struct Choice {
    int64_t score = 0;
    int gpu = -1;
  };

  static bool IsSharing(const PodShape& pod) {
    return pod.num_gpu == 1 && pod.gpu_milli > 0 && pod.gpu_milli < kMilliPerGpu;
  }

  // A sharing pod: the best GPU, the first index attaining the maximum. Anything else:
  // the placement "best" selection would make (CPU only for a CPU-only pod).
  Choice Best(const GpuShareNode& node, const PodShape& pod) {
    const double before = NodeFragmentation(node, typical_);
    if (!IsSharing(pod)) {
      const std::vector<int> gpus = BestFitGpus(node, pod);
      return {FgdScore(before, NodeFragmentation(WithPod(node, pod, gpus), typical_)), -1};
    }
    Choice best;
    scratch_ = node;
    scratch_.cpu_left_milli -= pod.cpu_milli;
    for (size_t i = 0; i < node.gpu_free_milli.size(); ++i) {
      if (node.gpu_free_milli[i] < pod.gpu_milli) continue;
      scratch_.gpu_free_milli[i] -= pod.gpu_milli;
      const int64_t score = FgdScore(before, NodeFragmentation(scratch_, typical_));
      scratch_.gpu_free_milli[i] += pod.gpu_milli;
      if (best.gpu < 0 || score > best.score) best = {score, static_cast<int>(i)};
    }
    return best;
  }

  std::span<const TypicalPod> typical_;
  GpuShareNode scratch_;  // reused: no allocation per candidate GPU
};

}  // namespace

std::unique_ptr<GpuShareScorer> MakeFgdPolicy(const GpuShareContext& context) {
  return std::make_unique<FgdPolicy>(context.typical);
}

}  // namespace migsim
