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
    return Best(node, pod, NodeFragmentation(node, typical_)).score;
  }

  int64_t ScoreKnowingFrag(const GpuShareNode& node, const PodShape& pod, double frag) override {
    return Best(node, pod, frag).score;
  }

  std::vector<int> SelectGpus(const GpuShareNode& node, const PodShape& pod) override {
    if (!IsSharing(pod)) return BestFitGpus(node, pod);  // lowest-index free GPUs
    const int gpu = Best(node, pod, NodeFragmentation(node, typical_)).gpu;
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
  // the placement "best" selection would make (CPU only for a CPU-only pod). `before` is
  // the node's fragmentation.
  Choice Best(const GpuShareNode& node, const PodShape& pod, double before) {
    const int64_t cpu_after = node.cpu_left_milli - pod.cpu_milli;
    free_.assign(node.gpu_free_milli.begin(), node.gpu_free_milli.end());
    if (!IsSharing(pod)) {
      for (int g : BestFitGpus(node, pod)) free_[static_cast<size_t>(g)] -= pod.gpu_milli;
      return {FgdScore(before, NodeFragmentation(cpu_after, free_, node.model, typical_)), -1};
    }
    Choice best;
    for (size_t i = 0; i < free_.size(); ++i) {
      const int32_t free = node.gpu_free_milli[i];
      if (free < pod.gpu_milli || TriedEqual(node.gpu_free_milli, i)) continue;
      free_[i] -= pod.gpu_milli;
      const int64_t score =
          FgdScore(before, NodeFragmentation(cpu_after, free_, node.model, typical_));
      free_[i] += pod.gpu_milli;
      if (best.gpu < 0 || score > best.score) best = {score, static_cast<int>(i)};
    }
    return best;
  }

  // Whether a GPU before `i` has the same free milli. The fragmentation depends on the
  // free milli of the GPUs as a multiset, not on their order, so taking the pod from
  // either leaves the same fragmentation and score; the earlier index wins the tie.
  static bool TriedEqual(const std::vector<int32_t>& free, size_t i) {
    for (size_t j = 0; j < i; ++j) {
      if (free[j] == free[i]) return true;
    }
    return false;
  }

  std::span<const TypicalPod> typical_;
  std::vector<int32_t> free_;  // the node's free milli after the pod, reused between calls
};

}  // namespace

std::unique_ptr<GpuShareScorer> MakeFgdPolicy(const GpuShareContext& context) {
  return std::make_unique<FgdPolicy>(context.typical);
}

}  // namespace migsim
