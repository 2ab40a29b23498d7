// Random (openb-protocol.md §4.1): a uniformly random feasible node; a sharing pod goes to
// a uniformly random GPU that fits, whole-GPU pods to the lowest-index free GPUs.
#include "policies/gpu_share_scorers.h"

namespace migsim {
namespace {

class RandomSharePolicy final : public GpuShareScorer {
 public:
  explicit RandomSharePolicy(Rng* rng) : rng_(rng) {}
  std::string_view name() const override { return "random"; }
  int64_t Score(const GpuShareNode&, const PodShape&) override { return 0; }
  std::optional<size_t> PickNode(size_t feasible_count) override {
    return static_cast<size_t>(rng_->Below(feasible_count));
  }
  std::vector<int> SelectGpus(const GpuShareNode& node, const PodShape& pod) override {
    if (pod.num_gpu != 1 || pod.gpu_milli <= 0 || pod.gpu_milli >= kMilliPerGpu) {
      return BestFitGpus(node, pod);  // whole GPUs: lowest-index free (AllocateExclusiveGpuId)
    }
    // Reservoir sampling in index order: the k-th fitting GPU replaces with chance 1/k.
    int chosen = -1;
    uint64_t seen = 0;
    for (size_t i = 0; i < node.gpu_free_milli.size(); ++i) {
      if (node.gpu_free_milli[i] < pod.gpu_milli) continue;
      if (rng_->Below(++seen) == 0) chosen = static_cast<int>(i);
    }
    return chosen < 0 ? std::vector<int>{} : std::vector<int>{chosen};
  }

 private:
  Rng* rng_;
};

}  // namespace

std::unique_ptr<GpuShareScorer> MakeRandomSharePolicy(const GpuShareContext& context) {
  return std::make_unique<RandomSharePolicy>(context.rng);
}

}  // namespace migsim
